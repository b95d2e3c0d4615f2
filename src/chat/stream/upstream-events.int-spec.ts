// Leaving an upstream's event stream at `[DONE]`, on a real HTTP connection (undici against node:http):
// the rest of the body is read and dropped, so the connection serves the next request; an upstream that
// keeps sending past DRAIN_AFTER_DONE_BYTES loses its connection instead; a stream left before `[DONE]`
// is destroyed.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { DRAIN_AFTER_DONE_BYTES, isDoneData, sseDataOf } from './upstream-events';

const LIMIT = { modelId: 'm', maxEventChars: 1 << 20 };

describe('upstream SSE over a real connection', () => {
  jest.setTimeout(30_000);
  let server: Server;
  let url: string;
  let agent: Agent;
  let connections = 0;
  let closedConnections = 0;
  /** Sockets are counted by the test that opened them: an earlier test's socket may close after the next began. */
  let generation = 0;
  let respond: (res: ServerResponse) => void = () => undefined;

  beforeAll(async () => {
    server = createServer((_req, res) => respond(res));
    server.on('connection', (socket) => {
      const opened = generation;
      connections++;
      socket.on('close', () => {
        if (opened === generation) closedConnections++;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    agent = new Agent({ keepAliveTimeout: 30_000 });
    generation++;
    connections = 0;
    closedConnections = 0;
  });
  afterEach(() => agent.close());
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Reads events until `[DONE]` (leaving there, as the relay does); returns them and the body. */
  async function readUntilDone() {
    const response = await request(url, { dispatcher: agent });
    const seen: string[] = [];
    for await (const data of sseDataOf(response.body, LIMIT)) {
      seen.push(data);
      if (isDoneData(data)) break;
    }
    return { seen, body: response.body };
  }

  async function until(check: () => boolean, state: () => unknown = () => ({ connections, closedConnections })): Promise<void> {
    for (const deadline = Date.now() + 10_000; !check(); await new Promise((resolve) => setTimeout(resolve, 5))) if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(state())}`);
  }

  it('reads a body with bytes after [DONE] to its end, without an error, and the next request reuses the connection', async () => {
    respond = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"a":1}\n\n');
      res.write('data: [DONE]\n\n');
      setTimeout(() => res.end(': trailing comment\n\ndata: {"late":true}\n\n'), 20);
    };
    const errors: unknown[] = [];
    const first = await readUntilDone();
    first.body.on('error', (error) => errors.push(error));
    expect(first.seen).toEqual(['{"a":1}', '[DONE]']);
    await until(() => first.body.readableEnded);
    const second = await readUntilDone();
    expect(second.seen).toEqual(['{"a":1}', '[DONE]']);
    await until(() => second.body.readableEnded);
    expect({ errors, connections, closedConnections }).toEqual({ errors: [], connections: 1, closedConnections: 0 });
  });

  it('drops the connection of an upstream that sends more than the bound after [DONE]', async () => {
    let stop = false;
    respond = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: [DONE]\n\n');
      const more = () => {
        if (stop || res.destroyed) return;
        res.write(`: ${'x'.repeat(8 * 1024)}\n\n`, () => setImmediate(more));
      };
      more();
    };
    const { seen, body } = await readUntilDone();
    expect(seen).toEqual(['[DONE]']);
    await until(() => body.destroyed && closedConnections >= 1, () => ({ connections, closedConnections, destroyed: body.destroyed }));
    stop = true;
    console.log(`dropped after [DONE] past ${DRAIN_AFTER_DONE_BYTES} bytes: connection closed`);
  });

  it('destroys a body left before [DONE] (a client gone), closing its connection', async () => {
    respond = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"a":1}\n\n');
    };
    const response = await request(url, { dispatcher: agent });
    for await (const data of sseDataOf(response.body, LIMIT)) {
      expect(data).toBe('{"a":1}');
      break;
    }
    await until(() => response.body.destroyed && closedConnections >= 1, () => ({ connections, closedConnections, destroyed: response.body.destroyed }));
  });
});

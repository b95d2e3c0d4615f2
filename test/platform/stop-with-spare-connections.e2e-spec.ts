// A stop does not wait for connections that never carried a request (src/common/close-unused-connections.ts).
// Node's server.close() leaves such a connection open (to Node it is not idle, and close() stops the checker
// that would have timed it out), and the LangChain/OpenAI SDK client below leaves one behind after a stream it
// stopped reading at [DONE]: a stop then waited for GATEWAY_SHUTDOWN_GRACE_MS. The grace here is ten minutes,
// so a stop that still waited for such a connection fails the test by its timeout.
import { ChatOpenAI } from '@langchain/openai';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { openRaw } from '../support/raw-http';
import { eventually } from '../chat/chat-test-helpers';

jest.setTimeout(60_000);

describe('a stop with spare connections open', () => {
  let saved: string | undefined;
  let gw: TestGateway | null = null;
  beforeAll(() => {
    saved = process.env.GATEWAY_SHUTDOWN_GRACE_MS;
    process.env.GATEWAY_SHUTDOWN_GRACE_MS = '600000';
  });
  afterEach(async () => {
    await gw?.close();
    gw = null;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.GATEWAY_SHUTDOWN_GRACE_MS;
    else process.env.GATEWAY_SHUTDOWN_GRACE_MS = saved;
  });

  it('closes a connection with no byte sent, and leaves one with part of a request to the grace', async () => {
    gw = await startTestGateway();
    const accepted: { bytesRead: number }[] = [];
    gw.gateway.app.getHttpServer().on('connection', (socket: { bytesRead: number }) => accepted.push(socket));
    const unused = openRaw(gw.baseUrl);
    const partial = openRaw(gw.baseUrl);
    await Promise.all([unused.connected, partial.connected]);
    // The edge: one byte of a request is a request in flight.
    await partial.write('P');
    await eventually(async () => expect(accepted.map((socket) => socket.bytesRead).sort()).toEqual([0, 1]));
    const started = performance.now();
    const stopping = gw.close();
    gw = null;
    await unused.closed;
    console.log(`connection with no byte closed ${(performance.now() - started).toFixed(0)} ms into the stop`);
    expect(partial.socket.destroyed).toBe(false);
    let stopped = false;
    void stopping.then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    partial.socket.destroy();
    await stopping;
    console.log(`stop done ${(performance.now() - started).toFixed(0)} ms after it began`);
  });

  it('does not wait after LangChain ran a call, a stream read to [DONE] and another call', async () => {
    gw = await startTestGateway();
    const chat = (options: { streamUsage?: boolean } = {}) =>
      new ChatOpenAI({ model: 'aria', apiKey: gw!.apiKey, configuration: { baseURL: `${gw!.baseUrl}/v1` }, maxRetries: 0, ...options });
    const sockets: { bytesRead: number; destroyed: boolean }[] = [];
    gw.gateway.app.getHttpServer().on('connection', (socket: { bytesRead: number; destroyed: boolean }) => sockets.push(socket));
    await chat().invoke('Say hello to the gateway.');
    let chunks = 0;
    for await (const chunk of await chat({ streamUsage: true }).stream('Say hello to the gateway.')) chunks += chunk ? 1 : 0;
    await chat().invoke('Say hello again.');
    expect(chunks).toBeGreaterThan(0);
    console.log(`connections opened by the client: ${sockets.length}, open without a byte read: ${sockets.filter((s) => !s.destroyed && s.bytesRead === 0).length}`);
    const started = performance.now();
    await gw.close();
    gw = null;
    console.log(`stop done ${(performance.now() - started).toFixed(0)} ms after it began (grace 600000 ms)`);
  });
});

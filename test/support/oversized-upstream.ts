// An upstream that misbehaves on purpose (plain node:http), for the tests of what the gateway holds
// of an answer. The last user message (chat) or the input (speech) names the misbehaviour:
//   endless-line   200 text/event-stream, one `data:` line that never ends
//   huge-json      200 application/json without Content-Length, a body that never ends
//   huge-declared  200 application/json declaring a 1 GiB Content-Length
//   html           200 text/html (for a stream, or for speech)
//   json           200 application/json chat completion (for a stream)
// It writes only as fast as the gateway reads (backpressure), and counts what it sent per answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OversizedUpstream {
  url: string;
  /** Bytes written for each misbehaviour, summed over its answers. */
  sent: Map<string, number>;
  close(): Promise<void>;
}

const COMPLETION = { id: 'chatcmpl-hostile', object: 'chat.completion', created: 1, model: 'hostile', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } };

async function readJson(req: IncomingMessage): Promise<Record<string, any>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString() || '{}');
}

function behaviourOf(body: Record<string, any>): string {
  if (typeof body.input === 'string') return body.input;
  const last = body.messages?.[body.messages.length - 1];
  return typeof last?.content === 'string' ? last.content : '';
}

/** Writes `chunk` until the gateway hangs up, waiting for each write to drain. */
async function writeForever(res: ServerResponse, chunk: Buffer, count: (bytes: number) => void): Promise<void> {
  while (!res.destroyed && !res.writableEnded) {
    const drained = res.write(chunk);
    count(chunk.length);
    if (!drained) await new Promise((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
  }
}

async function answer(req: IncomingMessage, res: ServerResponse, count: (behaviour: string, bytes: number) => void): Promise<void> {
  if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  const behaviour = behaviourOf(await readJson(req));
  const counted = (bytes: number) => count(behaviour, bytes);
  const filler = Buffer.alloc(64 * 1024, 'x');
  switch (behaviour) {
    case 'endless-line':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: ');
      return writeForever(res, filler, counted);
    case 'huge-json':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"choices":[],"padding":"');
      return writeForever(res, filler, counted);
    case 'huge-declared':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 ** 3) });
      return writeForever(res, filler, counted);
    case 'html':
      counted(15);
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>');
    case 'json':
      counted(JSON.stringify(COMPLETION).length);
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(COMPLETION));
    default:
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"unknown behaviour"}}');
  }
}

export async function startOversizedUpstream(): Promise<OversizedUpstream> {
  const sent = new Map<string, number>();
  const count = (behaviour: string, bytes: number) => sent.set(behaviour, (sent.get(behaviour) ?? 0) + bytes);
  const server: Server = createServer((req, res) => {
    answer(req, res, count).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

// A hostile chat upstream that echoes the credential the gateway sends it: the last message says
// how. `straddle:<n>` answers a text/plain 500 whose body is n filler characters and then the
// Authorization header's credential, without its scheme (so the key can sit across the gateway's
// 500-character cut, and no "Bearer" announces it); `base64`
// answers a 500 carrying the header base64-encoded; `stream:<n>` starts a 200 event stream and
// fails it with an error event that echoes the header after n filler characters.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EchoingUpstream {
  /** Base URL for a catalog model's `upstream.base_url` (ends in /v1). */
  baseUrl: string;
  close(): Promise<void>;
}

export async function startEchoingUpstream(): Promise<EchoingUpstream> {
  const server = createServer((req, res) => {
    if (req.method === 'GET') return void res.writeHead(200).end('{}');
    void lastMessage(req).then((instruction) => {
      const header = req.headers.authorization ?? '';
      const credential = header.replace(/^Bearer /, '');
      const [mode, count] = instruction.split(':');
      const filler = 'x'.repeat(Number(count ?? 0));
      if (mode === 'stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] })}\n\n`);
        return void res.end(`data: ${JSON.stringify({ error: { message: `${filler}${header}` } })}\n\n`);
      }
      const body = mode === 'base64' ? `could not parse header ${Buffer.from(`authorization: ${header}`).toString('base64')}` : `${filler}${credential}`;
      res.writeHead(500, { 'content-type': 'text/plain' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function lastMessage(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  try {
    const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as { messages?: { content?: unknown }[] };
    return String(body.messages?.at(-1)?.content ?? '');
  } catch {
    return '';
  }
}

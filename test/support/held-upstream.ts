// A chat upstream that holds every request whose last message says `hold` until the test lets
// them go (a slow model without any clock), and answers every other request at once. Plain
// node:http; GETs (the readiness prober) get 200.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldUpstream {
  /** Base URL for a catalog model's `upstream.base_url` (ends in /v1). */
  baseUrl: string;
  /** Requests held right now. */
  held(): number;
  /** Resolves once at least `count` requests are held. */
  waitForHeld(count: number): Promise<void>;
  /** Answers every held request. */
  releaseAll(): void;
  close(): Promise<void>;
}

export async function startHeldUpstream(): Promise<HeldUpstream> {
  const waiting: ServerResponse[] = [];
  let changed: () => void = () => undefined;
  const server = createServer((req, res) => {
    if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    void lastMessage(req).then(({ model, text }) => {
      const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(model)));
      if (text !== 'hold') return answer();
      waiting.push(res);
      res.on('close', () => waiting.splice(waiting.indexOf(res), 1));
      (res as ServerResponse & { answer?: () => void }).answer = answer;
      changed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    held: () => waiting.length,
    waitForHeld: (count) =>
      new Promise<void>((resolve) => {
        changed = () => waiting.length >= count && resolve();
        changed();
      }),
    releaseAll: () => {
      for (const res of [...waiting]) (res as ServerResponse & { answer?: () => void }).answer?.();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function completion(model: string): Record<string, unknown> {
  return {
    id: 'chatcmpl-held',
    object: 'chat.completion',
    created: 1_767_225_600,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: 'done' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
  };
}

async function lastMessage(req: IncomingMessage): Promise<{ model: string; text: string }> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  try {
    const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as { model?: string; messages?: { content?: unknown }[] };
    return { model: String(body.model), text: String(body.messages?.at(-1)?.content ?? '') };
  } catch {
    return { model: '', text: '' };
  }
}

// A deliberately untrustworthy chat upstream for the billing tests: it speaks the OpenAI chat wire
// protocol (JSON, and SSE when asked to stream) and answers whatever usage report the test sets,
// however absurd. Plain node:http, so nothing in the gateway's own code shapes what it sends.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostileAnswer {
  /** The assistant's text. */
  content: string;
  /** The `usage` object sent as is (any JSON); absent: the answer carries no usage block. */
  usage?: unknown;
  /** Streamed answers: how many deltas the content is cut into (default: one per 8 characters). */
  deltas?: number;
}

export interface HostileUpstream {
  /** Base URL for a catalog model's `upstream.base_url` (ends in /v1). */
  baseUrl: string;
  /** What the next chat requests are answered with. */
  answer(next: HostileAnswer): void;
  /** The `usage` object the next transcriptions (verbose_json, one segment) carry, sent as is. */
  transcriptionUsage(usage: unknown): void;
  /** Every chat body received, in order. */
  received: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function startHostileUpstream(): Promise<HostileUpstream> {
  let next: HostileAnswer = { content: 'Hello there', usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } };
  let transcriptionUsage: unknown = undefined;
  const received: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    void readJson(req).then((body) => {
      if (req.method === 'POST' && req.url?.endsWith('/audio/transcriptions')) {
        const transcript = { text: 'alpha', segments: [{ id: 0, start: 0, end: 0.5, text: 'alpha' }], usage: transcriptionUsage };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(transcript));
        return;
      }
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      received.push(body);
      if (body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const chunk of streamChunks(next, String(body.model))) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        res.end('data: [DONE]\n\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(next, String(body.model))));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    answer: (answer) => {
      next = answer;
    },
    transcriptionUsage: (usage) => {
      transcriptionUsage = usage;
    },
    received,
    close: () => closeServer(server),
  };
}

const identity = (model: string) => ({ id: 'chatcmpl-hostile', created: 1_767_225_600, model });

function completion(answer: HostileAnswer, model: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...identity(model),
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: 'stop' }],
  };
  if ('usage' in answer) body.usage = answer.usage;
  return body;
}

function* streamChunks(answer: HostileAnswer, model: string): Generator<Record<string, unknown>> {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ ...identity(model), object: 'chat.completion.chunk', choices, ...extra });
  yield chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  const pieces = answer.deltas ?? Math.max(1, Math.ceil(answer.content.length / 8));
  const size = Math.ceil(answer.content.length / pieces);
  for (let start = 0; start < answer.content.length; start += size) {
    yield chunk([{ index: 0, delta: { content: answer.content.slice(start, start + size) }, finish_reason: null }]);
  }
  yield chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
  if ('usage' in answer) yield chunk([], { usage: answer.usage });
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  try {
    // Multipart uploads (transcriptions) are read and dropped: only their answer matters here.
    return JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

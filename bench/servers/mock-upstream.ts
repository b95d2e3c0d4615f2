// Fixed-latency chat upstream for the overhead benchmark: answers POST /v1/chat/completions with the
// same OpenAI-shaped completion after MOCK_DELAY_MS, or streams it (SSE deltas, then the usage chunk
// when `stream_options.include_usage`, then `data: [DONE]`). GET /health* answers 200 so the
// gateway's readiness prober keeps the models warm. Plain node:http to keep its own cost small.
// A stream sends one content chunk per `max_tokens` (at most 256; MOCK_STREAM_CHUNKS without it), as a model
// stopped at its cap does, so a run picks its stream's length: `max_tokens: 17` is a stream of 20 chunks
// (the role chunk, 17 words, the stop chunk and the usage chunk) before `data: [DONE]`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

const DELAY_MS = Number(process.env.MOCK_DELAY_MS ?? 1);
const STREAM_CHUNKS = Number(process.env.MOCK_STREAM_CHUNKS ?? 8);
const CHUNK_INTERVAL_MS = Number(process.env.MOCK_CHUNK_INTERVAL_MS ?? 1);

const PROMPT_TOKENS = 24;
const WORDS = ['Hello', ' there', ',', ' nice', ' to', ' meet', ' you', '!'];
const COMPLETION_TOKENS = WORDS.length;
const CREATED = 1767225600;

interface ChatBody {
  model?: string;
  stream?: boolean;
  max_tokens?: number;
  stream_options?: { include_usage?: boolean };
}

const usage = { prompt_tokens: PROMPT_TOKENS, completion_tokens: COMPLETION_TOKENS, total_tokens: PROMPT_TOKENS + COMPLETION_TOKENS };
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function completion(model: string): string {
  return JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: WORDS.join('') }, logprobs: null, finish_reason: 'stop' }],
    usage,
  });
}

function chunk(model: string, delta: Record<string, unknown>, finishReason: string | null): string {
  const choices = [{ index: 0, delta, logprobs: null, finish_reason: finishReason }];
  return `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: CREATED, model, choices })}\n\n`;
}

const MAX_STREAM_CHUNKS = 256;

function contentChunksOf(body: ChatBody): number {
  const cap = body.max_tokens;
  return Number.isInteger(cap) && cap! >= 1 && cap! <= MAX_STREAM_CHUNKS ? cap! : STREAM_CHUNKS;
}

async function stream(res: ServerResponse, model: string, contentChunks: number, includeUsage: boolean): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk(model, { role: 'assistant', content: '' }, null));
  for (let i = 0; i < contentChunks; i++) {
    await wait(CHUNK_INTERVAL_MS);
    res.write(chunk(model, { content: WORDS[i % WORDS.length] }, null));
  }
  res.write(chunk(model, {}, 'stop'));
  if (includeUsage) {
    const streamed = { prompt_tokens: PROMPT_TOKENS, completion_tokens: contentChunks, total_tokens: PROMPT_TOKENS + contentChunks };
    res.write(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: CREATED, model, choices: [], usage: streamed })}\n\n`);
  }
  res.end('data: [DONE]\n\n');
}

async function chatCompletions(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as ChatBody;
  const model = body.model ?? 'unknown';
  await wait(DELAY_MS);
  if (body.stream) return stream(res, model, contentChunksOf(body), body.stream_options?.include_usage === true);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(completion(model));
}

const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/v1/chat/completions') {
    chatCompletions(req, res).catch(() => res.destroy());
  } else if (req.method === 'GET' && req.url?.startsWith('/health')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"ok"}');
  } else {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"not found","type":"not_found_error"}}');
  }
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`mock upstream listening on http://127.0.0.1:${port} (delay ${DELAY_MS} ms)\n`);
});
process.once('SIGTERM', () => process.exit(0));

// The request every overhead run sends: a small text chat completion for `aria` (non-moderated), as
// a non-streamed and a streamed request. Direct and bare-proxy runs send the same bytes. The mock streams
// one content chunk per `max_tokens`: 8 for the time-to-first-chunk runs (as before), 17 for the closed
// loop's stream of 20 chunks (role, 17 words, stop, usage).
import type { LoadTarget } from '../lib/load';

const PROMPT = [{ role: 'user', content: 'Say hello in one short sentence.' }];

const completionBody = JSON.stringify({ model: 'aria', messages: PROMPT, max_tokens: 16 });
const streamBody = (maxTokens: number) => JSON.stringify({ model: 'aria', messages: PROMPT, max_tokens: maxTokens, stream: true, stream_options: { include_usage: true } });

export interface ChatTargets {
  completion: LoadTarget;
  stream: LoadTarget;
  /** A stream of 20 chunks, for CPU per stream in a closed loop. */
  streamOf20: LoadTarget;
}

/** `idempotencyKeys`: every request carries a new Idempotency-Key (BENCH_IDEMPOTENCY_KEYS=1, gateway only). */
export function chatTargets(baseUrl: string, apiKey?: string, idempotencyKeys = false): ChatTargets {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const uniqueHeader = idempotencyKeys ? 'idempotency-key' : undefined;
  const target = (body: string): LoadTarget => ({ url: baseUrl, path: '/v1/chat/completions', method: 'POST', headers, body, uniqueHeader });
  return { completion: target(completionBody), stream: target(streamBody(8)), streamOf20: target(streamBody(17)) };
}

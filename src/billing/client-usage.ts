// The `usage` a client reads. By default exactly the spec's Usage (input, output, cost_usd_micros and
// nothing else, nested keys included). An organization configured with `usage_format: openai` also
// gets OpenAI's token fields, read off the billed vector and sent next to it, so clients built for
// OpenAI (the SDKs, the Vercel AI SDK, LangChain, LiteLLM) see token counts. Those fields are derived
// from the vector, never from the upstream's report, so what the client reads and what the events
// record cannot disagree (docs/metering.md, "OpenAI-compatible usage"). The OpenAI shapes of each endpoint live
// with it: src/chat/chat-usage.ts, src/transcription/transcription-usage.ts.
import type { Usage } from './usage';

/** How an organization's responses carry usage: the spec's vector only, or with OpenAI's token fields. */
export const USAGE_FORMATS = ['spec', 'openai'] as const;
export type UsageFormat = (typeof USAGE_FORMATS)[number];
export const DEFAULT_USAGE_FORMAT: UsageFormat = 'spec';

/**
 * The spec's Usage as a client sees it: `output.tools` carries the spec's `call_count` and `tokens`
 * only (the events keep `web_search_calls`, which the price of web search reads).
 */
export function specUsageOf(usage: Usage): Usage {
  const { input, output } = usage;
  const tools = { call_count: output.tools.call_count, tokens: output.tools.tokens };
  return {
    input,
    output: { text: output.text, audio: output.audio, image: output.image, video: output.video, voice: output.voice, tools } as Usage['output'],
    cost_usd_micros: usage.cost_usd_micros,
  };
}

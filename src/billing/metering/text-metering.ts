// Text usage is what remains of the upstream's token totals once the media tokens are taken out,
// so every token the upstream counted lands in exactly one field of the usage vector.
import type { TextUsage } from '../usage';
import type { Measurement } from './measurement';

/**
 * Input text: `prompt - cached - media` (never negative), cached tokens capped at the prompt.
 * Without an upstream report the handler's own prompt-text count stands in, uncached.
 */
export function meterInputText(m: Measurement, mediaTokens: number): TextUsage {
  const characters = m.input.textCharacters ?? 0;
  const prompt = m.upstream?.promptTokens;
  if (prompt === undefined) {
    return { tokens: m.input.textTokens ?? 0, characters, cached_tokens: 0, reasoning_tokens: 0 };
  }
  const cached = Math.min(m.upstream?.cachedTokens ?? 0, prompt);
  return { tokens: Math.max(0, prompt - cached - mediaTokens), characters, cached_tokens: cached, reasoning_tokens: 0 };
}

/**
 * Output text: the upstream's completion tokens include reasoning and audio tokens, so
 * `tokens = completion - audio - reasoning` and `reasoning_tokens` holds the rest (never negative).
 * Without an upstream report the handler's own completion-text count (reasoning included) stands in.
 */
export function meterOutputText(m: Measurement, audioTokens: number): TextUsage {
  const completion = m.upstream?.completionTokens;
  const generatedText =
    completion === undefined ? (m.output.textTokens ?? 0) : Math.max(0, completion - audioTokens);
  const reportedReasoning = m.upstream?.reasoningTokens ?? m.output.reasoningTokens ?? 0;
  const reasoning = Math.min(reportedReasoning, generatedText);
  return { tokens: generatedText - reasoning, characters: 0, cached_tokens: 0, reasoning_tokens: reasoning };
}

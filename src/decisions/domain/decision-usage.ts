// The decisions response's token usage, read off the same metered vector that is billed, so what
// the client sees and what the events record cannot disagree.
import type { MeteredUsage } from '../../billing/metering/meter';
import type { DecisionUsage } from './decision.types';

export function decisionUsage(metered: Pick<MeteredUsage, 'input' | 'output' | 'audioTokens'>): DecisionUsage {
  const text = metered.input.text.tokens + metered.input.text.cached_tokens;
  const image = metered.input.image.tokens;
  const audio = metered.audioTokens.input;
  const carriesMedia = metered.input.image.count > 0 || metered.input.audio.duration !== '0';
  const inputTokens = text + image + audio;
  const outputTokens = metered.output.text.tokens + metered.output.text.reasoning_tokens;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { multimodal_tokens: carriesMedia ? { text, image, audio } : null },
    output_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
  };
}

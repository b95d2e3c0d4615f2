// The decisions response's token usage, read off the same metered vector that is billed, so what
// the client sees and what the events record cannot disagree. Web images are not measured by the
// gateway, so their tokens stay in the model's prompt count and show as text (docs/decisions.md).
import type { MeteredUsage } from '../../billing/metering/meter';
import type { DecisionUsage } from './decision.types';

/** `carriesMedia`: the evidence held an image or audio, so the breakdown is not null. */
export function decisionUsage(metered: Pick<MeteredUsage, 'input' | 'output' | 'audioTokens'>, carriesMedia: boolean): DecisionUsage {
  const text = metered.input.text.tokens + metered.input.text.cached_tokens;
  const image = metered.input.image.tokens;
  const audio = metered.audioTokens.input;
  const inputTokens = text + image + audio;
  const outputTokens = metered.output.text.tokens + metered.output.text.reasoning_tokens;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { multimodal_tokens: carriesMedia ? { text, image, audio } : null },
    output_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
  };
}

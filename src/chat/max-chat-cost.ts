// The most a chat request can be charged, worked out before the upstream is called (its budget hold):
// billing passes every upstream report through the plausibility bounds (docs/metering.md), so the
// bounds are the worst case. The other features' maxima live beside them (max-*-cost.ts). Chat: the prompt at the top of its estimate band (min(context, 4 x estimate + 256)); a report above
// the band but within the context is billed as sent (a soft dispute) and may exceed the hold: holding
// the whole context would refuse every request under a small limit (docs/keys-and-budgets.md,
// "Exceptions"). The completion at the cap
// sent x n (no cap: what the context leaves after the prompt, x n), every completion token at the
// dearest output rate (text, reasoning or audio), the media as measured at the boundary, one web
// search per choice when asked for, and the request fee. Decisions take the same path with no prompt
// estimate and no cap: the context bounds both sides.
import type { CatalogModel } from '../catalog/catalog.types';
import type { MeasuredAudio, MeasuredImage, MeasuredVideo, ReportLimits } from '../billing/metering/measurement';
import { meter, type MeteredUsage } from '../billing/metering/meter';
import { completionCeiling, PLAUSIBILITY_FACTOR, PROMPT_SLACK_TOKENS } from '../billing/metering/plausibility';
import { price } from '../billing/pricing/price';
import { copyWith } from '../common/copy-with';

export interface ChatCostBounds {
  model: CatalogModel;
  limits: Omit<ReportLimits, 'completionCounted'>;
  media: { audio?: MeasuredAudio[]; images?: MeasuredImage[]; videos?: MeasuredVideo[] };
  webSearchRequested: boolean;
}

/** Exact micros; null when nothing bounds the completion (no cap sent and no context length). */
export function maxChatCostMicros({ model, limits, media, webSearchRequested }: ChatCostBounds): bigint | null {
  const own = limits.promptEstimate;
  const context = limits.contextLength ?? Infinity;
  // Without an own estimate (decisions) only the context bounds the prompt.
  const upper = own === undefined ? context : Math.min(context, own * PLAUSIBILITY_FACTOR + PROMPT_SLACK_TOKENS);
  const lower = own === undefined ? 0 : Math.min(upper, Math.floor(own / PLAUSIBILITY_FACTOR));
  if (!Number.isFinite(upper)) return null;
  // Without a cap the completion shrinks as the prompt grows: the cost is linear in the prompt, so its
  // maximum lies at one end of the prompt's range.
  const prompts = limits.completionCap === null || limits.completionCap === undefined ? [upper, lower] : [upper];
  let worst = 0n;
  for (const prompt of prompts) {
    const completion = completionCeiling(limits, prompt);
    if (!Number.isFinite(completion)) return null;
    const choices = limits.choices ?? 1;
    const metered = meter(model, {
      upstream: { promptTokens: prompt, completionTokens: completion },
      input: { audio: media.audio, images: media.images, videos: media.videos },
      output: { webSearchCalls: webSearchRequested ? choices : 0 },
    });
    for (const variant of outputVariants(metered, completion)) {
      const cost = BigInt(price(model, variant).costUsdMicros);
      if (cost > worst) worst = cost;
    }
  }
  return worst;
}

/** The completion billed as text, as reasoning, and as audio tokens: whichever rate is dearest wins. */
function outputVariants(metered: MeteredUsage, completion: number): MeteredUsage[] {
  const text = metered.output.text;
  const asReasoning = copyWith(metered, { output: copyWith(metered.output, { text: copyWith(text, { tokens: 0, reasoning_tokens: completion }) }) });
  const asAudio = copyWith(metered, {
    output: copyWith(metered.output, { text: copyWith(text, { tokens: 0 }) }),
    audioTokens: copyWith(metered.audioTokens, { output: completion }),
  });
  return [metered, asReasoning, asAudio];
}

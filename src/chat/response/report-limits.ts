// What bounds a chat upstream's usage report: the gateway's own prompt count, the completion cap it
// sent (per choice) and `n`, and the model's context length (docs/metering.md, "Plausibility bounds").
import type { ReportLimits } from '../../billing/metering/measurement';
import { isCount } from '../../billing/metering/plausibility';
import type { CatalogModel } from '../../catalog/catalog.types';
import { requestedCompletionTokens } from '../request/request-limits';

export type ChatReportLimits = Omit<ReportLimits, 'completionCounted'>;

/** `upstreamBody` is the body as sent, so the cap is the one the upstream actually received. */
export function chatReportLimits(upstreamBody: Record<string, unknown>, model: CatalogModel, promptEstimate: number): ChatReportLimits {
  const cap = requestedCompletionTokens(upstreamBody)?.value;
  const n = upstreamBody.n;
  return {
    promptEstimate,
    // A cap the upstream cannot have honoured (negative, fractional) bounds nothing; the context still does.
    completionCap: isCount(cap) ? cap : null,
    choices: isCount(n) && n > 0 ? n : 1,
    contextLength: model.top_provider.context_length ?? model.context_length ?? null,
  };
}

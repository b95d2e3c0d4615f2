// Plausibility bounds on an upstream's usage report (docs/metering.md, "Plausibility bounds"). An
// upstream is not trusted to bill: each count it reports must be a count, and must fit what the
// request could have produced given what the gateway sent and saw. Out of bounds (either way), the
// gateway's own count, clamped into the bounds, is billed and the disagreement is recorded.
import type { ReportLimits, ReportedUsage, UpstreamReport } from './measurement';

/**
 * Byte-level BPE never emits more tokens than bytes, and the gateway estimates one token per 4 bytes:
 * a true count is at most 4x the estimate. Below, 4 again: an average of over 16 bytes per token
 * across a whole text does not happen with real vocabularies.
 */
export const PLAUSIBILITY_FACTOR = 4;
/** Chat template and special tokens the estimate may not see (roles, tool and media markers). */
export const PROMPT_SLACK_TOKENS = 256;

export type DisputeReason =
  | 'not_a_count'
  | 'over_context_length'
  | 'over_prompt_estimate'
  | 'under_prompt_estimate'
  | 'over_completion_cap'
  | 'under_relayed_count'
  | 'over_boundary_measurement'
  | 'under_boundary_measurement'
  // Output the gateway counts itself (output-bounds.ts).
  | 'over_requested_count'
  | 'over_input_bound';

/** One field the gateway did not bill as reported. */
export interface DisputedField {
  /** The upstream's field name, e.g. `prompt_tokens`, `completion_tokens_details.audio_tokens`. */
  field: string;
  /** The value as the upstream sent it, as JSON text (cut at 100 characters). */
  reported: string;
  billed: number;
  /** The bound the report broke, e.g. `<= 10`, `>= 3`, `whole number 0..2^53-1`. */
  bound: string;
  reason: DisputeReason;
}

export interface BoundedReport {
  report: UpstreamReport;
  disputes: DisputedField[];
}

const DETAIL_FIELDS = [
  ['cachedTokens', 'prompt_tokens_details.cached_tokens'],
  ['reasoningTokens', 'completion_tokens_details.reasoning_tokens'],
  ['audioPromptTokens', 'prompt_tokens_details.audio_tokens'],
  ['audioCompletionTokens', 'completion_tokens_details.audio_tokens'],
  ['imagePromptTokens', 'prompt_tokens_details.image_tokens'],
  ['videoPromptTokens', 'prompt_tokens_details.video_tokens'],
] as const satisfies readonly (readonly [keyof UpstreamReport, string])[];

/** Checks every reported count; the result is what metering may use, plus what was disputed. */
export function boundReport(reported: ReportedUsage, limits: ReportLimits = {}): BoundedReport {
  const disputes: DisputedField[] = [];
  const report: UpstreamReport = {};
  for (const [key, field] of DETAIL_FIELDS) {
    // Media counts are bounded against the boundary measurement in media-metering; here only their form.
    const value = reported[key];
    if (value === undefined || value === null) continue;
    if (isCount(value)) report[key] = value;
    else disputes.push(dispute(field, value, 0, WHOLE_NUMBER, 'not_a_count'));
  }
  report.promptTokens = boundPrompt(reported.promptTokens, limits, disputes);
  report.completionTokens = boundCompletion(reported.completionTokens, limits, report.promptTokens, disputes);
  return { report, disputes };
}

function boundPrompt(value: unknown, limits: ReportLimits, disputes: DisputedField[]): number | undefined {
  const own = limits.promptEstimate;
  const context = limits.contextLength ?? Infinity;
  const upper = Math.min(context, own === undefined ? Infinity : own * PLAUSIBILITY_FACTOR + PROMPT_SLACK_TOKENS);
  const lower = own === undefined ? 0 : Math.min(upper, Math.floor(own / PLAUSIBILITY_FACTOR));
  const overReason = upper === context ? 'over_context_length' : 'over_prompt_estimate';
  return bounded({ field: 'prompt_tokens', value, own, lower, upper, overReason, underReason: 'under_prompt_estimate' }, disputes);
}

function boundCompletion(value: unknown, limits: ReportLimits, prompt: number | undefined, disputes: DisputedField[]): number | undefined {
  const upper = completionCeiling(limits, prompt);
  const own = limits.completionCounted;
  const lower = own === undefined ? 0 : Math.min(upper, Math.floor(own / PLAUSIBILITY_FACTOR));
  return bounded({ field: 'completion_tokens', value, own, lower, upper, overReason: 'over_completion_cap', underReason: 'under_relayed_count' }, disputes);
}

/** The cap the gateway sent, per choice times `n`; without one, whatever the context leaves after the prompt. */
export function completionCeiling(limits: ReportLimits, prompt: number | undefined): number {
  const choices = limits.choices ?? 1;
  if (limits.completionCap !== undefined && limits.completionCap !== null) return limits.completionCap * choices;
  if (limits.contextLength === undefined || limits.contextLength === null) return Infinity;
  return Math.max(0, limits.contextLength - (prompt ?? 0)) * choices;
}

interface FieldBounds {
  field: string;
  value: unknown;
  /** The gateway's own count; what is billed when the report is out of bounds (clamped into them). */
  own: number | undefined;
  lower: number;
  upper: number;
  overReason: DisputeReason;
  underReason: DisputeReason;
}

function bounded(b: FieldBounds, disputes: DisputedField[]): number | undefined {
  if (b.value === undefined || b.value === null) return undefined;
  const fallback = clamp(b.own ?? 0, b.lower, b.upper);
  if (!isCount(b.value)) {
    // Without an own count there is nothing better to bill: treat the field as not reported.
    disputes.push(dispute(b.field, b.value, b.own === undefined ? 0 : fallback, WHOLE_NUMBER, 'not_a_count'));
    return b.own === undefined ? undefined : fallback;
  }
  if (b.value > b.upper) {
    disputes.push(dispute(b.field, b.value, fallback, `<= ${b.upper}`, b.overReason));
    return fallback;
  }
  if (b.value < b.lower) {
    disputes.push(dispute(b.field, b.value, fallback, `>= ${b.lower}`, b.underReason));
    return fallback;
  }
  return b.value;
}

/**
 * Upstream media tokens (under `backend` metering) must lie within the factor of the gateway's own
 * boundary count, both ways; outside, the boundary count is billed.
 */
export function boundMediaTokens(field: string, reported: number, boundaryTokens: number, disputes: DisputedField[]): number {
  const upper = boundaryTokens * PLAUSIBILITY_FACTOR;
  const lower = Math.floor(boundaryTokens / PLAUSIBILITY_FACTOR);
  if (reported > upper) disputes.push(dispute(field, reported, boundaryTokens, `<= ${upper}`, 'over_boundary_measurement'));
  else if (reported < lower) disputes.push(dispute(field, reported, boundaryTokens, `>= ${lower}`, 'under_boundary_measurement'));
  else return reported;
  return boundaryTokens;
}

/**
 * A media count that was not a count was dropped before metering, so the gateway's count stood in:
 * the dispute records that count as billed once metering knows it.
 */
export function settleDroppedCounts(disputes: DisputedField[], billedByField: Readonly<Record<string, number>>): void {
  for (const entry of disputes) {
    const billed = billedByField[entry.field];
    if (entry.reason === 'not_a_count' && billed !== undefined) entry.billed = billed;
  }
}

const WHOLE_NUMBER = 'whole number 0..9007199254740991';
const REPORTED_TEXT_LIMIT = 100;

export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function clamp(value: number, lower: number, upper: number): number {
  return Math.max(lower, Math.min(upper, value));
}

function dispute(field: string, value: unknown, billed: number, bound: string, reason: DisputeReason): DisputedField {
  return { field, reported: reportedText(value), billed, bound, reason };
}

/** JSON text of what was sent, cut short: a hostile upstream may send a megabyte string. */
export function reportedText(value: unknown): string {
  const text = typeof value === 'number' && !Number.isFinite(value) ? String(value) : (JSON.stringify(value) ?? String(value));
  return text.length > REPORTED_TEXT_LIMIT ? `${text.slice(0, REPORTED_TEXT_LIMIT)}…` : text;
}

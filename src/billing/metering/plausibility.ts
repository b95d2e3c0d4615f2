// Plausibility bounds on an upstream's usage report (docs/metering.md, "Plausibility bounds"), in two
// tiers. HARD bounds are what the request cannot have produced whatever the tokenizer: not a count,
// a prompt past the model's context, a completion past the cap sent x n, media past 4x the boundary
// count. Past one, the gateway's own count (capped at the bound) is billed and the report is
// disputed `hard`. A report far from the gateway's own ESTIMATE but inside the hard bounds is billed
// as sent and disputed `soft`, for review: hosted models add system prompts and templates the gateway
// never sees, and scripts and emoji tokenize far above a character estimate.
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

/**
 * `hard`: the report broke a hard bound and the gateway's own count was billed. `soft`: the report
 * was billed as sent, only far from the gateway's estimate. Entries recorded before the tiers carry
 * no severity and read as `hard` (`disputeSeverity`).
 */
export type DisputeSeverity = 'hard' | 'soft';

/** One field the upstream's report of which the gateway disputes (billed otherwise, or only reviewed). */
export interface DisputedField {
  /** The upstream's field name, e.g. `prompt_tokens`, `completion_tokens_details.audio_tokens`. */
  field: string;
  /** The value as the upstream sent it, as JSON text (cut at 100 characters). */
  reported: string;
  billed: number;
  /** The bound the report broke, e.g. `<= 10`, `>= 3`, `whole number 0..2^53-1`. */
  bound: string;
  reason: DisputeReason;
  severity: DisputeSeverity;
}

/** A recorded entry's severity; entries written before the tiers existed were all hard. */
export function disputeSeverity(entry: { severity?: DisputeSeverity }): DisputeSeverity {
  return entry.severity ?? 'hard';
}

/** Whether any entry changed what was billed (a hard dispute). */
export function hasHardDispute(disputes: readonly { severity?: DisputeSeverity }[]): boolean {
  return disputes.some((entry) => disputeSeverity(entry) === 'hard');
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
  const upper = limits.contextLength ?? Infinity;
  const softUpper = own === undefined ? Infinity : own * PLAUSIBILITY_FACTOR + PROMPT_SLACK_TOKENS;
  const softLower = own === undefined ? 0 : Math.floor(own / PLAUSIBILITY_FACTOR);
  return bounded({
    field: 'prompt_tokens', value, own, upper, overReason: 'over_context_length',
    soft: { lower: softLower, upper: softUpper, overReason: 'over_prompt_estimate', underReason: 'under_prompt_estimate' },
  }, disputes);
}

function boundCompletion(value: unknown, limits: ReportLimits, prompt: number | undefined, disputes: DisputedField[]): number | undefined {
  const own = limits.completionCounted;
  const softLower = own === undefined ? 0 : Math.floor(own / PLAUSIBILITY_FACTOR);
  return bounded({
    field: 'completion_tokens', value, own, upper: completionCeiling(limits, prompt), overReason: 'over_completion_cap',
    soft: { lower: softLower, upper: Infinity, overReason: 'over_completion_cap', underReason: 'under_relayed_count' }, // no soft ceiling: emoji and scripts run far above 1 token per 4 bytes
  }, disputes);
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
  /** The gateway's own count; what is billed past the hard bound (clamped under it). */
  own: number | undefined;
  /** The hard upper bound (the lower one is 0). */
  upper: number;
  overReason: DisputeReason;
  /** The band around the gateway's own count; outside it (within the hard bound) a report is billed but disputed soft. */
  soft: { lower: number; upper: number; overReason: DisputeReason; underReason: DisputeReason };
}

function bounded(b: FieldBounds, disputes: DisputedField[]): number | undefined {
  if (b.value === undefined || b.value === null) return undefined;
  const fallback = Math.min(b.own ?? 0, b.upper);
  if (!isCount(b.value)) {
    // Without an own count there is nothing better to bill: treat the field as not reported.
    disputes.push(dispute(b.field, b.value, b.own === undefined ? 0 : fallback, WHOLE_NUMBER, 'not_a_count'));
    return b.own === undefined ? undefined : fallback;
  }
  if (b.value > b.upper) {
    disputes.push(dispute(b.field, b.value, fallback, `<= ${b.upper}`, b.overReason));
    return fallback;
  }
  if (b.value > b.soft.upper) disputes.push(dispute(b.field, b.value, b.value, `<= ${b.soft.upper}`, b.soft.overReason, 'soft'));
  else if (b.value < b.soft.lower) disputes.push(dispute(b.field, b.value, b.value, `>= ${b.soft.lower}`, b.soft.underReason, 'soft'));
  return b.value;
}

/**
 * Upstream media tokens (under `backend` metering) may not exceed the factor times the gateway's own
 * boundary count (hard: the boundary count is billed). Under a quarter of it is billed as reported and
 * disputed soft.
 */
export function boundMediaTokens(field: string, reported: number, boundaryTokens: number, disputes: DisputedField[]): number {
  const upper = boundaryTokens * PLAUSIBILITY_FACTOR;
  const lower = Math.floor(boundaryTokens / PLAUSIBILITY_FACTOR);
  if (reported > upper) {
    disputes.push(dispute(field, reported, boundaryTokens, `<= ${upper}`, 'over_boundary_measurement'));
    return boundaryTokens;
  }
  if (reported < lower) disputes.push(dispute(field, reported, reported, `>= ${lower}`, 'under_boundary_measurement', 'soft'));
  return reported;
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

function dispute(field: string, value: unknown, billed: number, bound: string, reason: DisputeReason, severity: DisputeSeverity = 'hard'): DisputedField {
  return { field, reported: reportedText(value), billed, bound, reason, severity };
}

/** JSON text of what was sent, cut short: a hostile upstream may send a megabyte string. */
export function reportedText(value: unknown): string {
  const text = typeof value === 'number' && !Number.isFinite(value) ? String(value) : (JSON.stringify(value) ?? String(value));
  return text.length > REPORTED_TEXT_LIMIT ? `${text.slice(0, REPORTED_TEXT_LIMIT)}…` : text;
}

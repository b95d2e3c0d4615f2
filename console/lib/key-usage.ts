// What the Keys view says about a key's limit and usage, from the key API's exact decimal strings.
// Sums are BigInt micros; the bar width is an integer per mille of the limit, never a float sum.
import { formatUsd, usdToMicros } from './money';

export interface KeyUsage {
  window_start: string;
  resets_at: string | null;
  spent_usd: string;
  held_usd: string;
  remaining_usd: string | null;
}

/** A key or an organization budget: a limit, its reset and the usage in the current window. */
export interface LimitLike {
  limit_usd: string | null;
  limit_reset: string | null;
  usage: KeyUsage | null;
}

export interface KeyLike extends LimitLike {
  disabled: boolean;
  revoked: boolean;
  expires_at: string | null;
}

export interface UsageSummary {
  spentMicros: bigint;
  /** spent + held, exact. */
  usedMicros: bigint;
  limitMicros: bigint | null;
  /** 0-1000 of the limit used (capped), null without a limit. */
  perMille: number | null;
  text: string;
}

export function usageSummary(key: LimitLike): UsageSummary {
  const spent = key.usage ? usdToMicros(key.usage.spent_usd) : 0n;
  const held = key.usage ? usdToMicros(key.usage.held_usd) : 0n;
  const used = spent + held;
  const limit = key.limit_usd == null ? null : usdToMicros(key.limit_usd);
  const spentText = `${formatUsd(spent)} spent + ${formatUsd(held)} held`;
  if (limit == null) return { spentMicros: spent, usedMicros: used, limitMicros: null, perMille: null, text: `${spentText}, no limit` };
  const perMille = limit === 0n ? 1000 : Number(used * 1000n > limit * 1000n ? 1000n : (used * 1000n) / limit);
  const period = key.limit_reset ?? 'lifetime';
  const resets = key.usage?.resets_at ? `, resets ${key.usage.resets_at.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}` : '';
  return { spentMicros: spent, usedMicros: used, limitMicros: limit, perMille, text: `${spentText} of ${formatUsd(limit)} (${period})${resets}` };
}

export type KeyStatus = 'active' | 'disabled' | 'revoked' | 'expired';

export function keyStatus(key: KeyLike, nowMs: number): KeyStatus {
  if (key.revoked) return 'revoked';
  if (key.disabled) return 'disabled';
  if (key.expires_at && Date.parse(key.expires_at) <= nowMs) return 'expired';
  return 'active';
}

/** A datetime-local value ("2027-01-31T12:00") read as UTC, in the RFC 3339 form the API takes. */
export function expiresAtOfLocalInput(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(trimmed) ? `${trimmed}:00Z` : `${trimmed}Z`;
}

/** "org-a, org-b org-c" -> ["org-a", "org-b", "org-c"], duplicates dropped. */
export function organizationsOfInput(value: string): string[] {
  return [...new Set(value.split(/[\s,]+/).filter(Boolean))];
}

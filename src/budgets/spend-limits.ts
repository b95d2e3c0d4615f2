// Spending limits of a key and of an organization (issue 29): how they are written (a decimal USD
// string, as the configuration and the key API take them), what they are in money (exact micros),
// and the window each one counts spend in. Pure: no clock of its own, no I/O.

/** How often a limit starts over; null: never (a lifetime limit). Windows are UTC. */
export type LimitReset = 'daily' | 'weekly' | 'monthly' | null;
export const LIMIT_RESETS = ['daily', 'weekly', 'monthly'] as const;

export interface SpendLimit {
  /** The limit in USD micros, exact. */
  limitUsdMicros: bigint;
  reset: LimitReset;
}

/** The limits a request is held against; null where none is set. */
export interface CallerLimits {
  key: SpendLimit | null;
  organization: SpendLimit | null;
}

/** A limit as configured: `limit_usd` a decimal string ("12.5", "0.001") or a number, at most 6 decimals. */
export interface ConfiguredLimit {
  limit_usd: string | number;
  limit_reset?: LimitReset;
}

const USD = /^(0|[1-9][0-9]{0,12})(?:\.([0-9]{1,6}))?$/;

/** Exact micros of a non-negative USD amount with at most 6 decimals and under 10^13 USD; null if not one. */
export function usdToMicros(value: string | number): bigint | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  const match = USD.exec(text);
  if (!match) return null;
  return BigInt(match[1]) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0'));
}

/** Micros as a decimal USD string without trailing zeros ("0.001", "12", "12.5"). */
export function microsToUsd(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  const fraction = (abs % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${sign}${abs / 1_000_000n}${fraction ? `.${fraction}` : ''}`;
}

/** The configured limit in micros, or null when none is configured; throws on an amount usdToMicros refuses. */
export function spendLimitOf(configured: ConfiguredLimit | null | undefined): SpendLimit | null {
  if (!configured) return null;
  const micros = usdToMicros(configured.limit_usd);
  if (micros === null) throw new RangeError(`limit_usd ${JSON.stringify(configured.limit_usd)} is not a USD amount with at most 6 decimals`);
  return { limitUsdMicros: micros, reset: configured.limit_reset ?? null };
}

export interface LimitWindow {
  /** Unix ms, inclusive; 0 for a lifetime limit. */
  start: number;
  /** Unix ms, exclusive; null for a lifetime limit (it never resets). */
  end: number | null;
}

const DAY_MS = 86_400_000;

/** The UTC window holding `nowMs`: the day, the ISO week (from Monday 00:00) or the calendar month. */
export function limitWindow(reset: LimitReset, nowMs: number): LimitWindow {
  if (reset === null) return { start: 0, end: null };
  const now = new Date(nowMs);
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (reset === 'daily') return { start: day, end: day + DAY_MS };
  if (reset === 'weekly') {
    const start = day - ((now.getUTCDay() + 6) % 7) * DAY_MS;
    return { start, end: start + 7 * DAY_MS };
  }
  return { start: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1), end: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) };
}

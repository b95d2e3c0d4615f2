// What the key API shows of a key (never its secret or hash) and of an organization budget, with the
// spend in the current limit window from the budget ledger (SpendReader).
import type { ApiKeyRecord, RateLimitConfig } from '../access/access.types';
import { microsToUsd, usdToMicros, type LimitReset } from '../budgets/spend-limits';
import { usdAmountMicros } from './usd-amount';
import type { SpendReader } from '../budgets/spend-reader';
import type { ApiKeyState } from './domain/api-key';

export interface UsageView {
  /** ISO start of the current window (the epoch for a lifetime limit) and when it resets (null: never). */
  window_start: string;
  resets_at: string | null;
  spent_usd: string;
  /** Held by requests admitted and not yet settled. */
  held_usd: string;
  /** limit - spent - held, never below 0; null without a limit. */
  remaining_usd: string | null;
}

export interface KeyView {
  id: string;
  object: 'api_key';
  name: string;
  /** `configuration`: a bootstrap key from the configuration file, not changeable through the API. */
  source: 'api' | 'configuration';
  organizations: string[];
  default_organization: string;
  disabled: boolean;
  revoked: boolean;
  created_at: string | null;
  updated_at: string | null;
  expires_at: string | null;
  limit_usd: string | null;
  limit_reset: LimitReset;
  /** The key's own limit (per replica), on top of its organization's. */
  rate_limit: RateLimitConfig | null;
  usage: UsageView;
}

export function viewOfState(state: ApiKeyState, reader: SpendReader, nowMs: number): KeyView {
  return {
    id: state.keyId, object: 'api_key', name: state.name, source: 'api', organizations: state.organizations,
    default_organization: state.defaultOrganization, disabled: state.disabled, revoked: state.revoked,
    created_at: state.createdAt, updated_at: state.updatedAt, expires_at: state.expiresAt,
    limit_usd: state.limitUsd, limit_reset: state.limitReset, rate_limit: state.rateLimit,
    usage: usageOf(reader, 'key', state.keyId, state.limitUsd, state.limitReset, nowMs),
  };
}

export function viewOfConfigured(key: ApiKeyRecord, reader: SpendReader, nowMs: number): KeyView {
  const limitUsd = key.limit_usd == null ? null : normalizeUsd(key.limit_usd);
  const reset = key.limit_reset ?? null;
  return {
    id: key.id, object: 'api_key', name: key.owner, source: 'configuration', organizations: key.organizations,
    default_organization: key.default_organization, disabled: false, revoked: false, created_at: null, updated_at: null,
    expires_at: key.expires_at ?? null, limit_usd: limitUsd, limit_reset: reset, rate_limit: null,
    usage: usageOf(reader, 'key', key.id, limitUsd, reset, nowMs),
  };
}

/** "1.50" and 1.5 are both "1.5": amounts are shown as microsToUsd writes them. */
export function normalizeUsd(value: string | number): string {
  const micros = usdAmountMicros(value);
  if (micros === null) throw new RangeError(`not a USD amount: ${String(value)}`);
  return microsToUsd(micros);
}

export function usageOf(reader: SpendReader, scope: 'key' | 'organization', id: string, limitUsd: string | null, reset: LimitReset, nowMs: number): UsageView {
  const spend = reader.spentIn(scope, id, reset, nowMs);
  const limit = limitUsd === null ? null : usdToMicros(limitUsd);
  const left = limit === null ? null : limit - spend.settledUsdMicros - spend.heldUsdMicros;
  return {
    window_start: new Date(spend.windowStart).toISOString(),
    resets_at: spend.resetsAt === null ? null : new Date(spend.resetsAt).toISOString(),
    spent_usd: microsToUsd(spend.settledUsdMicros),
    held_usd: microsToUsd(spend.heldUsdMicros),
    remaining_usd: left === null ? null : microsToUsd(left < 0n ? 0n : left),
  };
}

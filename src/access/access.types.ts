// Organizations and API keys as the operator configures them (keys only as hashes).
import type { UsageFormat } from '../billing/client-usage';
import type { CallerLimits, ConfiguredLimit, LimitReset } from '../budgets/spend-limits';

export interface RateLimitConfig {
  requests: number;
  window_seconds: number;
}

export interface Organization {
  id: string;
  name?: string;
  payment_method: boolean;
  rate_limit: RateLimitConfig;
  /** Spending limit of the whole organization; absent or null: none. */
  budget?: ConfiguredLimit | null;
  /** How responses carry `usage` (docs/metering.md): `spec` (the default) or `openai` (with token fields). */
  usage_format?: UsageFormat;
}

export interface ApiKeyRecord {
  id: string;
  /** `sha256:<hex>` of the plain key; the plain key is never stored. */
  hash: string;
  owner: string;
  organizations: string[];
  default_organization: string;
  expires_at?: string | null;
  /** Spending limit of this key (decimal USD); absent or null: none. */
  limit_usd?: string | number | null;
  limit_reset?: LimitReset;
  /** Set by the key API (runtime keys); configured keys are never disabled or revoked. */
  disabled?: boolean;
  revoked?: boolean;
  /** The key's own rate limit (runtime keys), on top of its organization's; per replica. */
  rate_limit?: RateLimitConfig | null;
}

/** A key of the management API: accepted there only, never on model endpoints. */
export interface ManagementKeyRecord {
  id: string;
  /** `sha256:<hex>` of the plain key. */
  hash: string;
}

/** Who is calling, resolved by the access guard and attached to the request. */
export interface CallerContext {
  keyId: string;
  organizationId: string;
  organization: Organization;
  /** The key's and the organization's spending limits, held against at admission. */
  limits: CallerLimits;
  /** The key's own rate limit; absent or null: none (only the organization's applies). */
  keyRateLimit?: RateLimitConfig | null;
}

/** `org-` plus 1-64 of [A-Za-z0-9_-]; anything else in X-Organization-Id is malformed (403). */
export const ORGANIZATION_ID_PATTERN = /^org-[A-Za-z0-9_-]{1,64}$/;

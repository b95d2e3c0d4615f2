// The key API's events (issue 29), as stored: one stream per key (`api-key-<id>`) and one per
// organization (`organization-<id>`: its budget and usage format). Amounts are decimal USD strings (exact, at most 6
// decimals); times are ISO-8601 UTC. `by` is the id of the management key that made the change.
import type { RateLimitConfig } from '../../access/access.types';
import type { LimitReset } from '../../budgets/spend-limits';
import type { UsageFormat } from '../../billing/client-usage';

export const KEY_EVENT_SCHEMA_VERSION = 1;

export const API_KEY_ISSUED = 'ApiKeyIssued';
export const API_KEY_CHANGED = 'ApiKeyChanged';
export const API_KEY_DISABLED = 'ApiKeyDisabled';
export const API_KEY_ENABLED = 'ApiKeyEnabled';
export const API_KEY_REVOKED = 'ApiKeyRevoked';
export const ORGANIZATION_BUDGET_SET = 'OrganizationBudgetSet';
export const ORGANIZATION_USAGE_FORMAT_SET = 'OrganizationUsageFormatSet';

export const KEY_EVENT_TYPES = [API_KEY_ISSUED, API_KEY_CHANGED, API_KEY_DISABLED, API_KEY_ENABLED, API_KEY_REVOKED, ORGANIZATION_BUDGET_SET, ORGANIZATION_USAGE_FORMAT_SET] as const;
export type KeyEventType = (typeof KEY_EVENT_TYPES)[number];

export const apiKeyStream = (keyId: string) => `api-key-${keyId}`;
export const organizationStream = (organizationId: string) => `organization-${organizationId}`;

export interface ApiKeyIssuedV1 {
  schemaVersion: 1;
  keyId: string;
  /** `sha256:<hex>` of the plain key; the plain key is never stored. */
  hash: string;
  name: string;
  organizations: string[];
  defaultOrganization: string;
  expiresAt: string | null;
  limitUsd: string | null;
  limitReset: LimitReset;
  rateLimit: RateLimitConfig | null;
  at: string;
  by: string;
}

/** The fields a PATCH may change; an absent field is unchanged, null clears it. */
export interface ApiKeyChanges {
  name?: string;
  expiresAt?: string | null;
  limitUsd?: string | null;
  limitReset?: LimitReset;
  rateLimit?: RateLimitConfig | null;
}

export interface ApiKeyChangedV1 {
  schemaVersion: 1;
  keyId: string;
  changes: ApiKeyChanges;
  at: string;
  by: string;
}

/** ApiKeyDisabled, ApiKeyEnabled and ApiKeyRevoked carry the same fields. */
export interface ApiKeyStatusV1 {
  schemaVersion: 1;
  keyId: string;
  at: string;
  by: string;
}

export interface OrganizationBudgetSetV1 {
  schemaVersion: 1;
  organizationId: string;
  /** null: the organization has no budget any more (the configured one no longer applies either). */
  limitUsd: string | null;
  limitReset: LimitReset;
  at: string;
  by: string;
}

/** How the organization's responses carry `usage`, over the configured `usage_format`. */
export interface OrganizationUsageFormatSetV1 {
  schemaVersion: 1;
  organizationId: string;
  usageFormat: UsageFormat;
  at: string;
  by: string;
}

export type ApiKeyEvent =
  | { type: typeof API_KEY_ISSUED; data: ApiKeyIssuedV1 }
  | { type: typeof API_KEY_CHANGED; data: ApiKeyChangedV1 }
  | { type: typeof API_KEY_DISABLED | typeof API_KEY_ENABLED | typeof API_KEY_REVOKED; data: ApiKeyStatusV1 };

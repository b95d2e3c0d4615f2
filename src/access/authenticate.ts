// The spec's Authentication rules, in order: 401 credentials, 403 organization, 402 payment.
import { ApiError } from '../common/api-error';
import { AccessStore } from './access.store';
import { CallerContext, ORGANIZATION_ID_PATTERN } from './access.types';
import { hashApiKey } from './key-hash';
import { spendLimitOf, type CallerLimits } from '../budgets/spend-limits';
import type { ApiKeyRecord, Organization } from './access.types';

const unauthorized = (code: string, message: string) => new ApiError(401, code, message, 'authentication_error');
const forbidden = (code: string, message: string) => new ApiError(403, code, message, 'permission_error');

export function bearerToken(header: string | undefined): string {
  if (!header) throw unauthorized('missing_api_key', 'Missing API key: send `Authorization: Bearer <API_KEY>`.');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('invalid_api_key', 'Malformed Authorization header: expected `Bearer <API_KEY>`.');
  return match[1];
}

async function lookup<T>(query: () => Promise<T>): Promise<T> {
  try {
    return await query();
  } catch {
    throw ApiError.unavailable('access_unavailable', 'The authentication service is temporarily unavailable.', 1);
  }
}

export async function authenticate(
  store: AccessStore,
  headers: { authorization?: string; organization?: string },
  now: Date,
): Promise<CallerContext> {
  const token = bearerToken(headers.authorization);
  const hash = hashApiKey(token);
  const key = await lookup(() => store.findKeyByHash(hash));
  if (!key) throw await refusalOfUnknown(store, hash);
  if (key.revoked) throw unauthorized('revoked_api_key', 'This API key has been revoked.');
  if (key.disabled) throw unauthorized('disabled_api_key', 'This API key is disabled.');
  if (key.expires_at && Date.parse(key.expires_at) <= now.getTime()) {
    throw unauthorized('expired_api_key', 'This API key has expired.');
  }
  const requested = headers.organization;
  if (requested !== undefined && !ORGANIZATION_ID_PATTERN.test(requested)) {
    throw forbidden('malformed_organization_id', 'Malformed X-Organization-Id: expected `org-` followed by 1-64 of [A-Za-z0-9_-].');
  }
  const organizationId = requested ?? key.default_organization;
  if (!key.organizations.includes(organizationId)) {
    throw forbidden('organization_not_member', `This API key is not a member of organization '${organizationId}'.`);
  }
  const organization = await lookup(() => store.findOrganization(organizationId));
  if (!organization) throw forbidden('organization_not_member', `Unknown organization '${organizationId}'.`);
  if (!organization.payment_method) {
    throw new ApiError(402, 'payment_required', 'No payment method on file for this organization.', 'billing_error');
  }
  return { keyId: key.id, organizationId, organization, limits: limitsOf(key, organization), keyRateLimit: key.rate_limit ?? null };
}

/** A management key is refused by name: it is a valid key, for the management API only. */
async function refusalOfUnknown(store: AccessStore, hash: string): Promise<ApiError> {
  if (await lookup(() => store.findManagementKeyByHash(hash))) {
    return forbidden('model_key_required', 'A management key cannot call model endpoints: use an API key issued by POST /v1/keys or configured under `keys`.');
  }
  return unauthorized('invalid_api_key', 'Invalid API key.');
}

const NO_LIMITS: CallerLimits = Object.freeze({ key: null, organization: null });

/** Validated when the configuration (or the key's event) was accepted, so spendLimitOf cannot throw here. */
function limitsOf(key: ApiKeyRecord, organization: Organization): CallerLimits {
  if (key.limit_usd == null && !organization.budget) return NO_LIMITS;
  return {
    key: key.limit_usd == null ? null : spendLimitOf({ limit_usd: key.limit_usd, limit_reset: key.limit_reset ?? null }),
    organization: spendLimitOf(organization.budget),
  };
}

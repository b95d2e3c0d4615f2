// The key API's answers (src/keys/key-view.ts, budget-view.ts): keys without their secret, except
// the plain key once in the answer to POST /v1/keys.
import { JsonSchema, arrayOf, boolean, constant, integer, object, orNull, ref, string } from '../json-schema';

const usd = (description: string): JsonSchema => ({ type: 'string', pattern: '^(0|[1-9][0-9]*)(\\.[0-9]{1,6})?$', description });
const time = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const reset: JsonSchema = { type: ['string', 'null'], enum: ['daily', 'weekly', 'monthly', null], description: 'UTC day, ISO week, calendar month; null: never.' };

const KEY_PROPERTIES: Record<string, JsonSchema> = {
  id: string('The gateway\'s key id (never the secret).'),
  object: constant('api_key'),
  name: string(),
  source: { type: 'string', enum: ['api', 'configuration'], description: '`configuration`: a bootstrap key, read-only through the API.' },
  organizations: arrayOf(string()),
  default_organization: string(),
  disabled: boolean(),
  revoked: boolean(),
  created_at: orNull(time('When it was issued (null for configured keys).')),
  updated_at: orNull(time('Last change.')),
  expires_at: orNull(time('After this instant the key is refused (401 expired_api_key).')),
  limit_usd: orNull(usd('Spending limit in USD, exact decimal.')),
  limit_reset: reset,
  rate_limit: { oneOf: [ref('KeyRateLimit'), { type: 'null' }], description: 'The key\'s own limit on model endpoints, per replica, on top of the organization\'s.' },
  usage: { oneOf: [ref('KeyUsage'), { type: 'null' }], description: 'Spend in the current limit window; null when the budget ledger is not wired.' },
};

export const KEY_SCHEMAS: Record<string, JsonSchema> = {
  KeyRateLimit: object({ requests: integer(1), window_seconds: integer(1) }),
  KeyUsage: object({
    window_start: time('Start of the current window.'),
    resets_at: orNull(time('When the window starts over; null: never.')),
    spent_usd: usd('Charged in the window.'),
    held_usd: usd('Held by admitted requests not yet settled.'),
    remaining_usd: orNull(usd('limit - spent - held, at least 0; null without a limit.')),
  }),
  ApiKey: object(KEY_PROPERTIES),
  IssuedApiKey: object({ ...KEY_PROPERTIES, key: string('The plain key: shown in this answer only, store it now.') }),
  ApiKeyPage: object({
    object: constant('list'),
    data: arrayOf(ref('ApiKey')),
    has_more: boolean(),
    next_offset: { ...orNull(integer(0)), description: 'The `offset` of the next page; null on the last.' },
  }),
  OrganizationBudget: object({
    object: constant('organization_budget'),
    organization_id: string(),
    limit_usd: orNull(usd('The budget in USD; null: none.')),
    limit_reset: reset,
    source: { type: ['string', 'null'], enum: ['api', 'configuration', null], description: 'Where the budget comes from.' },
    updated_at: orNull(time('When it was last set through the API.')),
    usage: { oneOf: [ref('KeyUsage'), { type: 'null' }], description: 'Spend in the current window; null when the budget ledger is not wired.' },
  }),
  OrganizationUsageFormat: object({
    object: constant('organization_usage_format'),
    organization_id: string(),
    usage_format: { type: 'string', enum: ['spec', 'openai'], description: '`spec`: usage exactly as the spec defines it; `openai`: with OpenAI\'s token fields (docs/clients.md).' },
    source: { type: 'string', enum: ['api', 'configuration'], description: 'Where the format comes from.' },
    updated_at: orNull(time('When it was last set through the API.')),
  }),
};

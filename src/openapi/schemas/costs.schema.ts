// The organization cost page (GET /v1/organization/costs), OpenAI's costs shape: daily UTC buckets.
import { JsonSchema, arrayOf, boolean, constant, integer, number, object, orNull, ref, string } from '../json-schema';

export const COST_SCHEMAS: Record<string, JsonSchema> = {
  CostPage: object(
    {
      object: constant('page'),
      data: { ...arrayOf(ref('CostBucket')), description: 'Daily buckets in ascending time order.' },
      has_more: boolean(),
      next_page: { ...orNull(string()), description: 'Cursor for the `page` parameter; null when has_more is false.' },
    },
    { optional: ['object'] },
  ),
  CostBucket: object(
    {
      object: constant('bucket'),
      start_time: { ...integer(0), description: 'Unix seconds, inclusive.' },
      end_time: { ...integer(0), description: 'Unix seconds, exclusive.' },
      results: arrayOf(ref('CostResult')),
    },
    { optional: ['object'] },
  ),
  CostResult: object(
    {
      object: constant('organization.costs.result'),
      amount: ref('CostAmount'),
      line_item: { ...orNull(string()), description: 'Set when grouped by line_item, else null.' },
      model: { ...string(), description: 'Extension: the model, present when grouped by model.' },
      api_key_id: { ...orNull(string()), description: 'Extension: the API key id, present when grouped by api_key_id (null: no key recorded).' },
    },
    { optional: ['object', 'line_item', 'model', 'api_key_id'] },
  ),
  RequestList: object({
    object: constant('list'),
    data: { ...arrayOf(ref('RequestLogEntry')), description: 'Newest first.' },
    first_id: orNull(string()),
    last_id: { ...orNull(string()), description: 'Pass as `after` for the next page.' },
    has_more: boolean(),
  }),
  RequestLogEntry: object({
    object: constant('organization.request'),
    id: { ...string(), description: 'The request id (x-request-id).' },
    created_at: { ...integer(0), description: 'Unix seconds.' },
    model: string(),
    endpoint: string(),
    api_key_id: { ...orNull(string()), description: 'null when no key was recorded.' },
    usage: { ...orNull(object({ input: ref('InputUsage'), output: ref('RecordedOutputUsage') })), description: 'The measured per-modality vector.' },
    cost_usd_micros: { ...orNull(integer(0)), description: 'Billed cost in 1e-6 USD; null when not charged.' },
    disputed: { ...boolean(), description: 'The upstream\'s usage report broke a hard plausibility bound and was billed otherwise (docs/metering.md).' },
  }),
  CostAmount: object(
    { value: { ...number(), description: 'Whole USD units.' }, currency: { ...constant('usd'), default: 'usd' } },
    { optional: ['currency'] },
  ),
};

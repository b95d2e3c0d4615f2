// GET /v1/organization/requests (docs/costs.md): the organization's latest requests, newest first,
// OpenAI's list shape with an `after` cursor naming the last entry of the previous page.
import { ApiError, RequestValidationError, type ValidationIssue } from '../../common/api-error';
import type { RequestLogEntry, RequestLogPage } from '../request-log/request-log.read-model';
import { integer, scalar, type RawCostQuery } from './cost-query';

export const DEFAULT_REQUESTS_LIMIT = 20;
export const MAX_REQUESTS_LIMIT = 100;

export interface RequestListQuery {
  limit: number;
  after: string | null;
}

export function parseRequestListQuery(raw: RawCostQuery): RequestListQuery {
  const issues: ValidationIssue[] = [];
  const limit = integer(raw, 'limit', { ge: 1, le: MAX_REQUESTS_LIMIT }, issues);
  if (issues.length > 0) throw new RequestValidationError(issues);
  return { limit: limit ?? DEFAULT_REQUESTS_LIMIT, after: scalar(raw, 'after') || null };
}

export interface RequestListEntry {
  object: 'organization.request';
  id: string;
  /** Unix seconds. */
  created_at: number;
  model: string;
  endpoint: string;
  api_key_id: string | null;
  /** The measured per-modality vector, null until the request's UsageMeasured is projected. */
  usage: { input: unknown; output: unknown } | null;
  /** Billed cost in USD micros; null when not charged or not priced yet. */
  cost_usd_micros: number | null;
  disputed: boolean;
}

export interface RequestList {
  object: 'list';
  data: RequestListEntry[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/** The page; a null page (the cursor names no entry) is a 400 the client can act on. */
export function buildRequestList(page: RequestLogPage | null): RequestList {
  if (page === null) {
    throw ApiError.badRequest('invalid_cursor', 'after names no request of this organization\'s log (unknown, or older than the entries kept). Start again without after.', 'after');
  }
  const data = page.entries.map(toListEntry);
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: page.hasMore };
}

function toListEntry(entry: RequestLogEntry): RequestListEntry {
  return {
    object: 'organization.request',
    id: entry.requestId,
    created_at: Math.floor(Date.parse(entry.occurredAt) / 1000),
    model: entry.model,
    endpoint: entry.endpoint,
    api_key_id: entry.keyId,
    usage: entry.usage === null ? null : (JSON.parse(entry.usage) as RequestListEntry['usage']),
    cost_usd_micros: entry.costUsdMicros === null ? null : Number(entry.costUsdMicros),
    disputed: entry.disputed,
  };
}

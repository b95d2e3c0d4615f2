// Validation of GET /v1/organization/costs query parameters. Ill-typed or out-of-range values give the
// spec's 422 detail (pydantic-style loc/msg/type); an inverted time range gives 400 invalid_time_range.
import { RequestValidationError, type ValidationIssue } from '../../common/api-error';

export type RawCostQuery = Record<string, string | string[] | undefined>;

export interface CostQuery {
  startTime: number;
  /** null: now (resolved when the page is planned). */
  endTime: number | null;
  groupByLineItem: boolean;
  /** Buckets per page. */
  limit: number;
  page: string | null;
}

export const DEFAULT_LIMIT = 7;
export const MAX_LIMIT = 31;

/** A repeated scalar parameter counts with its last value, as FastAPI does. */
function scalar(raw: RawCostQuery, name: string): string | undefined {
  const value = raw[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

function list(raw: RawCostQuery, ...names: string[]): string[] {
  return names.flatMap((name) => raw[name] ?? []);
}

function integer(raw: RawCostQuery, name: string, bounds: { ge: number; le?: number }, issues: ValidationIssue[]): number | undefined {
  const input = scalar(raw, name);
  if (input === undefined) return undefined;
  const value = /^[+-]?\d+$/.test(input.trim()) ? Number(input) : NaN;
  const loc = ['query', name];
  if (!Number.isSafeInteger(value)) {
    issues.push({ loc, msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input });
  } else if (value < bounds.ge) {
    issues.push({ loc, msg: `Input should be greater than or equal to ${bounds.ge}`, type: 'greater_than_equal', input, ctx: { ge: bounds.ge } });
  } else if (bounds.le !== undefined && value > bounds.le) {
    issues.push({ loc, msg: `Input should be less than or equal to ${bounds.le}`, type: 'less_than_equal', input, ctx: { le: bounds.le } });
  } else {
    return value;
  }
  return undefined;
}

function literal(loc: (string | number)[], input: string, expected: string, issues: ValidationIssue[]): void {
  if (input !== expected) issues.push({ loc, msg: `Input should be '${expected}'`, type: 'literal_error', input, ctx: { expected: `'${expected}'` } });
}

export function parseCostQuery(raw: RawCostQuery): CostQuery {
  const issues: ValidationIssue[] = [];
  const startTime = integer(raw, 'start_time', { ge: 0 }, issues);
  if (scalar(raw, 'start_time') === undefined) issues.push({ loc: ['query', 'start_time'], msg: 'Field required', type: 'missing', input: null });
  const endTime = integer(raw, 'end_time', { ge: 0 }, issues);
  const limit = integer(raw, 'limit', { ge: 1, le: MAX_LIMIT }, issues);
  const bucketWidth = scalar(raw, 'bucket_width');
  if (bucketWidth !== undefined) literal(['query', 'bucket_width'], bucketWidth, '1d', issues);
  const groupBy = list(raw, 'group_by', 'group_by[]');
  groupBy.forEach((value, index) => literal(['query', 'group_by', index], value, 'line_item', issues));
  if (issues.length > 0) throw new RequestValidationError(issues);
  return {
    startTime: startTime!,
    endTime: endTime ?? null,
    groupByLineItem: groupBy.length > 0,
    limit: limit ?? DEFAULT_LIMIT,
    page: scalar(raw, 'page') || null,
  };
}

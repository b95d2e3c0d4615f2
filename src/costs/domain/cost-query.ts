// Validation of GET /v1/organization/costs query parameters. Ill-typed or out-of-range values give the
// spec's 422 detail (pydantic-style loc/msg/type); an inverted time range gives 400 invalid_time_range.
import { RequestValidationError, type ValidationIssue } from '../../common/api-error';

export type RawCostQuery = Record<string, string | string[] | undefined>;

/** `line_item` is the spec's; `model` and `api_key_id` are this gateway's extensions (docs/costs.md). */
export const COST_GROUPINGS = ['line_item', 'model', 'api_key_id'] as const;
export type CostGrouping = (typeof COST_GROUPINGS)[number];

export interface CostQuery {
  startTime: number;
  /** null: now (resolved when the page is planned). */
  endTime: number | null;
  /** null: one total per day. */
  groupBy: CostGrouping | null;
  /** Buckets per page. */
  limit: number;
  page: string | null;
}

export const DEFAULT_LIMIT = 7;
export const MAX_LIMIT = 31;

/** A repeated scalar parameter counts with its last value, as FastAPI does. */
export function scalar(raw: RawCostQuery, name: string): string | undefined {
  const value = raw[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

function list(raw: RawCostQuery, ...names: string[]): string[] {
  return names.flatMap((name) => raw[name] ?? []);
}

export function integer(raw: RawCostQuery, name: string, bounds: { ge: number; le?: number }, issues: ValidationIssue[]): number | undefined {
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

function literal(loc: (string | number)[], input: string, expected: readonly string[], issues: ValidationIssue[]): void {
  if (expected.includes(input)) return;
  const quoted = expected.map((value) => `'${value}'`);
  const choices = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
  issues.push({ loc, msg: `Input should be ${choices}`, type: 'literal_error', input, ctx: { expected: choices } });
}

/** One grouping per query: repeating it is harmless, mixing two is refused (buckets hold one kind of result). */
function grouping(values: string[], issues: ValidationIssue[]): CostGrouping | null {
  values.forEach((value, index) => literal(['query', 'group_by', index], value, COST_GROUPINGS, issues));
  const distinct = [...new Set(values)];
  if (distinct.length > 1 && issues.length === 0) {
    issues.push({ loc: ['query', 'group_by'], msg: 'Value error, group by one of line_item, model or api_key_id at a time', type: 'value_error', input: values });
  }
  return (distinct[0] as CostGrouping | undefined) ?? null;
}

export function parseCostQuery(raw: RawCostQuery): CostQuery {
  const issues: ValidationIssue[] = [];
  const startTime = integer(raw, 'start_time', { ge: 0 }, issues);
  if (scalar(raw, 'start_time') === undefined) issues.push({ loc: ['query', 'start_time'], msg: 'Field required', type: 'missing', input: null });
  const endTime = integer(raw, 'end_time', { ge: 0 }, issues);
  const limit = integer(raw, 'limit', { ge: 1, le: MAX_LIMIT }, issues);
  const bucketWidth = scalar(raw, 'bucket_width');
  if (bucketWidth !== undefined) literal(['query', 'bucket_width'], bucketWidth, ['1d'], issues);
  const groupBy = grouping(list(raw, 'group_by', 'group_by[]'), issues);
  if (issues.length > 0) throw new RequestValidationError(issues);
  return {
    startTime: startTime!,
    endTime: endTime ?? null,
    groupBy,
    limit: limit ?? DEFAULT_LIMIT,
    page: scalar(raw, 'page') || null,
  };
}

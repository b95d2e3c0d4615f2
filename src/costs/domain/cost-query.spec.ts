import { RequestValidationError } from '../../common/api-error';
import { parseCostQuery, type RawCostQuery } from './cost-query';

function issuesOf(raw: RawCostQuery): unknown[] {
  try {
    parseCostQuery(raw);
  } catch (error) {
    if (error instanceof RequestValidationError) return error.detail;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('parseCostQuery', () => {
  it('applies the defaults', () => {
    expect(parseCostQuery({ start_time: '86400' })).toEqual({ startTime: 86400, endTime: null, groupBy: null, limit: 7, page: null });
  });

  it('reads every parameter, group_by in both the plain and the bracket form', () => {
    const query = { start_time: '0', end_time: '172800', bucket_width: '1d', limit: '31', page: 'abc' };
    expect(parseCostQuery({ ...query, group_by: 'line_item' })).toEqual({ startTime: 0, endTime: 172800, groupBy: 'line_item', limit: 31, page: 'abc' });
    expect(parseCostQuery({ ...query, 'group_by[]': ['line_item'] }).groupBy).toBe('line_item');
  });

  it('groups by model or api_key_id (extensions), a repeated grouping counting once', () => {
    expect(parseCostQuery({ start_time: '0', group_by: 'model' }).groupBy).toBe('model');
    expect(parseCostQuery({ start_time: '0', 'group_by[]': ['api_key_id', 'api_key_id'] }).groupBy).toBe('api_key_id');
  });

  it('refuses two different groupings at once and names the accepted ones for an unknown one', () => {
    expect(issuesOf({ start_time: '0', group_by: ['model', 'line_item'] })).toEqual([
      { loc: ['query', 'group_by'], msg: 'Value error, group by one of line_item, model or api_key_id at a time', type: 'value_error', input: ['model', 'line_item'] },
    ]);
    expect(issuesOf({ start_time: '0', group_by: 'project_id' })).toEqual([
      { loc: ['query', 'group_by', 0], msg: "Input should be 'line_item', 'model' or 'api_key_id'", type: 'literal_error', input: 'project_id', ctx: { expected: "'line_item', 'model' or 'api_key_id'" } },
    ]);
  });

  it('accepts the limit edges 1 and 31 and rejects 0 and 32', () => {
    expect(parseCostQuery({ start_time: '0', limit: '1' }).limit).toBe(1);
    expect(parseCostQuery({ start_time: '0', limit: '31' }).limit).toBe(31);
    expect(issuesOf({ start_time: '0', limit: '0' })).toEqual([
      { loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal', input: '0', ctx: { ge: 1 } },
    ]);
    expect(issuesOf({ start_time: '0', limit: '32' })).toEqual([
      { loc: ['query', 'limit'], msg: 'Input should be less than or equal to 31', type: 'less_than_equal', input: '32', ctx: { le: 31 } },
    ]);
  });

  it('reports a missing start_time and ill-typed values together', () => {
    const issues = issuesOf({ end_time: 'soon', limit: '2.5' }) as { loc: unknown[]; type: string }[];
    expect(issues.map((issue) => [issue.loc, issue.type])).toEqual([
      [['query', 'start_time'], 'missing'],
      [['query', 'end_time'], 'int_parsing'],
      [['query', 'limit'], 'int_parsing'],
    ]);
  });

  it('rejects negative times, other bucket widths and other groupings', () => {
    const issues = issuesOf({ start_time: '-1', bucket_width: '1h', group_by: ['line_item', 'project_id'] }) as { loc: unknown[]; type: string }[];
    expect(issues.map((issue) => [issue.loc, issue.type])).toEqual([
      [['query', 'start_time'], 'greater_than_equal'],
      [['query', 'bucket_width'], 'literal_error'],
      [['query', 'group_by', 1], 'literal_error'],
    ]);
  });

  it('takes the last value of a repeated scalar parameter', () => {
    expect(parseCostQuery({ start_time: ['5', '10'] }).startTime).toBe(10);
  });
});

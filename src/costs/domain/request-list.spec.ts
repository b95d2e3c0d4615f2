import { ApiError, RequestValidationError } from '../../common/api-error';
import { buildRequestList, parseRequestListQuery } from './request-list';

describe('parseRequestListQuery', () => {
  it('defaults to 20 and accepts the edges 1 and 100', () => {
    expect(parseRequestListQuery({})).toEqual({ limit: 20, after: null });
    expect(parseRequestListQuery({ limit: '1', after: 'req_1' })).toEqual({ limit: 1, after: 'req_1' });
    expect(parseRequestListQuery({ limit: '100' }).limit).toBe(100);
  });

  it.each([['0', 'greater_than_equal'], ['101', 'less_than_equal'], ['1.5', 'int_parsing']])('422 for limit=%s (%s)', (limit, type) => {
    try {
      parseRequestListQuery({ limit });
      throw new Error('expected a validation error');
    } catch (error) {
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).detail).toEqual([expect.objectContaining({ loc: ['query', 'limit'], type })]);
    }
  });
});

describe('buildRequestList', () => {
  const entry = { requestId: 'r2', occurredAt: '2025-03-10T12:00:00.900Z', model: 'aria', endpoint: '/v1/chat/completions', keyId: null, usage: '{"input":{},"output":{}}', priced: true, costUsdMicros: 12n, disputed: false };

  it('maps entries to the list shape with first/last ids', () => {
    expect(buildRequestList({ entries: [entry, { ...entry, requestId: 'r1', usage: null, costUsdMicros: null }], hasMore: true })).toEqual({
      object: 'list',
      first_id: 'r2',
      last_id: 'r1',
      has_more: true,
      data: [
        { object: 'organization.request', id: 'r2', created_at: 1741608000, model: 'aria', endpoint: '/v1/chat/completions', api_key_id: null, usage: { input: {}, output: {} }, cost_usd_micros: 12, disputed: false },
        expect.objectContaining({ id: 'r1', usage: null, cost_usd_micros: null }),
      ],
    });
    expect(buildRequestList({ entries: [], hasMore: false })).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
  });

  it('400 invalid_cursor when after named no entry', () => {
    expect(() => buildRequestList(null)).toThrow(ApiError);
    try {
      buildRequestList(null);
    } catch (error) {
      expect(error).toMatchObject({ status: 400, code: 'invalid_cursor', param: 'after' });
    }
  });
});

import { eventIdFor, newRequestId, requestStreamId, uuidV5 } from './event-ids';
import { comparePositions } from './event-store.port';

describe('uuidV5', () => {
  it('matches the RFC 9562 reference value for the DNS namespace', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('rejects a malformed namespace', () => {
    expect(() => uuidV5('x', 'not-a-uuid')).toThrow('invalid namespace');
  });
});

describe('eventIdFor', () => {
  it('is deterministic per request and type (value cross-checked with Python uuid.uuid5)', () => {
    expect(eventIdFor('req_1', 'CostPriced')).toBe('c65b68ca-dd1f-52ab-a795-4bab1acd4aa7');
    expect(eventIdFor('req_1', 'CostPriced')).toBe(eventIdFor('req_1', 'CostPriced'));
  });

  it('differs across types and requests', () => {
    const ids = new Set([eventIdFor('req_1', 'CostPriced'), eventIdFor('req_1', 'UsageMeasured'), eventIdFor('req_2', 'CostPriced')]);
    expect(ids.size).toBe(3);
  });

  it('keeps a UUIDv7 request id\'s timestamp in front of a version 8 id, so ids sort by request time', () => {
    const requestId = '019a8f3c-5d2e-7b41-9c3a-0d1e2f3a4b5c';
    const id = eventIdFor(requestId, 'CostPriced');
    expect(id).toMatch(/^019a8f3c-5d2e-8b41-9c3a-[0-9a-f]{12}$/);
    expect(eventIdFor(requestId, 'CostPriced')).toBe(id);
    expect(eventIdFor(requestId, 'UsageMeasured')).not.toBe(id);
    expect(eventIdFor('019a8f3c-5d2f-7000-8000-000000000000', 'CostPriced') > id).toBe(true);
  });

  it('gives every type of one request its own id, and different requests different ids', () => {
    const requests = Array.from({ length: 2000 }, () => newRequestId());
    const types = ['RequestAdmitted', 'UsageMeasured', 'CostPriced', 'ModelStatusChanged'];
    const ids = requests.flatMap((requestId) => types.map((type) => eventIdFor(requestId, type)));
    expect(new Set(ids).size).toBe(requests.length * types.length);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('reads an upper-case UUIDv7 request id and writes a lower-case id', () => {
    const requestId = '019a8f3c-5d2e-7b41-9c3a-0d1e2f3a4b5c';
    expect(eventIdFor(requestId.toUpperCase(), 'CostPriced')).toBe(eventIdFor(requestId, 'CostPriced'));
  });

  it('names the per-request stream', () => {
    expect(requestStreamId('req_1')).toBe('request-req_1');
  });
});

describe('newRequestId', () => {
  it('gives UUIDv7 ids in creation order', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('comparePositions', () => {
  it('orders single-component positions numerically, not as text', () => {
    expect(comparePositions('9', '10')).toBe(-1);
    expect(comparePositions('10', '9')).toBe(1);
    expect(comparePositions('10', '10')).toBe(0);
  });

  it('orders commit/prepare positions component by component', () => {
    expect(comparePositions('5/7', '5/9')).toBe(-1);
    expect(comparePositions('6/0', '5/9')).toBe(1);
    expect(comparePositions('18446744073709551615/1', '18446744073709551615/1')).toBe(0);
  });
});

// The request log on real SQLite: entries merged from the three billing events of a request, whatever
// page each arrives in, and the per-organization bound held at and past its edge.
import Database from 'better-sqlite3';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { costPriced, lineItem } from '../../../test/support/projection-test-events';
import { RequestLogProjection } from './request-log.projection';
import { RequestLogReadModel } from './request-log.read-model';

let position = 0;
const recorded = (type: string, data: unknown): RecordedEvent =>
  ({ id: `e${++position}`, type, streamId: 's', revision: 0, position: String(position), data, metadata: {}, recordedAt: '' }) as RecordedEvent;
const at = '2025-03-10T12:00:00.000Z';
const measured = (requestId: string, organizationId = 'org-a') =>
  recorded('UsageMeasured', { requestId, organizationId, keyId: `key-${requestId}`, model: 'gpt-mini', endpoint: '/v1/chat/completions', input: { text: { tokens: 3 } }, output: { text: { tokens: 4 } }, occurredAt: at });
const priced = (requestId: string, micros: number, organizationId = 'org-a') => recorded('CostPriced', costPriced(requestId, organizationId, at, [lineItem('x', micros, '1')]));
// No severity: an event recorded before the two tiers, which reads as hard.
const disputed = (requestId: string, severity?: 'soft' | 'hard') =>
  recorded('UsageDisputed', { requestId, organizationId: 'org-a', keyId: `key-${requestId}`, model: 'gpt-mini', endpoint: '/v1/chat/completions', severity, disputes: [], occurredAt: at });

function open(bound: number) {
  const db = new Database(':memory:');
  return { projection: new RequestLogProjection(db, bound), log: new RequestLogReadModel(db) };
}

describe('request log projection', () => {
  it('merges a request\'s measurement, price and dispute into one entry across pages', () => {
    const { projection, log } = open(10);
    projection.applyPage([measured('r1')]);
    projection.applyPage([priced('r1', 42), disputed('r1')]);
    expect(log.page('org-a', 10, null)).toEqual({
      hasMore: false,
      entries: [{ requestId: 'r1', occurredAt: at, model: 'gpt-mini', endpoint: '/v1/chat/completions', keyId: 'key-r1', usage: JSON.stringify({ input: { text: { tokens: 3 } }, output: { text: { tokens: 4 } } }), priced: true, costUsdMicros: 42n, disputed: true }],
    });
  });

  it('flags a hard dispute (and one without severity), not a soft one billed as reported', () => {
    const { projection, log } = open(10);
    projection.applyPage([measured('r1'), priced('r1', 1), disputed('r1', 'soft')]);
    projection.applyPage([measured('r2'), priced('r2', 1), disputed('r2', 'hard')]);
    expect(log.page('org-a', 10, null)!.entries.map((e) => [e.requestId, e.disputed])).toEqual([['r2', true], ['r1', false]]);
  });

  it('keeps the newest entries up to the bound per organization: exactly the bound stays, one more drops the oldest', () => {
    const { projection, log } = open(3);
    projection.applyPage(['r1', 'r2', 'r3'].flatMap((id) => [measured(id), priced(id, 1)]));
    projection.applyPage([measured('other', 'org-b'), priced('other', 1, 'org-b')]);
    expect(log.page('org-a', 10, null)!.entries.map((e) => e.requestId)).toEqual(['r3', 'r2', 'r1']);
    projection.applyPage([measured('r4'), priced('r4', 1)]);
    expect(log.page('org-a', 10, null)!.entries.map((e) => e.requestId)).toEqual(['r4', 'r3', 'r2']);
    expect(log.page('org-b', 10, null)!.entries.map((e) => e.requestId)).toEqual(['other']);
    expect(log.page('org-a', 10, 'r1')).toBeNull();
    expect(log.page('org-a', 1, 'r3')).toEqual({ entries: [expect.objectContaining({ requestId: 'r2' })], hasMore: false });
    expect(log.page('org-b', 10, 'r3')).toBeNull();
  });

  it('records a priced but not charged request with a null cost', () => {
    const { projection, log } = open(3);
    projection.applyPage([measured('r1'), recorded('CostPriced', { ...costPriced('r1', 'org-a', at, []), costUsdMicros: null })]);
    expect(log.page('org-a', 1, null)!.entries[0]).toMatchObject({ priced: true, costUsdMicros: null });
  });
});

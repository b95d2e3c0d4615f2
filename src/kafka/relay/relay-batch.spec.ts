import type { RecordedEvent } from '../../event-store/event-store.port';
import { relayBatchOf } from './relay-batch';

const event = (id: string, type: string, data: unknown, position: string): RecordedEvent => ({
  id,
  type,
  data,
  position,
  streamId: `s-${id}`,
  revision: 0,
  metadata: { schemaVersion: 1 },
  recordedAt: '2026-01-01T00:00:00.000Z',
});

describe('relayBatchOf', () => {
  it('maps relayed events, skips internal ones and parks the ones that cannot be keyed', () => {
    const now = new Date('2026-01-02T03:04:05.000Z');
    const batch = relayBatchOf(
      [
        event('a', 'CostPriced', { organizationId: 'org-a', costUsdMicros: 1 }, '1'),
        event('b', 'RequestAdmitted', { organizationId: 'org-a' }, '2'),
        event('c', 'UsageMeasured', null, '3'),
        event('d', 'CostPriced', { organizationId: 42 }, '4'),
        event('e', 'UsageMeasured', { organizationId: 'org-b' }, '5'),
      ],
      'test.',
      now,
    );
    expect(batch.messages.map((message) => [message.headers['event-id'], message.topic, message.key])).toEqual([
      ['a', 'test.gateway.cost-priced.v1', 'org-a'],
      ['e', 'test.gateway.usage-measured.v1', 'org-b'],
    ]);
    expect(batch.parked).toEqual([
      { position: '3', eventId: 'c', eventType: 'UsageMeasured', streamId: 's-c', reason: 'Error: event c (UsageMeasured) has no organizationId to key its message by', parkedAt: '2026-01-02T03:04:05.000Z' },
      { position: '4', eventId: 'd', eventType: 'CostPriced', streamId: 's-d', reason: 'Error: event d (CostPriced) has no organizationId to key its message by', parkedAt: '2026-01-02T03:04:05.000Z' },
    ]);
  });
});

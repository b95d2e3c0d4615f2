// Two charges that cross the same budget threshold at once, on a real SQLite store (event ids unique
// store-wide): both are recorded, and the crossing once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { eventIdFor, newRequestId, requestStreamId } from '../event-store/event-ids';
import type { NewEvent } from '../event-store/event-store.port';
import { appendCharge } from './append-charge';

const dir = mkdtempSync(join(tmpdir(), 'append-charge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function charge(requestId: string): NewEvent[] {
  const crossing: NewEvent = { id: '6f2b4a39-3c1e-5d7a-9b0e-2f4c6a8e1d35', type: 'BudgetThresholdCrossed', data: { thresholdPercent: 50, requestId } };
  return [
    { id: eventIdFor(requestId, 'UsageMeasured'), type: 'UsageMeasured', data: { requestId } },
    { id: eventIdFor(requestId, 'CostPriced'), type: 'CostPriced', data: { requestId, costUsdMicros: 7 } },
    crossing,
  ];
}

it('records both charges that crossed the same threshold together, and the crossing once', async () => {
  const store = await SqliteEventStore.open(dir);
  try {
    const requests = [newRequestId(), newRequestId()];
    await Promise.all(requests.map((requestId) => appendCharge((events) => store.append(requestStreamId(requestId), events), charge(requestId))));
    const events = await store.readAll({ after: null, maxCount: 100 });
    expect(events.filter((e) => e.type === 'CostPriced').map((e) => e.streamId).sort()).toEqual(requests.map(requestStreamId).sort());
    expect(events.filter((e) => e.type === 'BudgetThresholdCrossed')).toHaveLength(1);
  } finally {
    await store.close();
  }
});

import { CatchUpSubscriptions, type CatchUpSource, type CatchUpTiming } from './catch-up-subscription';
import type { RecordedEvent } from './event-store.port';

/** An in-memory log whose positions are 1, 2, 3, ...; counts the reads it serves. */
class CountingLog implements CatchUpSource {
  readonly events: RecordedEvent[] = [];
  reads = 0;

  push(): void {
    const position = String(this.events.length + 1);
    this.events.push({ id: position, type: 'Tick', streamId: 's', revision: this.events.length, position, data: {}, metadata: {}, recordedAt: '' });
  }

  async readAll({ after, maxCount }: { after: string | null; maxCount: number }): Promise<RecordedEvent[]> {
    this.reads += 1;
    return this.events.slice(after === null ? 0 : Number(after), (after === null ? 0 : Number(after)) + maxCount);
  }
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function deliverTenCommits(batchWindowMs: number): Promise<{ reads: number; delivered: string[] }> {
  const log = new CountingLog();
  const timing: CatchUpTiming = { pollIntervalMs: 60_000, retryDelayMs: 10, pageSize: 100, batchWindowMs };
  const subscriptions = new CatchUpSubscriptions(log, timing);
  const delivered: string[] = [];
  const subscription = subscriptions.open({ after: null }, (event) => void delivered.push(event.position));
  await nextTurn();
  for (let commit = 0; commit < 10; commit += 1) {
    log.push();
    subscriptions.wakeAll();
    await nextTurn();
  }
  while (delivered.length < 10) await new Promise((resolve) => setTimeout(resolve, 5));
  await subscription.stop();
  return { reads: log.reads, delivered };
}

describe('CatchUpSubscription batch window', () => {
  it('reads once per wake without a window', async () => {
    const { reads, delivered } = await deliverTenCommits(0);
    expect(delivered).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(reads).toBeGreaterThanOrEqual(10);
  });

  it('gathers the commits of one window into one read, in order', async () => {
    const { reads, delivered } = await deliverTenCommits(200);
    expect(delivered).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    // The read at subscribe time, then one read after the window for all ten commits.
    expect(reads).toBe(2);
  });

  it('reads at once when woken after a quiet spell longer than the window', async () => {
    const log = new CountingLog();
    const subscriptions = new CatchUpSubscriptions(log, { pollIntervalMs: 60_000, retryDelayMs: 10, pageSize: 100, batchWindowMs: 1000 });
    const delivered: number[] = [];
    const subscription = subscriptions.open({ after: null }, () => void delivered.push(performance.now()));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const wokenAt = performance.now();
    log.push();
    subscriptions.wakeAll();
    while (delivered.length < 1) await nextTurn();
    await subscription.stop();
    // A wrongly applied window would hold this delivery for a whole second.
    expect(delivered[0] - wokenAt).toBeLessThan(500);
  });
});

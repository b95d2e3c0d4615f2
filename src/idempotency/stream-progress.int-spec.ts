// The progress journal on a real directory and the recovery on a real SQLite store.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { eventIdFor, newRequestId, requestStreamId } from '../event-store/event-ids';
import { PROGRESS_BYTES, PROGRESS_INTERVAL_MS, StreamProgressJournal, type PendingCharge } from './stream-progress';
import { recoverCutStreams } from './recover-cut-streams';

function pendingOf(requestId: string, tokens: number): PendingCharge {
  const data = { requestId, tokens };
  return { streamId: requestStreamId(requestId), events: [{ id: eventIdFor(requestId, 'UsageMeasured'), type: 'UsageMeasured', data }, { id: eventIdFor(requestId, 'CostPriced'), type: 'CostPriced', data }] };
}

async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !check(); await new Promise((resolve) => setTimeout(resolve, 5))) if (Date.now() > deadline) throw new Error('condition not met');
}

describe('stream progress', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'gw-progress-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes at the first content, then once per interval or per 64 KB, and deletes the file once settled', async () => {
    let now = 0;
    const journal = new StreamProgressJournal(dataDir, () => now);
    const requestId = newRequestId();
    const tracker = journal.track(requestId);
    const built: number[] = [];
    const observe = (bytes: number, tokens: number) => tracker.observe(bytes, () => (built.push(tokens), pendingOf(requestId, tokens)));
    observe(10, 1);
    await until(() => readdirSync(journal.dir).includes(`${requestId}.json`));
    now = PROGRESS_INTERVAL_MS - 1;
    observe(10, 2);
    now = PROGRESS_INTERVAL_MS;
    observe(10, 3);
    const recorded = () => {
      try {
        return readFileSync(join(journal.dir, `${requestId}.json`), 'utf8');
      } catch {
        return '';
      }
    };
    await until(() => recorded().includes('"tokens":3'));
    observe(PROGRESS_BYTES - 1, 4);
    observe(1, 5);
    expect(built).toEqual([1, 3, 5]);
    await until(() => recorded().includes('"tokens":5'));
    await tracker.settled();
    expect(readdirSync(journal.dir)).toEqual([]);
  });

  it('recovers a dead process\'s progress once, with the charge\'s own ids; a settled stream is left alone', async () => {
    const store = await SqliteEventStore.open(dataDir);
    const journal = new StreamProgressJournal(dataDir);
    const [cut, settled] = [newRequestId(), newRequestId()];
    for (const [requestId, tokens] of [[cut, 7], [settled, 9]] as const) journal.track(requestId).observe(1, () => pendingOf(requestId, tokens));
    await until(() => readdirSync(journal.dir).filter((name) => name.endsWith('.json')).length === 2);
    await store.append(requestStreamId(settled), pendingOf(settled, 12).events);
    // This process's own directory is a previous life's at start-up.
    expect(await recoverCutStreams(store, dataDir)).toEqual({ charged: 1, alreadyCharged: 1 });
    const cutEvents = await store.readStream(requestStreamId(cut));
    expect(cutEvents.map((event) => [event.id, event.data, event.metadata.recoveredFrom])).toEqual([
      [eventIdFor(cut, 'UsageMeasured'), { requestId: cut, tokens: 7 }, 'stream_progress'],
      [eventIdFor(cut, 'CostPriced'), { requestId: cut, tokens: 7 }, 'stream_progress'],
    ]);
    expect((await store.readStream(requestStreamId(settled))).map((event) => (event.data as { tokens: number }).tokens)).toEqual([12, 12]);
    expect(await recoverCutStreams(store, dataDir)).toEqual({ charged: 0, alreadyCharged: 0 });
    await store.close();
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { registerEventStoreContract } from '../../../test/support/event-store.contract';
import type { RecordedEvent } from '../event-store.port';
import { SqliteEventStore } from './sqlite-event-store';

const dataDir = mkdtempSync(join(tmpdir(), 'sqlite-event-store-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

registerEventStoreContract('SQLite', () => ({ open: () => SqliteEventStore.open(dataDir) }));

describe('SqliteEventStore specifics', () => {
  jest.setTimeout(60_000);
  const event = (n: number) => ({ id: randomUUID(), type: 'E', data: { n } });

  it('shares commits between concurrent appends (group commit)', async () => {
    const store = await SqliteEventStore.open(dataDir);
    try {
      await Promise.all(Array.from({ length: 100 }, (_, n) => store.append(`group-${randomUUID()}`, [event(n)])));
      expect(store.largestCommitBatch).toBeGreaterThan(1);
    } finally {
      await store.close();
    }
  });

  it('lets a second instance on the same file see new events through polling', async () => {
    const writer = await SqliteEventStore.open(dataDir);
    const watcher = await SqliteEventStore.open(dataDir);
    try {
      const head = await watcher.headPosition();
      const seen = new Promise<RecordedEvent>((resolve) => watcher.subscribeToAll({ after: head }, resolve));
      const appended = event(1);
      await writer.append('replica-stream', [appended]);
      expect((await seen).id).toBe(appended.id);
    } finally {
      await Promise.all([writer.close(), watcher.close()]);
    }
  });

  it('reads the same events from its recent appends as from the file, with another process writing between them', async () => {
    const local = await SqliteEventStore.open(dataDir);
    const other = await SqliteEventStore.open(dataDir);
    try {
      const before = await local.headPosition();
      await local.append(`mixed-${randomUUID()}`, [event(1), event(2)]);
      await other.append(`mixed-${randomUUID()}`, [event(3)]);
      await local.append(`mixed-${randomUUID()}`, [event(4)]);
      const freshReader = await SqliteEventStore.open(dataDir);
      const fromFile = await freshReader.readAll({ after: before, maxCount: 10 });
      await freshReader.close();
      expect(fromFile.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3, 4]);
      expect(await local.readAll({ after: before, maxCount: 10 })).toEqual(fromFile);
      expect(await local.readAll({ after: fromFile[2].position, maxCount: 10 })).toEqual(fromFile.slice(3));
      expect(await local.readAll({ after: before, maxCount: 1 })).toEqual(fromFile.slice(0, 1));
    } finally {
      await Promise.all([local.close(), other.close()]);
    }
  });

  it('gives two subscriptions on one store every local append, in order', async () => {
    const store = await SqliteEventStore.open(dataDir);
    try {
      const head = await store.headPosition();
      const reads = [0, 1].map(() => {
        const seen: number[] = [];
        const done = new Promise<void>((resolve) =>
          store.subscribeToAll({ after: head }, (e) => {
            seen.push((e.data as { n: number }).n);
            if (seen.length === 6) resolve();
          }),
        );
        return { seen, done };
      });
      for (let n = 1; n <= 3; n++) await store.append(`twice-${randomUUID()}`, [event(2 * n - 1), event(2 * n)]);
      await Promise.all(reads.map((r) => r.done));
      expect(reads.map((r) => r.seen)).toEqual([[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6]]);
    } finally {
      await store.close();
    }
  });

  it('delivers a subscription its own and another process’s commits interleaved, each once and in order', async () => {
    const local = await SqliteEventStore.open(dataDir);
    const other = await SqliteEventStore.open(dataDir);
    try {
      const head = await local.headPosition();
      const seen: number[] = [];
      const done = new Promise<void>((resolve) =>
        local.subscribeToAll({ after: head }, (e) => {
          seen.push((e.data as { n: number }).n);
          if (seen.length === 12) resolve();
        }),
      );
      for (let n = 1; n <= 12; n += 3) {
        await local.append(`interleaved-${randomUUID()}`, [event(n)]);
        await other.append(`interleaved-${randomUUID()}`, [event(n + 1)]);
        await local.append(`interleaved-${randomUUID()}`, [event(n + 2)]);
      }
      await done;
      expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    } finally {
      await Promise.all([local.close(), other.close()]);
    }
  });

  it('serves a live subscription its local commits from memory, without reading the file', async () => {
    const store = await SqliteEventStore.open(dataDir);
    try {
      const seen: number[] = [];
      let resolveDone: () => void = () => undefined;
      const done = new Promise<void>((resolve) => (resolveDone = resolve));
      // Caught up once the subscription has delivered an event appended before it started (a fixed wait
      // was too short for the history earlier tests leave on a loaded machine).
      const marker = `marker-${randomUUID()}`;
      await store.append(marker, [event(-1)]);
      const caughtUp = new Promise<void>((resolve) => {
        store.subscribeToAll({ after: null }, (e) => {
          if (e.streamId === marker) resolve();
          if (e.streamId.startsWith('memory-')) seen.push((e.data as { n: number }).n);
          if (seen.length === 40) resolveDone();
        });
      });
      await caughtUp;
      const fileReads = jest.spyOn(store, 'readAll');
      await Promise.all(Array.from({ length: 40 }, (_, n) => store.append(`memory-${randomUUID()}`, [event(n)])));
      await done;
      expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, n) => n));
      // Polls with nothing in memory may read the file; none of them may be what delivered these events.
      const readFromFile = (await Promise.all(fileReads.mock.results.map((r) => r.value as Promise<RecordedEvent[]>))).flat();
      expect(readFromFile.filter((e) => e.streamId.startsWith('memory-'))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('records a re-appended event once and reads it back from the file', async () => {
    const store = await SqliteEventStore.open(dataDir);
    try {
      const first = event(1);
      const stream = `again-${randomUUID()}`;
      const before = await store.headPosition();
      await store.append(stream, [first]);
      await store.append(stream, [first, event(2)]);
      const read = await store.readAll({ after: before, maxCount: 10 });
      expect(read.map((e) => [e.revision, (e.data as { n: number }).n])).toEqual([[0, 1], [1, 2]]);
    } finally {
      await store.close();
    }
  });

  it('rejects an empty append and data that is not JSON', async () => {
    const store = await SqliteEventStore.open(dataDir);
    try {
      await expect(store.append('s', [])).rejects.toThrow('at least one event');
      await expect(store.append('s', [{ id: randomUUID(), type: 'E', data: undefined }])).rejects.toThrow('JSON');
    } finally {
      await store.close();
    }
  });

  it('rejects a checkpoint that is not an SQLite position', async () => {
    const store = await SqliteEventStore.open(dataDir);
    try {
      await expect(store.readAll({ after: '12/34', maxCount: 1 })).rejects.toThrow('not an SQLite event store position');
    } finally {
      await store.close();
    }
  });
});

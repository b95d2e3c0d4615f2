import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { registerEventStoreContract } from '../event-store.contract';
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

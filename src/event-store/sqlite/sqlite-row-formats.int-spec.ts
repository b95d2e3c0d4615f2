// Both row formats (row-codec.ts): a store created before the compact format keeps its plain rows and
// passes the whole contract; a new store writes compact rows that read back as they were appended.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { registerEventStoreContract } from '../../../test/support/event-store.contract';
import { eventIdFor, newRequestId, requestStreamId } from '../event-ids';
import { EVENTS_FILE_NAME, SqliteEventStore } from './sqlite-event-store';
import { createPlainRowsStore } from './plain-rows-schema';

const PLAIN_ROW = { id: '01a20e3c-cf30-820b-a04f-8fd66793a701', stream: 'request-01a20e3c-cf30-720b-a04f-f767553a7d9e', at: '2026-11-20T10:00:00.000Z' };

function plainStoreDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-plain-rows-'));
  const db = new Database(createPlainRowsStore(dir));
  db.prepare('INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, 0, ?, ?, ?, ?)')
    .run(PLAIN_ROW.id, PLAIN_ROW.stream, 'RequestAdmitted', '{"requestId":"01a20e3c-cf30-720b-a04f-f767553a7d9e"}', '{"schemaVersion":1}', PLAIN_ROW.at);
  db.close();
  return dir;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const plainDir = plainStoreDir();
dirs.push(plainDir);

registerEventStoreContract('SQLite, a store created before the compact row format', () => ({ open: () => SqliteEventStore.open(plainDir) }));

function storedColumns(dir: string, position: string): unknown {
  const db = new Database(join(dir, EVENTS_FILE_NAME), { readonly: true });
  try {
    return db
      .prepare('SELECT typeof(event_id) AS id, typeof(stream_id) AS stream, typeof(recorded_at) AS at, length(data) AS dataBytes FROM events WHERE position = ?')
      .get(Number(position));
  } finally {
    db.close();
  }
}

describe('SQLite row formats', () => {
  jest.setTimeout(60_000);

  it('keeps an older store plain: its rows read back, a retried append is not stored twice, new rows are text', async () => {
    const store = await SqliteEventStore.open(plainDir);
    try {
      const [stored] = await store.readStream(PLAIN_ROW.stream);
      expect([stored.id, stored.recordedAt, stored.metadata, stored.data]).toEqual([PLAIN_ROW.id, PLAIN_ROW.at, { schemaVersion: 1 }, { requestId: '01a20e3c-cf30-720b-a04f-f767553a7d9e' }]);
      const again = await store.append(PLAIN_ROW.stream, [{ id: PLAIN_ROW.id, type: 'RequestAdmitted', data: {} }]);
      expect(again).toEqual({ nextExpectedRevision: 0, position: stored.position });
      const requestId = newRequestId();
      const { position } = await store.append(requestStreamId(requestId), [{ id: eventIdFor(requestId, 'E'), type: 'E', data: { n: 1 } }]);
      expect(storedColumns(plainDir, position)).toMatchObject({ id: 'text', stream: 'text', at: 'text' });
    } finally {
      await store.close();
    }
  });

  it('writes a new store compact: ids and request streams as bytes, time as an integer, the payload encoded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-compact-rows-'));
    dirs.push(dir);
    const store = await SqliteEventStore.open(dir);
    try {
      const requestId = newRequestId();
      const data = { requestId, organizationId: 'org-demo', keyId: 'key-demo', endpoint: '/v1/chat/completions', admittedAt: 1795535195962 };
      const event = { id: eventIdFor(requestId, 'RequestAdmitted'), type: 'RequestAdmitted', data, metadata: { schemaVersion: 1 } };
      const { position } = await store.append(requestStreamId(requestId), [event]);
      await store.append(`budget-${randomUUID()}`, [{ id: 'not-a-uuid', type: 'E', data: {} }]);
      expect(storedColumns(dir, position)).toMatchObject({ id: 'blob', stream: 'blob', at: 'integer' });
      expect((storedColumns(dir, position) as { dataBytes: number }).dataBytes).toBeLessThan(JSON.stringify(data).length * 0.6);
      const reopened = await SqliteEventStore.open(dir);
      try {
        const [fromFile] = await reopened.readAll({ after: null, maxCount: 1 });
        expect([fromFile.id, fromFile.streamId, fromFile.type, fromFile.data, fromFile.metadata]).toEqual([event.id, requestStreamId(requestId), 'RequestAdmitted', data, { schemaVersion: 1 }]);
        expect(fromFile.recordedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        const [budget] = await reopened.readAll({ after: position, maxCount: 1 });
        expect(budget.id).toBe('not-a-uuid');
      } finally {
        await reopened.close();
      }
    } finally {
      await store.close();
    }
  });
});

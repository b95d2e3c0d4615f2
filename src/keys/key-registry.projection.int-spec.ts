// The key registry projection on a real SQLite store and read-model database: it folds through the
// hub, wakes a writer once its event is folded, and a restart resumes from the snapshot instead of
// reading the store from the beginning.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { newRequestId } from '../event-store/event-ids';
import { openReadModelDb } from '../projections/read-model-db';
import { catchUpProjection } from '../projections/projection-runner';
import type { EventStore } from '../event-store/event-store.port';
import { KeyRegistryProjection } from './key-registry.projection';
import { decideIssue, decideRevoke } from './domain/api-key';

const at = '2026-11-24T00:00:00.000Z';
const hashOf = (c: string) => `sha256:${c.repeat(64)}`;
const issue = (keyId: string, c: string) =>
  decideIssue(null, { keyId, hash: hashOf(c), name: keyId, organizations: ['org-demo'], defaultOrganization: 'org-demo', expiresAt: null, limitUsd: '1', limitReset: null, rateLimit: null, at, by: 'm' });

async function append(store: EventStore, keyId: string, events: { type: string; data: unknown }[]) {
  return store.append(`api-key-${keyId}`, events.map((e) => ({ id: newRequestId(), type: e.type, data: e.data })));
}

describe('key registry projection', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'key-registry-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('folds key events among others, wakes a waiting writer, and resumes from its snapshot after a restart', async () => {
    const store = await SqliteEventStore.open(dir);
    const db = openReadModelDb(dir);
    const first = new KeyRegistryProjection(db);
    first.start();
    await append(store, 'key_a', issue('key_a', 'a'));
    await store.append('request-x', [{ id: newRequestId(), type: 'CostPriced', data: { unrelated: true } }]);
    const revoked = await append(store, 'key_a', decideRevoke({ ...issuedState(), keyId: 'key_a' }, { keyId: 'key_a', at, by: 'm' }));
    const waiting = first.reached(revoked.position, 5_000);
    await catchUpProjection(store, first);
    await expect(waiting).resolves.toBe(true);
    await expect(first.reached('999999', 10)).resolves.toBe(false);
    expect(first.registry.byKeyHash(hashOf('a'))!.record).toMatchObject({ id: 'key_a', revoked: true });
    first.stop();

    await append(store, 'key_b', issue('key_b', 'b'));
    const second = new KeyRegistryProjection(db);
    second.start();
    expect(second.checkpoint()).toBe(revoked.position);
    expect(second.registry.byKeyId('key_a')!.state.revoked).toBe(true);
    expect(await catchUpProjection(store, second)).toBe(1);
    expect(second.registry.byKeyId('key_b')).toBeDefined();
    second.stop();
    db.close();
    await store.close();
  });
});

function issuedState() {
  return { keyId: 'key_a', hash: hashOf('a'), name: 'a', organizations: ['org-demo'], defaultOrganization: 'org-demo', expiresAt: null, limitUsd: '1', limitReset: null, rateLimit: null, createdAt: at, updatedAt: at, disabled: false, revoked: false };
}

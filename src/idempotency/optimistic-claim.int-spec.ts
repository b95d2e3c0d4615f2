// The hook on a real SQLite store, counting what it asks of the key's stream: a new key is claimed
// without reading its stream (the `no_stream` claim first); a key whose stream exists in any state
// (recorded, released, past the retention) refuses that claim and is read and decided on as before.
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DelegatingEventStore } from '../event-store/delegating-event-store';
import type { AppendResult, ExpectedRevision, NewEvent, RecordedEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { idempotencyStreamId } from './idempotency-key';
import { installIdempotency } from './idempotency.hook';
import type { IdempotencyKeyClaimedV1 } from './idempotency.events';
import { KeyLedger } from './key-ledger';
import { ResponseBodies } from './response-bodies';

/** The key streams' reads and claim appends (with the revision each claim expected). */
class CountingStore extends DelegatingEventStore {
  reads: string[] = [];
  claims: { streamId: string; expected: ExpectedRevision | undefined; fresh: boolean }[] = [];

  override readStream(streamId: string): Promise<RecordedEvent[]> {
    if (streamId.startsWith('idempotency-')) this.reads.push(streamId);
    return super.readStream(streamId);
  }

  override append(streamId: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult> {
    for (const event of events) {
      if (event.type === 'IdempotencyKeyClaimed') this.claims.push({ streamId, expected: options?.expectedRevision, fresh: (event.data as IdempotencyKeyClaimedV1).fresh });
    }
    return super.append(streamId, events, options);
  }
}

describe('claiming a new Idempotency-Key without reading its stream', () => {
  let dataDir: string;
  let inner: SqliteEventStore;
  let store: CountingStore;
  let bodies: ResponseBodies;
  let app: FastifyInstance;
  let now: Date;
  let status: number;
  let calls: number;
  let baseUrl: string;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gw-optimistic-'));
    inner = await SqliteEventStore.open(dataDir);
    store = new CountingStore(inner);
    bodies = new ResponseBodies(dataDir);
    now = new Date('2026-11-28T12:00:00.000Z');
    status = 200;
    calls = 0;
    app = Fastify();
    const settings = { retentionMs: 60_000, maxResponseBytes: 1 << 20, leaseMs: 60_000, sweepIntervalMs: 600_000 };
    installIdempotency(app, { ledger: new KeyLedger(store), bodies, settings, now: () => now });
    app.post('/v1/chat/completions', async (_request, reply) => reply.code(status).send({ answer: ++calls }));
    baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await app.close();
    bodies.close();
    await inner.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  interface Answer {
    statusCode: number;
    replayed: string | null;
    body: string;
  }
  async function post(key: string, body: unknown = { model: 'aria' }): Promise<Answer> {
    const response = await fetch(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(body) });
    return { statusCode: response.status, replayed: response.headers.get('idempotent-replayed'), body: await response.text() };
  }
  const stream = (key: string) => idempotencyStreamId('management', key);

  it('claims a new key at no_stream without a read, and reads it for the retry, which is replayed', async () => {
    const first = await post('new-1');
    expect(first.statusCode).toBe(200);
    expect(store.reads).toEqual([]);
    expect(store.claims).toEqual([{ streamId: stream('new-1'), expected: 'no_stream', fresh: true }]);

    const retry = await post('new-1');
    expect(retry.replayed).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(calls).toBe(1);
    // The retry's no_stream claim is refused (the stream exists), then the stream is read once.
    expect(store.reads).toEqual([stream('new-1')]);
    expect(store.claims).toHaveLength(2);
  });

  it('answers a concurrent duplicate of a new key from the stream: one claim wins, one run', async () => {
    const answers = await Promise.all([post('dup-1'), post('dup-1'), post('dup-1')]);
    expect(calls).toBe(1);
    expect(answers.filter((answer) => answer.replayed === null && answer.statusCode === 200)).toHaveLength(1);
    for (const answer of answers) expect([200, 409]).toContain(answer.statusCode);
  });

  it('falls back to read and decide for a released key: claimed at its revision, not fresh', async () => {
    status = 503;
    expect((await post('released-1')).statusCode).toBe(503);
    status = 200;
    const again = await post('released-1');
    expect(again.statusCode).toBe(200);
    expect(again.replayed).toBeNull();
    expect(calls).toBe(2);
    expect(store.reads).toEqual([stream('released-1')]);
    expect(store.claims.slice(1)).toEqual([
      { streamId: stream('released-1'), expected: 'no_stream', fresh: true },
      { streamId: stream('released-1'), expected: 1, fresh: false },
    ]);
  });

  it('falls back to read and decide for a key past the retention: a new life at its revision, another body allowed', async () => {
    expect((await post('expired-1')).statusCode).toBe(200);
    now = new Date(now.getTime() + 60_000);
    const again = await post('expired-1', { model: 'other' });
    expect(again.statusCode).toBe(200);
    expect(again.replayed).toBeNull();
    expect(calls).toBe(2);
    expect(store.claims.slice(1)).toEqual([
      { streamId: stream('expired-1'), expected: 'no_stream', fresh: true },
      { streamId: stream('expired-1'), expected: 1, fresh: true },
    ]);
  });

  it('still answers 422 for another body under a bound key', async () => {
    expect((await post('bound-1')).statusCode).toBe(200);
    now = new Date(now.getTime() + 59_999);
    const other = await post('bound-1', { model: 'other' });
    expect(other.statusCode).toBe(422);
    expect(JSON.parse(other.body).error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    expect(calls).toBe(1);
  });
});

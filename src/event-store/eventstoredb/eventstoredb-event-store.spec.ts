import { EventStoreDBClient } from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import { FakeEsdbClient } from '../../../test/support/fake-esdb-client';
import { classifyFailure } from '../../projections/parking/event-contract-error';
import { ReadDeadlineExceededError } from './esdb-reads';
import { wrapClient } from './esdb-client';
import { DEFAULT_ESDB_STORE_OPTIONS, EventStoreDbEventStore } from './eventstoredb-event-store';
import { GATEWAY_STREAM_PREFIXES } from './gateway-streams';

const event = (type: string) => ({ id: randomUUID(), type, data: { type } });

describe('EventStoreDbEventStore', () => {
  let server: FakeEsdbClient;
  let store: EventStoreDbEventStore;

  beforeEach(() => {
    server = new FakeEsdbClient();
    store = new EventStoreDbEventStore(server, { ...DEFAULT_ESDB_STORE_OPTIONS, readDeadlineMs: 50 });
  });

  afterEach(() => store.close());

  it("sets a stream's $maxAge with the stream metadata call, within the append deadline", async () => {
    await store.setStreamMaxAge('idempotency-org-abc', 86_700);
    expect(server.metadataCalls).toEqual([{ streamId: 'idempotency-org-abc', metadata: { maxAge: 86_700 }, deadline: DEFAULT_ESDB_STORE_OPTIONS.append.appendDeadlineMs }]);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a $maxAge of %p seconds without calling the server', async (seconds) => {
    await expect(store.setStreamMaxAge('idempotency-org-abc', seconds)).rejects.toThrow(/whole number of seconds/);
    expect(server.metadataCalls).toEqual([]);
  });

  it('reads a stream whose events all expired as empty, and claims it again at its revision', async () => {
    await store.append('idempotency-org-abc', [event('IdempotencyKeyClaimed')], { expectedRevision: 'no_stream' });
    await store.setStreamMaxAge('idempotency-org-abc', 10);
    server.advance(10_000);
    expect(await store.readStream('idempotency-org-abc')).toEqual([]);
    await expect(store.append('idempotency-org-abc', [event('IdempotencyKeyClaimed')], { expectedRevision: 'no_stream' })).rejects.toMatchObject({ actual: 0 });
    await expect(store.append('idempotency-org-abc', [event('IdempotencyKeyClaimed')], { expectedRevision: 0 })).resolves.toMatchObject({ nextExpectedRevision: 1 });
    expect((await store.readStream('idempotency-org-abc')).map((e) => e.revision)).toEqual([1]);
  });

  it("reads only the gateway's streams from $all: the server is asked with the stream-prefix filter", async () => {
    await store.append('request-1', [event('RequestAdmitted')]);
    server.writeForeign('orders-42', 'OrderPlaced', Buffer.from('{"other":"app"}'));
    server.writeForeign('$stats-127.0.0.1:2113', '$statsCollected', Buffer.from('{}'));
    await store.append('model-status-m', [event('ModelStatusChanged')]);
    const all = await store.readAll({ after: null, maxCount: 10 });
    expect(all.map((e) => e.streamId)).toEqual(['request-1', 'model-status-m']);
    expect(server.reads.filter((r) => r.kind === 'all').every((r) => r.prefixes === GATEWAY_STREAM_PREFIXES)).toBe(true);
  });

  it('asks for the page it needs (one more than asked after a position, which it drops), not a fixed 512', async () => {
    await store.append('request-1', [event('A'), event('B'), event('C')]);
    const [first] = await store.readAll({ after: null, maxCount: 1 });
    const next = await store.readAll({ after: first.position, maxCount: 2 });
    expect(next.map((e) => e.type)).toEqual(['B', 'C']);
    expect(server.reads.filter((r) => r.kind === 'all').map((r) => r.maxCount)).toEqual([1, 3]);
  });

  it('polls at the head past foreign events instead of having the server scan them again, and still sees new gateway events', async () => {
    const { position: last } = await store.append('request-1', [event('A')]);
    for (let i = 0; i < 50; i++) server.writeForeign(`$stats-${i}`, '$statsCollected', Buffer.from('{}'));
    const foreignHead = `${server.log[server.log.length - 1].position.commit}/${server.log[server.log.length - 1].position.prepare}`;
    const filteredStarts = (): (string | undefined)[] => server.reads.filter((r) => r.kind === 'all' && r.prefixes !== null).map((r) => r.from);
    for (let poll = 0; poll < 3; poll++) expect(await store.readAll({ after: last, maxCount: 10 })).toEqual([]);
    expect(filteredStarts()).toEqual([last, last, foreignHead]);
    expect(server.reads.filter((r) => r.prefixes === null)).toHaveLength(2);
    const next = await store.append('request-2', [event('B')]);
    expect((await store.readAll({ after: last, maxCount: 10 })).map((e) => e.position)).toEqual([next.position]);
  });

  it('finds the head with one backwards read of one event', async () => {
    expect(await store.headPosition()).toBeNull();
    const { position } = await store.append('request-1', [event('A')]);
    server.writeForeign('orders-42', 'OrderPlaced', Buffer.from('{}'));
    const before = server.reads.length;
    expect(await store.headPosition()).toBe(position);
    expect(server.reads.slice(before)).toEqual([{ kind: 'all', target: '$all', maxCount: 1, direction: 'backwards', prefixes: GATEWAY_STREAM_PREFIXES, from: 'end' }]);
  });

  it('fails a read that does not finish within its deadline instead of hanging', async () => {
    await store.append('request-1', [event('A')]);
    server.stall();
    await expect(store.readAll({ after: null, maxCount: 10 })).rejects.toBeInstanceOf(ReadDeadlineExceededError);
    await expect(store.readStream('request-1')).rejects.toBeInstanceOf(ReadDeadlineExceededError);
    await expect(store.headPosition()).rejects.toBeInstanceOf(ReadDeadlineExceededError);
  });

  it('delivers an undecodable event whose data fails as poison when read, so projections park it instead of stalling', async () => {
    server.writeForeign('request-bad', 'UsageMeasured', Buffer.from('not json \u0000'));
    await store.append('request-1', [event('A')]);
    const [bad, good] = await store.readAll({ after: null, maxCount: 10 });
    expect(good.data).toEqual({ type: 'A' });
    let failure: unknown = null;
    try {
      void bad.data;
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(SyntaxError);
    expect(classifyFailure(failure)).toBe('poison');
  });

  it('has one identity per database: created once, read by every adapter on it, different on another database', async () => {
    const id = await store.storeId();
    const sameDatabase = new EventStoreDbEventStore(server);
    expect(await sameDatabase.storeId()).toBe(id);
    expect(server.stream('gateway-store-identity')).toHaveLength(1);
    const otherDatabase = new EventStoreDbEventStore(new FakeEsdbClient());
    expect(await otherDatabase.storeId()).not.toBe(id);
  });
});

describe('the client guard against its batch-append defect (issue 32, item 9)', () => {
  it('passes credentials on every append, which keeps @eventstore/db-client 6.2.1 off its batchAppend path', async () => {
    const client = EventStoreDBClient.connectionString('esdb://admin:changeit@127.0.0.1:1?tls=false&defaultDeadline=500');
    const internals = client as unknown as { supports: (...args: unknown[]) => Promise<boolean> };
    const supports = jest.spyOn(internals, 'supports');
    const wrapped = wrapClient(client, { username: 'admin', password: 'changeit' });
    const outcome = await wrapped
      .appendToStream('request-1', [{ id: randomUUID(), type: 'A', data: {}, metadata: undefined, contentType: 'application/json' }], { expectedRevision: 'no_stream', deadline: 500 })
      .catch((error: unknown) => error);
    await wrapped.dispose();
    expect(outcome).toBeInstanceOf(Error);
    // appendToStream asks `supports(batchAppend)` only when the call carries no credentials (dist/streams/appendToStream/index.js).
    expect(supports).not.toHaveBeenCalled();
  });

  it('passes credentials on a stream-metadata write too (an append to the metastream)', async () => {
    const client = EventStoreDBClient.connectionString('esdb://admin:changeit@127.0.0.1:1?tls=false&defaultDeadline=500');
    const supports = jest.spyOn(client as unknown as { supports: (...args: unknown[]) => Promise<boolean> }, 'supports');
    const wrapped = wrapClient(client, { username: 'admin', password: 'changeit' });
    const outcome = await wrapped.setStreamMetadata('idempotency-k', { maxAge: 60 }, { deadline: 500 }).catch((error: unknown) => error);
    await wrapped.dispose();
    expect(outcome).toBeInstanceOf(Error);
    expect(supports).not.toHaveBeenCalled();
  });

  it('a connection without credentials over TLS is refused at start with the reason', () => {
    expect(() => EventStoreDbEventStore.connect('esdb://127.0.0.1:2113?tls=true')).toThrow(/needs credentials/);
  });
});

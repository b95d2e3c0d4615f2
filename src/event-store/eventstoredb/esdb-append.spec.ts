import { ANY, AccessDeniedError, DeadlineExceededError, UnavailableError, jsonEvent } from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import { FakeEsdbClient } from '../../../test/support/fake-esdb-client';
import { AppendOutcomeUnknownError, WrongExpectedRevisionError, type NewEvent } from '../event-store.port';
import { DEFAULT_APPEND_SETTINGS, EsdbAppender } from './esdb-append';

const event = (type: string): NewEvent => ({ id: randomUUID(), type, data: { type } });
const noSleep = async (): Promise<void> => undefined;

describe('EsdbAppender', () => {
  let server: FakeEsdbClient;
  let appender: EsdbAppender;
  const sleeps: number[] = [];

  beforeEach(() => {
    server = new FakeEsdbClient();
    sleeps.length = 0;
    appender = new EsdbAppender(server, DEFAULT_APPEND_SETTINGS, async (ms) => void sleeps.push(ms));
  });

  describe('the fake behaves like the server (so the tests below can fail)', () => {
    it('`any` forgets ids on restart and the current revision writes without looking: both duplicate', async () => {
      const billed = jsonEvent({ id: randomUUID(), type: 'CostPriced', data: {} });
      await server.appendToStream('request-1', [billed], { expectedRevision: ANY });
      server.restart();
      await server.appendToStream('request-1', [billed], { expectedRevision: ANY });
      await server.appendToStream('request-1', [billed], { expectedRevision: 1n });
      expect(server.stream('request-1').map((r) => r.id)).toEqual([billed.id, billed.id, billed.id]);
    });
  });

  it('never writes with `any`: every write names an exact revision or no_stream', async () => {
    await appender.append('request-1', [event('RequestAdmitted')], 'any');
    await appender.append('request-1', [event('UsageMeasured'), event('CostPriced')], 'any');
    await appender.append('ratelimit-org', [event('SliceLeased')], 'any');
    await appender.append('ratelimit-org', [event('SliceReleased')], 'stream_exists');
    expect(server.appends.map((call) => call.expectedRevision)).toEqual(['no_stream', 0n, 'no_stream', 0n]);
  });

  it('takes one round trip for the billing append after admission (no read)', async () => {
    await appender.append('request-1', [event('RequestAdmitted')], 'any');
    const readsBefore = server.reads.length;
    await appender.append('request-1', [event('UsageMeasured'), event('CostPriced')], 'any');
    expect(server.appends).toHaveLength(2);
    expect(server.reads.length).toBe(readsBefore);
  });

  it('a retry after a server restart writes nothing, with `any` or the current revision', async () => {
    const billed = [event('UsageMeasured'), event('CostPriced')];
    const first = await appender.append('request-1', billed, 'any');
    server.restart();
    const fresh = new EsdbAppender(server, DEFAULT_APPEND_SETTINGS, noSleep);
    await expect(fresh.append('request-1', billed, 'any')).resolves.toEqual(first);
    await expect(fresh.append('request-1', billed, 1)).resolves.toEqual(first);
    await expect(appender.append('request-1', billed, 'any')).resolves.toEqual(first);
    expect(server.stream('request-1')).toHaveLength(2);
  });

  it('an append that committed but timed out is answered as written, once', async () => {
    const billed = [event('UsageMeasured'), event('CostPriced')];
    server.failAppends('after_write', new DeadlineExceededError());
    const result = await appender.append('request-1', billed, 'any');
    const stored = server.stream('request-1');
    expect(stored.map((r) => r.id)).toEqual(billed.map((e) => e.id));
    expect(result).toEqual({ nextExpectedRevision: 1, position: `${stored[1].position.commit}/${stored[1].position.prepare}` });
  });

  it('an append lost before the write (unavailable) is written again at the same exact revision, once', async () => {
    await appender.append('request-1', [event('RequestAdmitted')], 'any');
    server.failAppends('before_write', new UnavailableError());
    const billed = [event('UsageMeasured'), event('CostPriced')];
    await expect(appender.append('request-1', billed, 'any')).resolves.toMatchObject({ nextExpectedRevision: 2 });
    expect(server.stream('request-1')).toHaveLength(3);
    expect(server.appends.slice(1).map((call) => call.expectedRevision)).toEqual([0n, 0n]);
  });

  it('an outcome that stays unknown is reported as unknown after the configured attempts, and a later retry stores once', async () => {
    const failures = Array.from({ length: DEFAULT_APPEND_SETTINGS.resolveAttempts + 1 }, () => new UnavailableError());
    server.failAppends('after_write', failures[0]);
    server.failAppends('before_write', ...failures.slice(1));
    server.stall();
    const billed = [event('UsageMeasured')];
    const settings = { ...DEFAULT_APPEND_SETTINGS, readDeadlineMs: 5 };
    const stalled = new EsdbAppender(server, settings, noSleep);
    await expect(stalled.append('request-1', billed, 'any')).rejects.toBeInstanceOf(AppendOutcomeUnknownError);
    server.stall(false);
    await expect(stalled.append('request-1', billed, 'any')).resolves.toMatchObject({ nextExpectedRevision: 0 });
    expect(server.stream('request-1')).toHaveLength(1);
  });

  it('stops trying after resolveWithinMs, however many attempts are left', async () => {
    server.failAppends('before_write', ...Array.from({ length: 10 }, () => new UnavailableError()));
    const hurried = new EsdbAppender(server, { ...DEFAULT_APPEND_SETTINGS, resolveWithinMs: 0 }, noSleep);
    await expect(hurried.append('request-1', [event('A')], 'any')).rejects.toBeInstanceOf(AppendOutcomeUnknownError);
    expect(server.appends).toHaveLength(2);
  });

  it('a stale expected revision is refused with the actual one, nothing written', async () => {
    await appender.append('s-1', [event('A'), event('B')], 'no_stream');
    const error = await appender.append('s-1', [event('C')], 0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ expected: 0, actual: 1 });
    expect(server.stream('s-1')).toHaveLength(2);
  });

  describe('a stream whose events all expired ($maxAge): it reads empty but keeps its revision', () => {
    beforeEach(async () => {
      await appender.append('idempotency-k', [event('A'), event('B')], 'no_stream');
      await server.setStreamMetadata('idempotency-k', { maxAge: 60 }, { deadline: 1000 });
      server.advance(61_000);
      // A new appender: no revision remembered from the writes above.
      appender = new EsdbAppender(server, DEFAULT_APPEND_SETTINGS, noSleep);
    });

    it('refuses `no_stream` with the revision the server names, nothing written', async () => {
      const error = await appender.append('idempotency-k', [event('C')], 'no_stream').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect(error).toMatchObject({ expected: 'no_stream', actual: 1 });
      expect(server.stream('idempotency-k')).toHaveLength(2);
    });

    it('writes at that exact revision, and refuses a stale one naming the actual', async () => {
      await expect(appender.append('idempotency-k', [event('C')], 1)).resolves.toMatchObject({ nextExpectedRevision: 2 });
      const stale = await appender.append('idempotency-k', [event('D')], 0).catch((e: unknown) => e);
      expect(stale).toMatchObject({ expected: 0, actual: 2 });
      expect(server.stream('idempotency-k').map((r) => r.type)).toEqual(['A', 'B', 'C']);
    });

    it('writes with `any` after the server named the revision', async () => {
      await expect(appender.append('idempotency-k', [event('C')], 'any')).resolves.toMatchObject({ nextExpectedRevision: 2 });
      expect(server.stream('idempotency-k')).toHaveLength(3);
    });
  });

  it('a refusal for good (access denied) is thrown at once, without resolution', async () => {
    server.failAppends('before_write', new AccessDeniedError(undefined as never));
    await expect(appender.append('request-1', [event('A')], 'any')).rejects.toBeInstanceOf(AccessDeniedError);
    expect(server.appends).toHaveLength(1);
  });

  it('appends to one stream from this process run one after another (no self-inflicted refusals)', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, n) => appender.append('ratelimit-org', [event(`E${n}`)], 'any')));
    expect(results.map((r) => r.nextExpectedRevision)).toEqual([...Array(10).keys()]);
    expect(server.appends.every((call) => call.expectedRevision !== ANY)).toBe(true);
  });
});

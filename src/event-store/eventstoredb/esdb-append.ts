// Appends that keep the port's idempotency promise on EventStoreDB (issue 32, items 5 and 6).
// The server checks event ids durably only for an expected revision *before* the stream's end: it
// compares the ids stored after it (KurrentDB IndexWriter.CheckCommit, "strong idempotency checks").
// With `any` it consults a bounded in-memory cache of recent ids, lost on restart; with the current
// revision it writes without looking. So every write here names an exact revision, and the ids are
// checked before it:
// - `no_stream` is written at once: either the stream is new, or the server compares from revision 0;
// - a stream this process created and alone wrote since (RevisionHints) is written at its known
//   revision when the batch holds none of its ids (the server refuses if anyone else wrote);
// - otherwise the stream's tail is read: stored ids are skipped, the caller's expected revision is
//   checked against the current one, and the rest is written at exactly that revision.
// An ambiguous failure (deadline exceeded, unavailable, anything after which the server may have
// committed) is resolved before answering: read back, and written again at an exact revision if the
// events are not there (a late commit of the first try then finds the revision taken).
import { WrongExpectedVersionError, type AppendResult as EsdbAppendResult } from '@eventstore/db-client';
import {
  AppendOutcomeUnknownError,
  WrongExpectedRevisionError,
  type AppendResult,
  type ExpectedRevision,
  type NewEvent,
} from '../event-store.port';
import type { EsdbClient } from './esdb-client';
import { REQUEST_STREAM_PREFIX } from '../event-ids';
import { encodePosition, isDefinitelyNotWritten, toEventData, toEsdbExpectedRevision } from './esdb-mapping';
import { RevisionHints } from './revision-hints';
import { readStreamTail, type StreamTail } from './stream-tail';

export interface EsdbAppendSettings {
  appendDeadlineMs: number;
  readDeadlineMs: number;
  /** How many of a stream's newest events are searched for ids already stored. */
  idempotencyWindow: number;
  /** Reads and writes tried to settle one append when guesses are refused or outcomes are unknown. */
  resolveAttempts: number;
  /** No new attempt starts after this long: a request waits for its billing at most about this plus one attempt. */
  resolveWithinMs: number;
  retryDelayMs: number;
  /** Streams that start with this are per-request streams: usually new when first written. */
  requestStreamPrefix: string;
}

export const DEFAULT_APPEND_SETTINGS: EsdbAppendSettings = {
  appendDeadlineMs: 10_000,
  readDeadlineMs: 10_000,
  idempotencyWindow: 256,
  resolveAttempts: 8,
  resolveWithinMs: 15_000,
  retryDelayMs: 200,
  requestStreamPrefix: REQUEST_STREAM_PREFIX,
};

type Exact = number | 'no_stream';
/** A refusal names the stream's actual revision (null: no stream) when the server said it. */
type WriteOutcome = { kind: 'written'; result: EsdbAppendResult } | { kind: 'refused'; actual: number | null | undefined } | { kind: 'unknown'; error: unknown };

export class EsdbAppender {
  private readonly hints = new RevisionHints(10_000);
  /** Appends to one stream run one after another in this process: they would only refuse each other's revisions. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly client: EsdbClient,
    private readonly settings: EsdbAppendSettings = DEFAULT_APPEND_SETTINGS,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const previous = this.queues.get(streamId) ?? Promise.resolve();
    const appended = previous.then(
      () => this.appendNow(streamId, events, expected),
      () => this.appendNow(streamId, events, expected),
    );
    this.queues.set(streamId, appended);
    const forget = (): void => {
      if (this.queues.get(streamId) === appended) this.queues.delete(streamId);
    };
    appended.then(forget, forget);
    return appended;
  }

  private async appendNow(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const guess = this.guess(streamId, events, expected);
    let mayHaveCommitted = false;
    let reported: number | null | undefined;
    if (guess !== null) {
      const outcome = await this.write(streamId, events, guess);
      if (outcome.kind === 'written') return this.answer(streamId, events, guess, outcome.result);
      mayHaveCommitted = outcome.kind === 'unknown';
      if (outcome.kind === 'refused') reported = outcome.actual;
    }
    return this.resolve(streamId, events, expected, mayHaveCommitted, reported);
  }

  /** An exact revision at which the batch may be written without reading the stream, or null. */
  private guess(streamId: string, events: NewEvent[], expected: ExpectedRevision): Exact | null {
    if (expected === 'no_stream') return 'no_stream';
    const known = this.hints.get(streamId);
    if (known !== undefined && !events.some((event) => known.ids.has(event.id))) {
      return expected === known.revision || expected === 'any' || expected === 'stream_exists' ? known.revision : null;
    }
    return known === undefined && expected === 'any' && streamId.startsWith(this.settings.requestStreamPrefix) ? 'no_stream' : null;
  }

  /** `reported`: the actual revision the server named when it last refused a write here (undefined: none named). */
  private async resolve(streamId: string, events: NewEvent[], expected: ExpectedRevision, mayHaveCommitted: boolean, reported?: number | null): Promise<AppendResult> {
    let lastError: unknown = null;
    const giveUpAt = performance.now() + this.settings.resolveWithinMs;
    for (let attempt = 0; attempt < this.settings.resolveAttempts; attempt++) {
      if (attempt > 0 && performance.now() >= giveUpAt) break;
      if (attempt > 0 && lastError !== null) await this.sleep(this.settings.retryDelayMs);
      let tail: StreamTail;
      try {
        tail = await readStreamTail(this.client, streamId, this.settings.idempotencyWindow, this.settings.readDeadlineMs);
      } catch (error) {
        lastError = error;
        continue;
      }
      const fresh = unstored(events, tail);
      if (fresh.length === 0) return this.alreadyStored(streamId, tail, events[events.length - 1].id);
      const current = currentRevision(tail.current, reported, expected);
      if (!satisfies(expected, current)) throw new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');
      const exact = current ?? 'no_stream';
      const outcome = await this.write(streamId, fresh, exact);
      if (outcome.kind === 'written') {
        if (tail.complete && tail.current !== null) this.hints.set(streamId, tail.current, tail.stored.keys());
        return this.answer(streamId, fresh, exact, outcome.result);
      }
      if (outcome.kind === 'unknown') mayHaveCommitted = true;
      if (outcome.kind === 'refused') reported = outcome.actual;
      lastError = outcome.kind === 'unknown' ? outcome.error : null;
    }
    if (mayHaveCommitted) throw new AppendOutcomeUnknownError(streamId, lastError);
    throw lastError ?? new Error(`stream ${streamId}: the append was refused ${this.settings.resolveAttempts} times by concurrent writers`);
  }

  private async write(streamId: string, events: NewEvent[], exact: Exact): Promise<WriteOutcome> {
    try {
      const result = await this.client.appendToStream(streamId, events.map(toEventData), {
        expectedRevision: toEsdbExpectedRevision(exact),
        deadline: this.settings.appendDeadlineMs,
      });
      // throwOnAppendFailure=false in the connection string makes a refusal a result instead of an error.
      if (result.success) return { kind: 'written', result };
      this.hints.forget(streamId);
      return { kind: 'refused', actual: result.nextExpectedRevision < 0n ? null : Number(result.nextExpectedRevision) };
    } catch (error) {
      this.hints.forget(streamId);
      if (error instanceof WrongExpectedVersionError) return { kind: 'refused', actual: actualOf(error) };
      if (isDefinitelyNotWritten(error)) throw error;
      return { kind: 'unknown', error };
    }
  }

  /** A write the server found already done (no position: nothing was written) is answered from the stored events. */
  private async answer(streamId: string, events: NewEvent[], exact: Exact, result: EsdbAppendResult): Promise<AppendResult> {
    const nextExpectedRevision = Number(result.nextExpectedRevision);
    if (!result.position) {
      this.hints.forget(streamId);
      const tail = await readStreamTail(this.client, streamId, 1, this.settings.readDeadlineMs, result.nextExpectedRevision);
      const stored = [...tail.stored.values()].find((event) => event.revision === nextExpectedRevision);
      if (!stored) throw new Error(`stream ${streamId} has no revision ${nextExpectedRevision} after an idempotent append`);
      return { nextExpectedRevision, position: stored.position };
    }
    const ids = events.map((event) => event.id);
    if (exact === 'no_stream') this.hints.set(streamId, nextExpectedRevision, ids);
    else this.hints.extend(streamId, exact, ids, nextExpectedRevision);
    return { nextExpectedRevision, position: encodePosition(result.position) };
  }

  private alreadyStored(streamId: string, tail: StreamTail, lastId: string): AppendResult {
    if (tail.complete && tail.current !== null) this.hints.set(streamId, tail.current, tail.stored.keys());
    const last = tail.stored.get(lastId)!;
    return { nextExpectedRevision: last.revision, position: last.position };
  }
}

/** The events whose id the stream's tail does not hold, without repeats within the batch. */
function unstored(events: NewEvent[], tail: StreamTail): NewEvent[] {
  const seen = new Set<string>();
  return events.filter((event) => {
    if (seen.has(event.id) || tail.stored.has(event.id)) return false;
    seen.add(event.id);
    return true;
  });
}

/**
 * The stream's revision. A stream whose events all expired (`$maxAge`) reads as empty yet keeps its
 * revision: then the server's last refusal names it, and without one an exact expected revision is
 * tried as it stands (the write is conditional: the server refuses it, naming the actual one).
 */
function currentRevision(read: number | null, reported: number | null | undefined, expected: ExpectedRevision): number | null {
  if (read !== null) return read;
  if (reported !== undefined) return reported;
  return typeof expected === 'number' ? expected : null;
}

function actualOf(error: WrongExpectedVersionError): number | null | undefined {
  const actual = error.actualVersion;
  if (typeof actual === 'bigint') return Number(actual);
  return actual === 'no_stream' ? null : undefined;
}

function satisfies(expected: ExpectedRevision, current: number | null): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === null;
  if (expected === 'stream_exists') return current !== null;
  return current === expected;
}

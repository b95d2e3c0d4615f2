// An in-memory stand-in for EventStoreDB behind the adapter's EsdbClient interface, with the server's
// append rules as KurrentDB implements them (src/KurrentDB.Core/Services/Storage/ReaderIndex/
// IndexWriter.cs, CheckCommit): an exact expected revision before the end compares the ids stored after
// it (idempotent, or refused); at the end it writes without looking; `any` and `stream_exists` look
// only in a cache of recent ids, which `restart()` empties as a server restart does. Faults can be
// injected before or after the write, and reads can stall until cancelled. A stream's `$maxAge` hides
// its events older than that from stream reads (on the fake's clock, moved by `advance()`) while the
// stream keeps its revision, as the server does until and after a scavenge.
import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type AppendResult,
  type EventData,
  type Position,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { CancellableRead, EsdbClient } from '../../src/event-store/eventstoredb/esdb-client';

interface StoredRecord {
  id: string;
  type: string;
  streamId: string;
  revision: number;
  position: Position;
  data: unknown;
  metadata: unknown;
  isJson: boolean;
  /** On the fake's clock (ms). */
  createdAt: number;
}

export interface AppendCall {
  streamId: string;
  ids: string[];
  expectedRevision: AppendExpectedRevision;
}

export type FaultTiming = 'before_write' | 'after_write';

export class FakeEsdbClient implements EsdbClient {
  readonly log: StoredRecord[] = [];
  readonly appends: AppendCall[] = [];
  readonly reads: { kind: 'stream' | 'all'; target: string; maxCount: number; direction: string; prefixes?: readonly string[] | null; from?: string }[] = [];
  private readonly faults: { timing: FaultTiming; error: Error }[] = [];
  private recentIds = new Set<string>();
  private stallReads = false;
  private clockMs = Date.now();
  readonly metadataCalls: { streamId: string; metadata: { maxAge: number }; deadline: number }[] = [];
  private readonly maxAgeSeconds = new Map<string, number>();
  disposed = false;

  /** Moves the fake server's clock forward (ages events past a stream's `$maxAge`). */
  advance(ms: number): void {
    this.clockMs += ms;
  }

  async setStreamMetadata(streamId: string, metadata: { maxAge: number }, { deadline }: { deadline: number }): Promise<void> {
    this.metadataCalls.push({ streamId, metadata, deadline });
    this.maxAgeSeconds.set(streamId, metadata.maxAge);
  }

  /** The next appends fail, in order: before anything is written, or after the write committed. */
  failAppends(timing: FaultTiming, ...errors: Error[]): void {
    for (const error of errors) this.faults.push({ timing, error });
  }

  /** Reads hang until cancelled (a stalled server). */
  stall(stalled = true): void {
    this.stallReads = stalled;
  }

  /** The server restarted: its cache of recent event ids is empty. */
  restart(): void {
    this.recentIds = new Set();
  }

  /** An event written by another application (raw bytes, possibly not JSON). */
  writeForeign(streamId: string, type: string, bytes: Uint8Array): void {
    this.store(streamId, { id: crypto.randomUUID(), type, data: bytes, metadata: undefined, isJson: false });
  }

  stream(streamId: string): StoredRecord[] {
    return this.log.filter((record) => record.streamId === streamId);
  }

  async appendToStream(streamId: string, events: EventData[], { expectedRevision }: { expectedRevision: AppendExpectedRevision }): Promise<AppendResult> {
    this.appends.push({ streamId, ids: events.map((event) => event.id!), expectedRevision });
    const fault = this.faults.shift();
    if (fault?.timing === 'before_write') throw fault.error;
    const result = this.commit(streamId, events, expectedRevision);
    if (fault) throw fault.error;
    return result;
  }

  readStream(streamId: string, options: { fromRevision: bigint | 'start' | 'end'; maxCount: number; direction: string }): CancellableRead<ResolvedEvent> {
    this.reads.push({ kind: 'stream', target: streamId, maxCount: options.maxCount, direction: options.direction });
    const records = this.stream(streamId);
    if (records.length === 0) return this.failingRead(new StreamNotFoundError(undefined, streamId));
    const maxAge = this.maxAgeSeconds.get(streamId);
    const readable = maxAge === undefined ? records : records.filter((record) => this.clockMs - record.createdAt < maxAge * 1000);
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision === 'end' ? records.length - 1 : options.fromRevision === 'start' ? 0 : Number(options.fromRevision);
    const selected = backwards ? readable.filter((record) => record.revision <= from).reverse() : readable.filter((record) => record.revision >= from);
    return this.readOf(selected.slice(0, options.maxCount));
  }

  readAll(options: { fromPosition: 'start' | 'end' | Position; maxCount: number; direction: string; streamPrefixes: readonly string[] | null }): CancellableRead<AllStreamResolvedEvent> {
    const from = typeof options.fromPosition === 'string' ? options.fromPosition : `${options.fromPosition.commit}/${options.fromPosition.prepare}`;
    this.reads.push({ kind: 'all', target: '$all', maxCount: options.maxCount, direction: options.direction, prefixes: options.streamPrefixes, from });
    const prefixes = options.streamPrefixes;
    const matching = prefixes === null ? this.log : this.log.filter((record) => prefixes.some((prefix) => record.streamId.startsWith(prefix)));
    const at = (record: StoredRecord, position: Position): number => Number(record.position.commit - position.commit);
    let selected: StoredRecord[];
    if (options.direction === 'backwards') {
      const upTo = options.fromPosition === 'end' || options.fromPosition === 'start' ? matching : matching.filter((r) => at(r, options.fromPosition as Position) <= 0);
      selected = [...upTo].reverse();
    } else {
      const start = options.fromPosition;
      selected = start === 'start' ? matching : start === 'end' ? [] : matching.filter((r) => at(r, start) >= 0);
    }
    return this.readOf(selected.slice(0, options.maxCount)) as CancellableRead<AllStreamResolvedEvent>;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }

  private commit(streamId: string, events: EventData[], expected: AppendExpectedRevision): AppendResult {
    const current = this.stream(streamId).length - 1;
    const refuse = (): never => {
      throw new WrongExpectedVersionError(undefined, { streamName: streamId, current: current < 0 ? NO_STREAM : BigInt(current), expected });
    };
    if (expected === ANY || expected === STREAM_EXISTS) {
      if (expected === STREAM_EXISTS && current < 0) refuse();
      if (events.every((event) => this.recentIds.has(`${streamId}/${event.id}`))) {
        const last = this.stream(streamId).find((record) => record.id === events[events.length - 1].id)!;
        return { success: true, nextExpectedRevision: BigInt(last.revision), position: undefined };
      }
      return this.write(streamId, events);
    }
    const expectedNumber = expected === NO_STREAM ? -1 : Number(expected);
    if (expectedNumber > current) refuse();
    if (expectedNumber === current) return this.write(streamId, events);
    const stored = this.stream(streamId);
    const matches = events.every((event, index) => stored[expectedNumber + 1 + index]?.id === event.id);
    if (!matches) refuse();
    return { success: true, nextExpectedRevision: BigInt(expectedNumber + events.length), position: undefined };
  }

  private write(streamId: string, events: EventData[]): AppendResult {
    let last: StoredRecord | null = null;
    for (const event of events) {
      last = this.store(streamId, { id: event.id!, type: event.type, data: event.data, metadata: event.metadata, isJson: event.contentType === 'application/json' });
      this.recentIds.add(`${streamId}/${event.id}`);
    }
    return { success: true, nextExpectedRevision: BigInt(last!.revision), position: last!.position };
  }

  private store(streamId: string, record: Pick<StoredRecord, 'id' | 'type' | 'data' | 'metadata' | 'isJson'>): StoredRecord {
    const commit = BigInt((this.log.length + 1) * 100);
    const stored = { ...record, streamId, revision: this.stream(streamId).length, position: { commit, prepare: commit }, createdAt: this.clockMs };
    this.log.push(stored);
    return stored;
  }

  private readOf(records: StoredRecord[]): CancellableRead<ResolvedEvent> {
    const resolved = records.map((record) => ({
      event: { ...record, revision: BigInt(record.revision), created: new Date(0) },
    })) as unknown as ResolvedEvent[];
    const stalled = this.stallReads;
    let cancel: () => void = () => undefined;
    const cancelled = new Promise<void>((resolve) => (cancel = resolve));
    return {
      async *[Symbol.asyncIterator]() {
        if (stalled) await cancelled;
        else yield* resolved;
      },
      cancel: async () => cancel(),
    };
  }

  private failingRead<E>(error: Error): CancellableRead<E> {
    return {
      // eslint-disable-next-line require-yield
      async *[Symbol.asyncIterator]() {
        throw error;
      },
      cancel: async () => undefined,
    };
  }
}

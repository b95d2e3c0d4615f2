// What this process knows for certain about streams it created: their revision and every id in them.
// An append naming that exact revision can only succeed if nobody else wrote since, so the ids here
// are then the whole stream, and a batch without any of them is new: it is written without reading
// the stream first (one round trip for the billing append after admission). Bounded: oldest streams
// dropped, and long streams (the rate-limit lease streams) not kept at all.
export interface StreamKnowledge {
  revision: number;
  ids: Set<string>;
}

export class RevisionHints {
  private readonly known = new Map<string, StreamKnowledge>();

  constructor(
    private readonly capacity: number,
    private readonly maxIdsPerStream = 64,
  ) {}

  get(streamId: string): StreamKnowledge | undefined {
    return this.known.get(streamId);
  }

  /** The stream is exactly `ids`, its last revision `revision`. */
  set(streamId: string, revision: number, ids: Iterable<string>): void {
    this.known.delete(streamId);
    const known = new Set(ids);
    if (known.size > this.maxIdsPerStream) return;
    this.known.set(streamId, { revision, ids: known });
    if (this.known.size > this.capacity) this.known.delete(this.known.keys().next().value!);
  }

  /** `ids` were appended after `revision`, ending at `next`; forgotten unless the stream was known at `revision`. */
  extend(streamId: string, revision: number, ids: Iterable<string>, next: number): void {
    const knowledge = this.known.get(streamId);
    if (knowledge === undefined || knowledge.revision !== revision) return this.forget(streamId);
    this.set(streamId, next, [...knowledge.ids, ...ids]);
  }

  forget(streamId: string): void {
    this.known.delete(streamId);
  }
}

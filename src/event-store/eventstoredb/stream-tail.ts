// The newest events of one stream, as the appender needs them: the current revision and where each
// id is stored. Read backwards from the end with a deadline, so the cost does not grow with the stream.
import { BACKWARDS, END, FORWARDS, StreamNotFoundError } from '@eventstore/db-client';
import type { EsdbClient } from './esdb-client';
import { collectWithin } from './esdb-reads';
import { encodePosition, isUserEvent } from './esdb-mapping';

export interface StoredEventRef {
  revision: number;
  position: string;
}

export interface StreamTail {
  /** Last revision, or null when the stream does not exist. */
  current: number | null;
  stored: Map<string, StoredEventRef>;
  /** True when the read reached the first event: `stored` then holds every id of the stream. */
  complete: boolean;
}

/** The newest `maxCount` events, or `maxCount` events forwards from `fromRevision` when given. */
export async function readStreamTail(client: EsdbClient, streamId: string, maxCount: number, deadlineMs: number, fromRevision?: bigint): Promise<StreamTail> {
  const read = client.readStream(streamId, {
    fromRevision: fromRevision ?? END,
    direction: fromRevision === undefined ? BACKWARDS : FORWARDS,
    maxCount,
  });
  let events;
  try {
    events = await collectWithin(read, deadlineMs, `stream ${streamId}`);
  } catch (error) {
    if (error instanceof StreamNotFoundError) return { current: null, stored: new Map(), complete: true };
    throw error;
  }
  const stored = new Map<string, StoredEventRef>();
  let current: number | null = null;
  let oldest = Number.POSITIVE_INFINITY;
  for (const resolved of events) {
    const event = resolved.event;
    if (!event || !isUserEvent(resolved)) continue;
    const revision = Number(event.revision);
    current = current === null ? revision : Math.max(current, revision);
    oldest = Math.min(oldest, revision);
    stored.set(event.id, { revision, position: event.position ? encodePosition(event.position) : '' });
  }
  return { current, stored, complete: fromRevision === undefined && (events.length < maxCount || oldest === 0) };
}

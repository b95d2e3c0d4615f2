// Reads with a deadline. The client gives its streaming reads no gRPC deadline (dist/streams/readAll.js
// and readStream.js pass `deadline: Infinity`), so a stalled server would freeze the projections and
// hang shutdown; here a read that has not ended in time is cancelled and fails instead.
import type { CancellableRead } from './esdb-client';

export class ReadDeadlineExceededError extends Error {
  constructor(readonly what: string, readonly deadlineMs: number) {
    super(`EventStoreDB read of ${what} did not finish within ${deadlineMs} ms`);
  }
}

/** Every item of `read`, or ReadDeadlineExceededError once `deadlineMs` has passed. */
export async function collectWithin<E>(read: CancellableRead<E>, deadlineMs: number, what: string): Promise<E[]> {
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    void read.cancel();
  }, deadlineMs);
  const items: E[] = [];
  try {
    for await (const item of read) {
      if (expired) break;
      items.push(item);
    }
  } catch (error) {
    if (!expired) throw error;
  } finally {
    clearTimeout(timer);
  }
  // A cancelled read ends quietly in the client (ReadStream ignores its own cancellation): never a short page.
  if (expired) throw new ReadDeadlineExceededError(what, deadlineMs);
  return items;
}

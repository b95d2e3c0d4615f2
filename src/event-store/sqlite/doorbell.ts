// A doorbell in shared memory between the request thread and the append worker. The sender posts its
// message on a MessagePort nobody listens to, then rings; the receiver drains the port with
// receiveMessageOnPort. The worker waits for a ring blocked in Atomics.wait (a futex, no event loop),
// the main thread with Atomics.waitAsync. Measured cold (threads idle for 20 ms, one core): a round trip
// of 0.09 ms against 0.23 ms for postMessage and its 'message' events (docs/benchmarks.md, finding 44).

const CELLS = 2;

/** Atomics.waitAsync (ES2024; Node has it, the project's `lib` is ES2023). */
type WaitAsync = (cells: Int32Array, index: number, value: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** The two bells of one worker: requests (main rings, worker waits) and replies (worker rings, main waits). */
export enum Bell {
  Requests = 0,
  Replies = 1,
}

export function newDoorbellCells(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(CELLS * Int32Array.BYTES_PER_ELEMENT));
}

export class Doorbell {
  constructor(private readonly cells: Int32Array, private readonly bell: Bell) {}

  /** How often it rang so far; read before draining, then wait on it, and no ring is missed. */
  get rings(): number {
    return Atomics.load(this.cells, this.bell);
  }

  ring(): void {
    Atomics.add(this.cells, this.bell, 1);
    Atomics.notify(this.cells, this.bell);
  }

  /** Blocks the thread until it rings after `seen` rings (the worker only). */
  waitBlocking(seen: number): void {
    Atomics.wait(this.cells, this.bell, seen);
  }

  /** Resolves once it rang after `seen` rings (at once when it already has). */
  waitAsync(seen: number): Promise<unknown> | null {
    const waited = waitAsync(this.cells, this.bell, seen);
    return waited.async ? waited.value : null;
  }
}

// A relayed body as a Node stream that asks its generator for one piece per read. Not `Readable.from`:
// over an async generator it made every relayed stream outlive two scavenges on Node 20, so each
// stream's objects were promoted to the old generation (about 1 MB per scavenge at 100 chat streams/s,
// 2.5 to 7.5 ms scavenges); this stream, fed by the same generator, promotes what a plain request does
// (docs/benchmarks.md, finding 30).
import { Readable } from 'node:stream';

export interface PullReadableOptions {
  /** Bytes read ahead of the consumer; 1 hands each piece over as soon as the previous one was taken. */
  highWaterMark?: number;
}

/**
 * Reads `source` piece by piece as the consumer asks. A failure of `source` destroys the stream with
 * that error; destroying the stream (e.g. the client went away) returns `source`, so its `finally`
 * blocks run.
 */
export function pullReadable(source: AsyncGenerator<string | Buffer>, options: PullReadableOptions = {}): Readable {
  return new Readable({
    highWaterMark: options.highWaterMark,
    read() {
      source.next().then(
        (result) => {
          this.push(result.done === true ? null : result.value);
        },
        (error: unknown) => {
          this.destroy(error instanceof Error ? error : new Error(String(error)));
        },
      );
    },
    destroy(error, callback) {
      source.return(undefined).then(
        () => callback(error),
        (returnError: unknown) => callback(error ?? (returnError as Error)),
      );
    },
  });
}

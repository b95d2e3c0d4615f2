// A relayed body as a Node stream that asks its generator for one piece per read. Not `Readable.from`:
// over an async generator it made every relayed stream outlive two scavenges on Node 20, so each
// stream's objects were promoted to the old generation (about 1 MB per scavenge at 100 chat streams/s,
// 2.5 to 7.5 ms scavenges); this stream, fed by the same generator, promotes what a plain request does
// (docs/benchmarks.md, finding 30).
import { Readable } from 'node:stream';

export interface PullReadableOptions {
  /** Bytes read ahead of the consumer; 1 hands each piece over as soon as the previous one was taken. */
  highWaterMark?: number;
  /**
   * Pieces the generator gives within one event-loop turn leave as one (at the end of the turn, up to
   * COALESCE_MAX_BYTES; the first piece at once): one socket write where there were as many as pieces. An upstream read holding
   * several SSE events (a busy gateway reads several at once) then costs the client's socket one write,
   * as a byte-for-byte proxy's does. The bytes and their order are unchanged.
   */
  coalesce?: boolean;
}

/** A turn's pieces past this many bytes leave at once, without waiting for the turn's end. */
export const COALESCE_MAX_BYTES = 64 * 1024;

/**
 * Reads `source` piece by piece as the consumer asks. A failure of `source` destroys the stream with
 * that error (after what it gave before); destroying the stream (e.g. the client went away) returns
 * `source`, so its `finally` blocks run.
 */
export function pullReadable(source: AsyncGenerator<string | Buffer>, options: PullReadableOptions = {}): Readable {
  return options.coalesce ? coalescingReadable(source, options.highWaterMark) : pieceByPiece(source, options.highWaterMark);
}

function pieceByPiece(source: AsyncGenerator<string | Buffer>, highWaterMark: number | undefined): Readable {
  return new Readable({
    highWaterMark,
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
    destroy: returnSource(source),
  });
}

function coalescingReadable(source: AsyncGenerator<string | Buffer>, highWaterMark: number | undefined): Readable {
  const turn = new TurnBuffer();
  let pulling = false;
  let wanted = false;
  let finished = false;
  let flushScheduled = false;
  /** The first piece leaves at once: the time to the first byte is not traded for fewer writes. */
  let first = true;
  /** A failure of the generator, raised once the consumer has taken what came before it. */
  let failure: Error | null = null;

  const flush = (): void => {
    flushScheduled = false;
    if (turn.empty) return;
    wanted = readable.push(turn.take());
    if (wanted) pull();
  };
  const pull = (): void => {
    if (pulling || finished || readable.destroyed) return;
    pulling = true;
    source.next().then(
      (result) => {
        pulling = false;
        if (result.done === true) {
          finished = true;
          flush();
          readable.push(null);
          return;
        }
        turn.add(result.value);
        if (first || turn.bytes >= COALESCE_MAX_BYTES) {
          first = false;
          return flush();
        }
        if (!flushScheduled) {
          flushScheduled = true;
          setImmediate(flush);
        }
        if (wanted) pull();
      },
      (error: unknown) => {
        pulling = false;
        finished = true;
        failure = error instanceof Error ? error : new Error(String(error));
        if (turn.empty) readable.destroy(failure);
        else flush();
      },
    );
  };
  const readable = new Readable({
    highWaterMark,
    read() {
      if (failure !== null) return void readable.destroy(failure);
      wanted = true;
      pull();
    },
    destroy: returnSource(source),
  });
  return readable;
}

/** The pieces of the current turn, handed over as one. */
class TurnBuffer {
  private pieces: (string | Buffer)[] = [];
  bytes = 0;

  get empty(): boolean {
    return this.pieces.length === 0;
  }

  add(piece: string | Buffer): void {
    this.pieces.push(piece);
    this.bytes += piece.length;
  }

  take(): string | Buffer {
    const pieces = this.pieces;
    this.pieces = [];
    this.bytes = 0;
    if (pieces.length === 1) return pieces[0];
    if (pieces.every((piece) => typeof piece === 'string')) return pieces.join('');
    return Buffer.concat(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
  }
}

function returnSource(source: AsyncGenerator<string | Buffer>) {
  return (error: Error | null, callback: (error?: Error | null) => void): void => {
    source.return(undefined).then(
      () => callback(error),
      (returnError: unknown) => callback(error ?? (returnError as Error)),
    );
  };
}

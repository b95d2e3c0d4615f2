// Reads JSON request bodies with one copy fewer than Fastify's and Nest's parsers, which keep every
// socket chunk until the end and then concatenate them: for a 95 MiB body that is chunks + joined
// buffer + string + parsed value alive at once (+374 MiB RSS measured). With a Content-Length each
// chunk is copied at once into one buffer and can be collected, so a maximum-size body costs ~95 MiB
// less at its peak. That buffer grows with the bytes that arrived (doubling, up to the declared
// length), never allocated at the declared length before the bytes come: every caller passes the key
// check before its body is read now, and 32 bodies each declaring 95 MiB then reserved 95 MiB each.
// A body given up on (refused mid-way, the client gone) frees its buffer at once. Each chunk copied, and then the buffer once decoded, is freed at
// once (release-buffer.ts) rather than at a later collection: a maximum-size body then peaks at its
// bytes or text plus its parsed value, 380 MiB RSS instead of 545 (docs/benchmarks.md, finding 44).
// Parsing itself (and its prototype-poisoning checks) is Fastify's.
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { errorCodes, type FastifyInstance } from 'fastify';
import { releaseNow } from './release-buffer';

type Done = (error: Error | null, body?: unknown) => void;

const FIRST_BUFFER_BYTES = 64 * 1024;

/** `refuse` sees each parsed value and returns the error to answer instead, or null (e.g. nesting too deep). */
export function parseJsonBodies(fastify: FastifyInstance, bodyLimitBytes: number, refuse: (value: unknown) => Error | null = () => null): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  const parsed = (done: Done) => (error: Error | null, value?: unknown) => {
    if (error) return done(error, undefined);
    const refusal = refuse(value);
    return refusal ? done(refusal, undefined) : done(null, value);
  };
  fastify.addContentTypeParser('application/json', (request, payload, done) => {
    readBody(request.raw, payload, bodyLimitBytes, (error, text) => (error ? done(error, undefined) : parseJson(request, text!, parsed(done))));
  });
}

function readBody(raw: IncomingMessage, payload: Readable, limit: number, done: (error: Error | null, text?: string) => void): void {
  const declared = raw.headers['content-length'] === undefined ? NaN : Number(raw.headers['content-length']);
  if (declared > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const sink = Number.isSafeInteger(declared) ? new SizedSink(declared) : new ChunkSink();
  const finish = (error: Error | null, text?: string) => {
    payload.removeListener('data', onData).removeListener('end', onEnd).removeListener('error', onError);
    if (error) sink.discard();
    done(error, text);
  };
  const onData = (chunk: Buffer) => {
    if (!sink.add(chunk) || sink.received > limit) finish(sink.received > limit ? new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE() : new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
  };
  const onEnd = () => (sink.complete() ? finish(null, sink.text()) : finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH()));
  const onError = (error: Error & { statusCode?: number }) => {
    if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
    finish(error);
  };
  payload.on('data', onData).on('end', onEnd).on('error', onError);
  payload.resume();
}

/**
 * A body of declared length: copied into one buffer as it arrives; more than declared is refused.
 * The parser is the request stream's only reader, so a chunk it has copied is no one's any more.
 */
class SizedSink {
  private buffer: Buffer | null = null;
  private first: Buffer | null = null;
  received = 0;

  constructor(private readonly size: number) {}

  add(chunk: Buffer): boolean {
    const needed = this.received + chunk.length;
    if (needed > this.size) return false;
    // The usual small body arrives in one chunk: it is used as it is, without a copy.
    if (this.received === 0 && chunk.length === this.size) this.first = chunk;
    else {
      if (needed > (this.buffer?.length ?? 0)) this.grow(needed);
      this.buffer!.set(chunk, this.received);
      releaseNow(chunk);
    }
    this.received = needed;
    return true;
  }

  /** At least `needed` bytes, at most twice what arrived (or 64 KiB), never more than declared. */
  private grow(needed: number): void {
    const old = this.buffer;
    const larger = Buffer.allocUnsafe(Math.min(this.size, Math.max(needed, 2 * (old?.length ?? 0), FIRST_BUFFER_BYTES)));
    if (old) {
      old.copy(larger, 0, 0, this.received);
      releaseNow(old);
    }
    this.buffer = larger;
  }

  discard(): void {
    if (this.buffer) releaseNow(this.buffer);
    this.buffer = this.first = null;
  }

  complete(): boolean {
    return this.received === this.size;
  }

  /** Decodes the body once; its bytes are released before the text is parsed. */
  text(): string {
    if (this.first) return this.first.toString('utf8');
    const buffer = this.buffer;
    if (!buffer) return '';
    this.buffer = null;
    const text = buffer.toString('utf8', 0, this.received);
    releaseNow(buffer);
    return text;
  }
}

/** A chunked body of unknown length: kept as chunks and joined at the end (Fastify's way). */
class ChunkSink {
  private readonly chunks: Buffer[] = [];
  received = 0;

  add(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    this.received += chunk.length;
    return true;
  }

  complete(): boolean {
    return true;
  }

  discard(): void {
    for (const chunk of this.chunks) releaseNow(chunk);
    this.chunks.length = 0;
  }

  text(): string {
    const joined = Buffer.concat(this.chunks, this.received);
    for (const chunk of this.chunks) releaseNow(chunk);
    this.chunks.length = 0;
    const text = joined.toString('utf8');
    releaseNow(joined);
    return text;
  }
}

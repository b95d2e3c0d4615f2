// A client still uploading when its request is refused (413) reads the answer only if the gateway
// goes on reading: a socket closed with unread bytes makes the kernel send a reset, which often
// reaches the client before it has read the 413 (and the client reports ECONNRESET or EPIPE).
// The gateway therefore answers, half-closes, and discards what still arrives, within bounds.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface DrainLimits {
  /** Bytes read and discarded after the refusal before the connection is cut. */
  maxBytes: number;
  /** Time allowed for the client to finish its upload before the connection is cut. */
  maxMs: number;
}

/** Enough for a client that declared up to 128 MiB and was refused before a byte was read. */
export const REFUSED_UPLOAD_DRAIN: DrainLimits = { maxBytes: 128 * 1024 * 1024, maxMs: 10_000 };

/**
 * Call before sending the refusal with `Connection: close`. Node ends such a response with
 * `socket.destroySoon()`, which closes the socket once the response is written; here it only
 * half-closes (FIN after the answer), and the socket is closed when the body has been read to its
 * end, or cut when a limit is passed.
 */
export function drainRefusedUpload(request: IncomingMessage, limits: DrainLimits = REFUSED_UPLOAD_DRAIN): void {
  const socket = request.socket;
  let discarded = 0;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, limits.maxMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.destroySoon = function halfClose(this: Socket) {
    if (this.writable) this.end();
  };
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.maxBytes) cut();
  });
  request.once('end', () => socket.end(cut));
  request.resume();
}

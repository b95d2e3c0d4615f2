// A stop closes the connections that never carried a byte of a request. Node's server.close() closes idle
// keep-alive connections, but to Node a connection that has not sent a request yet is not idle: it times
// such a connection's headers from its accept (headersTimeout), so closeIdleConnections() skips it, and
// close() stops the checker that would have expired it. A client holding a spare connection then held a
// stop until it let go or GATEWAY_SHUTDOWN_GRACE_MS ran out: undici (the OpenAI SDK's fetch) opens one when
// it drops a socket whose response it stopped reading, as the SDK does at a stream's [DONE] when the
// response has not ended yet (relay-chat-stream.ts ends it after [DONE] once the last progress record is
// settled, a file write later).
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export function closeUnusedConnections(fastify: FastifyInstance): void {
  const unused = new Set<Socket>();
  fastify.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  fastify.server.on('request', (request: { socket: Socket }) => unused.delete(request.socket));
  fastify.addHook('preClose', (done) => {
    // A connection with part of a request on it is a request in flight: the grace decides for it.
    for (const socket of unused) if (socket.bytesRead === 0) socket.destroy();
    done();
  });
}

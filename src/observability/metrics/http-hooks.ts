// Fastify hooks feeding HttpMetrics. They read what Fastify already has (the matched route pattern,
// the status, the elapsed time); only streamed answers get a per-request closure, to see their first byte.
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpMetrics } from './http-metrics';
import { UNMATCHED_ROUTE } from './label-values';

export function recordHttpMetrics(fastify: FastifyInstance, http: HttpMetrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    http.answered(routeOf(request), request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (isStream(payload)) timeFirstByte(request, reply, http);
    done(null, payload);
  });
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}

function isStream(payload: unknown): boolean {
  return typeof payload === 'object' && payload !== null && typeof (payload as { pipe?: unknown }).pipe === 'function';
}

/** Fastify pipes the stream into the response: its first write is the first body byte. */
function timeFirstByte(request: FastifyRequest, reply: FastifyReply, http: HttpMetrics): void {
  const raw = reply.raw;
  const write = raw.write;
  raw.write = function firstWrite(this: ServerResponse, ...args: Parameters<ServerResponse['write']>): boolean {
    raw.write = write;
    http.firstByte(routeOf(request), request.method, reply.elapsedTime / 1000);
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as ServerResponse['write'];
}

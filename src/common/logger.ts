// Structured JSON logs (pino, through Fastify). Credentials never reach a log line: headers and
// known fields are redacted by path, credential-named query parameters inside request URLs by
// the request serializer, and whatever is left by the scrub of every line (src/observability/logging).
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { redactQueryCredentials } from './redact-query';
import { sharedLogOptions } from '../observability/logging/log-options';

/** Fastify's own request serializer, with the URL's query credentials masked. */
export function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactQueryCredentials(request.url),
    version: request.headers?.['accept-version'] as string | undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** `stream` replaces stdout (tests capture the lines). */
export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return Object.assign(sharedLogOptions(level), { stream, serializers: { req: requestForLog } });
}

// Structured JSON logs (pino, through Fastify). Credentials never reach a log line: headers and
// known fields are redacted by path, credential-named query parameters inside request URLs by
// the request serializer.
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { redactQueryCredentials } from './redact-query';

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
  return {
    level,
    stream,
    serializers: { req: requestForLog },
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', '*.api_key', '*.apiKey'],
      censor: '[redacted]',
    },
  };
}

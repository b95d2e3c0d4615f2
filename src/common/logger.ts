// Structured JSON logs (pino, through Fastify). Credentials never reach a log line.
import type { FastifyServerOptions } from 'fastify';

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', '*.api_key', '*.apiKey'],
      censor: '[redacted]',
    },
  };
}

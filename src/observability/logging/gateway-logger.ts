// The gateway's one pino logger, made once by the composition root: Fastify writes its request lines
// with it, Nest's framework lines reach it through the bridge (common/nest-pino-logger.ts), and every
// part of the gateway gets it (or a child naming its context) as a GatewayLog (common/gateway-log.ts).
// Besides it, only the process's last words go to stderr (fatalLogger, main.ts alone).
import type { FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import { redactQueryCredentials } from '../../common/redact-query';
import { sharedLogOptions } from './log-options';

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

/**
 * JSON lines at LOG_LEVEL (`silent` writes nothing) on stdout, or on `stream` (tests read them). On
 * stdout pino's own buffered writer, as Fastify's logger had: a slow reader of the pipe does not stall
 * requests, and what is buffered is flushed when the process exits.
 */
export function createGatewayLogger(level: string, stream?: DestinationStream): Logger {
  const options = { ...sharedLogOptions(level), serializers: { req: requestForLog } };
  return stream === undefined ? pino(options) : pino(options, stream);
}

let stderrLogger: Logger | null = null;

/** The line a process writes when it cannot start or stop: on stderr, where supervisors look. */
export function fatalLogger(): Logger {
  stderrLogger ??= pino(sharedLogOptions('info'), pino.destination({ fd: 2, sync: true }));
  return stderrLogger;
}

/**
 * Node prints its warnings (deprecations, experimental features) as plain text on stderr; they
 * become JSON lines instead. Node's own printer is the `warning` listener installed at start-up.
 */
export function logProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => logger.warn({ context: 'node', warning: { name: warning.name, code: (warning as { code?: string }).code } }, warning.message));
}

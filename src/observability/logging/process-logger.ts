// Log lines that belong to the process rather than to a request (the start-up banner, a fatal
// error, a background part failing, Node's own warnings), in the same JSON as the request logger.
import pino, { type Logger } from 'pino';
import { sharedLogOptions } from './log-options';

let stdoutLogger: Logger | null = null;
let stderrLogger: Logger | null = null;

const levelOf = (env: NodeJS.ProcessEnv) => (env.LOG_LEVEL === 'silent' ? 'silent' : env.LOG_LEVEL ?? 'info');

/** Lines on stdout, beside the request logger's. */
export function processLogger(env: NodeJS.ProcessEnv = process.env): Logger {
  stdoutLogger ??= pino(sharedLogOptions(levelOf(env)), pino.destination({ fd: 1, sync: true }));
  return stdoutLogger;
}

/** The line a process writes when it cannot start or stop: on stderr, where supervisors look. */
export function fatalLogger(): Logger {
  stderrLogger ??= pino(sharedLogOptions('info'), pino.destination({ fd: 2, sync: true }));
  return stderrLogger;
}

/**
 * Node prints its warnings (deprecations, experimental features) as plain text on stderr; they
 * become JSON lines instead. Node's own printer is the `warning` listener installed at start-up.
 */
export function logProcessWarnings(logger: Logger = processLogger()): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => logger.warn({ context: 'node', warning: { name: warning.name, code: (warning as { code?: string }).code } }, warning.message));
}

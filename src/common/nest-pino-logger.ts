// Nest's own log lines (start-up, routes mapped; the gateway's code logs through its GatewayLog) written by the gateway's
// pino logger, so the output is one JSON object per line: Nest's console logger printed coloured,
// multi-line text among pino's JSON.
import type { LoggerService, LogLevel } from '@nestjs/common';
import type { FastifyBaseLogger } from 'fastify';

type PinoLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

const PINO_LEVELS: Record<LogLevel, PinoLevel> = {
  fatal: 'fatal', error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace',
};

/**
 * Nest's `log` level is framework chatter (modules loaded, routes mapped): shown only when the
 * gateway logs at debug, as before; pino's own level filters the rest.
 */
export function nestLogLevels(logLevel: string): LogLevel[] {
  return logLevel === 'debug' ? ['fatal', 'error', 'warn', 'log', 'debug'] : ['fatal', 'error', 'warn'];
}

export class NestPinoLogger implements LoggerService {
  private enabled: Set<LogLevel>;

  constructor(private readonly pino: FastifyBaseLogger, levels: LogLevel[]) {
    this.enabled = new Set(levels);
  }

  log(message: unknown, ...params: unknown[]): void { this.write('log', message, params); }
  error(message: unknown, ...params: unknown[]): void { this.write('error', message, params); }
  warn(message: unknown, ...params: unknown[]): void { this.write('warn', message, params); }
  debug(message: unknown, ...params: unknown[]): void { this.write('debug', message, params); }
  verbose(message: unknown, ...params: unknown[]): void { this.write('verbose', message, params); }
  fatal(message: unknown, ...params: unknown[]): void { this.write('fatal', message, params); }

  setLogLevels(levels: LogLevel[]): void {
    this.enabled = new Set(levels);
  }

  /**
   * Nest calls `(message, ...params, context)`: a `Logger` with a context appends it last. A string
   * before it is the message when `message` is an object (`logger.error({ err }, 'text')`), else
   * a stack (`logger.error('text', error.stack)`).
   */
  private write(level: LogLevel, message: unknown, params: unknown[]): void {
    if (!this.enabled.has(level)) return;
    const strings = params.filter((param): param is string => typeof param === 'string');
    const context = strings.length > 0 && typeof params[params.length - 1] === 'string' ? strings.pop() : undefined;
    const fields: Record<string, unknown> = context === undefined ? {} : { context };
    let text: string | undefined;
    if (message instanceof Error) {
      fields.err = message;
      text = strings[0] ?? message.message;
    } else if (typeof message === 'object' && message !== null) {
      Object.assign(fields, message);
      text = strings[0];
    } else {
      text = String(message);
      if (strings[0] !== undefined) fields.stack = strings[0];
    }
    this.pino[PINO_LEVELS[level]](fields, text);
  }
}

// The one way the gateway's own code logs. A leaf: the composition root (core/build-runtime.ts) makes
// the logger (pino, observability/logging/gateway-logger.ts) and hands it to each part, by constructor
// or, for handlers, by Nest's DI under GATEWAY_LOG (runtime-tokens.ts); no part reaches a logger through a global.
// pino's Logger is a GatewayLog; `child({ context })` names the part writing, so a line keeps the
// `context` field Nest's `new Logger(context)` gave it.

/** Fields first, then the message (pino's order); or a message alone. */
export interface LogMethod {
  (fields: object, message?: string): void;
  (message: string): void;
}

export interface GatewayLog {
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
  child(bindings: Record<string, unknown>): GatewayLog;
}

const ignore: LogMethod = () => undefined;

/** What a part logs to when a test builds it without a logger: nothing. */
export const SILENT_LOG: GatewayLog = { error: ignore, warn: ignore, info: ignore, debug: ignore, child: () => SILENT_LOG };

// Injection tokens for the runtime's plain values (no class to inject them by). A leaf: providers are
// declared in core.module.ts, consumers import only the token.
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
/** Signs cost-page cursors (GATEWAY_CURSOR_SECRET, or random per process). */
export const CURSOR_SECRET = Symbol('CURSOR_SECRET');
/** The validation span of a request when tracing is on, else null (forms validated outside the global pipe). */
export const VALIDATION_SPANS = Symbol('VALIDATION_SPANS');
/** The runtime's GatewayLog (common/gateway-log.ts): handlers that log hand it to the functions they call. */
export const GATEWAY_LOG = Symbol('GATEWAY_LOG');

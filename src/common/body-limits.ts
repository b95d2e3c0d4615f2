// How long and how much the gateway waits for a request, on its own terms: a client that sends
// headers or a body too slowly, or stops sending, is cut off rather than holding a connection (and
// the memory and budget its body takes) for as long as it likes. The defaults let a slow mobile
// upload through: 100 MiB in 10 minutes is ~170 KB/s, and 30 s without a byte is a dead network.
// Read from the environment once at start-up; anything malformed stops the start.

/** The request-body size limit (spec: "Request body over 100 MiB" is 413), JSON and multipart alike. */
export const BODY_LIMIT_BYTES = 100 * 1024 * 1024;

/** A multipart text field (model, prompt, n, ...) holds at most this many bytes; more is 400 `field_too_large`. */
export const FORM_FIELD_LIMIT_BYTES = 64 * 1024;

export interface BodyDeadlines {
  /** From the connection's first byte of a request to the end of its headers (Node's `headersTimeout`). */
  headersMs: number;
  /** Longest silence while a body is still arriving. */
  bodyIdleMs: number;
  /** From the end of the headers to the last byte of the body. */
  bodyMs: number;
}

export const DEFAULT_BODY_DEADLINES: BodyDeadlines = Object.freeze({ headersMs: 30_000, bodyIdleMs: 30_000, bodyMs: 600_000 });

const ENV_NAMES: Record<keyof BodyDeadlines, string> = {
  headersMs: 'GATEWAY_HEADERS_TIMEOUT_MS',
  bodyIdleMs: 'GATEWAY_BODY_IDLE_TIMEOUT_MS',
  bodyMs: 'GATEWAY_BODY_TIMEOUT_MS',
};

/** Each deadline from its variable (a positive whole number of milliseconds), else its default. */
export function bodyDeadlinesFrom(env: NodeJS.ProcessEnv): BodyDeadlines {
  const deadlines = { ...DEFAULT_BODY_DEADLINES };
  for (const key of Object.keys(ENV_NAMES) as (keyof BodyDeadlines)[]) {
    const raw = env[ENV_NAMES[key]];
    if (raw === undefined || raw.trim() === '') continue;
    if (!/^[1-9]\d*$/.test(raw.trim()) || !Number.isSafeInteger(Number(raw))) {
      throw new Error(`${ENV_NAMES[key]} must be a positive whole number of milliseconds, got '${raw}'`);
    }
    deadlines[key] = Number(raw);
  }
  return deadlines;
}

/**
 * Node's own server timeouts: the headers deadline is Node's; the whole-request deadline is a backstop
 * behind the gateway's body timer (which answers in the spec's envelope), so it comes later. Node checks
 * them every `connectionsCheckingInterval`, here a quarter of the shortest, so a short test value holds.
 */
export function nodeServerTimeouts(deadlines: BodyDeadlines): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number } {
  const requestTimeout = deadlines.headersMs + deadlines.bodyMs + 5_000;
  const headersTimeout = Math.min(deadlines.headersMs, requestTimeout);
  return { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(headersTimeout / 4))) };
}

import { bodyDeadlinesFrom, DEFAULT_BODY_DEADLINES, nodeServerTimeouts } from './body-limits';

describe('body deadlines from the environment', () => {
  it('defaults to 30 s for headers and an idle body, 10 minutes for a whole body', () => {
    expect(bodyDeadlinesFrom({})).toEqual({ headersMs: 30_000, bodyIdleMs: 30_000, bodyMs: 600_000 });
    expect(bodyDeadlinesFrom({ GATEWAY_BODY_IDLE_TIMEOUT_MS: ' ' })).toEqual(DEFAULT_BODY_DEADLINES);
  });

  it('reads each variable as a positive whole number of milliseconds', () => {
    const env = { GATEWAY_HEADERS_TIMEOUT_MS: '1000', GATEWAY_BODY_IDLE_TIMEOUT_MS: '1', GATEWAY_BODY_TIMEOUT_MS: '5000' };
    expect(bodyDeadlinesFrom(env)).toEqual({ headersMs: 1000, bodyIdleMs: 1, bodyMs: 5000 });
  });

  it.each(['0', '-5', '1.5', '30s', '99999999999999999999'])('stops the start on %s, naming the variable', (raw) => {
    expect(() => bodyDeadlinesFrom({ GATEWAY_BODY_TIMEOUT_MS: raw })).toThrow(/GATEWAY_BODY_TIMEOUT_MS/);
  });

  it("keeps Node's request timeout behind the gateway's own body deadline, and checks often enough for short deadlines", () => {
    expect(nodeServerTimeouts(DEFAULT_BODY_DEADLINES)).toEqual({ headersTimeout: 30_000, requestTimeout: 635_000, connectionsCheckingInterval: 7_500 });
    expect(nodeServerTimeouts({ headersMs: 100, bodyIdleMs: 100, bodyMs: 100 }).connectionsCheckingInterval).toBe(50);
  });
});

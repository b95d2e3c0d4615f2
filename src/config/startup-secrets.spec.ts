import { readRuntimeEnv, type GatewayConfig } from './gateway-config';
import { checkStartupSecrets, isLoopback, isPlaceholder, MIN_SECRET_CHARS, optedOut } from './startup-secrets';

const GOOD = 'a3f9c2e81b7d4f60a9e3c1d2b5f7e8a9'; // 32 characters
const config = (...keys: (string | null)[]) =>
  ({ models: keys.map((api_key, i) => ({ id: `m${i}`, upstream: { api_key } })), services: {} }) as unknown as GatewayConfig;
const check = (env: Record<string, string>, cfg = config()) => checkStartupSecrets(readRuntimeEnv(env), cfg, env);

describe('checkStartupSecrets', () => {
  it('starts with nothing set on loopback, and with generated secrets anywhere', () => {
    expect(check({})).toEqual({ refusals: [], warnings: [] });
    expect(check({ HOST: '0.0.0.0', GATEWAY_CURSOR_SECRET: GOOD, GATEWAY_METRICS_TOKEN: GOOD }, config('sk-live-4f8a2b'))).toEqual({ refusals: [], warnings: [] });
  });

  it.each(['change-me', 'change-me-to-a-long-random-string', 'CHANGEME_please_0123456789abcdef', 'placeholder-0123456789abcdef0123456',
    'my-secret-value-0123456789abcdef0123', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'example-cursor-secret-0123456789abcdef'])(
    'refuses the placeholder %s for GATEWAY_CURSOR_SECRET and GATEWAY_METRICS_TOKEN', (value) => {
      const { refusals } = check({ GATEWAY_CURSOR_SECRET: value, GATEWAY_METRICS_TOKEN: value });
      expect(refusals).toHaveLength(2);
      expect(refusals[0]).toMatch(/^GATEWAY_CURSOR_SECRET is a placeholder value: .*; or set GATEWAY_ALLOW_WEAK_SECRETS=1 to start anyway$/);
      expect(refusals.join()).not.toContain(value);
    });

  it(`refuses a secret of ${MIN_SECRET_CHARS - 1} characters and takes one of ${MIN_SECRET_CHARS}`, () => {
    expect(check({ GATEWAY_METRICS_TOKEN: GOOD.slice(1) }).refusals).toEqual([
      `GATEWAY_METRICS_TOKEN has ${MIN_SECRET_CHARS - 1} characters, fewer than ${MIN_SECRET_CHARS}: set it to a generated secret, e.g. $(openssl rand -hex 32); or set GATEWAY_ALLOW_WEAK_SECRETS=1 to start anyway`,
    ]);
    expect(check({ GATEWAY_METRICS_TOKEN: GOOD }).refusals).toEqual([]);
  });

  it('refuses placeholder upstream keys in the config, whatever their length, and takes short real ones', () => {
    const { refusals } = check({}, config('change-me', null, 'sim-key', 'your-api-key-here', 'xxx'));
    expect(refusals.map((line) => line.split(' is ')[0])).toEqual(['models[0].upstream.api_key (m0)', 'models[3].upstream.api_key (m3)', 'models[4].upstream.api_key (m4)']);
  });

  it('refuses a placeholder event store password in EVENTSTORE_CONNECTION_STRING', () => {
    const connection = (password: string) => ({ EVENTSTORE_CONNECTION_STRING: `esdb://admin:${password}@kurrentdb:2113?tls=true` });
    expect(check(connection('change-me-to-a-long-random-hex-string')).refusals).toEqual([
      'EVENTSTORE_CONNECTION_STRING carries a placeholder password: set the event store password to a generated one; or set GATEWAY_ALLOW_WEAK_SECRETS=1 to start anyway',
    ]);
    expect(check(connection('change%2Dme')).refusals).toHaveLength(1);
    expect(check(connection('bad%zz-escape-4f9a2c7e1b3d5f60')).refusals).toEqual([]);
    expect(check(connection('4f9a2c7e1b3d5f60a8c2e4b6')).refusals).toEqual([]);
    expect(check({ EVENTSTORE_CONNECTION_STRING: 'esdb://kurrentdb:2113?tls=false' }).refusals).toEqual([]);
  });

  it('GATEWAY_ALLOW_WEAK_SECRETS=1 turns weak secrets into warnings', () => {
    const result = check({ GATEWAY_CURSOR_SECRET: 'short', GATEWAY_ALLOW_WEAK_SECRETS: '1' }, config('change-me'));
    expect(result.refusals).toEqual([]);
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings[0]).toMatch(/^GATEWAY_CURSOR_SECRET has 5 characters.*\(allowed by GATEWAY_ALLOW_WEAK_SECRETS=1\)$/);
  });

  it.each(['0.0.0.0', '::', '10.0.0.5', 'gateway.internal'])('refuses an open /metrics on %s', (host) => {
    expect(check({ HOST: host }).refusals).toEqual([
      `GET /metrics would be open to anyone on ${host}: set GATEWAY_METRICS_TOKEN (or GATEWAY_METRICS=off); or set GATEWAY_METRICS_PUBLIC=1 to start anyway`,
    ]);
  });

  it('leaves /metrics alone on loopback, with a token, switched off, or with GATEWAY_METRICS_PUBLIC=1 (a warning)', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', '::1', '[::1]']) expect(check({ HOST: host }).refusals).toEqual([]);
    expect(check({ HOST: '0.0.0.0', GATEWAY_METRICS_TOKEN: GOOD }).refusals).toEqual([]);
    expect(check({ HOST: '0.0.0.0', GATEWAY_METRICS: 'off' }).refusals).toEqual([]);
    const opened = check({ HOST: '0.0.0.0', GATEWAY_METRICS_PUBLIC: '1' });
    expect([opened.refusals, opened.warnings.length]).toEqual([[], 1]);
  });

  it('does not let one opt-out cover the other refusal', () => {
    expect(check({ HOST: '0.0.0.0', GATEWAY_ALLOW_WEAK_SECRETS: '1' }).refusals).toHaveLength(1);
    expect(check({ GATEWAY_CURSOR_SECRET: 'short', GATEWAY_METRICS_PUBLIC: '1' }).refusals).toHaveLength(1);
  });
});

describe('helpers', () => {
  it('reads an opt-out as off unless set to an on word, and stops on a typo', () => {
    expect([optedOut({}, 'X'), optedOut({ X: '0' }, 'X'), optedOut({ X: '1' }, 'X'), optedOut({ X: 'yes' }, 'X')]).toEqual([false, false, true, true]);
    expect(() => optedOut({ X: 'ture' }, 'X')).toThrow("X must be 1 or 0; got 'ture'");
  });

  it('knows loopback hosts', () => {
    expect(['127.0.0.1', '::1', 'localhost'].map(isLoopback)).toEqual([true, true, true]);
    expect(['0.0.0.0', '::', '192.168.1.2', 'example.com'].map(isLoopback)).toEqual([false, false, false, false]);
  });

  it('takes generated values for real', () => {
    expect(['sk-proj-4f8a2b', GOOD, 'Zm9vYmFy0123456789abcdefABCDEF01'].map(isPlaceholder)).toEqual([false, false, false]);
  });
});

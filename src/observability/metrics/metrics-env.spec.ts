import { readMetricsEnv } from './metrics-env';

describe('readMetricsEnv', () => {
  it('turns metrics on by default, unguarded', () => {
    expect(readMetricsEnv({})).toEqual({ enabled: true, token: null });
    expect(readMetricsEnv({ GATEWAY_METRICS: '', GATEWAY_METRICS_TOKEN: '' })).toEqual({ enabled: true, token: null });
  });

  it.each(['off', 'OFF', 'false', '0', 'no', ' off '])('turns them off with GATEWAY_METRICS=%p', (value) => {
    expect(readMetricsEnv({ GATEWAY_METRICS: value }).enabled).toBe(false);
  });

  it.each(['on', 'true', '1', 'yes'])('keeps them on with GATEWAY_METRICS=%p', (value) => {
    expect(readMetricsEnv({ GATEWAY_METRICS: value }).enabled).toBe(true);
  });

  it('refuses any other value rather than guess', () => {
    expect(() => readMetricsEnv({ GATEWAY_METRICS: 'of' })).toThrow("GATEWAY_METRICS must be 'on' or 'off'; got 'of'");
  });

  it('takes the token as it is', () => {
    expect(readMetricsEnv({ GATEWAY_METRICS_TOKEN: ' t0k en ' }).token).toBe(' t0k en ');
  });
});

import { DEFAULT_MEDIA_ENV, readMediaEnv } from './media-env';

describe('media environment', () => {
  it('has documented defaults', () => {
    expect(readMediaEnv({})).toEqual(DEFAULT_MEDIA_ENV);
    expect(DEFAULT_MEDIA_ENV).toEqual({
      slots: { global: 4, perOrganization: 2, queueLength: 32, waitMs: 10_000 },
      childLimits: { memoryBytes: 1536 * 1024 * 1024, cpuSeconds: 120 },
      maxPixels: 40_000_000,
    });
  });

  it('reads every variable', () => {
    const env = readMediaEnv({
      GATEWAY_MEDIA_PROCESSES: '8', GATEWAY_MEDIA_PROCESSES_PER_ORG: '3', GATEWAY_MEDIA_QUEUE: '0', GATEWAY_MEDIA_QUEUE_WAIT_MS: '0',
      GATEWAY_MEDIA_MEMORY_MB: '64', GATEWAY_MEDIA_CPU_SECONDS: '1', GATEWAY_MEDIA_MAX_PIXELS: '1',
    });
    expect(env).toEqual({ slots: { global: 8, perOrganization: 3, queueLength: 0, waitMs: 0 }, childLimits: { memoryBytes: 64 * 1024 * 1024, cpuSeconds: 1 }, maxPixels: 1 });
  });

  it.each([
    ['GATEWAY_MEDIA_PROCESSES', '0'], ['GATEWAY_MEDIA_PROCESSES_PER_ORG', '1.5'], ['GATEWAY_MEDIA_QUEUE', '-1'],
    ['GATEWAY_MEDIA_MEMORY_MB', '63'], ['GATEWAY_MEDIA_CPU_SECONDS', '0'], ['GATEWAY_MEDIA_MAX_PIXELS', 'lots'],
  ])('refuses %s=%s at start-up', (name, value) => {
    expect(() => readMediaEnv({ [name]: value })).toThrow(name);
  });
});

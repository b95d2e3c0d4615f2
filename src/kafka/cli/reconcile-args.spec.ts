import { parseReconcileArgs, UsageError } from './reconcile-args';

describe('parseReconcileArgs', () => {
  it('reads --from earliest as an open window', () => {
    expect(parseReconcileArgs(['--from', 'earliest'])).toEqual({ window: { fromDay: null, untilDay: null }, gateway: null });
  });

  it('widens timestamps to their whole UTC day', () => {
    expect(parseReconcileArgs(['--from', '2026-11-20T15:00:00+03:00', '--until', '2026-11-22']).window).toEqual({
      fromDay: '2026-11-20',
      untilDay: '2026-11-22',
    });
  });

  it('reads the gateway check with the default tolerance of one micro', () => {
    const { gateway } = parseReconcileArgs(['--from', '2026-11-20', '--gateway-url', 'http://127.0.0.1:8080', '--api-key', 'sk-1', '--organization', 'org-a']);
    expect(gateway).toMatchObject({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sk-1', organizationId: 'org-a' });
    expect(gateway?.toleranceUsd.toFixed()).toBe('0.000001');
  });

  it('rejects a missing --from, a bad date, a lone --api-key, a negative tolerance and unknown options', () => {
    expect(() => parseReconcileArgs([])).toThrow(UsageError);
    expect(() => parseReconcileArgs(['--from', 'last tuesday'])).toThrow(/--from/);
    expect(() => parseReconcileArgs(['--from', 'earliest', '--api-key', 'k'])).toThrow(/go together/);
    expect(() => parseReconcileArgs(['--from', 'earliest', '--gateway-url', 'http://x', '--api-key', 'k', '--usd-tolerance', '-1'])).toThrow(
      /usd-tolerance/,
    );
    expect(() => parseReconcileArgs(['--from', 'earliest', '--verbose'])).toThrow();
  });
});

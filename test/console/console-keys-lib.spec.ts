import { expiresAtOfLocalInput, keyStatus, organizationsOfInput, usageSummary, type KeyLike } from '../../console/lib/key-usage';

const key = (over: Partial<KeyLike> = {}): KeyLike => ({
  disabled: false, revoked: false, expires_at: null, limit_usd: '0.3', limit_reset: 'daily',
  usage: { window_start: '2026-11-24T00:00:00.000Z', resets_at: '2026-11-25T00:00:00.000Z', spent_usd: '0.1', held_usd: '0.2', remaining_usd: '0' },
  ...over,
});

describe('usageSummary', () => {
  it('adds spent and held exactly (0.1 + 0.2 is 0.3, the whole limit)', () => {
    const summary = usageSummary(key());
    expect(summary.usedMicros).toBe(300_000n);
    expect(summary.perMille).toBe(1000);
    expect(summary.text).toBe('$0.100000 spent + $0.200000 held of $0.300000 (daily), resets 2026-11-25 00:00:00 UTC');
  });

  it('is one micro under the limit at 999 per mille and caps past the limit at 1000', () => {
    expect(usageSummary(key({ limit_usd: '1', usage: { ...key().usage!, spent_usd: '0.999999', held_usd: '0' } })).perMille).toBe(999);
    expect(usageSummary(key({ limit_usd: '1', usage: { ...key().usage!, spent_usd: '1.000001', held_usd: '0' } })).perMille).toBe(1000);
  });

  it('says lifetime without a reset and "no limit" without a limit', () => {
    const lifetime = usageSummary(key({ limit_reset: null, usage: { ...key().usage!, resets_at: null } }));
    expect(lifetime.text).toBe('$0.100000 spent + $0.200000 held of $0.300000 (lifetime)');
    const unlimited = usageSummary(key({ limit_usd: null }));
    expect(unlimited).toMatchObject({ perMille: null, limitMicros: null, text: '$0.100000 spent + $0.200000 held, no limit' });
  });

  it('treats a zero limit as used up', () => {
    expect(usageSummary(key({ limit_usd: '0', usage: { ...key().usage!, spent_usd: '0', held_usd: '0' } })).perMille).toBe(1000);
  });
});

describe('keyStatus', () => {
  it('puts revoked before disabled before expired', () => {
    expect(keyStatus(key({ revoked: true, disabled: true }), 0)).toBe('revoked');
    expect(keyStatus(key({ disabled: true, expires_at: '2000-01-01T00:00:00Z' }), Date.now())).toBe('disabled');
  });

  it('is expired at expires_at, active just before', () => {
    const at = Date.parse('2027-01-01T00:00:00Z');
    expect(keyStatus(key({ expires_at: '2027-01-01T00:00:00Z' }), at)).toBe('expired');
    expect(keyStatus(key({ expires_at: '2027-01-01T00:00:00Z' }), at - 1)).toBe('active');
  });
});

describe('form inputs', () => {
  it('reads a datetime-local value as UTC', () => {
    expect(expiresAtOfLocalInput('2027-01-31T12:00')).toBe('2027-01-31T12:00:00Z');
    expect(expiresAtOfLocalInput('2027-01-31T12:00:30')).toBe('2027-01-31T12:00:30Z');
    expect(expiresAtOfLocalInput('  ')).toBeNull();
  });

  it('splits organizations on commas and spaces, once each', () => {
    expect(organizationsOfInput(' org-a, org-b  org-a,')).toEqual(['org-a', 'org-b']);
  });
});

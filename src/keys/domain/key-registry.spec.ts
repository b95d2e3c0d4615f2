import { EventContractError } from '../../projections/parking/event-contract-error';
import { KeyRegistry } from './key-registry';

const hash = (c: string) => `sha256:${c.repeat(64)}`;
const at = '2026-01-01T00:00:00.000Z';
const issued = (keyId: string, h: string) => ({
  schemaVersion: 1, keyId, hash: h, name: keyId, organizations: ['org-a'], defaultOrganization: 'org-a',
  expiresAt: null, limitUsd: '0.5', limitReset: 'weekly', rateLimit: null, at, by: 'm',
});
const status = (keyId: string) => ({ schemaVersion: 1, keyId, at, by: 'm' });

describe('key registry fold', () => {
  it('finds keys by hash and id, with limits, disabled and revoked in the record authentication reads', () => {
    const registry = new KeyRegistry();
    registry.apply('ApiKeyIssued', issued('key_a', hash('a')));
    registry.apply('ApiKeyIssued', issued('key_b', hash('b')));
    registry.apply('CostPriced', { anything: true });
    registry.apply('ApiKeyChanged', { schemaVersion: 1, keyId: 'key_a', changes: { limitUsd: '2', name: 'renamed' }, at, by: 'm' });
    registry.apply('ApiKeyDisabled', status('key_b'));
    expect(registry.byKeyHash(hash('a'))!.record).toMatchObject({ id: 'key_a', owner: 'renamed', limit_usd: '2', limit_reset: 'weekly', disabled: false, revoked: false });
    expect(registry.byKeyHash(hash('b'))!.record).toMatchObject({ disabled: true });
    registry.apply('ApiKeyEnabled', status('key_b'));
    registry.apply('ApiKeyRevoked', status('key_b'));
    expect(registry.byKeyId('key_b')!.record).toMatchObject({ disabled: false, revoked: true });
    expect([...registry.keys()].map((k) => k.state.keyId)).toEqual(['key_a', 'key_b']);
    expect(registry.keyCount).toBe(2);
  });

  it('keeps the latest organization budget', () => {
    const registry = new KeyRegistry();
    registry.apply('OrganizationBudgetSet', { schemaVersion: 1, organizationId: 'org-a', limitUsd: '5', limitReset: 'daily', at, by: 'm' });
    registry.apply('OrganizationBudgetSet', { schemaVersion: 1, organizationId: 'org-a', limitUsd: '7.25', limitReset: null, at, by: 'm' });
    expect(registry.budget('org-a')).toMatchObject({ limitUsd: '7.25', limitReset: null });
    expect(registry.budget('org-b')).toBeUndefined();
  });

  it.each([
    ['an unknown schemaVersion', 'ApiKeyIssued', { ...issued('key_a', hash('a')), schemaVersion: 2 }],
    ['a malformed hash', 'ApiKeyIssued', issued('key_a', 'plain-secret')],
    ['a limit with 7 decimals', 'ApiKeyIssued', { ...issued('key_a', hash('a')), limitUsd: '0.0000001' }],
    ['a change to a key never issued', 'ApiKeyChanged', { schemaVersion: 1, keyId: 'key_z', changes: {}, at, by: 'm' }],
    ['a revoke of a key never issued', 'ApiKeyRevoked', status('key_z')],
    ['no data', 'ApiKeyDisabled', null],
    ['a budget with a bad reset', 'OrganizationBudgetSet', { schemaVersion: 1, organizationId: 'org-a', limitUsd: '1', limitReset: 'hourly', at, by: 'm' }],
  ])('rejects %s as a contract error (parked, never folded)', (_what, type, data) => {
    const registry = new KeyRegistry();
    expect(() => registry.apply(type, data)).toThrow(EventContractError);
    expect(registry.keyCount).toBe(0);
  });

  it('rejects a second issue of one id and a reused hash', () => {
    const registry = new KeyRegistry();
    registry.apply('ApiKeyIssued', issued('key_a', hash('a')));
    expect(() => registry.apply('ApiKeyIssued', issued('key_a', hash('c')))).toThrow(EventContractError);
    expect(() => registry.apply('ApiKeyIssued', issued('key_c', hash('a')))).toThrow(EventContractError);
  });
});

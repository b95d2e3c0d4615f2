import { ConfigAccessStore } from '../access/access.store';
import type { GatewayConfig } from '../config/gateway-config';
import { KeyRegistry } from './domain/key-registry';
import { RuntimeAccessStore } from './runtime-access-store';

const at = '2026-11-24T00:00:00.000Z';
const config = {
  organizations: [{ id: 'org-a', payment_method: true, rate_limit: { requests: 1, window_seconds: 1 }, budget: { limit_usd: '5', limit_reset: 'daily' } }],
  keys: [{ id: 'key-config', hash: `sha256:${'c'.repeat(64)}`, owner: 'ops', organizations: ['org-a'], default_organization: 'org-a' }],
  management_keys: [{ id: 'm', hash: `sha256:${'m'.repeat(64)}` }],
} as unknown as GatewayConfig;

describe('runtime access store', () => {
  it('answers configured and runtime keys, and the API budget over the configured one', async () => {
    const registry = new KeyRegistry();
    const store = new RuntimeAccessStore(new ConfigAccessStore(config), registry);
    registry.apply('ApiKeyIssued', {
      schemaVersion: 1, keyId: 'key_r', hash: `sha256:${'e'.repeat(64)}`, name: 'r', organizations: ['org-a'], defaultOrganization: 'org-a',
      expiresAt: null, limitUsd: '0.25', limitReset: 'monthly', rateLimit: null, at, by: 'm',
    });
    expect(await store.findKeyByHash(`sha256:${'c'.repeat(64)}`)).toMatchObject({ id: 'key-config' });
    expect(await store.findKeyByHash(`sha256:${'e'.repeat(64)}`)).toMatchObject({ id: 'key_r', limit_usd: '0.25', limit_reset: 'monthly' });
    expect(await store.findKeyByHash(`sha256:${'x'.repeat(64)}`)).toBeUndefined();
    expect(await store.findManagementKeyByHash(`sha256:${'m'.repeat(64)}`)).toEqual({ id: 'm', hash: `sha256:${'m'.repeat(64)}` });

    expect((await store.findOrganization('org-a'))!.budget).toEqual({ limit_usd: '5', limit_reset: 'daily' });
    registry.apply('OrganizationBudgetSet', { schemaVersion: 1, organizationId: 'org-a', limitUsd: '7', limitReset: null, at, by: 'm' });
    const budgeted = await store.findOrganization('org-a');
    expect(budgeted!.budget).toEqual({ limit_usd: '7', limit_reset: null });
    expect(await store.findOrganization('org-a')).toBe(budgeted);
    registry.apply('OrganizationBudgetSet', { schemaVersion: 1, organizationId: 'org-a', limitUsd: null, limitReset: null, at, by: 'm' });
    expect((await store.findOrganization('org-a'))!.budget).toBeNull();
    expect(await store.findOrganization('org-x')).toBeUndefined();
  });

  it('gives an organization the usage format set through the API over the configured one, without a new object per lookup', async () => {
    const registry = new KeyRegistry();
    const store = new RuntimeAccessStore(new ConfigAccessStore(config), registry);
    expect((await store.findOrganization('org-a'))!.usage_format).toBeUndefined();
    registry.apply('OrganizationUsageFormatSet', { schemaVersion: 1, organizationId: 'org-a', usageFormat: 'openai', at, by: 'm' });
    const overlaid = await store.findOrganization('org-a');
    expect(overlaid).toMatchObject({ usage_format: 'openai', budget: { limit_usd: '5', limit_reset: 'daily' } });
    expect(await store.findOrganization('org-a')).toBe(overlaid);
    registry.apply('OrganizationBudgetSet', { schemaVersion: 1, organizationId: 'org-a', limitUsd: '9', limitReset: null, at, by: 'm' });
    expect(await store.findOrganization('org-a')).toMatchObject({ usage_format: 'openai', budget: { limit_usd: '9', limit_reset: null } });
  });
});

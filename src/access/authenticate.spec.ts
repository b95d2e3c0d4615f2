import { authenticate } from './authenticate';
import { AccessStore } from './access.store';
import { hashApiKey } from './key-hash';
import type { ApiKeyRecord, Organization } from './access.types';
import { ApiError } from '../common/api-error';

const orgs: Organization[] = [
  { id: 'org-a', payment_method: true, rate_limit: { requests: 60, window_seconds: 60 } },
  { id: 'org-b', payment_method: false, rate_limit: { requests: 60, window_seconds: 60 } },
  { id: 'org-c', payment_method: true, rate_limit: { requests: 60, window_seconds: 60 }, budget: { limit_usd: '25', limit_reset: 'monthly' } },
];
const keys: ApiKeyRecord[] = [
  { id: 'k1', hash: hashApiKey('good'), owner: 'o', organizations: ['org-a', 'org-b'], default_organization: 'org-a' },
  { id: 'k3', hash: hashApiKey('capped'), owner: 'o', organizations: ['org-a', 'org-c'], default_organization: 'org-a', limit_usd: '0.001', limit_reset: 'daily' },
  { id: 'k4', hash: hashApiKey('off'), owner: 'o', organizations: ['org-a'], default_organization: 'org-a', disabled: true },
  { id: 'k5', hash: hashApiKey('gone'), owner: 'o', organizations: ['org-a'], default_organization: 'org-a', disabled: true, revoked: true },
  { id: 'k2', hash: hashApiKey('old'), owner: 'o', organizations: ['org-a'], default_organization: 'org-a', expires_at: '2020-01-01T00:00:00Z' },
];

class MemoryStore extends AccessStore {
  async findKeyByHash(hash: string) {
    return keys.find((k) => k.hash === hash);
  }
  async findOrganization(id: string) {
    return orgs.find((o) => o.id === id);
  }
  override async findManagementKeyByHash(hash: string) {
    return hash === hashApiKey('mgmt') ? { id: 'm1', hash } : undefined;
  }
}

class BrokenStore extends AccessStore {
  async findKeyByHash(): Promise<undefined> {
    throw new Error('down');
  }
  async findOrganization(): Promise<undefined> {
    throw new Error('down');
  }
}

async function failure(headers: { authorization?: string; organization?: string }, store: AccessStore = new MemoryStore()) {
  const err = await authenticate(store, headers, new Date()).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return [(err as ApiError).status, (err as ApiError).code];
}

describe('authenticate', () => {
  it('resolves the default organization', async () => {
    await expect(authenticate(new MemoryStore(), { authorization: 'Bearer good' }, new Date())).resolves.toMatchObject({ keyId: 'k1', organizationId: 'org-a' });
  });

  it('carries the key\'s and the organization\'s spending limits in exact micros', async () => {
    const plain = await authenticate(new MemoryStore(), { authorization: 'Bearer good' }, new Date());
    expect(plain.limits).toEqual({ key: null, organization: null });
    const capped = await authenticate(new MemoryStore(), { authorization: 'Bearer capped', organization: 'org-c' }, new Date());
    expect(capped.limits).toEqual({ key: { limitUsdMicros: 1_000n, reset: 'daily' }, organization: { limitUsdMicros: 25_000_000n, reset: 'monthly' } });
  });

  it.each([
    [{}, [401, 'missing_api_key']],
    [{ authorization: 'Basic abc' }, [401, 'invalid_api_key']],
    [{ authorization: 'Bearer nope' }, [401, 'invalid_api_key']],
    [{ authorization: 'Bearer old' }, [401, 'expired_api_key']],
    [{ authorization: 'Bearer good', organization: 'acme' }, [403, 'malformed_organization_id']],
    [{ authorization: 'Bearer good', organization: `org-${'x'.repeat(65)}` }, [403, 'malformed_organization_id']],
    [{ authorization: 'Bearer good', organization: 'org-d' }, [403, 'organization_not_member']],
    [{ authorization: 'Bearer good', organization: 'org-b' }, [402, 'payment_required']],
  ])('%j -> %j', async (headers, expected) => {
    expect(await failure(headers)).toEqual(expected);
  });

  it('refuses a revoked key (even if also disabled), a disabled key, and a management key by name', async () => {
    expect(await failure({ authorization: 'Bearer gone' })).toEqual([401, 'revoked_api_key']);
    expect(await failure({ authorization: 'Bearer off' })).toEqual([401, 'disabled_api_key']);
    expect(await failure({ authorization: 'Bearer mgmt' })).toEqual([403, 'model_key_required']);
    expect(await failure({ authorization: 'Bearer nobody' })).toEqual([401, 'invalid_api_key']);
  });

  it('accepts an organization id of exactly 64 characters after the prefix', async () => {
    expect(await failure({ authorization: 'Bearer good', organization: `org-${'x'.repeat(64)}` })).toEqual([403, 'organization_not_member']);
  });

  it('fails closed with 503 when the key store is down', async () => {
    expect(await failure({ authorization: 'Bearer good' }, new BrokenStore())).toEqual([503, 'access_unavailable']);
  });
});

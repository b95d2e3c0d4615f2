// Fail closed: when the key store, the rate-limit counters or the billing store is unavailable, the
// request gets 503 with Retry-After and is never served unbilled.
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { FaultyEventStore } from '../support/faulty-event-store';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { AccessStore, ConfigAccessStore } from '../../src/access/access.store';
import type { ApiKeyRecord, Organization } from '../../src/access/access.types';

class SwitchableAccessStore extends AccessStore {
  down = false;
  constructor(private readonly inner: AccessStore) {
    super();
  }
  async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    if (this.down) throw new Error('key store unreachable');
    return this.inner.findKeyByHash(hash);
  }
  async findOrganization(id: string): Promise<Organization | undefined> {
    if (this.down) throw new Error('key store unreachable');
    return this.inner.findOrganization(id);
  }
}

describe('fail closed', () => {
  let gw: TestGateway;
  let store: FaultyEventStore;
  let access: SwitchableAccessStore;

  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => (config.organizations[0].rate_limit = { requests: 1000, window_seconds: 60 }),
      overrides: async (dataDir, config) => {
        store = new FaultyEventStore(await SqliteEventStore.open(dataDir));
        access = new SwitchableAccessStore(new ConfigAccessStore(config));
        return { eventStore: store, accessStore: access };
      },
    });
  });
  afterAll(() => gw.close());
  afterEach(async () => {
    store.failing.clear();
    access.down = false;
    // After a failed append new requests are refused until the write probe sees the store write again.
    while (!(await storeWrites())) await new Promise((resolve) => setTimeout(resolve, 20));
  });

  const storeWrites = async () => ((await (await fetch(`${gw.baseUrl}/readyz`)).json()) as { checks: Record<string, boolean> }).checks.event_store_writes;

  const chat = () =>
    gw.postJson('/v1/chat/completions', { model: 'aria', messages: [{ role: 'user', content: 'hello' }] });

  async function expect503(res: Response, code: string) {
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = (await res.json()) as { error: { code: string; type: string }; choices?: unknown };
    expect(body.error).toMatchObject({ code, type: 'service_unavailable' });
    expect(body.choices).toBeUndefined();
  }

  it('serves normally while every dependency is up', async () => {
    expect((await chat()).status).toBe(200);
  });

  it('503 when the billing events cannot be recorded: the completion is not served', async () => {
    const before = (await gw.events('CostPriced')).length;
    store.failing.add('UsageMeasured');
    await expect503(await chat(), 'billing_unavailable');
    expect((await gw.events('CostPriced')).length).toBe(before);
    expect(gw.simulator.control.received((r) => r.path.includes('chat')).length).toBeGreaterThan(0);
  });

  it('503 when the rate-limit counters cannot record the admission (read-only store)', async () => {
    store.failing.add('*');
    await expect503(await chat(), 'rate_limit_unavailable');
  });

  it('once an append has failed, 503 billing_unavailable before the upstream is called, until the store writes again', async () => {
    store.failing.add('*');
    await chat();
    const upstreamCalls = gw.simulator.control.received((r) => r.path.includes('chat')).length;
    await expect503(await chat(), 'billing_unavailable');
    expect(gw.simulator.control.received((r) => r.path.includes('chat')).length).toBe(upstreamCalls);
    store.failing.clear();
    while (!(await storeWrites())) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await chat()).status).toBe(200);
  });

  it('503 when the key store is unavailable', async () => {
    access.down = true;
    await expect503(await chat(), 'access_unavailable');
  });
});

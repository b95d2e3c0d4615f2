// The benchmark's Nest relay stands for "the stack's request path with none of the gateway's work":
// its figures only mean that if it really relays the upstream's answer and, in `stack` mode, really
// validates with the gateway's pipe. Real processes, real HTTP, as the benchmark starts them.
import { startService, type ServiceProcess } from '../../bench/lib/child';
import type { Pinning } from '../../bench/lib/pinning';

const UNPINNED: Pinning = { enabled: false, serverCpu: '', loadCpu: '', description: 'not pinned' };
const CHAT = { model: 'aria', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 16 };

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('bench Nest relay', () => {
  let mock: ServiceProcess;
  const relays: ServiceProcess[] = [];
  const startRelay = async (mode: string) => {
    const relay = await startService(UNPINNED, { name: `nest relay ${mode}`, script: 'bench/servers/nest-relay.ts', cpu: '', env: { UPSTREAM_URL: mock.url, NEST_RELAY_MODE: mode } });
    relays.push(relay);
    return relay;
  };

  beforeAll(async () => {
    mock = await startService(UNPINNED, { name: 'mock upstream', script: 'bench/servers/mock-upstream.ts', cpu: '', env: { MOCK_DELAY_MS: '1' } });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([...relays, mock].map((service) => service?.stop()));
  });

  it('relays the upstream completion and refuses an invalid body with the gateway 422 envelope (stack mode)', async () => {
    const relay = await startRelay('stack');
    const ok = await post(relay.url, CHAT);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ object: 'chat.completion', model: 'aria', usage: { prompt_tokens: 24, completion_tokens: 8 } });
    const invalid = await post(relay.url, { ...CHAT, messages: 'hello' });
    expect(invalid.status).toBe(422);
    expect(invalid.json.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['body', 'messages'] })]));
  }, 60_000);

  it('validates nothing in plain mode: the same invalid body reaches the upstream', async () => {
    const relay = await startRelay('plain');
    const invalid = await post(relay.url, { ...CHAT, messages: 'hello' });
    expect(invalid.status).toBe(200);
    expect(invalid.json.object).toBe('chat.completion');
  }, 60_000);

  it('refuses a mode it does not know instead of measuring something else', async () => {
    await expect(startRelay('fast')).rejects.toThrow(/NEST_RELAY_MODE must be plain, stack or stock/);
  }, 60_000);
});

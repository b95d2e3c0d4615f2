// Images and speech hold their maximum cost (issue 29): a configured key with a 0.25 USD limit spent
// through with concurrent image and speech requests until refused; an image upstream returning n + 1
// images billed for n with the dispute recorded; speech audio longer than its input could take billed
// at the bound; an upstream failure releasing the hold; n outside 1..10 refused before any hold.
import { startTestGateway, type TestGateway } from '../support/test-gateway';
import { generateApiKey, hashApiKey } from '../../src/access/key-hash';
import type { RecordedEvent } from '../../src/event-store/event-store.port';

const LIMIT_MICROS = 250_000n;
const CAPPED_KEY = generateApiKey();
const ROOMY_KEY = generateApiKey();
// 400 characters: 6,000 micros of input; held with (10 + 200) s of audio, 5,250 micros more.
const LONG_INPUT = 'Read this sentence aloud, slowly and clearly. '.repeat(9).slice(0, 400);

type Data = Record<string, any>;
const dataOf = (events: RecordedEvent[]) => events.map((e) => e.data as Data);

describe('spend limits: images and speech hold their maximum cost', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        config.keys.push({ id: 'key-media', hash: hashApiKey(CAPPED_KEY), owner: 'test', organizations: ['org-demo'], default_organization: 'org-demo', limit_usd: '0.25', limit_reset: 'daily' });
        config.keys.push({ id: 'key-media-roomy', hash: hashApiKey(ROOMY_KEY), owner: 'test', organizations: ['org-demo'], default_organization: 'org-demo', limit_usd: '10' });
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
  });
  afterEach(() => gw.simulator.control.reset());

  async function post(apiKey: string, path: string, body: Data): Promise<{ status: number; requestId: string | null; json: Data | null; bytes: number }> {
    const res = await fetch(`${gw.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const json = res.headers.get('content-type')?.includes('application/json') ? (JSON.parse(bytes.toString()) as Data) : null;
    return { status: res.status, requestId: res.headers.get('x-request-id'), json, bytes: bytes.length };
  }
  const image = (apiKey: string, n: unknown) => post(apiKey, '/v1/images/generations', { model: 'canvas', prompt: 'A lighthouse at dusk', n });
  const speech = (apiKey: string, input: string, extra: Data = {}) => post(apiKey, '/v1/audio/speech', { model: 'chorus-voices', input, voice: 'vivian', ...extra });

  /** Holds whose request has neither a CostPriced nor a SpendReleased yet. */
  async function outstandingHolds(): Promise<string[]> {
    const all = await gw.events();
    const closed = new Set(all.filter((e) => e.type === 'CostPriced' || e.type === 'SpendReleased').map((e) => (e.data as Data).requestId as string));
    return all.filter((e) => e.type === 'SpendHeld' && !closed.has((e.data as Data).requestId)).map((e) => (e.data as Data).requestId as string);
  }
  async function eventsOf(requestId: string | null): Promise<Map<string, Data>> {
    const events = (await gw.events()).filter((e) => (e.data as Data).requestId === requestId);
    return new Map(events.map((e) => [e.type, e.data as Data]));
  }

  it('never spends past a 0.25 USD key limit under concurrent image and speech requests', async () => {
    let served = 0;
    let refused = 0;
    const requests = [
      () => image(CAPPED_KEY, 1),
      () => image(CAPPED_KEY, 2),
      ...[0, 1].flatMap(() => [
        () => speech(CAPPED_KEY, LONG_INPUT),
        () => speech(CAPPED_KEY, LONG_INPUT, { response_format: 'pcm', stream_format: 'audio' }),
        () => speech(CAPPED_KEY, LONG_INPUT, { stream_format: 'sse' }),
      ]),
    ];
    // Until a whole round is refused: what remains of the limit no longer covers one request's hold.
    for (let round = 0, servedInRound = 1; round < 30 && servedInRound > 0; round++) {
      const outcomes = await Promise.all(requests.map((request) => request()));
      servedInRound = outcomes.filter((outcome) => outcome.status === 200).length;
      for (const outcome of outcomes) {
        if (outcome.status === 200) served++;
        else {
          expect(outcome.json?.error).toMatchObject({ code: 'budget_exceeded', type: 'billing_error' });
          refused++;
        }
      }
    }
    const charged = new Set(dataOf(await gw.events('UsageMeasured')).filter((u) => u.keyId === 'key-media').map((u) => u.requestId));
    const costs = dataOf(await gw.events('CostPriced')).filter((c) => charged.has(c.requestId));
    const spent = costs.reduce((sum, c) => sum + BigInt(c.costUsdMicros), 0n);
    const holds = dataOf(await gw.events('SpendHeld')).filter((h) => h.scopeId === 'key-media');
    const outstanding = await outstandingHolds();
    const byEndpoint = (endpoint: string) => costs.filter((c) => c.endpoint === endpoint).length;
    console.log(`key limit ${LIMIT_MICROS} micros: spent ${spent} micros over ${served} requests (${byEndpoint('/v1/images/generations')} images, ${byEndpoint('/v1/audio/speech')} speech), ${refused} refused, ${holds.length} holds, ${outstanding.length} outstanding`);

    expect(spent).toBeLessThanOrEqual(LIMIT_MICROS);
    expect(served).toBe(costs.length);
    expect(holds).toHaveLength(served);
    expect(byEndpoint('/v1/images/generations')).toBeGreaterThan(0);
    expect(byEndpoint('/v1/audio/speech')).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(outstanding).toEqual([]);
    // Every charge within its hold.
    const heldFor = new Map(holds.map((h) => [h.requestId, BigInt(h.amountUsdMicros)]));
    for (const cost of costs) expect(BigInt(cost.costUsdMicros)).toBeLessThanOrEqual(heldFor.get(cost.requestId)!);
  });

  it('an image upstream returning n + 1 images: n relayed, n billed, the dispute recorded, the charge equal to the hold', async () => {
    gw.simulator.control.set('canvas', { kind: 'quirk', name: 'extra_image' });
    const answered = await image(ROOMY_KEY, 2);
    expect(answered.status).toBe(200);
    expect(answered.json!.data).toHaveLength(2);
    const events = await eventsOf(answered.requestId);
    expect(events.get('UsageMeasured')!.output.image.count).toBe(2);
    expect(events.get('UsageDisputed')).toMatchObject({ endpoint: '/v1/images/generations', disputes: [{ field: 'data', reported: '3', billed: 2, bound: '<= 2', reason: 'over_requested_count', severity: 'hard' }] });
    expect(events.get('CostPriced')!.costUsdMicros).toBe(80_000);
    expect(events.get('SpendHeld')!.amountUsdMicros).toBe('80000');
  });

  it('n images as asked: relayed as sent and billed without a dispute', async () => {
    const answered = await image(ROOMY_KEY, '3');
    expect(answered.status).toBe(200);
    expect(answered.json!.data).toHaveLength(3);
    const events = await eventsOf(answered.requestId);
    expect(events.get('UsageMeasured')!.output.image.count).toBe(3);
    expect(events.has('UsageDisputed')).toBe(false);
    expect(events.get('CostPriced')!.costUsdMicros).toBe(120_000);
  });

  it('speech audio longer than its input could take is billed at the bound, disputed, within the hold', async () => {
    gw.simulator.control.set('chorus-voices', { kind: 'quirk', name: 'overlong_audio' });
    // 8 characters: bound (10 + 4) s; the quirk speaks (10 + 8) s.
    const answered = await speech(ROOMY_KEY, 'Hi there', { response_format: 'pcm' });
    expect(answered.status).toBe(200);
    expect(answered.bytes).toBe(18 * 24_000 * 2);
    const events = await eventsOf(answered.requestId);
    expect(events.get('UsageMeasured')!.output.audio.duration).toBe('14');
    expect(events.get('UsageDisputed')!.disputes).toEqual([{ field: 'output.audio.duration', reported: '18', billed: 14, bound: '<= 14', reason: 'over_input_bound', severity: 'hard' }]);
    // 8 x 15 + 14 s x 25 tokens x 1 micro
    expect(events.get('CostPriced')!.costUsdMicros).toBe(470);
    expect(events.get('SpendHeld')!.amountUsdMicros).toBe('470');
  });

  it('an upstream failure releases the image and speech holds and charges nothing', async () => {
    gw.simulator.control.set('*', { kind: 'fail', status: 500 });
    for (const answered of [await image(ROOMY_KEY, 1), await speech(ROOMY_KEY, 'Hello')]) {
      expect(answered.status).toBe(502);
      const events = await eventsOf(answered.requestId);
      expect(events.has('SpendHeld')).toBe(true);
      expect(events.has('CostPriced')).toBe(false);
      expect(events.get('SpendReleased')).toMatchObject({ keyId: 'key-media-roomy', reason: answered.json!.error.code });
    }
    expect(await outstandingHolds()).toEqual([]);
  });

  it('a speech stream the client leaves is charged for what was produced, which settles its hold', async () => {
    gw.simulator.control.set('chorus-voices', { kind: 'quirk', name: 'slow_stream' });
    const abort = new AbortController();
    const res = await fetch(`${gw.baseUrl}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ROOMY_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'chorus-voices', input: 'y'.repeat(4000), voice: 'vivian', stream_format: 'audio', response_format: 'pcm' }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    const requestId = res.headers.get('x-request-id');
    for (let attempt = 0; attempt < 200 && !(await eventsOf(requestId)).has('CostPriced'); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
    const events = await eventsOf(requestId);
    expect(BigInt(events.get('CostPriced')!.costUsdMicros)).toBeLessThan(BigInt(events.get('SpendHeld')!.amountUsdMicros));
    expect(events.has('SpendReleased')).toBe(false);
    expect(await outstandingHolds()).toEqual([]);
  });

  it('refuses n outside 1..10 with 400 before holding anything', async () => {
    for (const n of [0, 11, 'two']) {
      const refused = await image(ROOMY_KEY, n);
      expect(refused.status).toBe(400);
      expect(refused.json!.error).toMatchObject({ code: 'invalid_image_count', param: 'n', type: 'invalid_request_error' });
      expect((await eventsOf(refused.requestId)).has('SpendHeld')).toBe(false);
    }
    expect((await image(ROOMY_KEY, 10)).json!.data).toHaveLength(10);
  });
});

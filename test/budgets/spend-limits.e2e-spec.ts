// Spend limits that hold exactly (issue 29): a configured key with a 0.001 USD daily limit spent
// through with concurrent streamed and non-streamed chat requests until refused; an organization
// budget; a failed upstream call releasing its hold; the openai SDK's typed error.
import OpenAI, { toFile } from 'openai';
import { CONVERSATION, spokenWav } from '../transcription/support/spoken-audio';
import { startTestGateway, type TestGateway } from '../support/test-gateway';
import { generateApiKey, hashApiKey } from '../../src/access/key-hash';
import type { RecordedEvent } from '../../src/event-store/event-store.port';

const LIMIT_MICROS = 1000n;
const CAPPED_KEY = generateApiKey();
const ORG_KEY = generateApiKey();
const ROOMY_KEY = generateApiKey();
const ORG = 'org-budgeted';
const SAY_HI = [{ role: 'user', content: 'Say hi in a few words.' }];

type Data = Record<string, any>;
const dataOf = (events: RecordedEvent[]) => events.map((e) => e.data as Data);

describe('spend limits: holds at admission, settled by billing', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        config.keys.push({ id: 'key-capped', hash: hashApiKey(CAPPED_KEY), owner: 'test', organizations: ['org-demo'], default_organization: 'org-demo', limit_usd: '0.001', limit_reset: 'daily' });
        config.organizations.push({ id: ORG, payment_method: true, rate_limit: { requests: 10_000, window_seconds: 60 }, budget: { limit_usd: '0.0005', limit_reset: 'monthly' } });
        config.keys.push({ id: 'key-roomy', hash: hashApiKey(ROOMY_KEY), owner: 'test', organizations: ['org-demo'], default_organization: 'org-demo', limit_usd: '1' });
        config.keys.push({ id: 'key-org', hash: hashApiKey(ORG_KEY), owner: 'test', organizations: [ORG], default_organization: ORG });
        const aria = config.models.find((m) => m.id === 'aria')!;
        const healthy = aria.upstream.health_url!.replace('model=aria', 'model=healthy');
        // Nothing listens on port 1: every call fails after the hold was taken.
        config.models.push({ ...aria, id: 'aria-down', canonical_slug: 'gateway/aria-down', deployments: undefined, upstream: { ...aria.upstream, base_url: 'http://127.0.0.1:1/v1', health_url: healthy } });
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
  });

  async function chat(apiKey: string, stream: boolean, model = 'aria'): Promise<{ status: number; body: Data | null }> {
    const res = await fetch(`${gw.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: SAY_HI, max_tokens: 16, stream }),
    });
    const text = await res.text();
    return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Data) : null };
  }

  /** Holds whose request has neither a CostPriced nor a SpendReleased yet. */
  async function outstandingHolds(): Promise<string[]> {
    const all = await gw.events();
    const closed = new Set(all.filter((e) => e.type === 'CostPriced' || e.type === 'SpendReleased').map((e) => (e.data as Data).requestId as string));
    return all.filter((e) => e.type === 'SpendHeld' && !closed.has((e.data as Data).requestId)).map((e) => (e.data as Data).requestId as string);
  }

  it('never spends past a 0.001 USD key limit under concurrent streamed and non-streamed requests', async () => {
    let served = 0;
    let refused = 0;
    let refusal: Data | null = null;
    // Until a whole round is refused: what remains of the limit no longer covers one request's hold.
    for (let round = 0, servedInRound = 1; round < 60 && servedInRound > 0; round++) {
      const outcomes = await Promise.all([false, true, false, true, true, false].map((stream) => chat(CAPPED_KEY, stream)));
      servedInRound = outcomes.filter((outcome) => outcome.status === 200).length;
      for (const outcome of outcomes) {
        if (outcome.status === 200) served++;
        else {
          expect(outcome.status).toBe(402);
          refused++;
          refusal = outcome.body;
        }
      }
    }
    const usage = dataOf(await gw.events('UsageMeasured')).filter((u) => u.keyId === 'key-capped');
    const charged = new Set(usage.map((u) => u.requestId));
    const costs = dataOf(await gw.events('CostPriced')).filter((c) => charged.has(c.requestId));
    const spent = costs.reduce((sum, c) => sum + BigInt(c.costUsdMicros), 0n);
    const holds = dataOf(await gw.events('SpendHeld')).filter((h) => h.scopeId === 'key-capped');
    const thresholds = dataOf(await gw.events('BudgetThresholdCrossed')).filter((t) => t.scopeId === 'key-capped');
    const outstanding = await outstandingHolds();
    console.log(`key limit ${LIMIT_MICROS} micros: spent ${spent} micros over ${served} requests, ${refused} refused, ${holds.length} holds, ${outstanding.length} outstanding, thresholds ${thresholds.map((t) => t.thresholdPercent).join('/')}`);

    expect(spent).toBeLessThanOrEqual(LIMIT_MICROS);
    expect(served).toBe(costs.length);
    expect(holds).toHaveLength(served);
    expect(refused).toBeGreaterThan(0);
    expect(outstanding).toEqual([]);
    expect(refusal).toEqual({ error: { type: 'billing_error', code: 'budget_exceeded', param: null, message: expect.stringMatching(/key 'key-capped'.*0\.001 USD \(daily\)\. It resets at \d{4}-\d\d-\d\dT00:00:00\.000Z\./) } });
    // Each threshold exactly once, and exactly those the settled spend reached.
    const reached = [50, 80, 100].filter((t) => spent * 100n >= BigInt(t) * LIMIT_MICROS);
    expect(thresholds.map((t) => t.thresholdPercent).sort()).toEqual(reached);
    expect(reached).toContain(50);
    for (const t of thresholds) expect(t).toMatchObject({ organizationId: 'org-demo', scope: 'key', limitUsdMicros: '1000', reset: 'daily' });
  });

  it('refuses with 402 naming the organization budget once it is held, and releases the hold of a failed upstream call', async () => {
    const failed = await chat(ORG_KEY, false, 'aria-down');
    expect(failed.status).toBeGreaterThanOrEqual(502);
    const released = dataOf(await gw.events('SpendReleased'));
    const held = dataOf(await gw.events('SpendHeld')).filter((h) => h.scopeId === ORG);
    expect(held).toHaveLength(1);
    expect(released.find((r) => r.requestId === held[0].requestId)).toMatchObject({ organizationId: ORG, keyId: 'key-org', reason: failed.body!.error.code });
    expect(await outstandingHolds()).toEqual([]);

    let refusal: Data | null = null;
    for (let i = 0; i < 20 && !refusal; i++) {
      const outcome = await chat(ORG_KEY, i % 2 === 0);
      if (outcome.status === 402) refusal = outcome.body;
      else expect(outcome.status).toBe(200);
    }
    expect(refusal!.error).toMatchObject({ code: 'budget_exceeded', type: 'billing_error' });
    expect(refusal!.error.message).toMatch(/budget of organization 'org-budgeted': 0\.0005 USD \(monthly\)\. It resets at \d{4}-\d\d-01T00:00:00\.000Z\./);
  });

  it('reaches the official openai SDK as a typed 402 error carrying the message', async () => {
    const client = new OpenAI({ baseURL: `${gw.baseUrl}/v1`, apiKey: CAPPED_KEY, maxRetries: 0 });
    const error = await client.chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: SAY_HI[0].content }], max_tokens: 16 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ status: 402, code: 'budget_exceeded', type: 'billing_error' });
    expect((error as Error).message).toMatch(/^402 Budget exceeded: .*key 'key-capped'/);
  });

  describe('streams and failures of a caller with a limit', () => {
    afterEach(() => gw.simulator.control.reset());

    /** The only hold of key-roomy that the given function did not see before, and how it ended. */
    async function newHold(before: Set<string>): Promise<{ held: Data; cost: Data | undefined; released: Data | undefined }> {
      const held = dataOf(await gw.events('SpendHeld')).filter((h) => h.scopeId === 'key-roomy' && !before.has(h.requestId));
      expect(held).toHaveLength(1);
      const requestId = held[0].requestId;
      return {
        held: held[0],
        cost: dataOf(await gw.events('CostPriced')).find((c) => c.requestId === requestId),
        released: dataOf(await gw.events('SpendReleased')).find((r) => r.requestId === requestId),
      };
    }
    const holdsSoFar = async () => new Set(dataOf(await gw.events('SpendHeld')).map((h) => h.requestId as string));
    async function eventually(check: () => Promise<void>): Promise<void> {
      for (let attempt = 0; ; attempt++) {
        try {
          return await check();
        } catch (error) {
          if (attempt > 100) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    }

    it('a stream the client aborts is charged for what was relayed, which settles its hold', async () => {
      const before = await holdsSoFar();
      gw.simulator.control.set('aria', { kind: 'quirk', name: 'long_answer' });
      const abort = new AbortController();
      const res = await fetch(`${gw.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ROOMY_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'aria', messages: SAY_HI, stream: true }),
        signal: abort.signal,
      });
      const reader = res.body!.getReader();
      let received = '';
      while ((received.match(/word/g) ?? []).length < 3) received += new TextDecoder().decode((await reader.read()).value);
      abort.abort();
      await eventually(async () => expect((await newHold(before)).cost).toBeDefined());
      const { held, cost, released } = await newHold(before);
      expect(released).toBeUndefined();
      expect(BigInt(cost!.costUsdMicros)).toBeLessThanOrEqual(BigInt(held.amountUsdMicros));
      expect(await outstandingHolds()).toEqual([]);
    });

    it('a stream the upstream breaks mid-way is charged for what was relayed, which settles its hold', async () => {
      const before = await holdsSoFar();
      gw.simulator.control.set('aria', { kind: 'quirk', name: 'stream_error' });
      const res = await chat(ROOMY_KEY, true);
      expect(res.status).toBe(200);
      const { cost, released } = await newHold(before);
      expect(cost).toBeDefined();
      expect(released).toBeUndefined();
      expect(await outstandingHolds()).toEqual([]);
    });

    it('an upstream error before any answer releases the hold and charges nothing', async () => {
      for (const stream of [false, true]) {
        const before = await holdsSoFar();
        gw.simulator.control.set('aria', { kind: 'fail', status: 500 });
        const res = await chat(ROOMY_KEY, stream);
        expect(res.status).toBe(502);
        const { cost, released } = await newHold(before);
        expect(cost).toBeUndefined();
        expect(released).toMatchObject({ keyId: 'key-roomy', reason: res.body!.error.code });
      }
      expect(await outstandingHolds()).toEqual([]);
    });

    it('decisions hold their context-bounded maximum: settled when answered, refused when it does not fit', async () => {
      const decide = (apiKey: string) =>
        fetch(`${gw.baseUrl}/v1/decisions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'verdict', input: 'Ticket: I was charged twice.', questions: [{ type: 'predicate', instructions: 'Is it about billing?' }] }),
        });
      const before = await holdsSoFar();
      expect((await decide(ROOMY_KEY)).status).toBe(200);
      const { held, cost, released } = await newHold(before);
      // 32,768 context tokens at the output rate of 0.0000012 USD.
      expect(held.amountUsdMicros).toBe('39322');
      expect(BigInt(cost!.costUsdMicros)).toBeLessThanOrEqual(39322n);
      expect(released).toBeUndefined();
      const refused = await decide(CAPPED_KEY);
      expect(refused.status).toBe(402);
      expect(((await refused.json()) as Data).error.message).toMatch(/may cost up to 0\.039322 USD/);
    });

    it('transcriptions hold what the upload measures: under boundary metering the charge is exactly the hold', async () => {
      const client = new OpenAI({ baseURL: `${gw.baseUrl}/v1`, apiKey: ROOMY_KEY, maxRetries: 0 });
      const before = await holdsSoFar();
      await client.audio.transcriptions.create({ file: await toFile(spokenWav(CONVERSATION), 'conversation.wav', { type: 'audio/wav' }), model: 'rhythm' });
      const { held, cost, released } = await newHold(before);
      console.log(`transcription: held ${held.amountUsdMicros} micros, charged ${cost!.costUsdMicros}`);
      expect(String(cost!.costUsdMicros)).toBe(held.amountUsdMicros);
      expect(released).toBeUndefined();
    });

    it('counts budget refusals in gateway_refusals_total by organization', async () => {
      const metrics = await (await fetch(`${gw.baseUrl}/metrics`)).text();
      const line = metrics.split('\n').find((l) => l.startsWith('gateway_refusals_total{') && l.includes('reason="budget_exceeded"') && l.includes('organization="org-demo"'));
      expect(line).toBeDefined();
      expect(Number(line!.split(' ').pop())).toBeGreaterThan(0);
    });
  });
});

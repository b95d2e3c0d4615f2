// Issue 38 finding 3: an honest upstream was under-billed. A hosted model reports 800 prompt and 40
// completion tokens for a short streamed prompt (its system prompt and template are invisible to the
// gateway) on a model whose context is 131,072; the report lay outside 4 x the gateway's estimate + 256,
// so the estimate was billed: 443 micros instead of 2,420. Now a report inside the hard bounds is billed
// as sent and a soft UsageDisputed is recorded for review; past the context it stays hard.
import { postChat } from '../chat/chat-test-helpers';
import { startHostileUpstream, type HostileUpstream } from '../support/hostile-upstream';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

const MODEL = 'hosted-long';
const CONTEXT = 131_072;
// 296 bytes of text: estimate 3 (per request) + 4 (one message) + 296 / 4 = 81 tokens; soft ceiling 4 x 81 + 256 = 580.
const PROMPT = [{ role: 'user', content: 'x'.repeat(296) }];
const ESTIMATE = 81;

describe('soft disputes: a report far from the estimate but within the hard bounds is billed as sent', () => {
  let gw: TestGateway;
  let upstream: HostileUpstream;

  beforeAll(async () => {
    upstream = await startHostileUpstream();
    gw = await startTestGateway({
      configure: (config) => {
        const aria = config.models.find((m) => m.id === 'aria')!;
        const healthy = aria.upstream.health_url!.replace('model=aria', 'model=healthy');
        // 2.75 USD per million input tokens, 5.5 per million output: 800 x 2.75 + 40 x 5.5 = 2,420 micros.
        const pricing = { ...aria.pricing, input: { ...aria.pricing.input, text: { tokens: '0.00000275' } }, output: { ...aria.pricing.output, text: { tokens: '0.0000055' } } };
        config.models.push({
          ...aria, id: MODEL, canonical_slug: `gateway/${MODEL}`, context_length: CONTEXT, pricing,
          top_provider: { ...aria.top_provider, context_length: CONTEXT },
          deployments: undefined, upstream: { ...aria.upstream, base_url: upstream.baseUrl, health_url: healthy },
        });
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });

  async function streamed(usage: unknown) {
    upstream.answer({ content: 'Bonjour à vous 👋', usage });
    const res = await postChat(gw, { model: MODEL, messages: PROMPT, stream: true, stream_options: { include_usage: true } });
    const frames = res.text.split('\n\n').filter((f) => f.startsWith('data: ') && f !== 'data: [DONE]').map((f) => JSON.parse(f.slice(6)));
    const requestId = res.headers.get('x-request-id')!;
    const events = (await gw.events()).filter((e) => (e.data as { requestId?: string }).requestId === requestId);
    const one = (type: string) => events.find((e) => e.type === type)?.data as any;
    return { res, chunkUsage: frames.at(-1)?.usage, usage: one('UsageMeasured'), cost: one('CostPriced'), disputed: one('UsageDisputed') };
  }

  it('bills 800 prompt and 40 completion tokens as reported (2,420 micros) and records a soft dispute', async () => {
    const outcome = await streamed({ prompt_tokens: 800, completion_tokens: 40, total_tokens: 840 });
    console.log(`finding 3: reported 800 + 40 -> billed ${outcome.usage?.input.text.tokens} + ${outcome.usage?.output.text.tokens}, ${outcome.cost?.costUsdMicros} micros (single tier billed 443)`);
    expect(outcome.res.status).toBe(200);
    expect(outcome.chunkUsage).toMatchObject({ input: { text: { tokens: 800 } }, output: { text: { tokens: 40 } }, cost_usd_micros: 2420 });
    expect(outcome.usage).toMatchObject({ input: { text: { tokens: 800 } }, output: { text: { tokens: 40 } } });
    expect(outcome.cost.costUsdMicros).toBe(2420);
    expect(outcome.disputed).toMatchObject({ model: MODEL, endpoint: '/v1/chat/completions', severity: 'soft' });
    expect(outcome.disputed.disputes).toEqual([
      { field: 'prompt_tokens', reported: '800', billed: 800, bound: `<= ${ESTIMATE * 4 + 256}`, reason: 'over_prompt_estimate', severity: 'soft' },
    ]);
  });

  it('records nothing at the top of the estimate band, and a soft dispute one token past it', async () => {
    const atEdge = await streamed({ prompt_tokens: ESTIMATE * 4 + 256, completion_tokens: 40 });
    expect(atEdge.usage.input.text.tokens).toBe(580);
    expect(atEdge.disputed).toBeUndefined();
    const past = await streamed({ prompt_tokens: ESTIMATE * 4 + 257, completion_tokens: 40 });
    expect(past.usage.input.text.tokens).toBe(581);
    expect(past.disputed.severity).toBe('soft');
  });

  it('bills the whole context as reported, and the estimate one token past it (hard)', async () => {
    const atContext = await streamed({ prompt_tokens: CONTEXT, completion_tokens: 40 });
    expect(atContext.usage.input.text.tokens).toBe(CONTEXT);
    expect(atContext.disputed.severity).toBe('soft');
    const past = await streamed({ prompt_tokens: CONTEXT + 1, completion_tokens: 40 });
    console.log(`past the context: reported ${CONTEXT + 1} -> billed ${past.usage.input.text.tokens}, ${past.cost.costUsdMicros} micros`);
    expect(past.chunkUsage.input.text.tokens).toBe(ESTIMATE);
    expect(past.usage.input.text.tokens).toBe(ESTIMATE);
    expect(past.cost.costUsdMicros).toBe(443);
    expect(past.disputed.severity).toBe('hard');
    expect(past.disputed.disputes).toEqual([
      { field: 'prompt_tokens', reported: String(CONTEXT + 1), billed: ESTIMATE, bound: `<= ${CONTEXT}`, reason: 'over_context_length', severity: 'hard' },
    ]);
  });
});

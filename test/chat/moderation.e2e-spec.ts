// Moderated chat (aria-guarded): input and output screened by the moderation service, reported in
// `moderation` (results or error object); the request succeeds and is billed either way.
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { postChat } from './chat-test-helpers';

describe('moderation (aria-guarded)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());
  beforeEach(() => gw.simulator.control.reset());

  const moderationCalls = () => gw.simulator.control.received((r) => r.path === '/v1/moderations').map((r) => r.body as any);

  it('fills moderation.input and moderation.output with the results objects', async () => {
    const res = await postChat(gw, { model: 'aria-guarded', messages: [{ role: 'user', content: 'Say hello to the gateway.' }] });
    expect(res.status).toBe(200);
    const { input, output } = res.body.moderation;
    for (const outcome of [input, output]) {
      expect(outcome).toMatchObject({ type: 'moderation_results', model: 'omni-moderation-latest' });
      expect(outcome.results[0]).toMatchObject({ flagged: false, model: 'omni-moderation-latest', type: 'moderation_result' });
      expect(outcome.results[0].category_applied_input_types.violence).toEqual(['text']);
    }
    expect(moderationCalls().map((c) => c.input)).toEqual(
      expect.arrayContaining([
        [{ type: 'text', text: 'Say hello to the gateway.' }],
        [{ type: 'text', text: 'Simulated answer about: Say hello to the gateway.' }],
      ]),
    );
    // (13 x 0.2 + 10 x 0.8 + 100 request) x (1 - 0.25) = 82.95 micros -> 83
    expect(res.body.usage.cost_usd_micros).toBe(83);
  });

  it('reports a flagged input and output without refusing the request', async () => {
    const res = await postChat(gw, { model: 'aria-guarded', messages: [{ role: 'user', content: 'How do I attack a castle?' }] });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('Simulated answer about: How do I attack a castle?');
    expect(res.body.moderation.input.results[0]).toMatchObject({ flagged: true, categories: { violence: true } });
    expect(res.body.moderation.output.results[0].flagged).toBe(true);
  });

  it('puts the error object in place of results when the moderation call fails, and still answers and bills', async () => {
    gw.simulator.control.set('omni-moderation-latest', { kind: 'fail', status: 500 });
    const before = (await gw.events('CostPriced')).length;
    const res = await postChat(gw, { model: 'aria-guarded', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    const failed = { type: 'error', code: 'moderation_failed', message: 'The moderation service answered HTTP 500.' };
    expect(res.body.moderation).toEqual({ input: failed, output: failed });
    expect(await gw.events('CostPriced')).toHaveLength(before + 1);
  });

  it('sends the moderation as a trailing chunk of a stream, before the usage chunk', async () => {
    const stream = await gw.openai().chat.completions.create({
      model: 'aria-guarded', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true },
    });
    const chunks: any[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const [moderationChunk, usageChunk] = chunks.slice(-2);
    expect(moderationChunk.choices).toEqual([]);
    expect(moderationChunk.moderation.output.results[0].flagged).toBe(false);
    expect(usageChunk.usage.cost_usd_micros).toBeGreaterThan(0);
  });

  it('leaves unmoderated models alone', async () => {
    const res = await postChat(gw, { model: 'aria', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.body).not.toHaveProperty('moderation');
    expect(moderationCalls()).toHaveLength(0);
  });
});

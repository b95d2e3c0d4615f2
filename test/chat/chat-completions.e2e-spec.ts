// Non-streamed chat completions through the official OpenAI SDK: pass-through, the gateway's usage
// vector and cost, and the request rules (parameters, defaults, limits, expiry, cache salt).
import { hashApiKey } from '../../src/access/key-hash';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { forwardedChatBodies, postChat } from './chat-test-helpers';

const OTHER_ORG_KEY = 'sk-other-organization-key';

describe('POST /v1/chat/completions (non-streamed)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        config.organizations.push({ id: 'org-other', payment_method: true, rate_limit: { requests: 60, window_seconds: 60 } });
        config.keys.push({ id: 'key-other', hash: hashApiKey(OTHER_ORG_KEY), owner: 'other', organizations: ['org-other'], default_organization: 'org-other' });
        const aria = config.models.find((m) => m.id === 'aria')!;
        config.models.push({ ...aria, id: 'aria-retired', canonical_slug: 'gateway/aria-retired', expiration_date: '2020-01-31' });
      },
    });
  });
  afterAll(() => gw?.close());
  beforeEach(() => gw.simulator.control.reset());

  it('answers through the OpenAI SDK with the measured usage vector and its cost, recorded before the response', async () => {
    const completion = await gw.openai().chat.completions.create({
      model: 'aria',
      messages: [{ role: 'user', content: 'Say hello to the gateway.' }],
    });
    expect(completion.choices[0].message.content).toBe('Simulated answer about: Say hello to the gateway.');
    expect(completion.model).toBe('aria');
    expect(completion.system_fingerprint).toBe('fp_simulator');
    expect(completion.service_tier).toBe('default');
    // Simulator: 3 per request + 4 per message + 6 text tokens = 13 prompt; 10 completion tokens.
    const usage = completion.usage as unknown as Record<string, any>;
    expect(usage.input.text).toEqual({ tokens: 13, characters: 0, cached_tokens: 0, reasoning_tokens: 0 });
    expect(usage.output.text).toEqual({ tokens: 10, characters: 0, cached_tokens: 0, reasoning_tokens: 0 });
    expect(usage.output.tools).toEqual({ call_count: 0, tokens: 0 });
    // 13 x 0.4 + 10 x 1.6 = 21.2 micros -> 21
    expect(usage.cost_usd_micros).toBe(21);
    // The spec's Usage only (OpenAI's token fields are an organization's opt-in: test/platform/usage-format.e2e-spec.ts).
    expect(Object.keys(usage)).toEqual(['input', 'output', 'cost_usd_micros']);
    const [measured] = await gw.events('UsageMeasured');
    const [priced] = await gw.events('CostPriced');
    expect(measured.data).toMatchObject({ model: 'aria', endpoint: '/v1/chat/completions', input: usage.input, output: { ...usage.output, tools: { ...usage.output.tools, web_search_calls: 0 } } });
    expect((priced.data as { costUsdMicros: number }).costUsdMicros).toBe(21);
  });

  it('passes SDK parameters outside the vocabulary through untouched and applies the model defaults', async () => {
    await gw.openai().chat.completions.create({
      model: 'aria',
      messages: [{ role: 'user', content: 'hi' }],
      max_completion_tokens: 50,
      n: 1,
      user: 'end-user-7',
      store: false,
      metadata: { ticket: 'T-1' },
      top_p: 0.5,
    });
    const [sent] = forwardedChatBodies(gw);
    expect(sent).toMatchObject({ max_completion_tokens: 50, n: 1, user: 'end-user-7', store: false, metadata: { ticket: 'T-1' } });
    expect(sent.temperature).toBe(0.7);
    expect(sent.top_p).toBe(0.5);
    expect(sent.stream_options).toBeUndefined();
  });

  it('caps the completion at the model limit when the client sets none', async () => {
    await postChat(gw, { model: 'aria', messages: [{ role: 'user', content: 'hi' }] });
    expect(forwardedChatBodies(gw)[0].max_tokens).toBe(8192);
  });

  it('scopes cache_salt to the organization: same salt, same org shares; another org never does', async () => {
    await postChat(gw, { model: 'aria', messages: [{ role: 'user', content: 'hi' }], cache_salt: 'shared' });
    await postChat(gw, { model: 'aria', messages: [{ role: 'user', content: 'hi' }] });
    await postChat(gw, { model: 'aria', messages: [{ role: 'user', content: 'hi' }], cache_salt: 'shared' }, { authorization: `Bearer ${OTHER_ORG_KEY}` });
    await postChat(gw, { model: 'aria', messages: [{ role: 'user', content: 'hi' }], cache_salt: 'shared' });
    const [salted, unsalted, otherOrg, saltedAgain] = forwardedChatBodies(gw).map((body) => body.cache_salt as string);
    expect(salted).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(salted).not.toBe('shared');
    expect(unsalted).not.toBe(salted);
    expect(otherOrg).not.toBe(salted);
    expect(saltedAgain).toBe(salted);
  });

  it.each([
    ['a vocabulary parameter the model does not list', { model: 'aria-guarded', messages: [{ role: 'user', content: 'x' }], tools: [] }, 400, 'unsupported_parameter', 'tools'],
    ['max_tokens over the per-request limit', { model: 'aria', messages: [{ role: 'user', content: 'x' }], max_tokens: 9000 }, 400, 'completion_tokens_exceeded', 'max_tokens'],
    ['a prompt over the prompt limit', { model: 'aria-guarded', messages: [{ role: 'user', content: 'x'.repeat(30_000) }] }, 400, 'prompt_too_long', 'messages'],
    ['an expired model', { model: 'aria-retired', messages: [{ role: 'user', content: 'x' }] }, 410, 'model_expired', 'model'],
    ['an unknown model', { model: 'nope', messages: [{ role: 'user', content: 'x' }] }, 404, 'model_not_found', 'model'],
    ['a model of another kind', { model: 'canvas', messages: [{ role: 'user', content: 'x' }] }, 400, 'unsupported_model', 'model'],
    ['audio output from a text-only model', { model: 'aria-guarded', messages: [{ role: 'user', content: 'x' }], modalities: ['audio'] }, 400, 'unsupported_modality', 'modalities'],
    ['audio output without audio options', { model: 'aria', messages: [{ role: 'user', content: 'x' }], modalities: ['text', 'audio'] }, 400, 'missing_audio_parameters', 'audio'],
    ['an unknown audio format', { model: 'aria', messages: [{ role: 'user', content: 'x' }], audio: { voice: 'v', format: 'ogg' } }, 400, 'unsupported_audio_format', 'audio.format'],
  ])('refuses %s without billing', async (_case, body, status, code, param) => {
    const before = (await gw.events('UsageMeasured')).length;
    const res = await postChat(gw, body);
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, param });
    expect(await gw.events('UsageMeasured')).toHaveLength(before);
    expect(forwardedChatBodies(gw)).toHaveLength(0);
  });

  it.each([
    ['a blank model', { model: '  ', messages: [{ role: 'user', content: 'x' }] }, ['body', 'model']],
    ['no messages', { model: 'aria' }, ['body', 'messages']],
    ['a message without role', { model: 'aria', messages: [{ content: 'x' }] }, ['body', 'messages', 0, 'role']],
    ['a content part without type', { model: 'aria', messages: [{ role: 'user', content: [{ text: 'x' }] }] }, ['body', 'messages', 0, 'content', 0, 'type']],
  ])('answers 422 for %s', async (_case, body, loc) => {
    const res = await postChat(gw, body);
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(loc);
  });
});

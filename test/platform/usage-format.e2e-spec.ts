// `usage` exactly as the spec defines it, by default, on every endpoint that carries it (chat JSON,
// the final stream chunk, transcription json and verbose_json, speech's sse done event): the keys of
// Usage and of each nested component are exactly the spec's. OpenAI's token fields are an
// organization's opt-in (usage_format: openai), set here through the management API, which every
// replica folds like a budget (docs/metering.md, "OpenAI-compatible usage").
import { toFile } from 'openai';
import { hashApiKey } from '../../src/access/key-hash';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { CONVERSATION, spokenWav } from '../transcription/support/spoken-audio';

jest.setTimeout(60_000);

const MANAGEMENT_KEY = 'mk-usage-format-test';
const USAGE_KEYS = ['input', 'output', 'cost_usd_micros'];
const MODALITY_KEYS = ['text', 'audio', 'image', 'video', 'voice'];
/** The spec's components; VoiceUsage's fields are "not shown" there, so they are the gateway's own. */
const COMPONENT_KEYS: Record<string, string[]> = {
  text: ['tokens', 'characters', 'cached_tokens', 'reasoning_tokens'],
  audio: ['duration'],
  image: ['count', 'megapixels', 'tiles', 'tokens'],
  video: ['duration', 'frames', 'tokens'],
  voice: ['clone_count', 'design_count', 'reference_duration'],
  tools: ['call_count', 'tokens'],
};

type Vector = Record<string, Record<string, Record<string, unknown>>>;

function expectSpecUsage(usage: unknown): void {
  const vector = usage as Vector;
  expect(Object.keys(vector)).toEqual(USAGE_KEYS);
  expect(Object.keys(vector.input)).toEqual(MODALITY_KEYS);
  expect(Object.keys(vector.output)).toEqual([...MODALITY_KEYS, 'tools']);
  for (const side of [vector.input, vector.output]) {
    for (const [modality, component] of Object.entries(side)) expect([modality, Object.keys(component)]).toEqual([modality, COMPONENT_KEYS[modality]]);
  }
  expect(typeof vector.cost_usd_micros).toBe('number');
}

let gw: TestGateway;
const hello = [{ role: 'user' as const, content: 'Say hello to the gateway.' }];
const audioFile = () => toFile(spokenWav(CONVERSATION), 'conversation.wav', { type: 'audio/wav' });

const management = (method: string, body?: unknown) =>
  fetch(`${gw.baseUrl}/v1/organizations/${gw.orgId}/usage-format`, {
    method,
    headers: { authorization: `Bearer ${MANAGEMENT_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  gw = await startTestGateway({ configure: (config) => void config.management_keys.push({ id: 'mgmt-usage', hash: hashApiKey(MANAGEMENT_KEY) }) });
});
afterAll(() => gw.close());

describe('by default, usage is exactly the spec\'s Usage', () => {
  it('chat JSON', async () => {
    const completion = await gw.openai().chat.completions.create({ model: 'aria', messages: hello });
    expectSpecUsage(completion.usage);
  });

  it('chat JSON with a web search: tools are call_count and tokens only (the search is in the cost)', async () => {
    const completion = await gw.openai().chat.completions.create({ model: 'aria', messages: hello, web_search_options: {} });
    expectSpecUsage(completion.usage);
    expect((completion.usage as unknown as Vector).output.tools).toEqual({ call_count: 1, tokens: 0 });
    const [measured] = (await gw.events('UsageMeasured')).slice(-1);
    expect((measured.data as Vector).output.tools).toEqual({ call_count: 1, tokens: 0, web_search_calls: 1 });
  });

  it('the final chunk of a stream with include_usage', async () => {
    const stream = await gw.openai().chat.completions.create({ model: 'aria', messages: hello, stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expectSpecUsage(chunks.at(-1)!.usage);
  });

  it.each([
    ['json', 'rhythm'],
    ['verbose_json', 'symphony'],
  ] as const)('transcription %s', async (format, model) => {
    const result = await gw.openai().audio.transcriptions.create({ file: await audioFile(), model, response_format: format });
    expectSpecUsage(result.usage);
    expect((result.usage as unknown as Vector).input.audio.duration).toBe('3.7');
  });

  it('speech\'s sse done event', async () => {
    const response = await gw.openai().audio.speech.create({ model: 'chorus-voices', input: 'Hello there.', voice: 'eric', stream_format: 'sse' });
    const events = (await response.text()).split('\n\n').filter((frame) => frame.startsWith('data: ')).map((frame) => JSON.parse(frame.slice(6)));
    expect(events.at(-1).type).toBe('speech.audio.done');
    expectSpecUsage(events.at(-1).usage);
  });
});

describe('usage_format: openai, set through the management API', () => {
  afterAll(async () => void (await management('PUT', { usage_format: 'spec' })));

  it('shows the configured format, then records the change and enforces it at once', async () => {
    expect(await (await management('GET')).json()).toEqual({ object: 'organization_usage_format', organization_id: gw.orgId, usage_format: 'spec', source: 'configuration', updated_at: null });
    const set = await management('PUT', { usage_format: 'openai' });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ usage_format: 'openai', source: 'api' });
    const [event] = await gw.events('OrganizationUsageFormatSet');
    expect(event.data).toMatchObject({ organizationId: gw.orgId, usageFormat: 'openai', by: 'mgmt-usage' });

    const completion = await gw.openai().chat.completions.create({ model: 'aria', messages: hello });
    expect(Object.keys(completion.usage!)).toEqual([...USAGE_KEYS, 'prompt_tokens', 'completion_tokens', 'total_tokens', 'prompt_tokens_details', 'completion_tokens_details']);
    expect(completion.usage).toMatchObject({ prompt_tokens: 13, completion_tokens: 10, total_tokens: 23 });
    const result = await gw.openai().audio.transcriptions.create({ file: await audioFile(), model: 'symphony', response_format: 'verbose_json' });
    expect(result.usage).toMatchObject({ type: 'duration', seconds: 3.7 });
  });

  it('setting the format in force records nothing', async () => {
    const before = (await gw.events('OrganizationUsageFormatSet')).length;
    expect((await management('PUT', { usage_format: 'openai' })).status).toBe(200);
    expect(await gw.events('OrganizationUsageFormatSet')).toHaveLength(before);
  });

  it('refuses a format that is neither spec nor openai, an unknown organization, and a model key', async () => {
    const bad = await management('PUT', { usage_format: 'OpenAI' });
    expect(bad.status).toBe(422);
    const missing = await fetch(`${gw.baseUrl}/v1/organizations/org-nope/usage-format`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${MANAGEMENT_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ usage_format: 'openai' }),
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: unknown }).error).toMatchObject({ code: 'organization_not_found' });
    const modelKey = await fetch(`${gw.baseUrl}/v1/organizations/${gw.orgId}/usage-format`, { headers: { authorization: `Bearer ${gw.apiKey}` } });
    expect([401, 403]).toContain(modelKey.status);
  });
});

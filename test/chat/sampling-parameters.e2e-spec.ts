// Sampling parameters are validated against OpenAI's documented ranges before anything reaches a
// model (issue 26 item 10: max_tokens -1, 1.5 or "10", temperature 1e309 and n 1,000,000 were
// forwarded). Out of range: 422 HTTPValidationError at the parameter, nothing sent upstream or billed.
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { MAX_CHOICES } from '../../src/chat/create-chat-completion/create-chat-completion.request.dto';

const base = { model: 'aria', messages: [{ role: 'user', content: 'Hello' }] };

/** JSON.stringify cannot write 1e309; the test sends the raw text a client would. */
const withRaw = (param: string, raw: string) => `${JSON.stringify(base).slice(0, -1)},"${param}":${raw}}`;

const REFUSED: [string, string][] = [
  ['max_tokens', '-1'], ['max_tokens', '0'], ['max_tokens', '1.5'], ['max_tokens', '"10"'], ['max_tokens', '1e309'],
  ['max_completion_tokens', '-1'], ['max_completion_tokens', '0'], ['max_completion_tokens', '2.5'], ['max_completion_tokens', '"10"'],
  ['temperature', '1e309'], ['temperature', '-1e309'], ['temperature', '2.0001'], ['temperature', '-0.0001'], ['temperature', '"1"'],
  ['top_p', '1.0001'], ['top_p', '-0.1'], ['top_p', '1e309'],
  ['presence_penalty', '2.0001'], ['presence_penalty', '-2.0001'], ['frequency_penalty', '2.0001'], ['frequency_penalty', '-1e309'],
  ['n', '0'], ['n', `${MAX_CHOICES + 1}`], ['n', '1000000'], ['n', '1.5'],
  ['seed', '1.5'], ['seed', '9223372036854775807'], ['seed', '"42"'],
  ['logprobs', '"true"'], ['top_logprobs', '21'], ['top_logprobs', '-1'], ['top_logprobs', '1.5'],
  ['top_k', '-1'], ['repetition_penalty', '2.5'],
];

const ACCEPTED: Record<string, unknown>[] = [
  { max_tokens: 1 }, { max_completion_tokens: 1 }, { temperature: 0 }, { temperature: 2 }, { top_p: 0 }, { top_p: 1 },
  { presence_penalty: -2, frequency_penalty: 2 }, { presence_penalty: 2, frequency_penalty: -2 }, { n: 1 }, { n: MAX_CHOICES },
  { seed: Number.MAX_SAFE_INTEGER }, { seed: Number.MIN_SAFE_INTEGER }, { logprobs: true, top_logprobs: 20 }, { top_logprobs: 0 },
  { temperature: null, max_tokens: null, n: null },
];

describe('chat sampling parameters', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  const postRaw = (body: string) =>
    fetch(`${gw.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' }, body });
  const forwarded = () => gw.simulator.control.received((r) => r.path === '/v1/chat/completions');

  it.each(REFUSED)('422 for %s: %s, not forwarded, not billed', async (param, raw) => {
    const sentBefore = forwarded().length;
    const billedBefore = (await gw.events('UsageMeasured')).length;
    const response = await postRaw(withRaw(param, raw));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { detail: { loc: (string | number)[] }[] };
    expect(body.detail.length).toBeGreaterThan(0);
    expect(body.detail.every((issue) => issue.loc.join('.') === `body.${param}`)).toBe(true);
    expect(forwarded()).toHaveLength(sentBefore);
    expect(await gw.events('UsageMeasured')).toHaveLength(billedBefore);
  });

  it.each(ACCEPTED)('serves and bills the edge values %j', async (params) => {
    const billedBefore = (await gw.events('UsageMeasured')).length;
    const response = await gw.postJson('/v1/chat/completions', { ...base, ...params });
    expect(response.status).toBe(200);
    expect(await gw.events('UsageMeasured')).toHaveLength(billedBefore + 1);
  });
});

// Live answers of the gateway against the schemas of its own served /openapi.json: the document
// must describe what the endpoints really send (and accept what clients really send).
import { componentValidator, ComponentCheck } from '../../src/openapi/schemas/component-validator';
import { startTestGateway, TestGateway } from '../support/test-gateway';

interface Document {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>>;
  components: { schemas: Record<string, unknown> };
}

describe('live responses match the served document', () => {
  let gw: TestGateway;
  let document: Document;
  let check: ComponentCheck;

  beforeAll(async () => {
    gw = await startTestGateway();
    document = (await (await fetch(`${gw.baseUrl}/openapi.json`)).json()) as Document;
    check = componentValidator(document.components.schemas);
  });
  afterAll(() => gw.close());

  const keyed = () => ({ authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' });
  const post = (path: string, body: unknown) => fetch(`${gw.baseUrl}${path}`, { method: 'POST', headers: keyed(), body: JSON.stringify(body) });
  const requestSchemaOf = (path: string) => document.paths[path].post.requestBody!.content['application/json'].schema.$ref.split('/').pop()!;

  async function expectConforms(response: Response, status: number, schema: string): Promise<void> {
    const body: unknown = await response.json();
    expect({ status: response.status, errors: check(schema, body) }).toEqual({ status, errors: [] });
  }

  it('the model listing of every catalog model, prices, profiles and enumerations included', async () => {
    await expectConforms(await fetch(`${gw.baseUrl}/v1/models`), 200, 'ListModelsResponse');
  });

  it('the voice list of an alias, and the 404 envelope of an unknown model', async () => {
    await expectConforms(await fetch(`${gw.baseUrl}/v1/audio/voices?model=chorus`), 200, 'VoiceListResponse');
    await expectConforms(await fetch(`${gw.baseUrl}/v1/audio/voices?model=nope`), 404, 'ApiErrorResponse');
  });

  it('a 422 validation error', async () => {
    await expectConforms(await post('/v1/audio/speech', { model: 'chorus', input: 'hi', speed: 9 }), 422, 'HTTPValidationError');
  });

  it('a chat completion, whose request also conforms to the documented request schema', async () => {
    const request = { model: 'aria', messages: [{ role: 'user', content: 'Say hello.' }], max_completion_tokens: 8 };
    expect(check(requestSchemaOf('/v1/chat/completions'), request)).toEqual([]);
    const response = await post('/v1/chat/completions', request);
    expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    await expectConforms(response, 200, 'ClientChatCompletion');
  });

  it('a decision with typed answers', async () => {
    const request = {
      model: 'verdict',
      input: 'The sky is blue.',
      questions: [
        { type: 'predicate', name: 'blue', instructions: 'Is the sky blue?' },
        { type: 'choice', instructions: 'Which colour?', choices: [{ value: 'blue' }, { value: 'red' }] },
        { type: 'score', instructions: 'How sure?', levels: [{ label: 'unsure' }, { label: 'sure' }] },
      ],
    };
    expect(check(requestSchemaOf('/v1/decisions'), request)).toEqual([]);
    await expectConforms(await post('/v1/decisions', request), 200, 'DecisionResponse');
  });

  it('a page of organization costs, grouped by line item, from today (billed by the requests above)', async () => {
    const today = Math.floor(Date.now() / 86_400_000) * 86_400;
    const response = await fetch(`${gw.baseUrl}/v1/organization/costs?start_time=${today}&group_by=line_item`, { headers: keyed() });
    await expectConforms(response, 200, 'CostPage');
  });

  it('liveness and readiness', async () => {
    await expectConforms(await fetch(`${gw.baseUrl}/healthz`), 200, 'Liveness');
    await expectConforms(await fetch(`${gw.baseUrl}/readyz`), 200, 'Readiness');
  });
});

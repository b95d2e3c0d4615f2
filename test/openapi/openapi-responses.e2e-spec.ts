// Live answers of the gateway against the schemas of its own served /openapi.json: the document
// must describe what the endpoints really send (and accept what clients really send).
import { componentValidator, ComponentCheck } from '../../src/openapi/schemas/component-validator';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { CONVERSATION, spokenWav } from '../transcription/support/spoken-audio';

interface Operation {
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
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
  const requestSchemaOf = (path: string, type = 'application/json') => document.paths[path].post.requestBody!.content[type].schema.$ref.split('/').pop()!;

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

  it('speech audio in one of the documented content types, for a request that conforms to the documented schema', async () => {
    const request = { model: 'chorus-voices', input: 'Hello there.', voice: 'vivian', response_format: 'wav' };
    expect(check(requestSchemaOf('/v1/audio/speech'), request)).toEqual([]);
    const response = await post('/v1/audio/speech', request);
    expect(response.status).toBe(200);
    expect(Object.keys(document.paths['/v1/audio/speech'].post.responses['200'].content!)).toContain(response.headers.get('content-type'));
  });

  it('a verbose transcription with speakers, sent with the documented form field names', async () => {
    const fields = { model: 'rhythm', response_format: 'verbose_json', speaker_labels: 'true', 'timestamp_granularities[]': 'word' };
    const form = new FormData();
    form.append('file', new Blob([spokenWav(CONVERSATION)], { type: 'audio/wav' }), 'talk.wav');
    Object.entries(fields).forEach(([name, value]) => form.append(name, value));
    const documentedFields = Object.keys((document.components.schemas[requestSchemaOf('/v1/audio/transcriptions', 'multipart/form-data')] as { properties: object }).properties);
    expect(documentedFields).toEqual(expect.arrayContaining(['file', ...Object.keys(fields)]));
    const response = await fetch(`${gw.baseUrl}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${gw.apiKey}` }, body: form });
    await expectConforms(response, 200, 'TranscriptionResponse');
  });

  it('an image generation relayed from the upstream', async () => {
    const request = { model: 'canvas', prompt: 'A red circle.', response_format: 'b64_json' };
    expect(check(requestSchemaOf('/v1/images/generations'), request)).toEqual([]);
    await expectConforms(await post('/v1/images/generations', request), 200, 'ImagesResponse');
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

import { startTestGateway, TestGateway } from '../support/test-gateway';

interface Rejection {
  status: number;
  body: { error?: { code: string; param: string | null; type: string }; detail?: { loc: (string | number)[] }[] };
}

describe('POST /v1/audio/speech rejections', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  const post = (body: Record<string, unknown>) =>
    gw.postJson('/v1/audio/speech', { input: 'Hello', ...body });

  async function speak(body: Record<string, unknown>): Promise<Rejection> {
    const response = await post(body);
    return { status: response.status, body: (await response.json()) as Rejection['body'] };
  }

  const speechEvents = async () => (await gw.events('UsageMeasured')).filter((e) => (e.data as { endpoint: string }).endpoint === '/v1/audio/speech');

  it.each([
    ['a model of another kind', { model: 'symphony' }, 'unsupported_model', 'model'],
    ['a voice the model does not list', { model: 'chorus-voices', voice: 'alloy' }, 'unknown_voice', 'voice'],
    ['a chorus-clone preset on chorus-voices', { model: 'chorus-voices', voice: 'amber' }, 'unknown_voice', 'voice'],
    ['a voice that is not a string', { model: 'chorus', voice: { id: 'vivian' } }, 'unknown_voice', 'voice'],
    ['an unsupported response_format', { model: 'chorus', voice: 'vivian', response_format: 'ogg' }, 'unsupported_response_format', 'response_format'],
    ['a stream_format outside the enum', { model: 'chorus', voice: 'vivian', stream_format: 'chunked' }, 'unsupported_stream_format', 'stream_format'],
    ['an unknown language code', { model: 'chorus', voice: 'vivian', language: 'tlh' }, 'unsupported_language', 'language'],
    ['chorus-design without a voice description', { model: 'chorus-design' }, 'missing_voice_description', 'instructions'],
    ['reference audio on the preset-only model', { model: 'chorus-voices', ref_audio: 'data:audio/wav;base64,AAAA' }, 'unsupported_parameter', 'ref_audio'],
  ])('answers 400 for %s', async (_case, body, code, param) => {
    const rejection = await speak(body);
    expect(rejection.status).toBe(400);
    expect(rejection.body.error).toMatchObject({ code, param, type: 'invalid_request_error' });
  });

  it('answers 404 for an unknown model', async () => {
    const rejection = await speak({ model: 'no-such-model' });
    expect(rejection).toMatchObject({ status: 404, body: { error: { code: 'model_not_found', param: 'model' } } });
  });

  it.each([
    ['a blank model', { model: '' }, 'model'],
    ['a missing input', { model: 'chorus', input: undefined }, 'input'],
    ['speed below 0.25', { model: 'chorus', speed: 0.2 }, 'speed'],
    ['speed above 4.0', { model: 'chorus', speed: 4.01 }, 'speed'],
  ])('answers 422 for %s', async (_case, body, field) => {
    const rejection = await speak(body);
    expect(rejection.status).toBe(422);
    expect(rejection.body.detail?.map((issue) => issue.loc)).toContainEqual(['body', field]);
  });

  it('accepts the speed bounds themselves', async () => {
    for (const speed of [0.25, 4]) expect((await post({ model: 'chorus', voice: 'vivian', speed, response_format: 'pcm' })).status).toBe(200);
  });

  it('records no billing event for refused requests', async () => {
    const before = (await speechEvents()).length;
    expect((await speak({ model: 'chorus-voices', voice: 'nobody' })).status).toBe(400);
    expect((await speak({ model: 'chorus', speed: 9 })).status).toBe(422);
    expect(await speechEvents()).toHaveLength(before);
  });

  // A plain-object lookup found what every object inherits: "constructor" was served (200) and billed.
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('refuses language %s as unknown, unbilled', async (language) => {
    const before = (await speechEvents()).length;
    const rejection = await speak({ model: 'chorus', voice: 'vivian', language });
    expect(rejection).toMatchObject({ status: 400, body: { error: { code: 'unsupported_language', param: 'language' } } });
    expect(await speechEvents()).toHaveLength(before);
    expect((await post({ model: 'chorus', voice: 'vivian', language: 'en' })).status).toBe(200);
  });
});

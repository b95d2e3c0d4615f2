import type { VoiceList } from '../../src/speech/domain/voice-list';
import type { ApiErrorBody } from '../../src/common/api-error';
import { startTestGateway, TestGateway } from '../support/test-gateway';

describe('GET /v1/audio/voices', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  const list = (query: string) => fetch(`${gw.baseUrl}/v1/audio/voices${query}`);
  const voices = async (query: string) => (await (await list(query)).json()) as VoiceList;

  it.each([
    ['chorus', 56],
    ['chorus-voices', 9],
    ['chorus-clone', 47],
  ])('lists the presets of %s without a key (%i voices)', async (model, count) => {
    const response = await list(`?model=${model}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as VoiceList;
    expect(body).toMatchObject({ object: 'list', model, uploaded_voices: [] });
    expect(body.data).toHaveLength(count);
    const ids = body.data.map((voice) => voice.id);
    expect(new Set(ids).size).toBe(count);
    for (const id of ids) expect(id).toBe(id.toLowerCase());
  });

  it('lists exactly the configured presets, so the alias is the union of its members', async () => {
    const ids = async (model: string) => (await voices(`?model=${model}`)).data.map((voice) => voice.id);
    const presetsOf = (id: string) => gw.config.models.find((m) => m.id === id)!.voices!.presets!;
    expect(await ids('chorus-voices')).toEqual(presetsOf('chorus-voices'));
    expect(await ids('chorus')).toEqual([...presetsOf('chorus-voices'), ...presetsOf('chorus-clone')]);
  });

  it('answers 400 without a model and 404 for an unknown one', async () => {
    const missing = await list('');
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as ApiErrorBody).error).toMatchObject({ code: 'missing_model', param: 'model', type: 'invalid_request_error' });
    const unknown = await list('?model=no-such-model');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ApiErrorBody).error).toMatchObject({ code: 'model_not_found', param: 'model' });
  });
});

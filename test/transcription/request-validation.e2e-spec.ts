// Every 400 rule of the transcription endpoint, the 422s for malformed fields, the organization
// header check, and that refused requests append no billing event.
import { toFile } from 'openai';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { videoFixture, truncated } from '../fixtures/media/generate';
import { CONVERSATION, encodeWith, spokenWav } from './support/spoken-audio';

jest.setTimeout(60_000);

let gw: TestGateway;
const wav = spokenWav(CONVERSATION);

beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

interface Upload {
  fields?: [string, string][];
  file?: { bytes: Buffer; name: string } | null;
  headers?: Record<string, string>;
}

async function post({ fields = [['model', 'rhythm']], file = { bytes: wav, name: 'a.wav' }, headers = {} }: Upload) {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  if (file) form.append('file', new Blob([file.bytes]), file.name);
  const response = await fetch(`${gw.baseUrl}/v1/audio/transcriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.apiKey}`, ...headers },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const withModel = (...fields: [string, string][]): Upload => ({ fields: [['model', 'rhythm'], ...fields] });

let billedBefore: number;
beforeEach(async () => {
  billedBefore = (await gw.events('CostPriced')).length;
});
afterEach(async () => {
  expect((await gw.events('CostPriced')).length).toBe(billedBefore);
});

describe('400 envelopes', () => {
  it.each([
    ['a language name', withModel(['language', 'english']), 'unsupported_language', 'language'],
    ['an unknown language code', withModel(['language', 'xx']), 'unsupported_language', 'language'],
    ['a three-letter code', withModel(['language', 'eng']), 'unsupported_language', 'language'],
    ['an unsupported response_format', withModel(['response_format', 'diarized_json']), 'unsupported_response_format', 'response_format'],
    ['an unknown granularity', withModel(['timestamp_granularities[]', 'sentence']), 'unsupported_timestamp_granularity', 'timestamp_granularities'],
    ['speaker_labels with json', withModel(['speaker_labels', 'true']), 'speaker_labels_require_verbose_json', 'speaker_labels'],
    ['speaker_labels with srt', withModel(['speaker_labels', 'true'], ['response_format', 'srt']), 'speaker_labels_require_verbose_json', 'speaker_labels'],
    [
      'speaker_labels with a granularity list without word',
      withModel(['speaker_labels', 'true'], ['response_format', 'verbose_json'], ['timestamp_granularities[]', 'segment']),
      'speaker_labels_require_word_timestamps',
      'speaker_labels',
    ],
    ['a chat model', { fields: [['model', 'aria']] } as Upload, 'unsupported_model', 'model'],
    ['stream=true (there is no streaming mode)', withModel(['stream', 'true']), 'streaming_unsupported', 'stream'],
  ])('%s', async (_name, upload, code, param) => {
    const { status, body } = await post(upload);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code, param, type: 'invalid_request_error' });
    expect(typeof body.error.message).toBe('string');
  });

  it('bytes that are not audio', async () => {
    const { status, body } = await post({ file: { bytes: Buffer.from('this is plainly text, not audio'), name: 'a.mp3' } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ param: 'file' });
    expect(['not_audio', 'unrecognized_container', 'undecodable_media']).toContain(body.error.code);
  });

  it('a container outside the list (video in mp4)', async () => {
    const { status, body } = await post({ file: { bytes: await videoFixture({ container: 'mp4' }), name: 'a.m4a' } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'not_audio', param: 'file' });
  });

  it('audio in a container outside the list (Matroska audio)', async () => {
    const mka = await encodeWith(wav, ['-c:a', 'flac', '-f', 'matroska']);
    const { status, body } = await post({ file: { bytes: mka, name: 'a.webm' } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'unrecognized_container', param: 'file' });
  });

  it('undecodable audio (a truncated WAV)', async () => {
    const { status, body } = await post({ file: { bytes: truncated(wav), name: 'a.wav' } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'undecodable_media', param: 'file' });
  });

  it('accepts stream=false, which SDKs may send', async () => {
    const { status } = await post(withModel(['stream', 'false']));
    expect(status).toBe(200);
    billedBefore += 1;
  });

  it('accepts a two-letter code in any case', async () => {
    const { status } = await post(withModel(['language', 'EN']));
    expect(status).toBe(200);
    billedBefore += 1;
  });
});

describe('422 validation errors', () => {
  it.each([
    ['no file', { file: null }, ['body', 'file']],
    ['no model', { fields: [] }, ['body', 'model']],
    ['a temperature that is not a number', withModel(['temperature', 'hot']), ['body', 'temperature']],
    ['a temperature above 1', withModel(['temperature', '1.5']), ['body', 'temperature']],
    ['speaker_labels that is not a boolean', withModel(['speaker_labels', 'maybe']), ['body', 'speaker_labels']],
    [
      'num_speakers that is not an integer, with speaker_labels',
      withModel(['response_format', 'verbose_json'], ['speaker_labels', 'true'], ['num_speakers', '1.5']),
      ['body', 'num_speakers'],
    ],
  ])('%s', async (_name, upload, loc) => {
    const { status, body } = await post(upload as Upload);
    expect(status).toBe(422);
    expect(body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
  });

  it('ignores a malformed num_speakers without speaker_labels', async () => {
    const { status } = await post(withModel(['num_speakers', 'lots']));
    expect(status).toBe(200);
    billedBefore += 1;
  });
});

describe('other refusals', () => {
  it('unknown model is 404', async () => {
    const { status, body } = await post({ fields: [['model', 'nope']] });
    expect(status).toBe(404);
    expect(body.error.code).toBe('model_not_found');
  });

  it('a malformed X-Organization-Id is 403', async () => {
    const { status, body } = await post({ headers: { 'x-organization-id': 'not an org!' } });
    expect(status).toBe(403);
    expect(body.error.code).toBe('malformed_organization_id');
  });

  it('the SDK sees the same 400 as an error', async () => {
    const error = await gw
      .openai()
      .audio.transcriptions.create({ file: await toFile(wav, 'a.wav'), model: 'rhythm', language: 'english' })
      .catch((e: { status: number; error: unknown }) => e);
    expect(error).toMatchObject({ status: 400, error: { code: 'unsupported_language' } });
  });
});

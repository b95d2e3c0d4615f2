import { ApiError } from '../../common/api-error';
import { fixtureModel } from '../../../test/support/catalog-model.fixture';
import { planSpeech, type SpeechChoices } from './speech-plan';
import { cloneModel, designModel, presetModel } from '../../../test/support/speech-models.fixture';

const alias = [presetModel, cloneModel];

function rejection(members: Parameters<typeof planSpeech>[0], choices: SpeechChoices): { status: number; code: string; param: string | null } {
  try {
    planSpeech(members, choices);
  } catch (error) {
    const { status, code, param } = error as ApiError;
    return { status, code, param };
  }
  throw new Error('expected a rejection');
}

describe('planSpeech routing', () => {
  it('sends an alias request to the member whose presets hold the voice', () => {
    expect(planSpeech(alias, { model: 'chorus', voice: 'vivian' }).model.id).toBe('chorus-voices');
    expect(planSpeech(alias, { model: 'chorus', voice: 'amber' }).model.id).toBe('chorus-clone');
  });

  it('sends reference audio to the member that clones, as a clone', () => {
    const plan = planSpeech(alias, { model: 'chorus', ref_audio: 'data:audio/wav;base64,AAAA', ref_text: 'hi' });
    expect(plan).toMatchObject({ clone: true, design: false, voice: null });
    expect(plan.model.id).toBe('chorus-clone');
  });

  it('uses the first member when the request names no voice', () => {
    expect(planSpeech(alias, { model: 'chorus' }).model.id).toBe('chorus-voices');
  });

  it('treats a model without presets as designing its voice from instructions', () => {
    const plan = planSpeech([designModel], { model: 'chorus-design', instructions: 'a calm, low voice' });
    expect(plan).toMatchObject({ design: true, clone: false });
  });
});

describe('planSpeech rejections', () => {
  it.each<[string, Parameters<typeof planSpeech>[0], SpeechChoices, string, string]>([
    ['a voice no member lists', alias, { model: 'chorus', voice: 'nobody' }, 'unknown_voice', 'voice'],
    ['a voice of another model', [presetModel], { model: 'chorus-voices', voice: 'amber' }, 'unknown_voice', 'voice'],
    ['an id in another case', [presetModel], { model: 'chorus-voices', voice: 'Vivian' }, 'unknown_voice', 'voice'],
    ['any voice on the design model', [designModel], { model: 'chorus-design', voice: 'vivian', instructions: 'x' }, 'unknown_voice', 'voice'],
    ['the design model without a description', [designModel], { model: 'chorus-design', instructions: ' ' }, 'missing_voice_description', 'instructions'],
    ['reference audio on a preset-only model', [presetModel], { model: 'chorus-voices', ref_audio: 'data:,' }, 'unsupported_parameter', 'ref_audio'],
    ['ref_text without ref_audio', alias, { model: 'chorus', ref_text: 'hello' }, 'ref_text_without_ref_audio', 'ref_text'],
    ['a voice and ref_audio together', alias, { model: 'chorus', voice: 'amber', ref_audio: 'data:,' }, 'conflicting_voice', 'voice'],
    ['streaming mp3', [presetModel], { model: 'chorus-voices', stream_format: 'audio', response_format: 'mp3' }, 'unsupported_stream_format', 'response_format'],
    ['streaming opus as sse', [presetModel], { model: 'chorus-voices', stream_format: 'sse', response_format: 'opus' }, 'unsupported_stream_format', 'response_format'],
    ['an unknown language code', [presetModel], { model: 'chorus-voices', language: 'xx' }, 'unsupported_language', 'language'],
    ['a language name instead of a code', [presetModel], { model: 'chorus-voices', language: 'English' }, 'unsupported_language', 'language'],
  ])('answers 400 for %s', (_case, members, choices, code, param) => {
    expect(rejection(members, choices)).toEqual({ status: 400, code, param });
  });

  it('answers 400 unsupported_model for a model of another kind', () => {
    const transcriber = fixtureModel({ id: 'symphony', kind: 'transcription' });
    expect(rejection([transcriber], { model: 'symphony' })).toEqual({ status: 400, code: 'unsupported_model', param: 'model' });
  });
});

describe('planSpeech formats and languages', () => {
  it('leaves a buffered request without response_format to the model', () => {
    expect(planSpeech([presetModel], { model: 'chorus-voices' })).toMatchObject({ format: null, delivery: 'buffered' });
  });

  it('streams wav when a streamed request names no format', () => {
    expect(planSpeech([presetModel], { model: 'chorus-voices', stream_format: 'sse' })).toMatchObject({ format: 'wav', delivery: 'sse' });
    expect(planSpeech([presetModel], { model: 'chorus-voices', stream_format: 'audio', response_format: 'pcm' })).toMatchObject({ format: 'pcm', delivery: 'audio' });
  });

  it('maps language codes to the names the upstream expects', () => {
    expect(planSpeech([presetModel], { model: 'chorus-voices', language: 'de' }).language).toBe('German');
    expect(planSpeech([presetModel], { model: 'chorus-voices', language: 'JA' }).language).toBe('Japanese');
    expect(planSpeech([presetModel], { model: 'chorus-voices' }).language).toBeNull();
  });
});

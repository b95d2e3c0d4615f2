import { planSpeech } from './speech-plan';
import { cloneModel, presetModel } from '../../../test/support/speech-models.fixture';
import { upstreamSpeechBody } from './upstream-speech-body';

describe('upstreamSpeechBody', () => {
  it('passes client fields through and sends the routed model with the language\'s upstream name', () => {
    const request = { model: 'chorus', input: 'Hi', voice: 'vivian', speed: 1.5, instructions: 'cheerful', language: 'fr', seed: 7, response_format: 'mp3' };
    const plan = planSpeech([presetModel, cloneModel], request as never);
    expect(upstreamSpeechBody(request, plan, null)).toEqual({
      model: 'chorus-voices', input: 'Hi', voice: 'vivian', speed: 1.5, instructions: 'cheerful', seed: 7, response_format: 'mp3', language: 'French',
    });
  });

  it('asks the upstream for raw audio when the client streams sse, and drops fields that change the output', () => {
    const request = { model: 'chorus-voices', input: 'Hi', stream_format: 'sse', stream: true, sample_rate: 8000, speed: null };
    const body = upstreamSpeechBody(request, planSpeech([presetModel], request as never), null);
    expect(body).toEqual({ model: 'chorus-voices', input: 'Hi', response_format: 'wav', stream_format: 'audio' });
  });

  it('replaces ref_audio and cache_salt with the prepared reference', () => {
    const request = { model: 'chorus-clone', input: 'Hi', ref_audio: 'data:audio/mpeg;base64,AAAA', ref_text: 'hello', cache_salt: 'mine' };
    const body = upstreamSpeechBody(request, planSpeech([cloneModel], request as never), { dataUrl: 'data:audio/wav;base64,UklG', cacheSalt: 'salt' });
    expect(body).toMatchObject({ ref_audio: 'data:audio/wav;base64,UklG', ref_text: 'hello', cache_salt: 'salt' });
  });

  it('keeps the client\'s cache_salt without reference audio and the upstream name of a renamed model', () => {
    const renamed = { ...presetModel, upstream: { ...presetModel.upstream, model: 'Qwen/Qwen3-TTS-CustomVoice' } };
    const request = { model: 'chorus-voices', input: 'Hi', cache_salt: 'mine' };
    expect(upstreamSpeechBody(request, planSpeech([renamed], request as never), null)).toEqual({ model: 'Qwen/Qwen3-TTS-CustomVoice', input: 'Hi', cache_salt: 'mine' });
  });
});

import { transcriptionUsageKind, transcriptionUsageOf } from './transcription-usage';
import { billed } from '../../test/support/billed-usage.fixture';

describe('transcription usage in OpenAI fields', () => {
  it.each([
    ['json', true, 'tokens'],
    ['verbose_json', true, 'duration'],
    ['json', false, 'duration'],
    ['verbose_json', false, 'duration'],
  ] as const)('%s on a model with audio placeholder %p reports %s', (format, placeholder, kind) => {
    expect(transcriptionUsageKind(format, placeholder)).toBe(kind);
  });

  const transcribed = billed({ input: { audio: [{ durationSeconds: '10.5' }] }, output: {} });

  it('token shape: input tokens are the audio tokens billed (2 + ceil(25 x 10.5) = 265)', () => {
    expect(transcriptionUsageOf(transcribed.usage, transcribed.audioTokens, 'tokens')).toEqual({
      input: transcribed.usage.input,
      output: transcribed.usage.output,
      cost_usd_micros: 7,
      type: 'tokens',
      input_tokens: 265,
      output_tokens: 0,
      total_tokens: 265,
      input_token_details: { audio_tokens: 265, text_tokens: 0 },
    });
  });

  it('duration shape: seconds are the billed duration', () => {
    expect(transcriptionUsageOf(transcribed.usage, transcribed.audioTokens, 'duration')).toEqual({
      input: transcribed.usage.input,
      output: transcribed.usage.output,
      cost_usd_micros: 7,
      type: 'duration',
      seconds: 10.5,
    });
  });
});

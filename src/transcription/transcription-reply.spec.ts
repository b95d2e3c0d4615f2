import { transcriptionUsageOf } from './transcription-usage';
import { emptyInputUsage, emptyOutputUsage } from '../billing/usage';
import { planTranscription, TranscriptionOptions } from './transcription-plan';
import { APPLICATION_JSON, TEXT_PLAIN, transcriptionReply } from './transcription-reply';
import type { EnrichedTranscript } from './enrich-transcript';

const vector = { input: { ...emptyInputUsage(), audio: { duration: '2.5' } }, output: emptyOutputUsage(), cost_usd_micros: 75 };
const usage = transcriptionUsageOf(vector, { input: 63, output: 0 }, 'duration');
const transcript: EnrichedTranscript = {
  text: 'alpha bravo',
  segments: [{ id: 0, start: 0, end: 1.5, text: ' alpha bravo' }],
  words: [{ word: 'alpha', start: 0, end: 0.5 }],
};

const reply = (overrides: Partial<TranscriptionOptions>, body: EnrichedTranscript = transcript) =>
  transcriptionReply(planTranscription({ format: 'json', speakerLabels: false, ...overrides }), body, 2.5, usage);

describe('transcriptionReply', () => {
  it('json carries text and usage only', () => {
    expect(reply({ language: 'en' })).toEqual({ contentType: APPLICATION_JSON, body: { text: 'alpha bravo', usage } });
  });

  it('verbose_json adds task, duration, segments and words', () => {
    expect(reply({ format: 'verbose_json' }).body).toEqual({
      task: 'transcribe',
      duration: 2.5,
      text: 'alpha bravo',
      segments: transcript.segments,
      words: transcript.words,
      usage,
    });
  });

  it('verbose_json echoes the language only when the request sent one', () => {
    expect(reply({ format: 'verbose_json', language: 'fr' }).body).toHaveProperty('language', 'fr');
    expect(reply({ format: 'verbose_json' }).body).not.toHaveProperty('language');
  });

  it('verbose_json keeps segments even when the transcript has no words', () => {
    const body = reply({ format: 'verbose_json', granularities: ['segment'] }, { ...transcript, words: undefined }).body;
    expect(body).toHaveProperty('segments');
    expect(body).not.toHaveProperty('words');
  });

  it('text, srt and vtt are plain text without usage', () => {
    expect(reply({ format: 'text' })).toEqual({ contentType: TEXT_PLAIN, body: 'alpha bravo\n' });
    expect(reply({ format: 'srt' })).toEqual({ contentType: TEXT_PLAIN, body: '1\n00:00:00,000 --> 00:00:01,500\nalpha bravo\n\n' });
    expect(reply({ format: 'vtt' })).toEqual({ contentType: TEXT_PLAIN, body: 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nalpha bravo\n\n' });
  });
});

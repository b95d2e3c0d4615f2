import { readUpstreamTranscript } from './upstream-transcript';

describe('readUpstreamTranscript', () => {
  it('reads an OpenAI verbose_json body, keeping extra segment fields', () => {
    const body = {
      task: 'transcribe',
      language: 'english',
      duration: 1.5,
      text: 'Hi there',
      segments: [{ id: 0, seek: 0, start: 0, end: 1.5, text: ' Hi there', tokens: [1, 2], avg_logprob: -0.2 }],
      words: [{ word: 'Hi', start: 0, end: 0.4 }, { word: 'there', start: 0.5, end: 1.5 }],
      usage: { type: 'duration', seconds: 2 },
    };
    expect(readUpstreamTranscript(body)).toEqual({
      text: 'Hi there',
      segments: body.segments,
      words: body.words,
      reportedAudioTokens: undefined,
    });
  });

  it('takes audio tokens from token usage', () => {
    const usage = { type: 'tokens', input_tokens: 30, output_tokens: 5, total_tokens: 35, input_token_details: { audio_tokens: 28, text_tokens: 2 } };
    expect(readUpstreamTranscript({ text: '', usage })).toMatchObject({ reportedAudioTokens: 28 });
  });

  it.each([28.5, -1, 2 ** 53, 1e300, '28'])('passes %p audio tokens on as sent, for billing to dispute', (bad) => {
    const usage = { type: 'tokens', input_tokens: 30, input_token_details: { audio_tokens: bad } };
    expect(readUpstreamTranscript({ text: '', usage })).toMatchObject({ reportedAudioTokens: bad });
  });

  it('leaves absent word and segment lists absent so the timing check can tell', () => {
    expect(readUpstreamTranscript({ text: 'x' })).toMatchObject({ words: undefined, segments: undefined });
  });

  it('keeps malformed word times for the timing check to reject', () => {
    const result = readUpstreamTranscript({ text: 'x', words: [{ word: 'x', start: '0' }] });
    expect(result).toMatchObject({ words: [{ word: 'x', start: '0', end: undefined }] });
  });

  it('reports a body that is not a transcript', () => {
    expect(readUpstreamTranscript([])).toEqual({ problem: 'the body is not a JSON object' });
    expect(readUpstreamTranscript({ words: [] })).toEqual({ problem: 'it has no `text` string' });
  });
});

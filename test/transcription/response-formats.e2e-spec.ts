// Every response format and granularity combination through the official SDK, on audio whose
// words and times are known (support/spoken-audio.ts).
import { toFile } from 'openai';
import type OpenAI from 'openai';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { parseSrt, parseVtt } from './support/captions-parser';
import { CONVERSATION, CONVERSATION_WORDS, spokenWav } from './support/spoken-audio';

jest.setTimeout(60_000);

let gw: TestGateway;
let client: OpenAI;
const wav = spokenWav(CONVERSATION);
const file = () => toFile(wav, 'conversation.wav', { type: 'audio/wav' });
const wavFile = () => new File([wav], 'conversation.wav', { type: 'audio/wav' });
const TEXT = 'alpha bravo charlie delta';
/** Segment boundaries of CONVERSATION: pauses of 0.6 s split it into three. */
const SEGMENT_TIMES = [
  [0.2, 1.6],
  [2.2, 2.3],
  [2.9, 3.4],
];

beforeAll(async () => {
  gw = await startTestGateway();
  client = gw.openai();
});
afterAll(() => gw.close());

const lastForwarded = () => gw.simulator.control.received((r) => r.path === '/v1/audio/transcriptions').at(-1)?.body as Record<string, unknown>;

describe('json', () => {
  it('carries text and usage only, usage filling only the input audio duration', async () => {
    const result = await client.audio.transcriptions.create({ file: await file(), model: 'rhythm', language: 'en' });
    expect(Object.keys(result).sort()).toEqual(['text', 'usage']);
    expect(result.text).toBe(TEXT);
    const usage = result.usage as unknown as { input: { audio: { duration: string }; text: { tokens: number } }; cost_usd_micros: number };
    expect(usage.input.audio.duration).toBe('3.7');
    expect(usage.input.text.tokens).toBe(0);
    expect(usage.cost_usd_micros).toBeGreaterThan(0);
    // The spec's Usage only; OpenAI's token shape is an organization's opt-in (test/clients/openai-node.e2e-spec.ts).
    expect(Object.keys(result.usage!)).toEqual(['input', 'output', 'cost_usd_micros']);
  });
});

describe('verbose_json', () => {
  it('without a granularity list has task, duration, segments and words, and no language', async () => {
    const result = await client.audio.transcriptions.create({ file: await file(), model: 'symphony', response_format: 'verbose_json' });
    expect(result).toMatchObject({ task: 'transcribe', duration: 3.7, text: TEXT, words: CONVERSATION_WORDS });
    expect(result).not.toHaveProperty('language');
    expect(result.usage).toMatchObject({ input: { audio: { duration: '3.7' } } });
    expect(result.usage).not.toHaveProperty('seconds');
    expect(result.segments!.map((s) => [s.start, s.end])).toEqual(SEGMENT_TIMES);
    expect(result.segments![0]).toMatchObject({ id: 0, text: ' alpha bravo', seek: 0 });
    expect(result.words!.every((w) => !('speaker' in w))).toBe(true);
  });

  it.each([
    [['word'] as const, true],
    [['segment'] as const, false],
    [['word', 'segment'] as const, true],
  ])('with granularities %j keeps segments and %s words', async (granularities, hasWords) => {
    const result = await client.audio.transcriptions.create({
      file: await file(),
      model: 'rhythm',
      response_format: 'verbose_json',
      timestamp_granularities: [...granularities],
    });
    expect(result.segments).toHaveLength(3);
    if (hasWords) expect(result.words).toEqual(CONVERSATION_WORDS);
    else expect(result).not.toHaveProperty('words');
  });

  it('echoes the language hint, not the upstream detection', async () => {
    const result = await client.audio.transcriptions.create({ file: await file(), model: 'rhythm', response_format: 'verbose_json', language: 'DE' });
    expect(result.language).toBe('de');
  });

  it('asks the upstream for verbose_json with word timings and passes language, prompt and temperature', async () => {
    await client.audio.transcriptions.create({ file: await file(), model: 'rhythm', response_format: 'verbose_json', language: 'fr', prompt: 'NATO', temperature: 0.3 });
    expect(lastForwarded()).toMatchObject({
      model: 'rhythm',
      response_format: 'verbose_json',
      'timestamp_granularities[]': ['segment', 'word'],
      language: 'fr',
      prompt: 'NATO',
      temperature: '0.3',
      file: { name: 'conversation.wav', size: wav.length },
    });
  });

  it('does not ask for word timings the response does not use', async () => {
    await client.audio.transcriptions.create({ file: await file(), model: 'rhythm', response_format: 'verbose_json', timestamp_granularities: ['segment'] });
    expect(lastForwarded()['timestamp_granularities[]']).toBe('segment');
  });
});

describe('plain-text formats', () => {
  it('text is the transcript as text/plain', async () => {
    const response = await client.audio.transcriptions.create({ file: await file(), model: 'rhythm', response_format: 'text' }).asResponse();
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(`${TEXT}\n`);
  });

  it('srt has cues numbered from 1 whose times are the first and last word times of each segment', async () => {
    const srt = await client.audio.transcriptions.create({ file: await file(), model: 'rhythm', response_format: 'srt' });
    expect(srt).toMatch(/^1\n00:00:00,200 --> 00:00:01,600\nalpha bravo\n\n2\n/);
    const cues = parseSrt(srt);
    expect(cues.map((c) => c.index)).toEqual([1, 2, 3]);
    expect(cues.map((c) => [c.start, c.end])).toEqual(SEGMENT_TIMES);
    expectCuesCoverWords(cues);
  });

  it('vtt has the WEBVTT header, dotted timestamps and the same cue times', async () => {
    const vtt = await client.audio.transcriptions.create({ file: await file(), model: 'rhythm', response_format: 'vtt' });
    expect(vtt).toMatch(/^WEBVTT\n\n00:00:00\.200 --> 00:00:01\.600\nalpha bravo\n\n/);
    const cues = parseVtt(vtt);
    expect(cues.map((c) => [c.start, c.end])).toEqual(SEGMENT_TIMES);
    expectCuesCoverWords(cues);
  });

  it('caption requests ask the upstream for segment timings only', async () => {
    await client.audio.transcriptions.create({ file: await file(), model: 'rhythm', response_format: 'srt' });
    expect(lastForwarded()).toMatchObject({ response_format: 'verbose_json', 'timestamp_granularities[]': 'segment' });
  });
});

describe('granularities on the other formats', () => {
  it.each([
    ['json', ['word']],
    ['json', ['word', 'segment']],
    ['text', ['segment']],
    ['srt', ['word']],
    ['vtt', ['word', 'segment']],
  ] as const)('%s with %j renders as without a list and asks for no word timings', async (format, granularities) => {
    const create = (extra: object) => client.audio.transcriptions.create({ file: wavFile(), model: 'rhythm', response_format: format, ...extra }).asResponse();
    const withList = await (await create({ timestamp_granularities: [...granularities] })).text();
    expect(lastForwarded()['timestamp_granularities[]']).toBe('segment');
    const withoutList = await (await create({})).text();
    expect(withList.replace(/"cost_usd_micros":\d+/, '')).toBe(withoutList.replace(/"cost_usd_micros":\d+/, ''));
  });
});

/** Each word lies in exactly one cue, whose text contains it; cues start and end on word times. */
function expectCuesCoverWords(cues: { start: number; end: number; text: string }[]): void {
  for (const word of CONVERSATION_WORDS) {
    const holding = cues.filter((cue) => cue.start <= word.start && word.end <= cue.end);
    expect(holding).toHaveLength(1);
    expect(holding[0].text.split(' ')).toContain(word.word);
  }
  const wordTimes = new Set(CONVERSATION_WORDS.flatMap((w) => [w.start, w.end]));
  expect(cues.every((cue) => wordTimes.has(cue.start) && wordTimes.has(cue.end))).toBe(true);
}

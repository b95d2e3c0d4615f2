// Speaker labels from a transcription upstream that diarizes itself (catalog `upstream.diarization`):
// OpenAI's `diarized_json`, or `speaker_labels` forwarded and answered per word. The client sees the
// spec's shape whatever the mode; a malformed diarized answer is a 502 in the envelope, not billed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toFile } from 'openai';
import type OpenAI from 'openai';
import type { CatalogModel } from '../../src/catalog/catalog.types';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { CONVERSATION, spokenWav } from './support/spoken-audio';

jest.setTimeout(60_000);

const wav = spokenWav(CONVERSATION);
let gw: TestGateway;
let bad: Server;
let badAnswer: unknown = {};

/** A transcription upstream that answers whatever the test sets, status 200, after reading the upload. */
async function startMisbehavingUpstream(): Promise<string> {
  bad = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(badAnswer)));
  });
  await new Promise<void>((resolve) => bad.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(bad.address() as AddressInfo).port}/v1`;
}

function variant(config: { models: CatalogModel[] }, id: string, upstream: Partial<CatalogModel['upstream']>): void {
  const rhythm = config.models.find((m) => m.id === 'rhythm')!;
  config.models.push({ ...rhythm, id, canonical_slug: `gateway/${id}`, upstream: { ...rhythm.upstream, model: 'rhythm', ...upstream } });
}

beforeAll(async () => {
  const badUrl = await startMisbehavingUpstream();
  gw = await startTestGateway({
    configure: (config) => {
      // No diarization service: these modes must not need one.
      config.services.diarization = null;
      variant(config, 'rhythm-diarized', { diarization: 'diarized_json' });
      variant(config, 'rhythm-labels', { diarization: 'speaker_labels' });
      variant(config, 'rhythm-bad', { diarization: 'diarized_json', base_url: badUrl });
      variant(config, 'rhythm-bad-labels', { diarization: 'speaker_labels', base_url: badUrl });
    },
  });
});
afterEach(() => gw.simulator.control.reset());
afterAll(async () => {
  await gw.close();
  await new Promise((resolve) => bad.close(resolve));
});

type Params = OpenAI.Audio.TranscriptionCreateParamsNonStreaming<'verbose_json'> & { speaker_labels?: boolean; num_speakers?: number };

async function transcribe(model: string, extra: Partial<Params> = {}) {
  const params: Params = { file: await toFile(wav, 'talk.wav'), model, response_format: 'verbose_json', speaker_labels: true, ...extra };
  return gw.openai().audio.transcriptions.create(params);
}

const forwarded = () => gw.simulator.control.received((r) => r.path === '/v1/audio/transcriptions').at(-1)?.body as Record<string, unknown>;
const diarizerCalls = () => gw.simulator.control.received((r) => r.path === '/v1/audio/diarizations');

describe('diarized_json: the upstream answers OpenAI speaker segments', () => {
  it('asks for diarized_json and returns words with 0-indexed speakers, first speaker 0', async () => {
    const result = await transcribe('rhythm-diarized');
    expect(forwarded()).toMatchObject({ response_format: 'diarized_json', chunking_strategy: 'auto' });
    expect(forwarded()).not.toHaveProperty('timestamp_granularities[]');
    // alpha (low pitch) speaks first, then bravo and the too-short charlie (high), then delta (low).
    expect(result.words!.map((w) => [w.word, (w as { speaker?: number }).speaker])).toEqual([
      ['alpha', 0],
      ['bravo', 1],
      ['charlie', 1],
      ['delta', 0],
    ]);
    expect(result.segments!.map((s) => [s.text, s.start, s.end, (s as { speaker?: unknown }).speaker])).toEqual([
      ['alpha', 0.2, 0.7, 0],
      ['bravo charlie', 1, 2.3, 1],
      ['delta', 2.9, 3.4, 0],
    ]);
    expect(diarizerCalls()).toHaveLength(0);
  });

  it('estimates word times inside their segment, in proportion to their length', async () => {
    const words = (await transcribe('rhythm-diarized')).words!;
    expect(words[1]).toMatchObject({ word: 'bravo', start: 1, end: 1.542 });
    expect(words[2]).toMatchObject({ word: 'charlie', start: 1.542, end: 2.3 });
  });

  it('bills the measured duration, as without speaker labels', async () => {
    const before = (await gw.events('UsageMeasured')).length;
    const result = (await transcribe('rhythm-diarized')) as unknown as { usage: { input: { audio: { duration: unknown } } } };
    const events = await gw.events('UsageMeasured');
    expect(events).toHaveLength(before + 1);
    expect(result.usage.input.audio.duration).toBe('3.7');
  });

  it('asks for verbose_json as usual when the request wants no speaker labels', async () => {
    const result = await transcribe('rhythm-diarized', { speaker_labels: false });
    expect(forwarded()).toMatchObject({ response_format: 'verbose_json' });
    expect(result.words!.every((w) => !('speaker' in w))).toBe(true);
  });
});

describe('speaker_labels: the upstream labels each word', () => {
  it('forwards speaker_labels and num_speakers and renumbers the labels by first appearance', async () => {
    const result = await transcribe('rhythm-labels', { num_speakers: 2 });
    expect(forwarded()).toMatchObject({ response_format: 'verbose_json', speaker_labels: 'true', num_speakers: '2' });
    expect(result.words!.map((w) => (w as { speaker?: number | null }).speaker)).toEqual([0, 1, null, 0]);
    expect(diarizerCalls()).toHaveLength(0);
  });

  it('keeps one speaker when num_speakers is 1', async () => {
    const result = await transcribe('rhythm-labels', { num_speakers: 1 });
    expect(result.words!.map((w) => (w as { speaker?: number | null }).speaker)).toEqual([0, 0, null, 0]);
  });
});

describe('a malformed diarized answer', () => {
  const segment = (overrides: Record<string, unknown>) => ({ type: 'transcript.text.segment', id: 'seg_0', start: 0.2, end: 0.7, text: 'alpha', speaker: 'A', ...overrides });

  it.each([
    ['no segments list', { text: 'alpha' }],
    ['a segment without speaker', { text: 'alpha', segments: [segment({ speaker: undefined })] }],
    ['a speaker label of 129 characters', { text: 'alpha', segments: [segment({ speaker: 'x'.repeat(129) })] }],
    ['a segment past the audio', { text: 'alpha', segments: [segment({ end: 9 })] }],
    ['a segment with text times', { text: 'alpha', segments: [segment({ start: '0.2' })] }],
    ['65 distinct speakers', { text: 'a', segments: Array.from({ length: 65 }, (_, i) => segment({ speaker: `S${i}`, start: i * 0.05, end: i * 0.05 })) }],
  ])('is a 502 speaker_enrichment_failed and not billed: %s', async (_name, answer) => {
    badAnswer = answer;
    const before = (await gw.events('CostPriced')).length;
    const response = await fetch(`${gw.baseUrl}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${gw.apiKey}` }, body: form('rhythm-bad') });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { code: 'speaker_enrichment_failed', type: 'upstream_error' } });
    expect((await gw.events('CostPriced')).length).toBe(before);
  });

  it('accepts a label of 128 characters and 64 distinct speakers', async () => {
    const many = Array.from({ length: 63 }, (_, i) => segment({ speaker: `S${i}`, start: 1 + i * 0.01, end: 1 + i * 0.01, text: 'w' }));
    badAnswer = { text: 'alpha', segments: [segment({ speaker: 'x'.repeat(128) }), ...many] };
    const response = await fetch(`${gw.baseUrl}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${gw.apiKey}` }, body: form('rhythm-bad') });
    expect(response.status).toBe(200);
    const words = ((await response.json()) as { words: { speaker: number }[] }).words;
    expect(new Set(words.map((w) => w.speaker)).size).toBe(64);
  });

  it('is a 502 upstream_invalid_response when the answer has no text', async () => {
    badAnswer = { segments: [segment({})] };
    const response = await fetch(`${gw.baseUrl}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${gw.apiKey}` }, body: form('rhythm-bad') });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { code: 'upstream_invalid_response' } });
  });
});

describe('a speaker_labels upstream that misbehaves', () => {
  const words = [{ word: 'alpha', start: 0.2, end: 0.7 }];
  const verbose = (w: unknown[]) => ({ text: 'alpha', segments: [{ id: 0, start: 0.2, end: 0.7, text: 'alpha' }], words: w });

  it.each([
    ['ignored the flag (no word has a speaker)', verbose(words)],
    ['labelled a word with an object', verbose([{ ...words[0], speaker: { id: 1 } }])],
  ])('is a 502 speaker_enrichment_failed and not billed: %s', async (_name, answer) => {
    badAnswer = answer;
    const before = (await gw.events('CostPriced')).length;
    const response = await fetch(`${gw.baseUrl}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${gw.apiKey}` }, body: form('rhythm-bad-labels') });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { code: 'speaker_enrichment_failed' } });
    expect((await gw.events('CostPriced')).length).toBe(before);
  });

  it('answers a word labelled null with an explicit null', async () => {
    badAnswer = verbose([{ ...words[0], speaker: null }, { word: 'bravo', start: 1, end: 1.6, speaker: 'spk_7' }]);
    const response = await fetch(`${gw.baseUrl}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${gw.apiKey}` }, body: form('rhythm-bad-labels') });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { words: unknown[] }).words).toEqual([
      { word: 'alpha', start: 0.2, end: 0.7, speaker: null },
      { word: 'bravo', start: 1, end: 1.6, speaker: 0 },
    ]);
  });
});

function form(model: string): FormData {
  const body = new FormData();
  body.append('file', new Blob([wav], { type: 'audio/wav' }), 'talk.wav');
  body.append('model', model);
  body.append('response_format', 'verbose_json');
  body.append('speaker_labels', 'true');
  return body;
}

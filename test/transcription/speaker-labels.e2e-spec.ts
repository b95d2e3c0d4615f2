// Speaker labels: the gateway diarizes through the configured service and merges its turns into
// the words; a word no turn covers gets an explicit `speaker: null`.
import { toFile } from 'openai';
import type OpenAI from 'openai';
import type { TranscriptionCreateParamsNonStreaming } from 'openai/resources/audio/transcriptions';
import { DIARIZATION_SIM_MODEL } from '../../src/simulator/simulated-turns';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { CONVERSATION, CONVERSATION_WORDS, spokenWav } from './support/spoken-audio';

jest.setTimeout(60_000);

let gw: TestGateway;
let client: OpenAI;
const wav = spokenWav(CONVERSATION);

type DiarizedParams = TranscriptionCreateParamsNonStreaming<'verbose_json'> & { speaker_labels?: boolean; num_speakers?: number };

async function diarized(extra: Partial<DiarizedParams> = {}) {
  const params: DiarizedParams = {
    file: await toFile(wav, 'conversation.wav'),
    model: 'symphony',
    response_format: 'verbose_json',
    speaker_labels: true,
    ...extra,
  };
  return client.audio.transcriptions.create(params);
}

const speakers = (words: unknown[] | undefined) => (words as { speaker?: number | null }[]).map((w) => w.speaker);
const diarizerCalls = () => gw.simulator.control.received((r) => r.path === '/v1/audio/diarizations');

beforeAll(async () => {
  gw = await startTestGateway();
  client = gw.openai();
});
afterEach(() => gw.simulator.control.reset());
afterAll(() => gw.close());

it('labels each word with the 0-indexed speaker who talks over it, first speaker 0', async () => {
  const result = await diarized();
  expect(result.words).toEqual(CONVERSATION_WORDS.map((w, i) => ({ ...w, speaker: [0, 1, null, 0][i] })));
  expect(result.segments).toHaveLength(3);
});

it('gives a word that no turn covers an explicit null, distinct from an absent field', async () => {
  const result = await diarized();
  const uncovered = result.words!.find((w) => w.word === 'charlie')!;
  expect(uncovered).toHaveProperty('speaker', null);
});

it('works with a granularity list that includes word', async () => {
  const result = await diarized({ timestamp_granularities: ['word', 'segment'] });
  expect(speakers(result.words)).toEqual([0, 1, null, 0]);
});

it('passes num_speakers to the diarizer', async () => {
  const result = await diarized({ num_speakers: 1 });
  expect(speakers(result.words)).toEqual([0, 0, null, 0]);
  expect(diarizerCalls().at(-1)?.body).toMatchObject({ num_speakers: '1', file: { size: wav.length } });
});

it('leaves the speaker field out and does not call the diarizer without speaker_labels', async () => {
  const result = await diarized({ speaker_labels: false, num_speakers: 3 });
  expect(result.words!.every((w) => !('speaker' in w))).toBe(true);
  expect(diarizerCalls()).toHaveLength(0);
});

describe('enrichment failures', () => {
  async function failure(extra: Partial<DiarizedParams> = {}): Promise<{ status: number; code: unknown; type: unknown }> {
    const before = (await gw.events('CostPriced')).length;
    const error = (await diarized(extra).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(Error);
    expect((await gw.events('CostPriced')).length).toBe(before);
    const body = error.error as { code?: unknown; type?: unknown };
    return { status: error.status!, code: body?.code, type: body?.type };
  }

  it('is a 502 when the diarizer fails', async () => {
    gw.simulator.control.set(DIARIZATION_SIM_MODEL, { kind: 'fail', status: 500 });
    expect(await failure()).toEqual({ status: 502, code: 'speaker_enrichment_failed', type: 'upstream_error' });
  });

  it('is a 502 when the diarizer returns turns outside the audio', async () => {
    gw.simulator.control.set(DIARIZATION_SIM_MODEL, { kind: 'quirk', name: 'turns_past_end' });
    expect(await failure()).toMatchObject({ status: 502, code: 'speaker_enrichment_failed' });
  });

  it.each(['no_words', 'words_backwards', 'words_past_end'])('is a 502 timing failure when the transcriber quirk is %s', async (quirk) => {
    gw.simulator.control.set('symphony', { kind: 'quirk', name: quirk });
    expect(await failure()).toMatchObject({ status: 502, code: 'timing_enrichment_failed' });
  });

  it('is a 502 timing failure for bad word timings even without speaker labels', async () => {
    gw.simulator.control.set('symphony', { kind: 'quirk', name: 'words_backwards' });
    expect(await failure({ speaker_labels: false })).toMatchObject({ status: 502, code: 'timing_enrichment_failed' });
  });

  it('is a 502 when the transcriber answers something that is not a transcript', async () => {
    gw.simulator.control.set('symphony', { kind: 'quirk', name: 'not_json' });
    expect(await failure({ speaker_labels: false })).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
  });
});

describe('without a configured diarization service', () => {
  let bare: TestGateway;
  beforeAll(async () => {
    bare = await startTestGateway({ configure: (config) => void (config.services.diarization = null) });
  });
  afterAll(() => bare.close());

  it('answers speaker-label requests with a 500 envelope', async () => {
    const params = { file: await toFile(wav, 'a.wav'), model: 'rhythm', response_format: 'verbose_json' as const, speaker_labels: true };
    const error = (await bare.openai().audio.transcriptions.create(params).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(500);
    expect(error.error).toMatchObject({ code: 'diarization_not_configured', type: 'server_error' });
  });
});

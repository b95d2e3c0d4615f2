// Every container the spec lists is identified from its bytes and transcribed, and every request
// is billed on the duration the gateway measured from the upload, plain-text formats included.
import { toFile } from 'openai';
import type OpenAI from 'openai';
import { identifyAudio } from '../../src/media/audio-probe';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { CONTAINERS, CONVERSATION, encodeAs, spokenWav } from './support/spoken-audio';

jest.setTimeout(120_000);

let gw: TestGateway;
let client: OpenAI;
const wav = spokenWav(CONVERSATION);

beforeAll(async () => {
  gw = await startTestGateway();
  client = gw.openai();
});
afterAll(() => gw.close());

async function eventsOf(requestId: string | null) {
  const usage = (await gw.events('UsageMeasured')).filter((e) => (e.data as { requestId: string }).requestId === requestId);
  const cost = (await gw.events('CostPriced')).filter((e) => (e.data as { requestId: string }).requestId === requestId);
  return { usage: usage.map((e) => e.data as any), cost: cost.map((e) => e.data as any) };
}

describe.each(CONTAINERS)('%s upload', (container) => {
  it('is transcribed and billed on the duration measured from the bytes', async () => {
    const bytes = await encodeAs(wav, container);
    const measured = await identifyAudio(bytes);
    expect(measured.container).toBe(container);
    const { data, response } = await client.audio.transcriptions
      .create({ file: await toFile(bytes, `speech.${container}`), model: 'rhythm', response_format: 'verbose_json' })
      .withResponse();
    expect(data.words!.map((w) => w.word)).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
    expect(data.duration).toBe(Number(measured.durationSeconds));
    const { usage, cost } = await eventsOf(response.headers.get('x-request-id'));
    expect(usage).toHaveLength(1);
    expect(usage[0].input.audio.duration).toBe(measured.durationSeconds);
    expect(cost).toHaveLength(1);
  });
});

describe('metering', () => {
  async function billedJson() {
    const { data, response } = await client.audio.transcriptions.create({ file: await toFile(wav, 'a.wav'), model: 'symphony' }).withResponse();
    return { usage: data.usage as unknown as { input: { audio: { duration: string } }; cost_usd_micros: number }, id: response.headers.get('x-request-id') };
  }

  it('bills the boundary duration, not the upstream report (the simulator reports whole seconds)', async () => {
    const { usage, id } = await billedJson();
    const upstreamReport = 4;
    expect(usage.input.audio.duration).toBe('3.7');
    expect(Number(usage.input.audio.duration)).not.toBe(upstreamReport);
    const { usage: events, cost } = await eventsOf(id);
    expect(events[0]).toMatchObject({ model: 'symphony', endpoint: '/v1/audio/transcriptions', metering: 'boundary' });
    expect(cost[0].costUsdMicros).toBe(usage.cost_usd_micros);
  });

  it.each(['text', 'srt', 'vtt'] as const)('still meters and bills a %s request, whose body carries no usage', async (format) => {
    const reference = await billedJson();
    const { data, response } = await client.audio.transcriptions
      .create({ file: await toFile(wav, 'a.wav'), model: 'symphony', response_format: format })
      .withResponse();
    expect(typeof data).toBe('string');
    expect(data).not.toMatch(/usage|cost_usd_micros/);
    const { usage, cost } = await eventsOf(response.headers.get('x-request-id'));
    expect(usage).toHaveLength(1);
    expect(usage[0].input.audio.duration).toBe('3.7');
    expect(usage[0].input.text.tokens).toBe(0);
    expect(cost).toHaveLength(1);
    expect(cost[0].costUsdMicros).toBe(reference.usage.cost_usd_micros);
    expect(cost[0].costUsdMicros).toBeGreaterThan(0);
  });
});

describe("the model's audio media profile", () => {
  let narrow: TestGateway;
  beforeAll(async () => {
    narrow = await startTestGateway({
      configure: (config) => {
        const model = (id: string) => config.models.find((m) => m.id === id)!;
        model('rhythm').media_profiles!.audio = { accepts: { containers: ['wav'] }, converts_to: { codec: 'pcm_s16le', container: 'wav', sample_rate: 16000, channels: 1 } };
        model('symphony').media_profiles!.audio = { accepts: { containers: ['wav'] }, converts_to: null };
        model('rhythm').upstream.model = 'rhythm-large-v3';
      },
    });
  });
  afterAll(() => narrow.close());

  it('converts an upload outside the accepted containers and bills the original duration', async () => {
    const flac = await encodeAs(wav, 'flac');
    const { data } = await narrow
      .openai()
      .audio.transcriptions.create({ file: await toFile(flac, 'speech.flac'), model: 'rhythm' })
      .withResponse();
    expect(data.text).toBe('alpha bravo charlie delta');
    expect((data.usage as unknown as { input: { audio: { duration: string } } }).input.audio.duration).toBe((await identifyAudio(flac)).durationSeconds);
    const forwarded = narrow.simulator.control.received((r) => r.path === '/v1/audio/transcriptions').at(-1)?.body;
    expect(forwarded).toMatchObject({ model: 'rhythm-large-v3', file: { name: 'speech.wav', type: 'audio/wav' } });
  });

  it('refuses an upload the profile neither accepts nor converts with a 400', async () => {
    const error = await narrow
      .openai()
      .audio.transcriptions.create({ file: await toFile(await encodeAs(wav, 'mp3'), 'speech.mp3'), model: 'symphony' })
      .catch((e: { status: number; error: unknown }) => e);
    expect(error).toMatchObject({ status: 400, error: { code: 'unsupported_media', param: 'file' } });
  });

  it('answers an unhandled failure (a target codec this build cannot write) with a 500 envelope', async () => {
    const broken = await startTestGateway({
      configure: (config) => {
        config.models.find((m) => m.id === 'rhythm')!.media_profiles!.audio = { accepts: { containers: ['wav'] }, converts_to: { codec: 'speex', container: 'ogg' } };
      },
    });
    try {
      const error = await broken
        .openai()
        .audio.transcriptions.create({ file: await toFile(await encodeAs(wav, 'flac'), 'speech.flac'), model: 'rhythm' })
        .catch((e: { status: number; error: unknown }) => e);
      expect(error).toMatchObject({ status: 500, error: { code: 'internal_error', type: 'server_error' } });
      expect(await broken.events('CostPriced')).toHaveLength(0);
    } finally {
      await broken.close();
    }
  });
});

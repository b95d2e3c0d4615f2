import { identifyAudio } from '../../src/media';
import { simulatedSamples, SIM_SAMPLE_RATE } from '../../src/simulator/speech-audio';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { awaitBill, billOf, presetSpeechCostMicros } from './speech-billing';

const INPUT = 'The quick brown fox jumps over the lazy dog.';

describe('POST /v1/audio/speech (buffered)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it.each([
    ['mp3', 'audio/mpeg', 'mp3', 'mp3'],
    ['opus', 'audio/opus', 'ogg', 'opus'],
    ['aac', 'audio/aac', 'aac', 'aac'],
    ['flac', 'audio/flac', 'flac', 'flac'],
    ['wav', 'audio/wav', 'wav', 'pcm_s16le'],
  ] as const)('answers %s labelled %s that decodes as such and bills the decoded duration', async (format, contentType, container, codec) => {
    const response = await gw.openai().audio.speech.create({ model: 'chorus-voices', input: INPUT, voice: 'vivian', response_format: format });
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.headers.get('x-ratelimit-limit')).toBe('600');
    const probe = await identifyAudio(Buffer.from(await response.arrayBuffer()));
    expect(probe).toMatchObject({ container, codec });
    const bill = await awaitBill(gw, response.headers.get('x-request-id'));
    expect(bill.usage.output.audio.duration).toBe(probe.durationSeconds);
    expect(bill.usage.input.text.characters).toBe(INPUT.length);
    expect(bill.cost.costUsdMicros).toBe(presetSpeechCostMicros(INPUT.length, probe.durationSeconds));
  });

  it('answers raw pcm billed by byte count at the model\'s 24 kHz 16-bit mono', async () => {
    const response = await gw.openai().audio.speech.create({ model: 'chorus-voices', input: INPUT, voice: 'ryan', response_format: 'pcm', speed: 2 });
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(simulatedSamples(INPUT, 2) * 2);
    const seconds = String(simulatedSamples(INPUT, 2) / SIM_SAMPLE_RATE);
    const bill = await awaitBill(gw, response.headers.get('x-request-id'));
    expect(bill.usage.output.audio.duration).toBe(seconds);
    expect(bill.cost.costUsdMicros).toBe(presetSpeechCostMicros(INPUT.length, seconds));
  });

  it('answers in the model\'s own container when response_format is omitted', async () => {
    const response = await gw.openai().audio.speech.create({ model: 'chorus', input: INPUT, voice: 'amber' });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(await identifyAudio(Buffer.from(await response.arrayBuffer()))).toMatchObject({ container: 'wav' });
    const forwarded = gw.simulator.control.received((r) => r.path === '/v1/audio/speech').at(-1)?.body as Record<string, unknown>;
    expect(forwarded).toMatchObject({ model: 'chorus-clone', voice: 'amber', input: INPUT });
    expect(forwarded).not.toHaveProperty('response_format');
  });

  it('routes the chorus alias by voice and forwards speed, instructions, the language name and extra fields', async () => {
    const response = await gw.postJson('/v1/audio/speech', { model: 'chorus', input: 'Bonjour', voice: 'serena', speed: 0.5, instructions: 'softly', language: 'fr', seed: 3 });
    expect(response.status).toBe(200);
    const forwarded = gw.simulator.control.received((r) => r.path === '/v1/audio/speech').at(-1)?.body;
    expect(forwarded).toEqual({ model: 'chorus-voices', input: 'Bonjour', voice: 'serena', speed: 0.5, instructions: 'softly', language: 'French', seed: 3 });
    expect((await awaitBill(gw, response.headers.get('x-request-id'))).usage.model).toBe('chorus-voices');
  });

  it('bills a designed voice once on chorus-design', async () => {
    const response = await gw.openai().audio.speech.create({ model: 'chorus-design', input: 'Hi', voice: undefined as never, instructions: 'a warm baritone', response_format: 'wav' });
    const bill = await awaitBill(gw, response.headers.get('x-request-id'));
    expect(bill.usage.input.voice).toEqual({ clone_count: 0, design_count: 1, reference_duration: '0' });
    expect(bill.cost.lineItems.map((item) => item.name)).toContain('chorus-design, input voice count');
  });

  it('answers 502 and bills nothing when the upstream sends bytes that are not audio', async () => {
    gw.simulator.control.set('chorus-voices', { kind: 'quirk', name: 'garbage_audio' });
    try {
      const response = await gw.postJson('/v1/audio/speech', { model: 'chorus-voices', input: 'Hi', response_format: 'mp3' });
      expect(response.status).toBe(502);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('upstream_audio_invalid');
      expect(await billOf(gw, response.headers.get('x-request-id'))).toBeNull();
    } finally {
      gw.simulator.control.set('chorus-voices', { kind: 'ok' });
    }
  });
});

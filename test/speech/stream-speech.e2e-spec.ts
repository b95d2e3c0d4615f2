import type { Usage } from '../../src/billing/usage';
import { secondsFromSamples } from '../../src/media';
import { simulatedSamples, SIM_SAMPLE_RATE } from '../../src/simulator/speech-audio';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { awaitBill, presetSpeechCostMicros } from './speech-billing';

const INPUT = 'Streaming speech arrives while it is still being generated.';
const secondsOf = (samples: number) => secondsFromSamples(samples, SIM_SAMPLE_RATE);

interface SpeechEvent {
  type: string;
  audio?: string;
  usage?: Usage;
}

function parseEvents(text: string): SpeechEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)) as SpeechEvent);
}

describe('POST /v1/audio/speech streaming', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  afterEach(() => gw.simulator.control.set('chorus-voices', { kind: 'ok' }));

  const post = (body: Record<string, unknown>, signal?: AbortSignal) => gw.postJson('/v1/audio/speech', body, { signal });

  it('streams wav as raw audio with 0xFFFFFFFF RIFF and data sizes, billed by the data that followed', async () => {
    const response = await gw.openai().audio.speech.create({ model: 'chorus-voices', input: INPUT, voice: 'eric', stream_format: 'audio', response_format: 'wav' });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await response.arrayBuffer());
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(0xffffffff);
    expect(wav.toString('latin1', 36, 40)).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(0xffffffff);
    expect(wav.length - 44).toBe(simulatedSamples(INPUT) * 2);
    const bill = await awaitBill(gw, response.headers.get('x-request-id'));
    expect(bill.usage.output.audio.duration).toBe(secondsOf(simulatedSamples(INPUT)));
  });

  it('streams wav when a streamed request names no format', async () => {
    const response = await post({ model: 'chorus', input: INPUT, voice: 'vivian', stream_format: 'audio' });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await response.arrayBuffer()).readUInt32LE(40)).toBe(0xffffffff);
  });

  it('streams raw pcm billed by byte count', async () => {
    const response = await gw.openai().audio.speech.create({ model: 'chorus-voices', input: INPUT, voice: 'eric', stream_format: 'audio', response_format: 'pcm', speed: 1.5 });
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    const samples = simulatedSamples(INPUT, 1.5);
    expect(Buffer.from(await response.arrayBuffer())).toHaveLength(samples * 2);
    const bill = await awaitBill(gw, response.headers.get('x-request-id'));
    expect(bill.usage.output.audio.duration).toBe(secondsOf(samples));
    expect(bill.cost.costUsdMicros).toBe(presetSpeechCostMicros(INPUT.length, secondsOf(samples)));
  });

  it('emits sse audio deltas as generated and one final done event carrying the billed usage', async () => {
    gw.simulator.control.set('chorus-voices', { kind: 'quirk', name: 'slow_stream' });
    const response = await gw.openai().audio.speech.create({ model: 'chorus-voices', input: INPUT, voice: 'eric', stream_format: 'sse' });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseEvents(await response.text());
    const deltas = events.slice(0, -1);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((event) => event.type === 'speech.audio.delta')).toBe(true);
    const done = events.at(-1)!;
    expect(done.type).toBe('speech.audio.done');
    const wav = Buffer.concat(deltas.map((event) => Buffer.from(event.audio!, 'base64')));
    expect(wav.readUInt32LE(4)).toBe(0xffffffff);
    expect(wav.length - 44).toBe(simulatedSamples(INPUT) * 2);
    const bill = await awaitBill(gw, response.headers.get('x-request-id'));
    // The spec's Usage: the recorded vector less web_search_calls (not a spec field).
    const { web_search_calls: _searches, ...tools } = bill.usage.output.tools;
    expect(done.usage).toEqual({ input: bill.usage.input, output: { ...bill.usage.output, tools }, cost_usd_micros: bill.cost.costUsdMicros });
    expect(done.usage?.output.audio.duration).toBe(secondsOf(simulatedSamples(INPUT)));
  });

  it('passes audio through as it is generated instead of waiting for the whole synthesis', async () => {
    gw.simulator.control.set('chorus-voices', { kind: 'quirk', name: 'slow_stream' });
    const started = Date.now();
    const response = await post({ model: 'chorus-voices', input: 'x'.repeat(2000), stream_format: 'audio', response_format: 'pcm' });
    const reader = response.body!.getReader();
    await reader.read();
    const firstByteMs = Date.now() - started;
    while (!(await reader.read()).done);
    const totalMs = Date.now() - started;
    // 13 chunks, 40 ms apart: the first must not wait for the other twelve.
    expect(totalMs).toBeGreaterThan(450);
    expect(firstByteMs).toBeLessThan(totalMs / 2);
  });

  it('bills what was produced when the client abandons the stream, and frees the model', async () => {
    gw.simulator.control.set('chorus-voices', { kind: 'quirk', name: 'slow_stream' });
    const abort = new AbortController();
    const input = 'y'.repeat(4000);
    const response = await post({ model: 'chorus-voices', input, voice: 'dylan', stream_format: 'sse', response_format: 'pcm' }, abort.signal);
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    abort.abort();
    const bill = await awaitBill(gw, response.headers.get('x-request-id'));
    const billed = Number(bill.usage.output.audio.duration);
    expect(billed).toBeGreaterThan(0);
    expect(billed).toBeLessThan(simulatedSamples(input) / SIM_SAMPLE_RATE);
    expect(bill.usage.input.text.characters).toBe(4000);
    expect(bill.cost.costUsdMicros).toBe(presetSpeechCostMicros(4000, bill.usage.output.audio.duration));
    expect(gw.gateway.runtime.modelGate.inFlightOf('chorus-voices')).toBe(0);
  });

  it.each([
    ['audio', 'mp3'],
    ['audio', 'opus'],
    ['sse', 'aac'],
    ['sse', 'flac'],
  ])('answers 400 for stream_format %s with %s', async (streamFormat, format) => {
    const response = await post({ model: 'chorus-voices', input: INPUT, stream_format: streamFormat, response_format: format });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unsupported_stream_format');
  });
});

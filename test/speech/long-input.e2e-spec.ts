import { identifyAudio, parseWavHeader, secondsFromSamples } from '../../src/media';
import { simulatedSamples, SIM_SAMPLE_RATE } from '../../src/simulator/speech-audio';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { awaitBill, presetSpeechCostMicros } from './speech-billing';

const SENTENCE = 'A long document is read aloud one sentence after another, without any cap on its length. ';
const INPUT = SENTENCE.repeat(Math.ceil(200_000 / SENTENCE.length)).slice(0, 200_000);

// 49 upstream segments per request: on a loaded 2-core machine one request can take longer than jest's
// default 5 s, and a timed-out stream would go on feeding the simulator's log the next test reads.
jest.setTimeout(60_000);

describe('POST /v1/audio/speech with a 200,000-character input', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  const post = (body: Record<string, unknown>) =>
    gw.postJson('/v1/audio/speech', { model: 'chorus', voice: 'aiden', input: INPUT, ...body });

  beforeEach(() => gw.simulator.control.reset());

  it('streams it as pcm, spoken in sentence-aligned segments of at most 4096 characters, billed in full', async () => {
    const response = await post({ response_format: 'pcm', stream_format: 'audio' });
    expect(response.status).toBe(200);
    const pcm = Buffer.from(await response.arrayBuffer());
    const segments = gw.simulator.control.received((r) => r.path === '/v1/audio/speech').map((r) => (r.body as { input: string }).input);
    expect(segments.join('')).toBe(INPUT);
    expect(segments.length).toBeGreaterThan(48);
    for (const segment of segments) expect([...segment].length).toBeLessThanOrEqual(4096);
    expect(segments.slice(0, -1).every((segment) => segment.endsWith('length. '))).toBe(true);
    const samples = segments.reduce((sum, segment) => sum + simulatedSamples(segment), 0);
    expect(pcm.length).toBe(samples * 2);
    const bill = await awaitBill(gw, response.headers.get('x-request-id'));
    expect(bill.usage.input.text.characters).toBe(200_000);
    expect(bill.usage.output.audio.duration).toBe(secondsFromSamples(samples, SIM_SAMPLE_RATE));
    expect(bill.cost.costUsdMicros).toBe(presetSpeechCostMicros(200_000, bill.usage.output.audio.duration));
  });

  /** Reads a long pcm stream until `bytes` have arrived, then runs `interrupt` and reads what is left. */
  async function interrupted(bytes: number, interrupt: (abort: AbortController) => void): Promise<string | null> {
    const abort = new AbortController();
    const response = await gw.postJson('/v1/audio/speech', { model: 'chorus', voice: 'aiden', input: INPUT, response_format: 'pcm', stream_format: 'audio' }, { signal: abort.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = 0;
    try {
      while (received < bytes) received += (await reader.read()).value?.length ?? Infinity;
      interrupt(abort);
      while (!(await reader.read()).done);
    } catch {
      // the client's own abort
    }
    return response.headers.get('x-request-id');
  }

  const sentSegments = () => gw.simulator.control.received((r) => r.path === '/v1/audio/speech').map((r) => (r.body as { input: string }).input);

  it('bills only the characters of the segments sent when the client leaves early', async () => {
    const requestId = await interrupted(64 * 1024, (abort) => abort.abort());
    const bill = await awaitBill(gw, requestId);
    const sent = sentSegments();
    const sentCharacters = sent.reduce((sum, segment) => sum + [...segment].length, 0);
    console.log(`client left: ${sent.length} segments sent, ${bill.usage.input.text.characters} characters billed of ${INPUT.length}`);
    expect(sent.length).toBeLessThan(48);
    // A segment is billed once its request is answered; the one in flight when the client left may
    // have reached the upstream and been cancelled before its answer, so it may or may not count.
    const answered = sentCharacters - [...sent[sent.length - 1]].length;
    expect([answered, sentCharacters]).toContain(bill.usage.input.text.characters);
    expect(bill.cost.costUsdMicros).toBe(presetSpeechCostMicros(bill.usage.input.text.characters, bill.usage.output.audio.duration));
  });

  it('bills only the characters of the segments sent when the upstream fails mid-stream', async () => {
    const requestId = await interrupted(64 * 1024, () => gw.simulator.control.set('*', { kind: 'fail', status: 500 }));
    const bill = await awaitBill(gw, requestId);
    const accepted = gw.simulator.control.received((r) => r.path === '/v1/audio/speech').slice(0, -1);
    const sentCharacters = accepted.reduce((sum, r) => sum + [...(r.body as { input: string }).input].length, 0);
    console.log(`upstream failed: ${accepted.length} segments sent, ${sentCharacters} characters billed of ${INPUT.length}`);
    expect(sentCharacters).toBeLessThan(INPUT.length);
    expect(bill.usage.input.text.characters).toBe(sentCharacters);
  });

  it('answers one WAV with its true sizes when buffered', async () => {
    const response = await post({ response_format: 'wav' });
    const wav = Buffer.from(await response.arrayBuffer());
    const samples = gw.simulator.control.received((r) => r.path === '/v1/audio/speech').reduce((sum, r) => sum + simulatedSamples((r.body as { input: string }).input), 0);
    const header = parseWavHeader(wav);
    expect(header.declaredDataBytes).toBe(samples * 2);
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    const bill = await awaitBill(gw, response.headers.get('x-request-id'));
    expect(bill.usage.output.audio.duration).toBe(secondsFromSamples(samples, SIM_SAMPLE_RATE));
  });

  it('encodes the joined audio when an mp3 is asked for, billing what the mp3 decodes to', async () => {
    const response = await gw.openai().audio.speech.create({ model: 'chorus', voice: 'aiden', input: INPUT, response_format: 'mp3' });
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const probe = await identifyAudio(Buffer.from(await response.arrayBuffer()));
    expect(probe.container).toBe('mp3');
    expect(Number(probe.durationSeconds)).toBeGreaterThan(100);
    const bill = await awaitBill(gw, response.headers.get('x-request-id'));
    expect(bill.usage.output.audio.duration).toBe(probe.durationSeconds);
  });
});

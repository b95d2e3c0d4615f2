// The official Python `openai` SDK (PyPI, pinned in test/clients/python/requirements.txt) against a real
// gateway: test/clients/python/openai_client_check.py calls every endpoint it can, parses each JSON body
// with the SDK's own pydantic types in strict mode and prints the usage the SDK reports. Here every call
// must have succeeded and each usage must equal what the gateway recorded for that request (matched by
// the x-request-id the gateway answered with). The venv is made once by scripts/python-clients.sh.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { withOpenAiUsageFormat } from './support/openai-usage-format';
import { CONVERSATION, spokenWav } from '../transcription/support/spoken-audio';
import { printUsageTable, recordedRequests, recordedText, type RecordedTokens, UsageRow } from './support/recorded-usage';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
const VENV_TIMEOUT_MS = 360_000;

interface CallResult {
  call: string;
  ok: boolean;
  request_id?: string;
  usage?: Record<string, number | string | null> | null;
  error?: string;
  trace?: string;
}

async function pythonWithOpenAi(): Promise<string> {
  const { stdout } = await run('bash', [join(ROOT, 'scripts/python-clients.sh')], { timeout: VENV_TIMEOUT_MS });
  return stdout.trim().split('\n').pop()!;
}

async function runChecks(python: string, gw: TestGateway, wavPath: string): Promise<{ results: CallResult[]; sdk: string }> {
  const script = join(ROOT, 'test/clients/python/openai_client_check.py');
  const { stdout } = await run(python, [script, `${gw.baseUrl}/v1`, gw.apiKey, wavPath], { timeout: 120_000 }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const results = stdout.split('\n').filter((line) => line.startsWith('RESULT ')).map((line) => JSON.parse(line.slice('RESULT '.length)) as CallResult);
  const sdk = stdout.split('\n').find((line) => line.startsWith('SDK '))?.slice('SDK '.length) ?? 'openai (Python)';
  return { results, sdk };
}

describe('official Python openai SDK: strict parsing and token usage', () => {
  let gw: TestGateway;
  let dir: string;
  let results: CallResult[] = [];
  let client = 'openai (Python)';
  const recorded = new Map<string, RecordedTokens>();
  const rows: UsageRow[] = [];

  beforeAll(async () => {
    const python = await pythonWithOpenAi();
    gw = await startTestGateway({ configure: withOpenAiUsageFormat });
    dir = mkdtempSync(join(tmpdir(), 'py-client-'));
    const wavPath = join(dir, 'talk.wav');
    writeFileSync(wavPath, spokenWav(CONVERSATION));
    const run = await runChecks(python, gw, wavPath);
    results = run.results;
    client = `${run.sdk} (Python)`;
    for (const request of await recordedRequests(gw)) recorded.set(request.requestId, request);
  }, VENV_TIMEOUT_MS + 180_000);

  afterAll(async () => {
    printUsageTable(client, rows);
    await gw?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const resultOf = (call: string): { result: CallResult; billed: RecordedTokens } => {
    const result = results.find((entry) => entry.call === call);
    expect(result).toBeDefined();
    expect({ call, ok: result!.ok, error: result!.error, trace: result!.trace }).toEqual({ call, ok: true, error: undefined, trace: undefined });
    const billed = recorded.get(result!.request_id!);
    expect(billed).toBeDefined();
    return { result: result!, billed: billed! };
  };

  const chatText = (u: CallResult['usage']) =>
    `prompt_tokens ${u?.prompt_tokens} (cached ${u?.cached_tokens}, audio ${u?.prompt_audio_tokens}), completion_tokens ${u?.completion_tokens} (reasoning ${u?.reasoning_tokens}, audio ${u?.completion_audio_tokens}), total_tokens ${u?.total_tokens}`;

  it('ran every call, one billed request each', () => {
    expect(results.map((r) => r.call)).toEqual(['chat', 'stream', 'tools', 'speech', 'transcription_json', 'transcription_verbose_json', 'images']);
    expect(new Set(results.map((r) => r.request_id)).size).toBe(results.length);
    expect(recorded.size).toBe(results.length);
  });

  it.each(['chat', 'stream', 'tools'])('%s: strict ChatCompletion (or ChatCompletionChunk) parsing, CompletionUsage equal to the recorded usage', (endpoint) => {
    const { result, billed } = resultOf(endpoint);
    expect(result.usage).toEqual({
      prompt_tokens: billed.input,
      completion_tokens: billed.output,
      total_tokens: billed.total,
      cached_tokens: billed.cached,
      prompt_audio_tokens: billed.audioIn,
      reasoning_tokens: billed.reasoning,
      completion_audio_tokens: billed.audioOut,
    });
    expect(billed.total).toBeGreaterThan(0);
    rows.push({ client, endpoint, reported: chatText(result.usage), recorded: recordedText(billed) });
  });

  it('speech: a WAV body, billed by characters, with no usage in it', () => {
    const { result, billed } = resultOf('speech');
    expect(result.usage).toBeNull();
    expect(billed.vector.input.text.characters).toBe('Hello there.'.length);
    rows.push({ client, endpoint: 'speech', reported: 'none (binary audio body)', recorded: `${billed.vector.input.text.characters} characters, ${billed.audioOut} audio tokens, ${billed.costUsdMicros} micros` });
  });

  it('transcription json: strict Transcription parsing, token usage equal to the audio tokens billed', () => {
    const { result, billed } = resultOf('transcription_json');
    expect(result.usage).toEqual({ type: 'tokens', input_tokens: billed.audioIn, output_tokens: 0, total_tokens: billed.audioIn, audio_tokens: billed.audioIn, text_tokens: 0 });
    expect(billed.audioIn).toBeGreaterThan(0);
    const u = result.usage!;
    rows.push({ client, endpoint: 'transcription (json)', reported: `type tokens, input_tokens ${u.input_tokens} (audio ${u.audio_tokens}), output_tokens ${u.output_tokens}, total_tokens ${u.total_tokens}`, recorded: recordedText(billed) });
  });

  it('transcription verbose_json: strict TranscriptionVerbose parsing, duration usage equal to the seconds billed', () => {
    const { result, billed } = resultOf('transcription_verbose_json');
    expect(result.usage).toEqual({ type: 'duration', seconds: billed.audioSeconds });
    rows.push({ client, endpoint: 'transcription (verbose_json)', reported: `type duration, seconds ${result.usage!.seconds}`, recorded: recordedText(billed) });
  });

  it('images: strict ImagesResponse parsing of the relayed body, which carries no usage', () => {
    const { result, billed } = resultOf('images');
    expect(result.usage).toBeNull();
    expect(billed.vector.output.image.count).toBe(1);
    rows.push({ client, endpoint: 'images', reported: 'none (upstream body relayed verbatim)', recorded: `${billed.vector.output.image.count} image(s), ${billed.costUsdMicros} micros` });
  });
});

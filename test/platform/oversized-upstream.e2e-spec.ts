// A hostile upstream cannot make the gateway hold its answer: an SSE line that never ends, a JSON
// body that never ends or declares 1 GiB, and 200s that are not the stream that was asked for.
// Each is checked for what the client got, what the upstream managed to send, and what was billed;
// the gateway runs as a child process (compiled JavaScript) whose peak RSS is printed and bounded.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { transpileGateway, type TranspiledGateway } from '../support/transpiled-gateway';
import { writeTestConfig } from '../support/config-file';
import { readBilledRequests } from '../support/billed-requests';
import { startOversizedUpstream, type OversizedUpstream } from '../support/oversized-upstream';
import { peakRssMiB, rssMiB } from '../support/process-memory';

const KEY = 'sk-hostile-upstream-test';
const MiB = 1024 * 1024;
jest.setTimeout(120_000);

/** What loopback TCP may hold between the upstream's writes and the gateway's reads: both kernels'
 * autotuned socket buffers (tcp_rmem and tcp_wmem maxima; 32 MiB + 4 MiB on this machine), plus a
 * MiB of Node and undici buffers. An upstream's count past the cap by more than this means the
 * gateway kept reading. */
function socketBufferSlack(): number {
  const max = (file: string, fallback: number) => {
    try {
      return Number(readFileSync(file, 'utf8').trim().split(/\s+/)[2]) || fallback;
    } catch {
      return fallback;
    }
  };
  return max('/proc/sys/net/ipv4/tcp_rmem', 6 * MiB) + max('/proc/sys/net/ipv4/tcp_wmem', 4 * MiB) + MiB;
}

describe('hostile upstream answers are bounded', () => {
  let upstream: OversizedUpstream;
  let gateway: GatewayProcess;
  let dataDir: string;
  let compiled: TranspiledGateway;
  let idleMiB: number;
  const outcomes = new Map<string, { status: number; requestId: string; text: string }>();

  const post = async (behaviour: string, path: string, body: Record<string, unknown>) => {
    const response = await fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const outcome = { status: response.status, requestId: response.headers.get('x-request-id')!, text: await response.text() };
    outcomes.set(behaviour, outcome);
    return outcome;
  };
  const chat = (behaviour: string, stream: boolean) => post(behaviour, '/v1/chat/completions', { model: 'aria', stream, messages: [{ role: 'user', content: behaviour }] });
  const errorCode = (text: string) => (JSON.parse(text) as { error: { code: string } }).error.code;

  beforeAll(async () => {
    upstream = await startOversizedUpstream();
    dataDir = mkdtempSync(join(tmpdir(), 'gw-hostile-'));
    const config = writeTestConfig(dataDir, KEY);
    gateway = await startGatewayProcess({ GATEWAY_CONFIG: config, GATEWAY_DATA_DIR: dataDir, SIMULATOR_URL: upstream.url }, 60_000, (compiled = transpileGateway()).entry);
    idleMiB = rssMiB(gateway.child.pid!);
  });
  afterAll(async () => {
    await gateway?.kill();
    await upstream?.close();
    rmSync(dataDir, { recursive: true, force: true });
    compiled?.remove();
  });

  it('ends a stream whose SSE line never ends with the error event, after at most the 4 MiB event cap', async () => {
    const { status, text } = await chat('endless-line', true);
    expect(status).toBe(200);
    expect(text).toContain('"code":"upstream_response_too_large"');
    expect(upstream.sent.get('endless-line')).toBeLessThan(4 * MiB + socketBufferSlack());
  });

  it('answers 502 upstream_response_too_large to a JSON answer that never ends, after at most the 64 MiB body cap', async () => {
    const { status, text } = await chat('huge-json', false);
    expect([status, errorCode(text)]).toEqual([502, 'upstream_response_too_large']);
    expect(upstream.sent.get('huge-json')).toBeLessThan(64 * MiB + socketBufferSlack());
  });

  it('answers 502 at once to an answer declaring 1 GiB, reading (almost) none of it', async () => {
    const { status, text } = await chat('huge-declared', false);
    expect([status, errorCode(text)]).toEqual([502, 'upstream_response_too_large']);
    expect(upstream.sent.get('huge-declared') ?? 0).toBeLessThan(socketBufferSlack());
  });

  it.each(['html', 'json'])('answers 502 upstream_protocol_error to a %s 200 where an SSE stream was asked for', async (behaviour) => {
    const { status, text } = await chat(behaviour, true);
    expect([status, errorCode(text)]).toEqual([502, 'upstream_protocol_error']);
  });

  it('answers 502 upstream_protocol_error to an HTML 200 where streamed speech audio was asked for', async () => {
    const { status, text } = await post('speech-html', '/v1/audio/speech', { model: 'chorus-voices', voice: 'eric', input: 'html', stream_format: 'audio', response_format: 'pcm' });
    expect([status, errorCode(text)]).toEqual([502, 'upstream_protocol_error']);
  });

  it('bills only the stream that relayed, keeps RSS bounded, and prints the figures', async () => {
    const peak = peakRssMiB(gateway.child.pid!);
    await gateway.kill();
    const { counts, ledger } = await readBilledRequests(dataDir);
    const billed = [...outcomes].map(([behaviour, o]) => [behaviour, o.status, counts.get(o.requestId)?.usage ?? 0]);
    process.stdout.write(`hostile upstream: idle RSS ${idleMiB} MiB, peak ${peak} MiB; sent by upstream (MiB): ${[...upstream.sent].map(([b, n]) => `${b} ${(n / MiB).toFixed(1)}`).join(', ')}\n  [behaviour, status, UsageMeasured]: ${JSON.stringify(billed)}\n`);
    // The stream's error path bills what was relayed (here the prompt only); every 502 is unbilled.
    expect(billed).toEqual([
      ['endless-line', 200, 1],
      ['huge-json', 502, 0],
      ['huge-declared', 502, 0],
      ['html', 502, 0],
      ['json', 502, 0],
      ['speech-html', 502, 0],
    ]);
    expect(ledger.differences).toEqual([]);
    expect(peak - idleMiB).toBeLessThan(200);
  });
});

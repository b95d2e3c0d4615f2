// Traces (issue 28): with OTEL_* pointing at an OTLP/HTTP collector, every request is one server
// span (child of the client's traceparent when it sent one) with child spans for validation,
// admission, the upstream call and billing, and the GenAI attributes; the upstream receives the
// upstream-call span as its parent. Without OTEL_* no OpenTelemetry SDK module is even loaded.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator';
import { writeTestConfig } from '../support/config-file';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { startRecordingUpstream, type RecordingUpstream } from '../support/recording-upstream';
import { encodeAs, spokenWav, CONVERSATION } from '../transcription/support/spoken-audio';

jest.setTimeout(180_000);

const API_KEY = 'sk-test-tracing-0123456789';
const ROOT = join(__dirname, '..', '..');
let receiver: OtlpReceiver;
let simulator: RunningSimulator;
let upstream: RecordingUpstream;
let gateway: GatewayProcess;
let dir: string;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  simulator = await startSimulator();
  upstream = await startRecordingUpstream(simulator.url);
  dir = mkdtempSync(join(tmpdir(), 'gw-tracing-'));
  gateway = await startGatewayProcess({
    GATEWAY_CONFIG: writeTestConfig(dir, API_KEY),
    GATEWAY_DATA_DIR: dir,
    SIMULATOR_URL: upstream.url,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_SERVICE_NAME: 'gateway-under-test',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
  });
});

afterAll(async () => {
  await gateway?.kill();
  await upstream?.close();
  await simulator?.close();
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** The request's server span and the spans under it, once the server span has arrived. */
async function traceOf(requestId: string) {
  const spans = await receiver.waitFor((all) => all.some((span) => span.kind === 2 && span.attributes['gateway.request_id'] === requestId));
  const server = spans.find((span) => span.kind === 2 && span.attributes['gateway.request_id'] === requestId)!;
  const inTrace = () => receiver.spans.filter((span) => span.traceId === server.traceId);
  const descendantsOf = (root: ReceivedSpan): ReceivedSpan[] =>
    inTrace().filter((span) => span.parentSpanId === root.spanId).flatMap((child) => [child, ...descendantsOf(child)]);
  return { server, children: inTrace().filter((span) => span.parentSpanId === server.spanId), descendants: () => descendantsOf(server) };
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

describe('a chat request', () => {
  it("is one server span under the client's traceparent, with GenAI attributes and the cost", async () => {
    const [clientTrace, clientSpan] = [hex(16), hex(8)];
    const response = await post(
      '/v1/chat/completions',
      { model: 'aria', messages: [{ role: 'user', content: 'Trace this.' }], max_tokens: 16, temperature: 0.3 },
      { traceparent: `00-${clientTrace}-${clientSpan}-01`, 'x-request-id': 'client-correlation-1' },
    );
    expect(response.status).toBe(200);
    const { usage } = (await response.json()) as { usage: any };
    const { server, children } = await traceOf(response.headers.get('x-request-id')!);

    expect(server).toMatchObject({ name: 'POST /v1/chat/completions', traceId: clientTrace, parentSpanId: clientSpan });
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/chat/completions',
      'http.response.status_code': 200,
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'vllm',
      'gen_ai.request.model': 'aria',
      'gen_ai.request.max_tokens': 16,
      'gen_ai.request.temperature': 0.3,
      'gen_ai.response.model': 'aria',
      'gen_ai.usage.input_tokens': usage.input.text.tokens,
      'gen_ai.usage.output_tokens': usage.output.text.tokens,
      'gateway.cost_usd_micros': String(usage.cost_usd_micros),
      'gateway.organization_id': 'org-demo',
      'gateway.correlation_id': 'client-correlation-1',
    });
    expect(server.resource).toMatchObject({ 'service.name': 'gateway-under-test', 'deployment.environment.name': 'test' });
    expect(children.map((span) => span.name).sort()).toEqual(['admission', 'billing', 'chat aria', 'validation']);
    const call = children.find((span) => span.name === 'chat aria')!;
    expect(call.kind).toBe(3);
    expect(call.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'aria', 'http.response.status_code': 200 });
    expect(children.find((span) => span.name === 'billing')!.attributes).toMatchObject({ 'gateway.cost_usd_micros': String(usage.cost_usd_micros) });
    expect(children.find((span) => span.name === 'admission')!.attributes).toMatchObject({ 'gateway.admitted': true });
  });

  it('reaches the upstream with the upstream-call span as its traceparent', async () => {
    const clientTrace = hex(16);
    const response = await post('/v1/chat/completions', { model: 'aria', messages: [{ role: 'user', content: 'Propagate.' }] }, { traceparent: `00-${clientTrace}-${hex(8)}-01` });
    expect(response.status).toBe(200);
    const { children } = await traceOf(response.headers.get('x-request-id')!);
    const call = children.find((span) => span.kind === 3)!;
    const received = upstream.calls.filter((c) => c.path === '/v1/chat/completions' && String(c.headers.traceparent).includes(clientTrace));
    expect(received.map((c) => c.headers.traceparent)).toEqual([`00-${clientTrace}-${call.spanId}-01`]);
  });

  it('a refused request is traced too, its failure on the span', async () => {
    const response = await post('/v1/chat/completions', { model: 'aria', messages: [], temperature: 9 });
    expect(response.status).toBe(422);
    const { server, children } = await traceOf(response.headers.get('x-request-id')!);
    expect(server.attributes['http.response.status_code']).toBe(422);
    expect(server.parentSpanId).toBeUndefined();
    expect(children.find((span) => span.name === 'validation')!.status.code).toBe(2);
  });
});

describe('a streamed chat request', () => {
  it('ends its server span with the stream: time to first chunk, usage and billing are on it', async () => {
    const response = await post('/v1/chat/completions', { model: 'aria', messages: [{ role: 'user', content: 'Stream a story.' }], stream: true, stream_options: { include_usage: true } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('data: [DONE]');
    const { server, children } = await traceOf(response.headers.get('x-request-id')!);
    expect(server.attributes['gen_ai.request.stream']).toBe(true);
    expect(server.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThan(0);
    expect(server.events).toContain('gen_ai.first_chunk');
    expect(server.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(typeof server.attributes['gateway.cost_usd_micros']).toBe('string');
    expect(children.map((span) => span.name).sort()).toEqual(['admission', 'billing', 'chat aria', 'validation']);
  });
});

describe('a stream the client leaves', () => {
  it('ends its server span marked so; the relayed part is billed in the same trace', async () => {
    simulator.control.set('aria', { kind: 'quirk', name: 'long_answer' });
    try {
      const abort = new AbortController();
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'aria', messages: [{ role: 'user', content: 'Tell me a long story.' }], stream: true }),
        signal: abort.signal,
      });
      const reader = response.body!.getReader();
      await reader.read();
      abort.abort();
      const { server } = await traceOf(response.headers.get('x-request-id')!);
      expect(server.attributes).toMatchObject({ 'gateway.client_aborted': true, 'error.type': 'client_closed_request' });
      expect(server.status.code).toBe(2);
      await receiver.waitFor((spans) => spans.some((span) => span.name === 'billing' && span.parentSpanId === server.spanId));
    } finally {
      simulator.control.set('aria', { kind: 'ok' });
    }
  });
});

describe('a transcription', () => {
  it('has the media work and the upstream call under its server span', async () => {
    const flac = await encodeAs(spokenWav(CONVERSATION), 'flac');
    const form = new FormData();
    form.append('model', 'symphony');
    form.append('file', new Blob([new Uint8Array(flac)]), 'speech.flac');
    const response = await fetch(`${gateway.url}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${API_KEY}` }, body: form });
    expect(response.status).toBe(200);
    await response.text();
    const { server, children, descendants } = await traceOf(response.headers.get('x-request-id')!);
    expect(server.name).toBe('POST /v1/audio/transcriptions');
    expect(server.attributes).toMatchObject({ 'gen_ai.operation.name': 'transcription', 'gen_ai.request.model': 'symphony', 'gen_ai.response.model': 'symphony' });
    expect(children.map((span) => span.name)).toEqual(expect.arrayContaining(['validation', 'admission', 'billing']));
    expect(children.some((span) => span.kind === 3 && span.attributes['gen_ai.operation.name'] === 'transcription')).toBe(true);
    expect(descendants().filter((span) => /^media ff(mpeg|probe)$/.test(span.name)).length).toBeGreaterThan(0);
  });
});

describe('tracing off (no OTEL_* variables)', () => {
  const probe = async (env: Record<string, string>) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_'))) as Record<string, string>;
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', 'ts-node/register/transpile-only', 'test/support/tracing-probe.ts'], {
      cwd: ROOT,
      env: { ...clean, ...env },
      timeout: 120_000,
    });
    return JSON.parse(/PROBE (.*)/.exec(stdout)![1]) as { status: number; loaded: string[] };
  };

  it('loads no OpenTelemetry SDK, exporter, propagator or context manager while serving a request', async () => {
    const off = await probe({});
    expect(off.status).toBe(200);
    // The API package alone (no-op until an SDK registers) comes with prom-client's process metrics.
    expect(off.loaded.filter((path) => !path.includes('@opentelemetry/api/'))).toEqual([]);
  });

  it('(the probe sees them when tracing is on)', async () => {
    const on = await probe({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces` });
    expect(on.status).toBe(200);
    expect(on.loaded.some((path) => path.includes('@opentelemetry/sdk-trace/'))).toBe(true);
  });
});

// Logs (issue 28): everything the gateway process writes, stdout and stderr, from start to shutdown,
// is one JSON object per line; every line about a request carries its request id, the client's
// correlation id (x-request-id) and the trace id; and no credential sent in a header, a query
// string, a body, or echoed back by a failing upstream reaches a line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator';
import { writeTestConfig } from '../support/config-file';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver';
import { startRecordingUpstream, type RecordingUpstream } from '../support/recording-upstream';

jest.setTimeout(180_000);

const API_KEY = 'sk-logs-valid-key-1111111111';
const UPSTREAM_KEY = 'upstream-credential-2222';
const SECRETS = {
  queryKey: 'query-secret-3333',
  queryToken: 'query-secret-4444',
  headerApiKey: 'header-secret-5555',
  cookie: 'cookie-secret-6666',
  wrongBearer: 'sk-wrong-bearer-7777777777',
  bodyKey: 'body-secret-8888',
  bodyToken: 'body-secret-9999',
  invalidBody: 'body-secret-0000',
};
const ECHO = 'ECHO-YOUR-CREDENTIALS';

let receiver: OtlpReceiver;
let simulator: RunningSimulator;
let upstream: RecordingUpstream;
let gateway: GatewayProcess;
let dir: string;
let output = '';
const correlated = new Map<string, string>();
let echoAnswer = '';

const lines = () => output.split('\n').filter((line) => line.trim() !== '');
const entries = () => lines().map((line) => JSON.parse(line) as Record<string, any>);

async function send(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Response> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const correlation = init.headers?.['x-request-id'];
  if (correlation) correlated.set(response.headers.get('x-request-id')!, correlation);
  return response;
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  simulator = await startSimulator();
  // A failing upstream that echoes what it was sent: its key, and the body's credential fields.
  upstream = await startRecordingUpstream(simulator.url, (call) =>
    call.body.includes(ECHO) ? { status: 500, body: JSON.stringify({ error: { message: `rejected ${call.headers.authorization} for body ${call.body}` } }) } : null,
  );
  dir = mkdtempSync(join(tmpdir(), 'gw-logs-'));
  gateway = await startGatewayProcess({
    GATEWAY_CONFIG: writeTestConfig(dir, API_KEY),
    GATEWAY_DATA_DIR: dir,
    SIMULATOR_URL: upstream.url,
    UPSTREAM_API_KEY: UPSTREAM_KEY,
    LOG_LEVEL: 'debug',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
  });
  const keyed = { authorization: `Bearer ${API_KEY}` };
  const chat = (extra: object) => ({ model: 'aria', messages: [{ role: 'user', content: 'Hello.' }], ...extra });
  await send(`/v1/models?api_key=${SECRETS.queryKey}`, { headers: { 'x-api-key': SECRETS.headerApiKey, cookie: `session=${SECRETS.cookie}`, 'x-request-id': 'corr-models' } });
  await send(`/v1/organization/costs?start_time=0&token=${SECRETS.queryToken}`, { headers: keyed });
  await send('/v1/chat/completions', { headers: { authorization: `Bearer ${SECRETS.wrongBearer}`, 'x-request-id': 'corr-unauthorized' }, body: chat({}) });
  await send('/v1/chat/completions', { headers: { ...keyed, 'x-request-id': 'corr-chat' }, body: chat({ api_key: SECRETS.bodyKey, metadata: { token: SECRETS.bodyToken } }) });
  await send('/v1/chat/completions', { headers: { ...keyed, 'x-request-id': 'corr-invalid' }, body: { model: 'aria', messages: 'not a list', api_key: SECRETS.invalidBody } });
  const streamed = await send('/v1/chat/completions', { headers: { ...keyed, 'x-request-id': 'corr-stream' }, body: chat({ stream: true }) });
  await streamed.text();
  const failed = await send('/v1/chat/completions', { headers: { ...keyed, 'x-request-id': 'corr-upstream-failure' }, body: chat({ user: ECHO, api_key: SECRETS.bodyKey }) });
  echoAnswer = await failed.text();
  await send('/v1/no-such-route?access_token=anything', { headers: { 'x-request-id': 'corr-404' } });
  await gateway.kill('SIGTERM');
  output = gateway.output();
});

afterAll(async () => {
  await gateway?.kill();
  await upstream?.close();
  await simulator?.close();
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('writes nothing but JSON objects, one per line, from start-up to shutdown', () => {
  expect(lines().length).toBeGreaterThan(20);
  expect(output).not.toContain('\u001b[');
  for (const line of lines()) expect(() => JSON.parse(line)).not.toThrow();
  const messages = entries().map((entry) => entry.msg);
  expect(messages).toEqual(expect.arrayContaining([`inference gateway listening on ${gateway.url}`, 'incoming request', 'request completed']));
});

it('gives every request line its request id and trace id, and the correlation id the client sent', () => {
  const requestLines = entries().filter((entry) => entry.requestId !== undefined || entry.req !== undefined || entry.res !== undefined);
  expect(requestLines.length).toBeGreaterThanOrEqual(16);
  for (const entry of requestLines) {
    expect(entry).toMatchObject({ requestId: expect.any(String), traceId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(entry.correlationId).toBe(correlated.get(entry.requestId));
  }
  expect(new Set(requestLines.map((entry) => entry.correlationId))).toEqual(
    new Set(['corr-models', undefined, 'corr-unauthorized', 'corr-chat', 'corr-invalid', 'corr-stream', 'corr-upstream-failure', 'corr-404']),
  );
});

it('carries no credential from a header, a query string, a body or an upstream error', () => {
  for (const secret of [API_KEY, UPSTREAM_KEY, ...Object.values(SECRETS)]) expect(output).not.toContain(secret);
  expect(upstream.calls.some((call) => call.headers.authorization === `Bearer ${UPSTREAM_KEY}`)).toBe(true);
});

it('logs the upstream failure, its echoed credentials masked', () => {
  const failure = entries().find((entry) => entry.correlationId === 'corr-upstream-failure' && entry.context === 'errors');
  expect(failure).toMatchObject({ level: 40, status: 502, code: 'upstream_error', traceId: expect.any(String) });
  expect(failure!.msg).toContain('rejected');
  expect(failure!.msg).toContain('[redacted]');
});

it("does not hand the upstream's echo of the gateway's credentials to the client either", () => {
  expect(echoAnswer).toContain('rejected');
  expect(echoAnswer).not.toContain(UPSTREAM_KEY);
});

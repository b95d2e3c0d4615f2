// Starts a real gateway (HTTP on loopback) in front of the upstream simulator, on a fresh data dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { startSimulator, RunningSimulator } from '../../src/simulator/simulator';
import { embeddedConfig, DEMO_ORGANIZATION } from '../../src/embedded-default';
import { readRuntimeEnv, GatewayConfig, RuntimeEnv } from '../../src/config/gateway-config';
import { buildRuntime, RuntimeOverrides } from '../../src/core/build-runtime';
import { startGateway, RunningGateway } from '../../src/gateway';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import type { DestinationStream } from 'pino';
import { createGatewayLogger } from '../../src/observability/logging/gateway-logger';

export interface TestGateway {
  baseUrl: string;
  apiKey: string;
  orgId: string;
  simulator: RunningSimulator;
  gateway: RunningGateway;
  config: GatewayConfig;
  dataDir: string;
  /** Every event recorded so far, optionally of one type. */
  events(type?: string): Promise<RecordedEvent[]>;
  openai(options?: { apiKey?: string; organization?: string }): OpenAI;
  /** A keyed JSON POST (the demo key unless `headers` says otherwise), for what the SDK cannot send. */
  postJson(path: string, body: unknown, init?: { headers?: Record<string, string>; signal?: AbortSignal }): Promise<Response>;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  configure?: (config: GatewayConfig) => void;
  overrides?: (dataDir: string, config: GatewayConfig) => Promise<RuntimeOverrides> | RuntimeOverrides;
  dataDir?: string;
  /** Runtime settings on top of the test defaults (e.g. `kafkaBrokers`). */
  env?: Partial<RuntimeEnv>;
  /** Receives the log lines instead of stdout (set `env.logLevel` to log anything). */
  logStream?: DestinationStream;
}

/**
 * The simulator runs in the test's own process: on a busy machine (or while it synthesizes a long speech
 * input) its health answer can come seconds late. A late answer is still an answer, so the prober waits
 * this long before calling a model cold; a simulator set `cold` answers 503 at once and still turns it
 * cold (test/platform/model-status.e2e-spec.ts).
 */
export const TEST_PROBE_TIMEOUT_MS = 20_000;

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const simulator = await startSimulator();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gw-test-'));
  const { config, demoKey } = embeddedConfig(simulator.url, null);
  options.configure?.(config);
  const env = { ...readRuntimeEnv({}), port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', ...options.env };
  const log = createGatewayLogger(env.logLevel, options.logStream);
  const overrides = { probeTimeoutMs: TEST_PROBE_TIMEOUT_MS, log, ...(await options.overrides?.(dataDir, config)) };
  const runtime = await buildRuntime(config, env, overrides);
  const gateway = await startGateway(runtime);
  const events = async (type?: string) => {
    const all: RecordedEvent[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await runtime.eventStore.readAll({ after, maxCount: 1000 });
      if (page.length === 0) break;
      all.push(...page);
      after = page[page.length - 1].position;
    }
    return type ? all.filter((e) => e.type === type) : all;
  };
  return {
    baseUrl: gateway.url,
    apiKey: demoKey,
    orgId: DEMO_ORGANIZATION,
    simulator,
    gateway,
    config,
    dataDir,
    events,
    openai: (o = {}) =>
      new OpenAI({
        baseURL: `${gateway.url}/v1`,
        apiKey: o.apiKey ?? demoKey,
        maxRetries: 0,
        defaultHeaders: o.organization ? { 'x-organization-id': o.organization } : undefined,
      }),
    postJson: (path, body, init = {}) =>
      fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demoKey}`, 'content-type': 'application/json', ...init.headers },
        body: JSON.stringify(body),
        signal: init.signal,
      }),
    close: async () => {
      await gateway.close();
      await simulator.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

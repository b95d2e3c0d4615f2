// Section 1 and 4: the same chat request against the fixed-latency upstream directly, through the
// bare Fastify + undici proxy and through the gateway (auth, rate-limit admission, validation,
// upstream call, metering, pricing, durable appends); then the gateway's peak RSS. A Nest relay
// (servers/nest-relay.ts) is measured in the closed loop too: what the fixed stack costs on its own.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, startService, type ServiceProcess } from '../lib/child';
import { buildGateway } from '../lib/gateway-build';
import { deployedNodeFlags } from '../lib/server-node-flags';
import { memoryMiB } from '../lib/proc';
import { pinSelf, planPinning, type Pinning } from '../lib/pinning';
import { SETTINGS, type Settings } from '../settings';
import { writeOverheadConfig } from '../gateway-config';
import { chatTargets } from './chat-requests';
import { measureTarget, measureThroughput, type TargetResults, type ThroughputRun } from './measure-target';

export interface OverheadResults {
  direct: TargetResults;
  bareProxy: TargetResults;
  gateway: TargetResults;
  /** The Nest relay in the closed loop: the stack's request path with none of the gateway's own work. */
  nestRelay: ThroughputRun;
  gatewayStartupMs: number;
  memoryMiB: { gatewayPeakRss: number; gatewayRssAfter: number; bareProxyPeakRss: number };
}

export interface BenchContext {
  pinning: Pinning;
  settings: Settings;
  /** Scratch directory of this run (data directories, configs, profiles). */
  runDir: string;
  mock: ServiceProcess;
  /** The gateway's entry point (compiled, see lib/gateway-build.ts). */
  gatewayScript: string;
  log(line: string): void;
}

/** What every gateway benchmark sets up first: pin this process, build the gateway, start the mock upstream. */
export async function openBenchContext(runName: string, log: (line: string) => void): Promise<BenchContext> {
  const pinning = planPinning();
  log(`pinning: ${pinning.description}`);
  pinSelf(pinning);
  log('Building the gateway (tsconfig.build.json) ...');
  const gatewayScript = buildGateway();
  const runDir = join(REPO_ROOT, '.cache', 'bench', 'runs', runName);
  mkdirSync(runDir, { recursive: true });
  const mock = await startService(pinning, { name: 'mock upstream', script: 'bench/servers/mock-upstream.ts', cpu: pinning.loadCpu, env: { MOCK_DELAY_MS: String(SETTINGS.upstreamDelayMs) } });
  return { pinning, settings: SETTINGS, runDir, mock, gatewayScript, log };
}

/** `env`: extra environment of this gateway (e.g. GATEWAY_METRICS=off for the metrics-off variant). */
export function startGatewayProcess(ctx: BenchContext, name: string, dataDir: string, configPath: string, nodeFlags: string[] = [], env: Record<string, string> = {}): Promise<ServiceProcess> {
  mkdirSync(dataDir, { recursive: true });
  return startService(ctx.pinning, {
    name,
    script: ctx.gatewayScript,
    cpu: ctx.pinning.serverCpu,
    nodeFlags: [...deployedNodeFlags(), ...nodeFlags],
    env: { GATEWAY_CONFIG: configPath, GATEWAY_DATA_DIR: dataDir, SIMULATOR_URL: ctx.mock.url, LOG_LEVEL: 'warn', KAFKA_BROKERS: '', ...env },
    startTimeoutMs: 600_000,
  });
}

/** A reference server in front of the mock, run as the gateway is: on the server's cores, with its node flags. */
function startReferenceServer(ctx: BenchContext, name: string, script: string): Promise<ServiceProcess> {
  return startService(ctx.pinning, { name, script, cpu: ctx.pinning.serverCpu, nodeFlags: deployedNodeFlags(), env: { UPSTREAM_URL: ctx.mock.url } });
}

export const startBareProxy = (ctx: BenchContext) => startReferenceServer(ctx, 'bare proxy', 'bench/servers/bare-proxy.ts');

export const startNestRelay = (ctx: BenchContext) => startReferenceServer(ctx, 'nest relay', 'bench/servers/nest-relay.ts');

async function measureNestRelay(ctx: BenchContext): Promise<ThroughputRun> {
  const relay = await startNestRelay(ctx);
  try {
    return await measureThroughput(chatTargets(relay.url), relay.pid, ctx.settings);
  } finally {
    await relay.stop();
  }
}

export async function runOverhead(ctx: BenchContext): Promise<OverheadResults> {
  const config = writeOverheadConfig(join(ctx.runDir, 'overhead-config'));
  const proxy = await startBareProxy(ctx);
  const gateway = await startGatewayProcess(ctx, 'gateway', join(ctx.runDir, 'overhead-data'), config.path);
  try {
    ctx.log('  upstream directly ...');
    const direct = await measureTarget(chatTargets(ctx.mock.url), null, ctx.settings, true);
    ctx.log('  bare Fastify + undici proxy ...');
    const bareProxy = await measureTarget(chatTargets(proxy.url), proxy.pid, ctx.settings);
    ctx.log('  gateway ...');
    const gatewayResults = await measureTarget(chatTargets(gateway.url, config.apiKey), gateway.pid, ctx.settings, true);
    ctx.log('  Nest relay (the stack without the gateway\'s work), closed loop ...');
    const nestRelay = await measureNestRelay(ctx);
    return {
      direct,
      bareProxy,
      gateway: gatewayResults,
      nestRelay,
      gatewayStartupMs: gateway.startupMs,
      memoryMiB: { gatewayPeakRss: memoryMiB(gateway.pid, 'VmHWM'), gatewayRssAfter: memoryMiB(gateway.pid, 'VmRSS'), bareProxyPeakRss: memoryMiB(proxy.pid, 'VmHWM') },
    };
  } finally {
    await Promise.all([gateway.stop(), proxy.stop()]);
  }
}

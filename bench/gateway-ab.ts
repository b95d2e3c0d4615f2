// `npm run bench:ab`: compares two builds (or two sets of node flags) of the gateway on a machine
// whose speed drifts between runs minutes apart. Both gateways run side by side on the same core and
// are loaded in turn, six rounds in alternating order (closed loop for CPU per request, then paced at
// the fixed rate for latency), and compared by medians. Printed only.
//   BENCH_AB_A / BENCH_AB_B: a gateway build's entry point, e.g. one built on another commit with
//     `npx tsc -p tsconfig.build.json --outDir /tmp/base` -> /tmp/base/src/main.js (default for both:
//     this tree, built as `npm run bench` builds it)
//   BENCH_AB_A_FLAGS / BENCH_AB_B_FLAGS: node flags of each gateway; BENCH_AB_ROUNDS (default 6);
//   BENCH_AB_A_ENV / BENCH_AB_B_ENV: extra environment of each gateway, `NAME=value` separated by spaces
//     (e.g. GATEWAY_POSTGRES_URL=postgres://... to set the PostgreSQL store beside the embedded one);
//   BENCH_AB_A_DEPLOYMENTS / BENCH_AB_B_DEPLOYMENTS: aria on N like deployments of the mock in that
//     variant's catalog (as BENCH_DEPLOYMENTS does for bench:gateway; default the example's two);
//   BENCH_AB_TARGET=streams: the closed loop sends streamed completions of 20 chunks (CPU per stream);
//   BENCH_IDEMPOTENCY_KEYS=1: every request of both variants carries a new Idempotency-Key;
//     BENCH_AB_A_IDEMPOTENCY_KEYS=1 / BENCH_AB_B_IDEMPOTENCY_KEYS=1: only that variant's (the key's cost on one build);
//   BENCH_AB_CLOSED_S: seconds of each closed-loop round (default 4; longer for changes that move what is
//   promoted, whose peak RSS is printed round by round: docs/benchmarks.md, finding 27)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceProcess } from './lib/child';
import { runLoad, type LoadTarget } from './lib/load';
import { runPaced } from './lib/paced';
import { cpuMicros, memoryMiB } from './lib/proc';
import { SETTINGS } from './settings';
import { writeOverheadConfig } from './gateway-config';
import { chatTargets, type ChatTargets } from './overhead/chat-requests';
import { openBenchContext, startGatewayProcess } from './overhead/overhead';
import { table } from './report/table';

interface Variant {
  name: string;
  gateway: ServiceProcess;
  apiKey: string;
  cpuMicrosPerRequest: number[];
  /** CPU µs per request during the paced run at the fixed rate (less group commit than the closed loop). */
  pacedCpuMicrosPerRequest: number[];
  pacedP50: number[];
  pacedP99: number[];
  peakRssMiB: number[];
}

const log = (line: string) => process.stdout.write(`${line}\n`);
const flagsOf = (name: string) => (process.env[name] ?? '').split(' ').filter(Boolean);
const envOf = (name: string): Record<string, string> =>
  Object.fromEntries(flagsOf(name).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const closedLoopS = Number(process.env.BENCH_AB_CLOSED_S ?? 4);

function keyed(variant: Variant): boolean {
  return process.env.BENCH_IDEMPOTENCY_KEYS === '1' || process.env[`BENCH_AB_${variant.name}_IDEMPOTENCY_KEYS`] === '1';
}

/** What the closed loop sends: completions, or streams of 20 chunks (BENCH_AB_TARGET=streams). */
function closedTargetOf(targets: ChatTargets): LoadTarget {
  return process.env.BENCH_AB_TARGET === 'streams' ? targets.streamOf20 : targets.completion;
}

const targetsOf = (variant: Variant): ChatTargets => chatTargets(variant.gateway.url, variant.apiKey, keyed(variant));

async function measureRound(variant: Variant): Promise<void> {
  const targets = targetsOf(variant);
  const closedTarget = closedTargetOf(targets);
  const before = cpuMicros(variant.gateway.pid);
  const closed = await runLoad(closedTarget, { connections: SETTINGS.connections, durationS: closedLoopS });
  variant.cpuMicrosPerRequest.push((cpuMicros(variant.gateway.pid) - before) / (closed.ok + closed.failed));
  const pacedFrom = cpuMicros(variant.gateway.pid);
  const paced = await runPaced(targets.completion, { ratePerSecond: SETTINGS.fixedRate, connections: SETTINGS.connections, durationS: 5 });
  variant.pacedCpuMicrosPerRequest.push((cpuMicros(variant.gateway.pid) - pacedFrom) / Math.max(1, paced.ok + paced.failed));
  variant.pacedP50.push(paced.latencyMs.p50);
  variant.pacedP99.push(paced.latencyMs.p99);
  variant.peakRssMiB.push(memoryMiB(variant.gateway.pid, 'VmHWM'));
}

async function main(): Promise<void> {
  const ctx = await openBenchContext(`ab-${Date.now()}`, log);
  const { runDir, mock } = ctx;
  const variants: Variant[] = [];
  try {
    for (const name of ['A', 'B']) {
      const variantCtx = { ...ctx, gatewayScript: process.env[`BENCH_AB_${name}`] ?? ctx.gatewayScript };
      const deployments = process.env[`BENCH_AB_${name}_DEPLOYMENTS`];
      const config = writeOverheadConfig(join(runDir, `config-${name}`), deployments === undefined ? undefined : Number(deployments));
      const gateway = await startGatewayProcess(variantCtx, name, join(runDir, `data-${name}`), config.path, flagsOf(`BENCH_AB_${name}_FLAGS`), envOf(`BENCH_AB_${name}_ENV`));
      variants.push({ name, gateway, apiKey: config.apiKey, cpuMicrosPerRequest: [], pacedCpuMicrosPerRequest: [], pacedP50: [], pacedP99: [], peakRssMiB: [] });
    }
    for (const variant of variants) await runLoad(closedTargetOf(targetsOf(variant)), { connections: SETTINGS.connections, durationS: SETTINGS.warmupS });
    const rounds = Number(process.env.BENCH_AB_ROUNDS ?? 6);
    for (let round = 0; round < rounds; round += 1) {
      for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) await measureRound(variant);
    }
    const rows = variants.map((v) => [v.name, median(v.cpuMicrosPerRequest), v.cpuMicrosPerRequest.map((x) => x.toFixed(0)).join(' '), median(v.pacedCpuMicrosPerRequest), median(v.pacedP50), median(v.pacedP99), v.pacedP99.map((x) => x.toFixed(1)).join(' '), v.peakRssMiB.map((x) => x.toFixed(0)).join(' ')]);
    log(table(`A/B over ${rounds} rounds (medians)`, ['gateway', 'CPU µs/req', 'each round', `CPU µs/req at ${SETTINGS.fixedRate}/s`, `${SETTINGS.fixedRate}/s p50 ms`, 'p99 ms', 'each round', 'peak RSS MiB by round'], rows));
  } finally {
    await Promise.all(variants.map((v) => v.gateway.stop()));
    await mock.stop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

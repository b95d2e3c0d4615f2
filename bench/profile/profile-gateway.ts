// When a gateway target is missed: the same closed-loop load against a fresh gateway started with
// `node --cpu-prof`, then the profile written at its clean shutdown summarised over the measured run
// only (main thread; the append worker thread gets its own execArgv, so it is not profiled).
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad, type LoadResult } from '../lib/load';
import { runPaced } from '../lib/paced';
import type { ServiceProcess } from '../lib/child';
import { writeOverheadConfig } from '../gateway-config';
import { chatTargets } from '../overhead/chat-requests';
import { startGatewayProcess, type BenchContext } from '../overhead/overhead';
import { summarizeCpuProfile, type ProfileSummary, type ProfileWindow } from './cpu-profile';

const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/**
 * A fresh gateway (with `nodeFlags`) under the closed-loop load: a warm-up, then `measure`, which runs the
 * measured load through `measuredRun` and reads what it profiles while the gateway is still up.
 * BENCH_PROFILE_PACED=<req/s> measures under that paced rate instead (after the same closed-loop warm-up):
 * CPU per request paced at 500/s is about four times the closed loop's, and this shows where it goes.
 * BENCH_PROFILE_STREAMS=1 profiles streamed completions of 20 chunks instead (figures per stream).
 */
export async function underClosedLoop<T>(
  ctx: BenchContext,
  name: string,
  nodeFlags: string[],
  measure: (gateway: ServiceProcess, measuredRun: () => Promise<Pick<LoadResult, 'ok' | 'failed'>>) => Promise<T>,
): Promise<T> {
  const config = writeOverheadConfig(join(ctx.runDir, `${name}-config`));
  const gateway = await startGatewayProcess(ctx, `gateway (${name})`, join(ctx.runDir, `${name}-data`), config.path, nodeFlags);
  const targets = chatTargets(gateway.url, config.apiKey, process.env.BENCH_IDEMPOTENCY_KEYS === '1');
  const target = process.env.BENCH_PROFILE_STREAMS === '1' ? targets.streamOf20 : targets.completion;
  const load = { connections: ctx.settings.connections };
  try {
    await runLoad(target, { ...load, durationS: ctx.settings.warmupS });
    const pacedRate = Number(process.env.BENCH_PROFILE_PACED ?? 0);
    const measuredRun = pacedRate > 0
      ? async (): Promise<Pick<LoadResult, 'ok' | 'failed'>> => runPaced(target, { ratePerSecond: pacedRate, ...load, durationS: ctx.settings.durationS })
      : () => runLoad(target, { ...load, durationS: ctx.settings.durationS });
    return await measure(gateway, measuredRun);
  } finally {
    await gateway.stop();
  }
}

export async function profileGateway(ctx: BenchContext): Promise<ProfileSummary[]> {
  const profileDir = join(ctx.runDir, 'cpu-profile');
  mkdirSync(profileDir, { recursive: true });
  // The profile is written when the gateway exits, so it is read after underClosedLoop stopped it.
  const window = await underClosedLoop(ctx, 'profile', ['--cpu-prof', `--cpu-prof-dir=${profileDir}`], async (_gateway, measuredRun): Promise<ProfileWindow> => {
    const fromMicros = monotonicMicros();
    await measuredRun();
    return { fromMicros, toMicros: monotonicMicros() };
  });
  return readdirSync(profileDir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => summarizeCpuProfile(join(profileDir, file), window));
}

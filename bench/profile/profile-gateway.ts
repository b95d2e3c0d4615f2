// When a gateway target is missed: the same closed-loop load against a fresh gateway started with
// `node --cpu-prof`, then the profile written at its clean shutdown summarised over the measured run
// only (main thread; the append worker thread gets its own execArgv, so it is not profiled).
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad } from '../lib/load';
import { writeOverheadConfig } from '../gateway-config';
import { chatTargets } from '../overhead/chat-requests';
import { startGatewayProcess, type BenchContext } from '../overhead/overhead';
import { summarizeCpuProfile, type ProfileSummary, type ProfileWindow } from './cpu-profile';

const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

export async function profileGateway(ctx: BenchContext): Promise<ProfileSummary[]> {
  const profileDir = join(ctx.runDir, 'cpu-profile');
  mkdirSync(profileDir, { recursive: true });
  const config = writeOverheadConfig(join(ctx.runDir, 'profile-config'));
  const gateway = await startGatewayProcess(ctx, 'gateway (profiled)', join(ctx.runDir, 'profile-data'), config.path, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
  const target = chatTargets(gateway.url, config.apiKey).completion;
  const load = { connections: ctx.settings.connections };
  let window: ProfileWindow;
  try {
    await runLoad(target, { ...load, durationS: ctx.settings.warmupS });
    const fromMicros = monotonicMicros();
    await runLoad(target, { ...load, durationS: ctx.settings.durationS });
    window = { fromMicros, toMicros: monotonicMicros() };
  } finally {
    await gateway.stop();
  }
  return readdirSync(profileDir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => summarizeCpuProfile(join(profileDir, file), window));
}

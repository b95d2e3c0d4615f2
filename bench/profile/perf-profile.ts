// `perf record` of every thread of a fresh gateway under the closed-loop load, when Linux perf is
// installed and allowed to sample the process: CPU µs per request by thread and by code area
// (perf-samples.ts). Skipped, with the reason, otherwise.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { cpuDuring } from '../lib/proc';
import type { BenchContext } from '../overhead/overhead';
import { underClosedLoop } from './profile-gateway';
import { summarizePerfScript, type ThreadSamples } from './perf-samples';

/** One sample per millisecond a thread spends on a CPU (cpu-clock counts nanoseconds). */
const NANOS_PER_SAMPLE = 1_000_000;

export interface PerfProfile {
  pid: number;
  completed: number;
  threads: ThreadSamples[];
  /** The process's CPU µs per request over the same run from /proc, to check the samples against. */
  procMicrosPerRequest: number;
}

/** Why perf cannot profile here, or null when it can. */
export function perfUnavailableReason(): string | null {
  const probe = spawnSync('perf', ['record', '-q', '-o', '/dev/null', '--', 'true'], { encoding: 'utf8' });
  if (probe.error) return `perf is not installed (${probe.error.message})`;
  return probe.status === 0 ? null : `perf record failed: ${probe.stderr.trim().split('\n')[0]}`;
}

export async function perfProfileGateway(ctx: BenchContext): Promise<PerfProfile> {
  const recording = join(ctx.runDir, 'perf.data');
  return underClosedLoop(ctx, 'perf', ['--perf-basic-prof'], async (gateway, measuredRun) => {
    try {
      const args = ['record', '-q', '-g', '-e', 'cpu-clock', '-c', String(NANOS_PER_SAMPLE), '-p', String(gateway.pid), '-o', recording];
      const perf = spawn('perf', [...args, '--', 'sleep', String(ctx.settings.durationS)], { stdio: 'ignore' });
      const recorded = new Promise<void>((resolve, reject) => perf.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`perf record exited with ${code}`)))));
      const { result: run, cpuMicros: procMicros } = await cpuDuring(gateway.pid, measuredRun);
      await recorded;
      const completed = run.ok + run.failed;
      // Read while the gateway runs: perf resolves its JavaScript frames through /tmp/perf-<pid>.map.
      return { pid: gateway.pid, completed, threads: await readRecording(recording), procMicrosPerRequest: procMicros / completed };
    } finally {
      rmSync(`/tmp/perf-${gateway.pid}.map`, { force: true });
    }
  });
}

async function readRecording(recording: string): Promise<ThreadSamples[]> {
  const script = spawn('perf', ['script', '-i', recording, '-F', 'tid,ip,sym'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: script.stdout, crlfDelay: Infinity });
  const collected: string[] = [];
  for await (const line of lines) collected.push(line);
  return summarizePerfScript(collected);
}

/** CPU µs per request that `samples` stand for. */
export function microsPerRequest(samples: number, completed: number): number {
  return (samples * NANOS_PER_SAMPLE) / 1000 / completed;
}

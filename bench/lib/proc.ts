// Reads a process's CPU time and memory from /proc (Linux), the figures the targets are stated in.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let clockTicks: number | null = null;

/** Clock ticks per second of /proc/<pid>/stat times (`getconf CLK_TCK`, 100 on most kernels). */
export function clockTicksPerSecond(): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return clockTicks;
}

/** User + system CPU time of every thread of `pid` so far, in microseconds. */
export function cpuMicros(pid: number): number {
  return cpuMicrosOf(`/proc/${pid}/stat`);
}

function cpuMicrosOf(statFile: string): number {
  const stat = readFileSync(statFile, 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15 overall.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / clockTicksPerSecond();
}

/** A `Vm*` line of /proc/<pid>/status in MiB (VmHWM: peak resident set, VmRSS: current). */
export function memoryMiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`${field} missing from /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/** CPU time consumed by `pid` while `work` runs, in microseconds. */
export async function cpuDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; cpuMicros: number }> {
  const before = cpuMicros(pid);
  const result = await work();
  return { result, cpuMicros: cpuMicros(pid) - before };
}

/** CPU time per thread of `pid` in microseconds: `main` (tid = pid) and every other thread by tid. */
export function cpuMicrosByThread(pid: number): Map<string, number> {
  const totals = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      totals.set(tid === String(pid) ? 'main' : `thread ${tid}`, cpuMicrosOf(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return totals;
}

export interface CoreTimes {
  /** Jiffies not idle and not waiting for I/O: every process, interrupt and the hypervisor's steal. */
  busy: number;
  total: number;
  /** Jiffies the hypervisor ran something else while this core had work (`steal`, the 8th field). */
  steal: number;
}

/** The `cpuN` lines of a /proc/stat text, by core number. */
export function parseCoreTimes(procStat: string): Map<string, CoreTimes> {
  const cores = new Map<string, CoreTimes>();
  for (const line of procStat.split('\n')) {
    const match = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const fields = match[2].split(/\s+/).map(Number);
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    cores.set(match[1], { busy: total - fields[3] - fields[4], total, steal: fields[7] ?? 0 });
  }
  return cores;
}

const coreTimes = (): Map<string, CoreTimes> => parseCoreTimes(readFileSync('/proc/stat', 'utf8'));

/** Reads `/proc/stat` now; the returned function gives, per core, `figure` of then and the moment it is called. */
function watchCoreTimes(figure: (start: CoreTimes, now: CoreTimes) => number | null): () => Record<string, number> {
  const before = coreTimes();
  return () => {
    const figures: Record<string, number> = {};
    for (const [core, now] of coreTimes()) {
      const start = before.get(core);
      const value = start ? figure(start, now) : null;
      if (value !== null) figures[core] = value;
    }
    return figures;
  };
}

/** Starts measuring how busy each core is (every process and interrupt included); call the result to read it. */
export const watchCores = (): (() => Record<string, number>) =>
  watchCoreTimes((start, now) => (now.total > start.total ? (now.busy - start.busy) / (now.total - start.total) : null));

/**
 * Starts measuring the hypervisor's steal time on each core, in milliseconds; call the result to read it.
 * A latency stall that comes with as much steal on the server's core was the host's, not the code's.
 */
export const watchSteal = (): (() => Record<string, number>) =>
  watchCoreTimes((start, now) => ((now.steal - start.steal) * 1000) / clockTicksPerSecond());

// CPU pinning with taskset (util-linux): the process under test on one core, the load generator and
// the fixed-latency upstream on the other, so they do not steal each other's cycles.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface Pinning {
  enabled: boolean;
  /** Core of the process under test (gateway, bare proxy). */
  serverCpu: string;
  /** Core of this process (load generator) and of the mock upstream. */
  loadCpu: string;
  description: string;
}

function tasksetWorks(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function planPinning(): Pinning {
  const cores = availableParallelism();
  if (cores < 2) return { enabled: false, serverCpu: '', loadCpu: '', description: `not pinned: only ${cores} core available` };
  if (!tasksetWorks()) return { enabled: false, serverCpu: '', loadCpu: '', description: 'not pinned: taskset (util-linux) not found' };
  return {
    enabled: true,
    serverCpu: '0',
    loadCpu: '1',
    description: 'taskset: process under test on CPU 0, load generator and mock upstream on CPU 1; store benchmarks unpinned',
  };
}

/**
 * Pins every thread of this process to the load core (`all: false`) or lets it use every core again
 * (`all: true`, for the store benchmarks, whose append worker thread is meant to run beside the main
 * thread). Threads and children started later inherit the setting unless pinned themselves.
 */
export function pinSelf(pinning: Pinning, { all }: { all: boolean } = { all: false }): void {
  if (!pinning.enabled) return;
  const cpus = all ? `0-${availableParallelism() - 1}` : pinning.loadCpu;
  execFileSync('taskset', ['-a', '-cp', cpus, String(process.pid)], { stdio: 'ignore' });
}

/** The command line that runs `argv` on `cpu` (unchanged when pinning is off). */
export function pinnedCommand(pinning: Pinning, cpu: string, argv: string[]): string[] {
  return pinning.enabled ? ['taskset', '-c', cpu, ...argv] : argv;
}

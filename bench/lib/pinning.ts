// CPU pinning with taskset (util-linux): the process under test on its cores, the load generator and
// the fixed-latency upstream on others, so they do not steal each other's cycles. The defaults fit this
// 2-core machine; BENCH_SERVER_CPUS / BENCH_LOAD_CPUS move them on a larger one (e.g. to give the
// gateway's append worker a core of its own: docs/benchmarks.md, "Why the issue is marked blocked").
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface Pinning {
  enabled: boolean;
  /** `taskset -c` list of the process under test (gateway, bare proxy, Nest relay). */
  serverCpu: string;
  /** `taskset -c` list of this process (load generator) and of the mock upstream. */
  loadCpu: string;
  description: string;
}

export interface PinningRequest {
  cores: number;
  tasksetAvailable: boolean;
  serverCpus: string;
  loadCpus: string;
}

const CPU_LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;

/** The CPUs a `taskset -c` list names, checked against the machine's cores. */
export function cpusOf(name: string, list: string, cores: number): number[] {
  if (!CPU_LIST.test(list)) throw new Error(`${name} must be a taskset CPU list such as "0" or "0-1,3", got "${list}"`);
  const cpus = list.split(',').flatMap((part) => {
    const [first, last = first] = part.split('-').map(Number);
    if (last < first) throw new Error(`${name}: range "${part}" runs backwards`);
    return Array.from({ length: last - first + 1 }, (_, index) => first + index);
  });
  const missing = cpus.find((cpu) => cpu >= cores);
  if (missing !== undefined) throw new Error(`${name}: CPU ${missing} does not exist (this machine has CPUs 0-${cores - 1})`);
  return cpus;
}

export function pinningFor(request: PinningRequest): Pinning {
  const off = (why: string): Pinning => ({ enabled: false, serverCpu: '', loadCpu: '', description: `not pinned: ${why}` });
  if (request.cores < 2) return off(`only ${request.cores} core available`);
  if (!request.tasksetAvailable) return off('taskset (util-linux) not found');
  const server = cpusOf('BENCH_SERVER_CPUS', request.serverCpus, request.cores);
  const shared = cpusOf('BENCH_LOAD_CPUS', request.loadCpus, request.cores).filter((cpu) => server.includes(cpu));
  if (shared.length > 0) throw new Error(`BENCH_SERVER_CPUS and BENCH_LOAD_CPUS share CPU ${shared.join(', ')}: the load would steal the server's cycles`);
  return {
    enabled: true,
    serverCpu: request.serverCpus,
    loadCpu: request.loadCpus,
    description: `taskset: process under test on CPU ${request.serverCpus}, load generator and mock upstream on CPU ${request.loadCpus}; store benchmarks unpinned`,
  };
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
  return pinningFor({
    cores: availableParallelism(),
    tasksetAvailable: tasksetWorks(),
    serverCpus: process.env.BENCH_SERVER_CPUS || '0',
    loadCpus: process.env.BENCH_LOAD_CPUS || '1',
  });
}

/**
 * Pins every thread of this process to the load cores (`all: false`) or lets it use every core again
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

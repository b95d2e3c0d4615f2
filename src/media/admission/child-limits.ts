// Resource limits of every ffmpeg/ffprobe child: address space (RLIMIT_AS) and CPU time (RLIMIT_CPU),
// set by the kernel so a decoder that a hostile file sends astray is killed (SIGKILL on memory
// allocation failure's abort, SIGXCPU/SIGKILL on CPU time) whatever it does. util-linux `prlimit`
// (Debian, present on every util-linux system) sets them and then execs the tool, so the child's pid
// is the tool's own and a kill reaches it; without prlimit a POSIX shell's `ulimit` does the same.
import { existsSync } from 'node:fs';

export interface ChildLimits {
  /** Address space of one child, bytes (RLIMIT_AS). */
  memoryBytes: number;
  /** CPU time of one child, whole seconds (RLIMIT_CPU). */
  cpuSeconds: number;
}

export interface LimitedCommand {
  command: string;
  args: string[];
}

export const PRLIMIT_PATHS = ['/usr/bin/prlimit', '/bin/prlimit'];

let prlimitPath: string | null | undefined;

/** The prlimit binary, looked up once; null when the system has none. */
export function findPrlimit(candidates: readonly string[] = PRLIMIT_PATHS): string | null {
  if (candidates === PRLIMIT_PATHS && prlimitPath !== undefined) return prlimitPath;
  const found = candidates.find((path) => existsSync(path)) ?? null;
  if (candidates === PRLIMIT_PATHS) prlimitPath = found;
  return found;
}

/** The command line that runs `binary args` under `limits` (pure: `prlimit` is where prlimit is, or null). */
export function limitedCommand(binary: string, args: readonly string[], limits: ChildLimits, prlimit: string | null): LimitedCommand {
  const cpu = Math.max(1, Math.ceil(limits.cpuSeconds));
  if (prlimit) return { command: prlimit, args: [`--as=${limits.memoryBytes}`, `--cpu=${cpu}`, '--', binary, ...args] };
  const kib = Math.max(1, Math.floor(limits.memoryBytes / 1024));
  // `$0` is the binary and `$@` its arguments: nothing from the request is ever parsed by the shell.
  return { command: '/bin/sh', args: ['-c', `ulimit -v ${kib} && ulimit -t ${cpu} && exec "$0" "$@"`, binary, ...args] };
}

// The gateway and its children (ffmpeg, ffprobe, prlimit) as one figure: the memory a pod's limit
// counts. Children are found by walking every /proc/<pid>/stat's parent pid; each one's resident set
// is its VmRSS. A child that ends between the listing and the read is simply left out.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcStat {
  pid: number;
  ppid: number;
  /** The command name (comm), at most 15 characters. */
  name: string;
}

/** The pid, command name and parent pid of a /proc/<pid>/stat line (the name may hold spaces and parentheses). */
export function parseProcStat(text: string): ProcStat {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  const fields = text.slice(close + 2).split(' ');
  return { pid: Number(text.slice(0, open).trim()), name: text.slice(open + 1, close), ppid: Number(fields[1]) };
}

/** Every descendant of `root` (children, their children...), root excluded. */
export function descendantsOf(root: number, processes: readonly ProcStat[]): ProcStat[] {
  const byParent = new Map<number, ProcStat[]>();
  for (const proc of processes) byParent.set(proc.ppid, [...(byParent.get(proc.ppid) ?? []), proc]);
  const found: ProcStat[] = [];
  const pending = [root];
  for (let parent = pending.pop(); parent !== undefined; parent = pending.pop()) {
    for (const child of byParent.get(parent) ?? []) {
      if (child.pid === root) continue;
      found.push(child);
      pending.push(child.pid);
    }
  }
  return found;
}

/**
 * The descendants whose memory is their own. A child still named as `root` is forked but not yet
 * exec'd (ffmpeg replaces it microseconds later): its VmRSS is the root's pages, shared copy-on-write,
 * and summing it would count the gateway twice.
 */
export function separateChildren(root: ProcStat, processes: readonly ProcStat[]): ProcStat[] {
  return descendantsOf(root.pid, processes).filter((child) => child.name !== root.name);
}

/** A `<field>: N kB` line of a /proc/<pid>/status text (VmRSS, RssAnon, RssFile...) in KiB; NaN when absent. */
export function statusKiB(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : NaN;
}

/** VmRSS in KiB; 0 for a process without one (a zombie). */
export const vmRssKiB = (status: string): number => statusKiB(status, 'VmRSS') || 0;

const readOrNull = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

function allProcesses(): ProcStat[] {
  const processes: ProcStat[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readOrNull(`/proc/${entry}/stat`);
    if (stat) processes.push(parseProcStat(stat));
  }
  return processes;
}

export interface TreeMemory {
  /** The root's VmRSS, MiB. */
  rootMiB: number;
  /** The children's VmRSS summed, MiB. */
  childrenMiB: number;
  children: number;
  /** Children by command name (ffmpeg, ffprobe, prlimit...). */
  childNames: string[];
}

export function treeMemory(root: number): TreeMemory {
  const rootStat = readOrNull(`/proc/${root}/stat`);
  const rootStatus = readOrNull(`/proc/${root}/status`);
  if (rootStat === null || rootStatus === null) throw new Error(`process ${root} is gone`);
  let childrenKiB = 0;
  const childNames: string[] = [];
  for (const child of separateChildren(parseProcStat(rootStat), allProcesses())) {
    const status = readOrNull(`/proc/${child.pid}/status`);
    if (status === null) continue;
    childrenKiB += vmRssKiB(status);
    childNames.push(child.name);
  }
  return { rootMiB: vmRssKiB(rootStatus) / 1024, childrenMiB: childrenKiB / 1024, children: childNames.length, childNames };
}

/** CPU µs of `pid` itself (every thread) and of its children it has waited for (cutime + cstime). */
export function cpuWithReapedChildren(statText: string, ticksPerSecond: number): { selfMicros: number; childrenMicros: number } {
  const fields = statText.slice(statText.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime are fields 14-17 of the line, 11-14 after the name.
  const micros = (index: number) => (Number(fields[index]) * 1e6) / ticksPerSecond;
  return { selfMicros: micros(11) + micros(12), childrenMicros: micros(13) + micros(14) };
}

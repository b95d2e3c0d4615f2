// The resident memory of a child process, from /proc (Linux): now, and its peak so far (VmHWM).
import { readFileSync } from 'node:fs';

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Math.round(Number(match[1]) / 1024);
}

export const rssMiB = (pid: number) => statusField(pid, 'VmRSS');
export const peakRssMiB = (pid: number) => statusField(pid, 'VmHWM');

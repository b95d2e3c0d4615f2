// The memory of a child process, from /proc (Linux): resident now and its peak so far (VmHWM), and
// the peak of its address space (VmPeak), which shows allocations never touched.
import { readFileSync } from 'node:fs';

function statusField(pid: number, field: 'VmRSS' | 'VmHWM' | 'VmPeak'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Math.round(Number(match[1]) / 1024);
}

export const rssMiB = (pid: number) => statusField(pid, 'VmRSS');
export const peakRssMiB = (pid: number) => statusField(pid, 'VmHWM');
export const peakVirtualMiB = (pid: number) => statusField(pid, 'VmPeak');

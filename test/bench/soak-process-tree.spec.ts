import { cpuWithReapedChildren, descendantsOf, parseProcStat, separateChildren, statusKiB, vmRssKiB } from '../../bench/soak/process-tree';
import { runtimeFigures, sampleValue } from '../../bench/soak/gateway-metrics';

// /proc/<pid>/stat: pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
const statLine = (pid: number, comm: string, ppid: number, times = '0 0 0 0') => `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194560 100 0 0 0 ${times} 20 0 11 0 500 1000 200`;

describe('parseProcStat', () => {
  it('reads pid, name and parent pid', () => {
    expect(parseProcStat(statLine(4321, 'ffmpeg', 4000))).toEqual({ pid: 4321, name: 'ffmpeg', ppid: 4000 });
  });

  it('keeps a command name holding spaces and parentheses whole', () => {
    expect(parseProcStat(statLine(77, 'a (b) c', 1))).toEqual({ pid: 77, name: 'a (b) c', ppid: 1 });
  });

  it('refuses a line that is not a stat line', () => {
    expect(() => parseProcStat('nonsense')).toThrow('not a /proc/<pid>/stat line');
  });
});

describe('descendantsOf', () => {
  const procs = [
    { pid: 1, ppid: 0, name: 'init' },
    { pid: 100, ppid: 1, name: 'node' },
    { pid: 101, ppid: 100, name: 'ffmpeg' },
    { pid: 102, ppid: 100, name: 'prlimit' },
    { pid: 103, ppid: 102, name: 'ffprobe' },
    { pid: 200, ppid: 1, name: 'other' },
    { pid: 201, ppid: 200, name: 'ffmpeg' },
  ];

  it('finds children and grandchildren, and nothing of another tree', () => {
    expect(descendantsOf(100, procs).map((p) => p.pid).sort()).toEqual([101, 102, 103]);
  });

  it('finds none for a process without children or one that is gone', () => {
    expect(descendantsOf(101, procs)).toEqual([]);
    expect(descendantsOf(999, procs)).toEqual([]);
  });
});

describe('separateChildren', () => {
  it('leaves out a child still named as the gateway (forked, not yet exec\'d: the gateway\'s own pages)', () => {
    const gateway = { pid: 100, ppid: 1, name: 'MainThread' };
    const procs = [gateway, { pid: 101, ppid: 100, name: 'MainThread' }, { pid: 102, ppid: 100, name: 'ffmpeg' }];
    expect(separateChildren(gateway, procs).map((p) => p.pid)).toEqual([102]);
  });
});

describe('vmRssKiB', () => {
  it('reads VmRSS, not VmHWM', () => {
    expect(vmRssKiB('Name:\tnode\nVmHWM:\t  400000 kB\nVmRSS:\t  251904 kB\n')).toBe(251904);
  });

  it('reads the anonymous and file-backed parts, and NaN for a field that is absent', () => {
    const status = 'VmRSS:\t  300 kB\nRssAnon:\t  200 kB\nRssFile:\t  100 kB\n';
    expect([statusKiB(status, 'RssAnon'), statusKiB(status, 'RssFile'), statusKiB(status, 'RssShmem')]).toEqual([200, 100, NaN]);
  });

  it('counts a zombie (no VmRSS line) as nothing', () => {
    expect(vmRssKiB('Name:\tffmpeg\nState:\tZ (zombie)\n')).toBe(0);
  });
});

describe('cpuWithReapedChildren', () => {
  it('splits the process\'s own utime + stime from its waited-for children\'s cutime + cstime', () => {
    expect(cpuWithReapedChildren(statLine(100, 'node', 1, '250 50 30 10'), 100)).toEqual({ selfMicros: 3_000_000, childrenMicros: 400_000 });
  });
});

describe('runtimeFigures', () => {
  const exposition = [
    '# HELP nodejs_eventloop_lag_p99_seconds The 99th percentile of the recorded event loop delays.',
    '# TYPE nodejs_eventloop_lag_p99_seconds gauge',
    'nodejs_eventloop_lag_p99_seconds 0.012345',
    'nodejs_eventloop_lag_p99_seconds_extra 9',
    'nodejs_eventloop_lag_max_seconds 0.5',
    'nodejs_heap_size_used_bytes 104857600',
    'nodejs_heap_size_total_bytes 209715200',
    'nodejs_external_memory_bytes{kind="x"} 10485760',
    'process_resident_memory_bytes 314572800',
  ].join('\n');

  it('reads the lag in ms and the memory in MiB, labelled samples included', () => {
    expect(runtimeFigures(exposition)).toEqual({ lagP99Ms: 12.345, lagMaxMs: 500, heapUsedMiB: 100, heapTotalMiB: 200, externalMiB: 10, residentMiB: 300 });
  });

  it('gives NaN for a sample the exposition lacks, and does not match a longer name', () => {
    expect(sampleValue(exposition, 'nodejs_eventloop_lag_p90_seconds')).toBeNaN();
    expect(sampleValue('nodejs_eventloop_lag_p99_seconds_extra 9', 'nodejs_eventloop_lag_p99_seconds')).toBeNaN();
  });
});

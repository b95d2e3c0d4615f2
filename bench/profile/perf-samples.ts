// Summarises `perf script -F tid,ip,sym` output of a node process started with --perf-basic-prof: CPU
// samples per thread, each charged to the code area of its nearest JavaScript frame (a package under
// node_modules, a src/ folder, a Node module), so native work (JSON, SQLite, syscalls) counts for the JS
// that asked for it. Unlike V8's --cpu-prof, which samples on a timer and charges a thread's time off the
// CPU to whatever it was running when it lost the core, perf samples only threads that are on the CPU,
// and it sees every thread: the append worker, V8's GC helpers (docs/benchmarks.md, finding 35).
import { packageOrSourceArea } from './cpu-profile';

export interface ThreadSamples {
  tid: number;
  samples: number;
  /** Samples by area, largest first. */
  areas: [string, number][];
}

const JS_FRAME = /JS:[*~^]?(\S*) (\S+):\d+:\d+/;

/** The area of one frame's symbol, or null when it is not a JavaScript frame with a known origin. */
export function areaOfSymbol(symbol: string): string | null {
  const frame = JS_FRAME.exec(symbol);
  if (!frame) return null;
  const url = frame[2];
  if (url.startsWith('node:')) return url.startsWith('node:internal/') ? `node:internal/${url.split('/')[1]}` : url;
  return packageOrSourceArea(url);
}

/** Native-only stacks: garbage collection, or the rest (libuv, syscalls outside JS, thread start-up). */
function nativeArea(frames: string[]): string {
  return frames.some((frame) => /Scavenge|MarkCompact|Heap::|Sweeper|ConcurrentMarking/.test(frame)) ? '(GC)' : '(native)';
}

export function summarizePerfScript(lines: Iterable<string>): ThreadSamples[] {
  const byThread = new Map<number, Map<string, number>>();
  let tid: number | null = null;
  let area: string | null = null;
  let frames: string[] = [];
  const finish = (): void => {
    if (tid === null) return;
    const areas = byThread.get(tid) ?? new Map<string, number>();
    const charged = area ?? nativeArea(frames);
    areas.set(charged, (areas.get(charged) ?? 0) + 1);
    byThread.set(tid, areas);
    tid = null;
  };
  for (const line of lines) {
    if (line.trim() === '') {
      finish();
    } else if (!line.startsWith('\t')) {
      finish();
      tid = Number(line.trim().split(/\s+/)[0]);
      area = null;
      frames = [];
    } else if (area === null) {
      frames.push(line);
      area = areaOfSymbol(line);
    }
  }
  finish();
  return [...byThread].map(([thread, areas]) => ({
    tid: thread,
    samples: [...areas.values()].reduce((sum, n) => sum + n, 0),
    areas: [...areas].sort((a, b) => b[1] - a[1]),
  })).sort((a, b) => b.samples - a.samples);
}

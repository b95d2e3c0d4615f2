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
  /** Samples by the JavaScript function charged (nearest JS frame), largest first. */
  functions: [string, number][];
  /** Samples by the leaf frame (where the CPU was: a native symbol or a JS function), largest first. */
  leaves: [string, number][];
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

/** A frame's symbol without the address perf prints before it, and a JS frame's path shortened to its area. */
function symbolOf(frame: string): string {
  const symbol = frame.trim().replace(/^[0-9a-f]+\s+/, '');
  const js = JS_FRAME.exec(symbol);
  return js ? `${js[1] || '(anonymous)'} ${js[2].replace(/^.*\/(node_modules|src)\//, '$1/')}` : symbol;
}

interface Tallies {
  areas: Map<string, number>;
  functions: Map<string, number>;
  leaves: Map<string, number>;
}

const add = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);
const largestFirst = (map: Map<string, number>): [string, number][] => [...map].sort((a, b) => b[1] - a[1]);

export function summarizePerfScript(lines: Iterable<string>): ThreadSamples[] {
  const byThread = new Map<number, Tallies>();
  let tid: number | null = null;
  let area: string | null = null;
  let charged: string | null = null;
  let frames: string[] = [];
  const finish = (): void => {
    if (tid === null) return;
    const tallies = byThread.get(tid) ?? { areas: new Map(), functions: new Map(), leaves: new Map() };
    add(tallies.areas, area ?? nativeArea(frames));
    add(tallies.functions, charged ?? nativeArea(frames));
    if (frames.length > 0) add(tallies.leaves, symbolOf(frames[0]));
    byThread.set(tid, tallies);
    tid = null;
  };
  for (const line of lines) {
    if (line.trim() === '') {
      finish();
    } else if (!line.startsWith('\t')) {
      finish();
      tid = Number(line.trim().split(/\s+/)[0]);
      area = null;
      charged = null;
      frames = [];
    } else if (area === null) {
      frames.push(line);
      area = areaOfSymbol(line);
      if (area !== null) charged = symbolOf(line);
    }
  }
  finish();
  return [...byThread].map(([thread, { areas, functions, leaves }]) => ({
    tid: thread,
    samples: [...areas.values()].reduce((sum, n) => sum + n, 0),
    areas: largestFirst(areas),
    functions: largestFirst(functions),
    leaves: largestFirst(leaves),
  })).sort((a, b) => b.samples - a.samples);
}

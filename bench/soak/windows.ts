// The soak's measurements in fixed windows (5 s by default). Memory is sampled often (every 250 ms):
// an ffmpeg child lives for tens of milliseconds, so a sample per window would miss most of them;
// each window keeps the largest sample. At each window's end the gateway's /metrics is scraped (its
// event-loop lag p99 over that window, heap and external memory) and the CPU of the gateway and of
// its reaped children since the previous window is read from /proc/<pid>/stat.
import { readFileSync } from 'node:fs';
import { clockTicksPerSecond } from '../lib/proc';
import { cpuWithReapedChildren, statusKiB, treeMemory } from './process-tree';
import { scrapeRuntimeFigures, type GatewayRuntimeFigures } from './gateway-metrics';
import type { SoakAnswer } from './mixed-load';

export interface SoakWindow {
  endS: number;
  answers: number;
  non2xx: number;
  /** Largest sample of gateway + children resident memory, MiB. */
  treeMiB: number;
  gatewayMiB: number;
  childrenMiB: number;
  children: number;
  runtime: GatewayRuntimeFigures | null;
  /** The gateway's resident memory at the window's end by kind: anonymous (heaps, malloc) and file-backed (mapped files, code). */
  gatewayAnonMiB: number;
  gatewayFileMiB: number;
  /** CPU of the gateway (every thread) and of its finished children, as a share of one core. */
  gatewayCpu: number;
  childrenCpu: number;
}

const SAMPLE_MS = 250;

export class SoakWindows {
  readonly windows: SoakWindow[] = [];
  private current = blankWindow();
  private readonly startedAt = performance.now();
  private lastCpu: { selfMicros: number; childrenMicros: number };
  private lastCpuAt = performance.now();
  private timer: NodeJS.Timeout | null = null;
  private closing: Promise<void> = Promise.resolve();
  private nextCloseS: number;

  constructor(private readonly gateway: { pid: number; url: string }, private readonly windowS: number, private readonly onWindow: (window: SoakWindow) => void) {
    this.lastCpu = this.cpu();
    this.nextCloseS = windowS;
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), SAMPLE_MS);
  }

  count(answer: SoakAnswer): void {
    this.current.answers++;
    if (typeof answer.status !== 'number' || answer.status >= 300) this.current.non2xx++;
  }

  /** Closes the last, partial window. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.closing;
    this.sample();
    await this.close();
  }

  private tick(): void {
    this.sample();
    const elapsedS = (performance.now() - this.startedAt) / 1000;
    if (elapsedS < this.nextCloseS) return;
    this.nextCloseS += this.windowS;
    this.closing = this.closing.then(() => this.close());
  }

  private sample(): void {
    const memory = treeMemory(this.gateway.pid);
    const w = this.current;
    w.treeMiB = Math.max(w.treeMiB, memory.rootMiB + memory.childrenMiB);
    w.gatewayMiB = Math.max(w.gatewayMiB, memory.rootMiB);
    w.childrenMiB = Math.max(w.childrenMiB, memory.childrenMiB);
    w.children = Math.max(w.children, memory.children);
  }

  private async close(): Promise<void> {
    const window = this.current;
    this.current = blankWindow();
    window.endS = (performance.now() - this.startedAt) / 1000;
    window.runtime = await scrapeRuntimeFigures(this.gateway.url).catch(() => null);
    const status = readFileSync(`/proc/${this.gateway.pid}/status`, 'utf8');
    [window.gatewayAnonMiB, window.gatewayFileMiB] = [statusKiB(status, 'RssAnon') / 1024, statusKiB(status, 'RssFile') / 1024];
    const cpu = this.cpu();
    const wallMicros = (performance.now() - this.lastCpuAt) * 1000;
    window.gatewayCpu = (cpu.selfMicros - this.lastCpu.selfMicros) / wallMicros;
    window.childrenCpu = (cpu.childrenMicros - this.lastCpu.childrenMicros) / wallMicros;
    [this.lastCpu, this.lastCpuAt] = [cpu, performance.now()];
    this.windows.push(window);
    this.onWindow(window);
  }

  private cpu() {
    return cpuWithReapedChildren(readFileSync(`/proc/${this.gateway.pid}/stat`, 'utf8'), clockTicksPerSecond());
  }
}

function blankWindow(): SoakWindow {
  return { endS: 0, answers: 0, non2xx: 0, treeMiB: 0, gatewayMiB: 0, childrenMiB: 0, children: 0, runtime: null, gatewayAnonMiB: 0, gatewayFileMiB: 0, gatewayCpu: 0, childrenCpu: 0 };
}

/** One printed row per window. */
export function windowRow(w: SoakWindow): (string | number)[] {
  const r = w.runtime;
  const or = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '-' : value);
  return [w.endS, w.answers, w.non2xx, w.treeMiB, w.gatewayMiB, w.gatewayAnonMiB, w.gatewayFileMiB, w.childrenMiB, w.children, or(r?.heapUsedMiB), or(r?.heapTotalMiB), or(r?.externalMiB), or(r?.lagP99Ms), or(r?.lagMaxMs), w.gatewayCpu * 100, w.childrenCpu * 100];
}

export const WINDOW_COLUMNS = ['end s', 'answers', 'non-2xx', 'tree RSS MiB', 'gateway RSS', 'anon', 'file', 'children RSS', 'children', 'heap used', 'heap total', 'external', 'lag p99 ms', 'lag max ms', 'gateway CPU %', 'children CPU %'];

// What issue 37's media attacks need: a decompression-bomb PNG made in memory, the gateway's
// ffmpeg/ffprobe children read from the process table (/proc, Linux), and a sampler of the peak
// resident memory of the gateway (this process: the test gateway runs in it) and of its children.
import { readdirSync, readFileSync } from 'node:fs';
import { createDeflate } from 'node:zlib';

/** A grayscale PNG of `width` x `height` zero pixels: IHDR, one IDAT of deflated zero rows, IEND. */
export async function pixelBombPng(width = 16000, height = 16000): Promise<Buffer> {
  const row = Buffer.alloc(width + 1); // filter byte 0 and `width` zero samples
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  for (let y = 0; y < height; y++) if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end();
  await done;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), pngChunk('IHDR', ihdr), pngChunk('IDAT', Buffer.concat(chunks)), pngChunk('IEND', Buffer.alloc(0))]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

export interface MediaChild {
  pid: number;
  name: string;
  peakRssMiB: number;
}

const MEDIA_TOOLS = new Set(['ffmpeg', 'ffprobe', 'prlimit']);

/** This process's running ffmpeg/ffprobe children (prlimit execs the tool, so its name is the tool's). */
export function mediaChildren(): MediaChild[] {
  const children: MediaChild[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid || !MEDIA_TOOLS.has(name)) continue;
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (state === 'Z') continue; // exited, not yet reaped
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'));
      children.push({ pid: Number(entry), name, peakRssMiB: hwm ? Math.round(Number(hwm[1]) / 1024) : 0 });
    } catch {
      // The process ended while we read it.
    }
  }
  return children;
}

/** Polls `condition` (every 20 ms) until it returns something truthy; fails after `timeoutMs`. */
export async function waitUntil<T>(what: string, condition: () => T | undefined | null | false, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Samples this process's RSS (the test gateway, jest and the client: peak and growth) and its media children's peak RSS until stopped. */
export function memorySampler(): { stop(): { gatewayPeakMiB: number; gatewayGrowthMiB: number; childPeakMiB: number; children: number } } {
  const startRss = process.memoryUsage().rss;
  let gatewayPeak = startRss;
  let childPeak = 0;
  const seen = new Set<number>();
  const sample = (): void => {
    gatewayPeak = Math.max(gatewayPeak, process.memoryUsage().rss);
    for (const child of mediaChildren()) {
      seen.add(child.pid);
      childPeak = Math.max(childPeak, child.peakRssMiB);
    }
  };
  const timer = setInterval(sample, 10);
  timer.unref(); // a failed test that never stops it must not keep jest alive
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
      return { gatewayPeakMiB: mib(gatewayPeak), gatewayGrowthMiB: mib(gatewayPeak - startRss), childPeakMiB: childPeak, children: seen.size };
    },
  };
}

/** One counter's value from the exposition text (0 when the series does not exist). */
export function counterValue(exposition: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`).join(',');
  const line = exposition.split('\n').find((candidate) => candidate.startsWith(`${name}{${wanted}}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

// Every ffmpeg/ffprobe child runs under the kernel's limits and dies with its request: a CPU-time
// limit and an address-space limit that the tool cannot lift, and the request's signal.
import { ffmpegPath } from '../media-binaries';
import { MediaWork } from '../media-work';
import { runProcess } from '../run-process';
import { binaryFrom } from '../media-binaries';
import { MediaSlots } from './media-slots';
import { spawnSync } from 'node:child_process';
import { limitedCommand } from './child-limits';
import { DEFAULT_MEDIA_ENV } from './media-env';
import { readImage, verifyImageDecodes } from '../image-probe';
import { pixelBombPng } from '../../../test/support/media-attacks';

const busyForever = ['-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=1000', '-c:v', 'mpeg4', '-f', 'null', '-'];

function work(overrides: Partial<MediaWork> = {}): MediaWork {
  return { organizationId: 'org-a', slots: new MediaSlots(DEFAULT_MEDIA_ENV.slots), childLimits: DEFAULT_MEDIA_ENV.childLimits, maxPixels: DEFAULT_MEDIA_ENV.maxPixels, observer: null, ...overrides };
}

describe('media child limits', () => {
  it('kills a child past its CPU time (RLIMIT_CPU: SIGXCPU, or SIGKILL at the hard limit)', async () => {
    const started = performance.now();
    const run = await runProcess(ffmpegPath(), busyForever, { timeoutMs: 120_000, work: work({ childLimits: { ...DEFAULT_MEDIA_ENV.childLimits, cpuSeconds: 1 } }) });
    expect(['SIGXCPU', 'SIGKILL']).toContain(run.signal);
    console.log(`CPU limit 1 s: ffmpeg ended by ${run.signal} after ${Math.round(performance.now() - started)} ms`);
  });

  it('refuses memory past the address-space limit (RLIMIT_AS): the decode fails instead of growing', async () => {
    const png = await pixelBombPng(6000, 6000); // 36 MB of pixels once decoded, under the pixel cap
    const probe = readImage(png);
    const tight = { memoryBytes: 64 * 1024 * 1024, cpuSeconds: 60 };
    await expect(verifyImageDecodes(png, probe, { work: work({ childLimits: tight }) })).rejects.toMatchObject({ status: 400, code: 'undecodable_media' });
    await expect(verifyImageDecodes(png, probe, { work: work() })).resolves.toBeUndefined();
  });

  it('kills a child when the request signal fires, and rejects with 499', async () => {
    const client = new AbortController();
    const run = runProcess(ffmpegPath(), busyForever, { timeoutMs: 120_000, work: work({ signal: client.signal }) });
    client.abort();
    await expect(run).rejects.toMatchObject({ status: 499, code: 'client_closed_request' });
  });

  it('holds a slot while the child runs and gives it back, counting the seconds for the organization', async () => {
    const slots = new MediaSlots({ global: 1, perOrganization: 1, queueLength: 0, waitMs: 0 });
    const seconds: number[] = [];
    const observer = { mediaProcess: (_org: string, s: number) => seconds.push(s), mediaBusy: () => undefined };
    const client = new AbortController();
    const running = runProcess(ffmpegPath(), busyForever, { timeoutMs: 120_000, work: work({ slots, observer, signal: client.signal }) });
    expect(slots.runningCount('org-a')).toBe(1);
    await expect(runProcess(ffmpegPath(), ['-version'], { timeoutMs: 10_000, work: work({ slots }) })).rejects.toMatchObject({ status: 503, code: 'media_busy' });
    client.abort();
    await running.catch(() => undefined);
    expect(slots.runningCount()).toBe(0);
    expect(seconds).toHaveLength(1);
  });
});

describe('the shell fallback when the system has no prlimit', () => {
  it('applies the CPU limit with ulimit and execs the tool', () => {
    const { command, args } = limitedCommand(ffmpegPath(), busyForever, { memoryBytes: DEFAULT_MEDIA_ENV.childLimits.memoryBytes, cpuSeconds: 1 }, null);
    const run = spawnSync(command, args, { timeout: 60_000 });
    expect(['SIGXCPU', 'SIGKILL']).toContain(run.signal);
  });
});

describe('operator binaries', () => {
  it('uses GATEWAY_FFMPEG_PATH when set, the bundled build otherwise, and refuses a path that is no executable', () => {
    expect(binaryFrom({ GATEWAY_FFMPEG_PATH: process.execPath }, 'GATEWAY_FFMPEG_PATH', () => '/bundled')).toBe(process.execPath);
    expect(() => binaryFrom({ GATEWAY_FFMPEG_PATH: '/nonexistent/ffmpeg' }, 'GATEWAY_FFMPEG_PATH', () => '/bundled')).toThrow('GATEWAY_FFMPEG_PATH=/nonexistent/ffmpeg is not an executable file');
    expect(binaryFrom({}, 'GATEWAY_FFMPEG_PATH', () => ffmpegPath())).toBe(ffmpegPath());
  });
});

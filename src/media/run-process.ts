// Runs ffmpeg/ffprobe without a shell: bytes in on stdin, output from stdout. Every child runs
// under kernel limits (memory, CPU time: admission/child-limits.ts) and a wall-clock timeout; with
// a request's MediaWork it also waits for a slot (global and per-organization caps), is killed when
// the request's signal fires (client gone, a sibling part failed), and its seconds are counted.
import { spawn } from 'node:child_process';
import { ApiError } from '../common/api-error';
import { endStepWhenSettled } from '../observability/tracing/step-span';
import { findPrlimit, limitedCommand } from './admission/child-limits';
import { MediaAbortedError, MediaBusyError, ReleaseSlot } from './admission/media-slots';
import { DEFAULT_MEDIA_ENV } from './admission/media-env';
import type { MediaWork } from './media-work';

export interface RunOptions {
  timeoutMs: number;
  stdin?: Buffer;
  /** false counts stdout bytes without keeping them (decoding long clips just to measure them). */
  keepStdout?: boolean;
  work?: MediaWork;
}

export interface RunResult {
  exitCode: number | null;
  /** The signal that ended the child, e.g. SIGXCPU (CPU limit) or SIGKILL. */
  signal?: NodeJS.Signals | null;
  stdout: Buffer;
  stdoutBytes: number;
  stderr: string;
}

const MAX_STDERR_CHARS = 16 * 1024;

export class MediaTimeoutError extends ApiError {
  constructor(binary: string, timeoutMs: number) {
    super(500, 'media_processing_timeout', `Media processing (${binary}) did not finish within ${timeoutMs} ms`, 'server_error');
  }
}

export async function runProcess(binary: string, args: string[], options: RunOptions): Promise<RunResult> {
  const { work } = options;
  let release: ReleaseSlot | undefined;
  if (work) release = await acquireSlot(work);
  if (work?.signal?.aborted) {
    release?.();
    throw new MediaAbortedError();
  }
  const started = performance.now();
  try {
    const step = work?.spans?.(binary.split('/').pop() ?? binary);
    const run = spawnLimited(binary, args, options);
    return await (step ? endStepWhenSettled(step, run, (result) => (result.exitCode === 0 ? undefined : `exit ${result.exitCode ?? result.signal}`)) : run);
  } finally {
    release?.();
    if (work) work.observer?.mediaProcess(work.organizationId, (performance.now() - started) / 1000);
  }
}

async function acquireSlot(work: MediaWork): Promise<ReleaseSlot> {
  try {
    return await work.slots.acquire(work.organizationId, work.signal);
  } catch (error) {
    if (error instanceof MediaBusyError) work.observer?.mediaBusy(work.organizationId);
    throw error;
  }
}

function spawnLimited(binary: string, args: string[], options: RunOptions): Promise<RunResult> {
  const name = binary.split('/').pop() ?? binary;
  const limited = limitedCommand(binary, args, options.work?.childLimits ?? DEFAULT_MEDIA_ENV.childLimits, findPrlimit());
  const signal = options.work?.signal;
  return new Promise<RunResult>((resolve, reject) => {
    if (signal?.aborted) return reject(new MediaAbortedError());
    const child = spawn(limited.command, limited.args, { stdio: ['pipe', 'pipe', 'pipe'], shell: false });
    const chunks: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    const stop = (error: Error): void => {
      child.kill('SIGKILL');
      reject(error);
    };
    const timer = setTimeout(() => stop(new MediaTimeoutError(name, options.timeoutMs)), options.timeoutMs);
    const onAbort = (): void => stop(new MediaAbortedError());
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (options.keepStdout !== false) chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      settle();
      reject(error);
    });
    child.on('close', (exitCode, exitSignal) => {
      settle();
      resolve({ exitCode, signal: exitSignal, stdout: Buffer.concat(chunks), stdoutBytes, stderr: stderr.trim() });
    });
    // The tool may stop reading early (it saw enough, or gave up); that EPIPE is not our failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin);
  });
}

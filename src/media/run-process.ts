// Runs ffmpeg/ffprobe without a shell: bytes in on stdin, output from stdout, a hard timeout that
// kills the process so a pathological file cannot hold a request forever.
import { spawn } from 'node:child_process';
import { ApiError } from '../common/api-error';
import { endStepWhenSettled, tracing } from '../observability/tracing/tracing';

export interface RunOptions {
  timeoutMs: number;
  stdin?: Buffer;
  /** false counts stdout bytes without keeping them (decoding long clips just to measure them). */
  keepStdout?: boolean;
}

export interface RunResult {
  exitCode: number | null;
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

export function runProcess(binary: string, args: string[], options: RunOptions): Promise<RunResult> {
  const step = tracing()?.media(binary.split('/').pop() ?? binary);
  const run = new Promise<RunResult>((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'], shell: false });
    const chunks: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new MediaTimeoutError(binary.split('/').pop() ?? binary, options.timeoutMs));
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (options.keepStdout !== false) chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout: Buffer.concat(chunks), stdoutBytes, stderr: stderr.trim() });
    });
    // The tool may stop reading early (it saw enough, or gave up); that EPIPE is not our failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin);
  });
  return step ? endStepWhenSettled(step, run, (result) => (result.exitCode === 0 ? undefined : `exit ${result.exitCode}`)) : run;
}

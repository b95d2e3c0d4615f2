// Runs the gateway as a real child process (`src/main.ts`), for tests that kill it (SIGKILL) or run
// several replicas against one data directory.
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { collectOutput, listeningUrl } from './listening-url';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Sends the signal and resolves with how the process ended. */
  kill(signal?: NodeJS.Signals): Promise<ProcessExit>;
}

const ROOT = join(__dirname, '..', '..');

/** A GATEWAY_CURSOR_SECRET replicas share: start-up refuses fewer than 32 characters (src/config/startup-secrets.ts). */
export const SHARED_CURSOR_KEY = '5e0c1f7a9b3d48e2a6c4f8b1d7e9a3c5';

/** `entry`: a compiled main.js to run instead of src/main.ts under ts-node (see transpiled-gateway.ts). */
export async function startGatewayProcess(env: Record<string, string>, timeoutMs = 60_000, entry?: string): Promise<GatewayProcess> {
  const args = entry ? [entry] : ['-r', 'ts-node/register/transpile-only', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collected = collectOutput(child);
  const output = collected.text;
  const url = await listeningUrl(child, collected, 'gateway', timeoutMs).catch((error: unknown) => {
    // One that did not start in time must not outlive the test (Jest would never exit).
    child.kill('SIGKILL');
    throw error;
  });
  return {
    url,
    child,
    output,
    kill: (signal = 'SIGTERM') =>
      new Promise<ProcessExit>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
        child.once('exit', (code, exitSignal) => resolve({ code, signal: exitSignal }));
        child.kill(signal);
      }),
  };
}

/**
 * Starts one process per env together (replicas racing at start-up is part of what is tested); when any
 * fails to start, the others are stopped before the failure is thrown, so none outlives the test.
 */
export async function startGatewayProcesses(envs: Record<string, string>[]): Promise<GatewayProcess[]> {
  const started = await Promise.allSettled(envs.map((env) => startGatewayProcess(env)));
  const failure = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (!failure) return running;
  await Promise.all(running.map((process) => process.kill('SIGKILL')));
  throw failure.reason;
}

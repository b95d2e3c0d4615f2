// Starts a TypeScript entry point (gateway, mock upstream, bare proxy) as its own pinned process and
// waits for its "listening on http://..." line, so it can be measured from /proc by pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pinnedCommand, type Pinning } from './pinning';

export const REPO_ROOT = join(__dirname, '..', '..');

export interface ServiceProcess {
  name: string;
  url: string;
  /** Pid of the node process itself (taskset execs into it, so it is the spawned pid). */
  pid: number;
  /** Milliseconds from spawn to the listening line. */
  startupMs: number;
  output(): string;
  stop(): Promise<void>;
}

export interface ServiceSpec {
  name: string;
  /** Entry point relative to the repository root; a `.ts` one runs through ts-node. */
  script: string;
  cpu: string;
  env?: Record<string, string>;
  nodeFlags?: string[];
  startTimeoutMs?: number;
}

const LISTENING = /listening on (http:\/\/[\d.:]+)/;

export async function startService(pinning: Pinning, spec: ServiceSpec): Promise<ServiceProcess> {
  const loader = spec.script.endsWith('.ts') ? ['-r', 'ts-node/register/transpile-only'] : [];
  const argv = pinnedCommand(pinning, spec.cpu, [process.execPath, ...(spec.nodeFlags ?? []), ...loader, spec.script]);
  const startedAt = performance.now();
  const child = spawn(argv[0], argv.slice(1), {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await waitForUrl(child, () => output, spec);
  return {
    name: spec.name,
    url,
    pid: child.pid!,
    startupMs: performance.now() - startedAt,
    output: () => output,
    stop: () => stopChild(child),
  };
}

function waitForUrl(child: ChildProcess, output: () => string, spec: ServiceSpec): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${spec.name} did not start in time:\n${output()}`)), spec.startTimeoutMs ?? 120_000);
    const onData = () => {
      const match = LISTENING.exec(output());
      if (!match) return;
      cleanup();
      resolve(match[1]);
    };
    const onExit = (code: number | null) => fail(new Error(`${spec.name} exited with ${code}:\n${output()}`));
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
    };
    const fail = (error: Error) => {
      cleanup();
      child.kill('SIGKILL');
      reject(error);
    };
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
}

/** SIGTERM (the gateway shuts down cleanly and writes its CPU profile), SIGKILL after 30 s. */
function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

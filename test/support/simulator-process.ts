// The upstream simulator as a real child process (`src/simulator/main.ts` under ts-node), for tests that
// kill a deployment the way a crash does (SIGKILL: no close, no FIN for streams in flight). Its knobs are
// reached over HTTP (`/_sim/mode`, `/_sim/reset`), since the test cannot touch its memory.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { SimulatorMode } from '../../src/simulator/simulator-control';
import type { ProcessExit } from './gateway-process';
import { collectOutput, listeningUrl } from './listening-url';

export interface SimulatorProcess {
  url: string;
  pid: number;
  output(): string;
  /** Sets how the simulator answers `model` (see src/simulator/simulator-control.ts). */
  setMode(model: string, mode: SimulatorMode): Promise<void>;
  /** Sends the signal (SIGKILL by default) and resolves with how the process ended; at once if it already had. */
  kill(signal?: NodeJS.Signals): Promise<ProcessExit>;
}

const ROOT = join(__dirname, '..', '..');

/** Starts a simulator on a free port; resolves once it printed its URL and answers its health check. */
export async function startSimulatorProcess(timeoutMs = 60_000): Promise<SimulatorProcess> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/simulator/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT_SIMULATOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collected = collectOutput(child);
  const output = collected.text;
  const exited = new Promise<ProcessExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await listeningUrl(child, collected, 'simulator', timeoutMs);
  const health = await fetch(`${url}/health`);
  if (health.status !== 200) throw new Error(`simulator at ${url} answered its health check with ${health.status}`);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`simulator ${path} answered ${res.status}: ${await res.text()}`);
  };
  return {
    url,
    pid: child.pid!,
    output,
    setMode: (model, mode) => post('/_sim/mode', { model, mode }),
    kill: (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

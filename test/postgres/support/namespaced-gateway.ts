// A gateway replica on its own "host": the transpiled gateway (test/support/transpiled-gateway.ts) run
// with `ip netns exec`, listening on the namespace's address. `ip netns exec` execs the command, so the
// child is the gateway itself and a SIGKILL reaches it directly.
import { spawn, type ChildProcess } from 'node:child_process';
import type { NetworkHost } from './host-network';

export interface NamespacedGateway {
  url: string;
  pid: number;
  output(): string;
  /** Sends the signal and resolves once the process has ended. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

const PORT = 8080;

export async function startNamespacedGateway(host: NetworkHost, entry: string, env: Record<string, string>, timeoutMs = 120_000): Promise<NamespacedGateway> {
  const child = spawn('ip', ['netns', 'exec', host.namespace, process.execPath, entry], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, HOST: host.address, PORT: String(PORT) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await listening(child, () => output, timeoutMs);
  } catch (error) {
    child.kill('SIGKILL');
    await ended;
    throw error;
  }
  return {
    url: `http://${host.address}:${PORT}`,
    pid: child.pid!,
    output: () => output,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await ended;
    },
  };
}

function listening(child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`gateway did not start within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    const check = () => /listening on http:/.test(output()) && finish();
    const exited = (code: number | null) => finish(new Error(`gateway exited with ${code}:\n${output()}`));
    function finish(error?: Error) {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.off('exit', exited);
      if (error) reject(error);
      else resolve();
    }
    child.stdout!.on('data', check);
    child.once('exit', exited);
  });
}

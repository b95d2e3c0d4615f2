// A child process the tests start (gateway, simulator) prints `listening on http://host:port` once it serves.
import type { ChildProcess } from 'node:child_process';

export interface ChildOutput {
  /** Everything the child wrote to stdout and stderr so far. */
  text(): string;
}

/** Collects the child's stdout and stderr from now on. */
export function collectOutput(child: ChildProcess): ChildOutput {
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { text: () => output };
}

/** The URL the child prints when it listens; rejects, with its output, when it exits first or takes longer than `timeoutMs`. */
export function listeningUrl(child: ChildProcess, output: ChildOutput, name: string, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs} ms:\n${output.text()}`)), timeoutMs);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before listening:\n${output.text()}`));
    };
    const check = () => {
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output.text());
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.off('exit', onExit);
      resolve(match[1]);
    };
    child.stdout!.on('data', check);
    child.once('exit', onExit);
  });
}

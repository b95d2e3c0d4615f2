// Reads what the runtime stage of deploy/Dockerfile gives the container: its ENV, HEALTHCHECK command and
// labels, so tests run the gateway the way the image does instead of restating the values.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');

/** Logical lines of the last stage (continuations joined, comments dropped). */
export function runtimeStageLines(text = readFileSync(join(ROOT, 'deploy', 'Dockerfile'), 'utf8')): string[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const lastFrom = lines.map((line) => line.startsWith('FROM ')).lastIndexOf(true);
  return lines.slice(lastFrom);
}

/** `KEY=value` pairs and `KEY="quoted value"` pairs of one instruction's arguments. */
function pairs(args: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const match of args.matchAll(/([A-Za-z_][\w.-]*)=("(?:[^"\\]|\\.)*"|\S+)/g)) {
    result[match[1]] = match[2].startsWith('"') ? (JSON.parse(match[2]) as string) : match[2];
  }
  return result;
}

function instructions(name: string): string[] {
  return runtimeStageLines().filter((line) => line.startsWith(`${name} `)).map((line) => line.slice(name.length + 1).trim());
}

export function imageEnv(): Record<string, string> {
  return Object.assign({}, ...instructions('ENV').map(pairs)) as Record<string, string>;
}

export function imageLabels(): Record<string, string> {
  return Object.assign({}, ...instructions('LABEL').map(pairs)) as Record<string, string>;
}

export function imageUser(): string | undefined {
  return instructions('USER').pop();
}

/** The exec-form command after `HEALTHCHECK [options] CMD`. */
export function healthcheckCommand(): string[] {
  const [line] = instructions('HEALTHCHECK');
  const at = line.indexOf('CMD ');
  return JSON.parse(line.slice(at + 'CMD '.length)) as string[];
}

export function healthcheckOptions(): Record<string, string> {
  const [line] = instructions('HEALTHCHECK');
  return Object.fromEntries([...line.slice(0, line.indexOf('CMD ')).matchAll(/--([\w-]+)=(\S+)/g)].map((m) => [m[1], m[2]]));
}

// The embedded default's demo key outlives restarts: created once in the data directory (owner-only
// file) and read back on every later start, so a newcomer's exported KEY keeps working.
// GATEWAY_DEMO_KEY still wins and is never written.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateApiKey } from './key-hash';

export const DEMO_KEY_FILE = 'demo-key';
const KEY_SHAPE = /^sk-gw-[A-Za-z0-9_-]{20,200}$/;

export interface DemoKey {
  key: string;
  /** Where the key came from, for the start-up banner. */
  source: 'env' | 'created' | 'stored';
  path?: string;
}

function readStoredKey(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!KEY_SHAPE.test(text)) throw new Error(`${path} does not hold a demo key (sk-gw-...); delete it to get a new one`);
  return text;
}

export function resolveDemoKey(dataDir: string, override: string | null): DemoKey {
  if (override !== null) return { key: override, source: 'env' };
  const path = join(dataDir, DEMO_KEY_FILE);
  const stored = readStoredKey(path);
  if (stored !== null) return { key: stored, source: 'stored', path };
  mkdirSync(dataDir, { recursive: true });
  const key = generateApiKey();
  try {
    // `wx`: a replica starting at the same moment on the same directory keeps the key the other wrote.
    writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { key: readStoredKey(path)!, source: 'stored', path };
  }
  return { key, source: 'created', path };
}

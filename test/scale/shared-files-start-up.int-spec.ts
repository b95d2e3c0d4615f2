// Replicas started together on one data directory: each opens (and the first creates) the SQLite files
// they share. Switching a file to WAL can answer SQLITE_BUSY at once, without the busy handler, when two
// processes do it together; CI saw a replica die of it at start-up. Four processes open fresh
// directories at agreed instants, many times over; none may fail.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PROCESSES = 4;
const ROUNDS = 25;
const GAP_MS = 150;

function runChild(root: string, firstInstant: number): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'test/support/open-shared-files.child.ts', root, String(firstInstant), String(ROUNDS), String(GAP_MS)], {
    cwd: join(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('replicas opening one data directory together', () => {
  jest.setTimeout(120_000);
  let root: string;
  beforeAll(() => (root = mkdtempSync(join(tmpdir(), 'gw-shared-open-'))));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('every process opens every shared file, whoever switches it to WAL first', async () => {
    // Far enough ahead for every child to load (ts-node) before the first instant; a late child only
    // opens alone, which is a weaker test, never a failing one.
    const firstInstant = Date.now() + 8_000;
    const results = await Promise.all(Array.from({ length: PROCESSES }, () => runChild(root, firstInstant)));
    expect(results.map((r) => r.output.trim()).filter(Boolean)).toEqual([]);
    expect(results.map((r) => r.code)).toEqual(Array(PROCESSES).fill(0));
  });
});

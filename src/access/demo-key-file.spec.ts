import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_KEY_FILE, resolveDemoKey } from './demo-key-file';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'demo-key-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveDemoKey', () => {
  it('creates the key on first start in an owner-only file, in a data directory it creates', () => {
    const dataDir = join(dir, 'data');
    const first = resolveDemoKey(dataDir, null);
    expect(first.source).toBe('created');
    expect(first.key).toMatch(/^sk-gw-[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(join(dataDir, DEMO_KEY_FILE), 'utf8')).toBe(`${first.key}\n`);
    expect(statSync(join(dataDir, DEMO_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('reads the same key back on every later start', () => {
    const first = resolveDemoKey(dir, null);
    expect(resolveDemoKey(dir, null)).toEqual({ key: first.key, source: 'stored', path: join(dir, DEMO_KEY_FILE) });
  });

  it('lets GATEWAY_DEMO_KEY win without writing it', () => {
    expect(resolveDemoKey(dir, 'sk-gw-from-the-environment')).toEqual({ key: 'sk-gw-from-the-environment', source: 'env' });
    expect(() => statSync(join(dir, DEMO_KEY_FILE))).toThrow();
  });

  it('refuses a file that holds no key rather than serving it', () => {
    writeFileSync(join(dir, DEMO_KEY_FILE), 'hello\n');
    expect(() => resolveDemoKey(dir, null)).toThrow(/does not hold a demo key/);
  });
});

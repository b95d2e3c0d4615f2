import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirError, prepareDataDir } from './data-dir';

describe('prepareDataDir', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'data-dir-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates a missing directory, parents included, and returns its absolute path', () => {
    const dir = join(root, 'a', 'b');
    expect(prepareDataDir(dir)).toBe(dir);
    expect(existsSync(dir)).toBe(true);
  });

  it('accepts a directory that already exists', () => {
    expect(prepareDataDir(root)).toBe(root);
  });

  it('refuses a path it cannot create, naming the path, the user and the error code', () => {
    const file = join(root, 'not-a-dir');
    writeFileSync(file, '');
    const attempt = () => prepareDataDir(join(file, 'data'));
    expect(attempt).toThrow(DataDirError);
    expect(attempt).toThrow(`GATEWAY_DATA_DIR ${join(file, 'data')} is not writable by the gateway`);
    expect(attempt).toThrow(/: ENOTDIR\. Create it and give it to the user/);
  });
});

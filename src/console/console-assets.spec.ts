import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsoleAssets, defaultConsoleDir } from './console-assets';

function buildDir(files: Record<string, string>, manifest: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'console-assets-'));
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ files: manifest }));
  return dir;
}

describe('ConsoleAssets', () => {
  it('serves only what the manifest lists, with type and cache policy by file', () => {
    const dir = buildDir({ 'index.html': '<!doctype html>', 'console-AB12.js': 'x', 'console-AB12.css': 'y', 'secret.txt': 's' }, ['index.html', 'console-AB12.js', 'console-AB12.css']);
    const assets = ConsoleAssets.load(dir);
    expect(assets.built).toBe(true);
    expect(assets.get('index.html')).toMatchObject({ contentType: 'text/html; charset=utf-8', cacheControl: 'no-cache' });
    expect(assets.get('console-AB12.js')).toMatchObject({ contentType: 'text/javascript; charset=utf-8', cacheControl: 'public, max-age=31536000, immutable' });
    expect(assets.get('console-AB12.css')?.contentType).toBe('text/css; charset=utf-8');
    expect(assets.get('secret.txt')).toBeUndefined();
    expect(assets.get('manifest.json')).toBeUndefined();
    expect(assets.get('console-AB12.js')!.etag).not.toBe(assets.get('console-AB12.css')!.etag);
  });

  it('refuses a manifest naming a path or a file type it would not serve', () => {
    expect(() => ConsoleAssets.load(buildDir({}, ['../package.json']))).toThrow(/unservable/);
    expect(() => ConsoleAssets.load(buildDir({ 'notes.txt': 'x' }, ['notes.txt']))).toThrow(/unservable/);
  });

  it('is empty (not built) without a manifest', () => {
    expect(ConsoleAssets.load(mkdtempSync(join(tmpdir(), 'console-none-'))).built).toBe(false);
  });

  it('defaults to dist/console of the checkout', () => {
    expect(defaultConsoleDir()).toBe(join(__dirname, '..', '..', 'dist', 'console'));
  });
});

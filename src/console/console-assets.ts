// The console's built files (npm run build -> dist/console, docs/console.md): only the files the build's
// manifest names are served, read from disk once, with their content type, cache policy and a strict
// Content-Security-Policy. Pure apart from reading the build directory.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What the build writes beside the assets: the file names it produced (hashed, except index.html). */
export const CONSOLE_MANIFEST = 'manifest.json';
export const CONSOLE_INDEX = 'index.html';

/**
 * Nothing but the gateway's own origin: no inline script or style, no eval, no external fonts or
 * scripts, no framing; blob: images only for the chart's own canvas export.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
  /** index.html is revalidated each time; hashed files never change under their name. */
  cacheControl: string;
  etag: string;
}

/** The headers every console response carries, the error ones included. */
export const CONSOLE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

export class ConsoleAssets {
  private constructor(private readonly files: ReadonlyMap<string, ConsoleAsset>) {}

  /** The assets the manifest in `dir` lists; none when the console was not built. */
  static load(dir: string): ConsoleAssets {
    const manifestPath = join(dir, CONSOLE_MANIFEST);
    if (!existsSync(manifestPath)) return new ConsoleAssets(new Map());
    const names = (JSON.parse(readFileSync(manifestPath, 'utf8')) as { files: string[] }).files;
    const files = new Map<string, ConsoleAsset>();
    for (const name of names) {
      const contentType = CONTENT_TYPES[name.slice(name.lastIndexOf('.'))];
      if (!contentType || !/^[\w.-]+$/.test(name)) throw new Error(`console manifest lists an unservable file: ${name}`);
      const body = readFileSync(join(dir, name));
      const cacheControl = name === CONSOLE_INDEX ? 'no-cache' : 'public, max-age=31536000, immutable';
      files.set(name, { body, contentType, cacheControl, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
    }
    return new ConsoleAssets(files);
  }

  get built(): boolean {
    return this.files.has(CONSOLE_INDEX);
  }

  /** The asset of that exact name, or undefined: names outside the manifest are never looked up on disk. */
  get(name: string): ConsoleAsset | undefined {
    return this.files.get(name);
  }
}

/** dist/console of the checkout this code runs from (src/ under ts-node and jest, dist/src/ when built). */
export function defaultConsoleDir(from = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return join(from, 'console');
    dir = parent;
  }
  return join(dir, 'dist', 'console');
}

// /console through real HTTP: the built page and its files with their content types, cache policy and
// Content-Security-Policy, and nothing outside the build's manifest.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { CONSOLE_CSP } from '../../src/console/console-assets';
import { buildConsoleForTest } from './console-build';

describe('console assets', () => {
  let gw: TestGateway;
  let files: string[];
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${gw.baseUrl}${path}`, { headers });

  beforeAll(async () => {
    const dir = buildConsoleForTest();
    files = (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: string[] }).files;
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
    delete process.env.GATEWAY_CONSOLE_DIR;
  });

  it('serves the page without a key, revalidated each time, under a CSP that allows only this origin', async () => {
    const res = await get('/console');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toMatch(/default-src 'none'/);
    expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const page = await res.text();
    const script = files.find((name) => name.endsWith('.js'))!;
    const style = files.find((name) => name.endsWith('.css'))!;
    expect(page).toContain(`src="/console/${script}"`);
    expect(page).toContain(`href="/console/${style}"`);
    expect(page).not.toMatch(/<script>|style=|https?:\/\//);
  });

  it('serves the hashed script and style sheet with their types, cached immutably, 304 on a matching ETag', async () => {
    for (const [name, type] of [[files.find((f) => f.endsWith('.js'))!, 'text/javascript; charset=utf-8'], [files.find((f) => f.endsWith('.css'))!, 'text/css; charset=utf-8']]) {
      const res = await get(`/console/${name}`);
      expect([res.status, res.headers.get('content-type')]).toEqual([200, type]);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expect((await res.text()).length).toBeGreaterThan(1000);
      const again = await get(`/console/${name}`, { 'if-none-match': res.headers.get('etag')! });
      expect(again.status).toBe(304);
    }
  });

  it.each(['manifest.json', 'nope.js', '..%2F..%2Fpackage.json', 'index.html.bak', 'index.html%00.js'])('404 in the error envelope for %s, outside the allow-list', async (name) => {
    const res = await get(`/console/${name}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(((await res.json()) as any).error.code).toBe('console_asset_not_found');
  });
});

// The console's Keys view in real headless Chromium (Debian's, via playwright-core) against a real gateway:
// a management key signs in and sees only Keys; it creates a key (its secret shown once), the key is used
// on /v1/chat/completions over HTTP, the view shows the API's usage to the micro-dollar, disabling it makes
// the API answer 401 disabled_api_key, revoking it (after a confirmation) 401 revoked_api_key. A model key
// does not see Keys. No browser console errors. Screenshots: .cache/test-output/console/keys-{1280,390}.png.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openConsolePage, SHOTS } from './console-page';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { hashApiKey } from '../../src/access/key-hash';
import { usdToMicros } from '../../console/lib/money';
import { buildConsoleForTest } from './console-build';

const MANAGEMENT_KEY = 'sk-mgmt-console-0123456789abcdef';

jest.setTimeout(120_000);

describe('console Keys view in Chromium', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let browserErrors: string[] = [];
  let issuedId = '';
  let issuedKey = '';

  const call = (method: string, path: string, key: string, body?: unknown) =>
    fetch(`${gw.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));
  const chat = (key: string) => call('POST', '/v1/chat/completions', key, { model: 'aria', messages: [{ role: 'user', content: 'hello from the keys view test' }] });
  const row = () => page.locator(`tr[data-key-id="${issuedId}"]`);

  /** The page's scroll width once it fits the window (polled by evaluate: the page's CSP forbids eval-based waits), or the last one seen. */
  async function pageWidthWithin(width: number): Promise<number> {
    let seen = Infinity;
    for (let i = 0; i < 40 && seen > width; i++) {
      seen = await page.evaluate<number>('document.documentElement.scrollWidth');
      if (seen > width) await page.waitForTimeout(50);
    }
    return seen;
  }

  async function signIn(key: string, kind: 'Model key' | 'Management key') {
    await page.goto(`${gw.baseUrl}/console`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('radio', { name: new RegExp(kind) }).check();
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  beforeAll(async () => {
    buildConsoleForTest();
    gw = await startTestGateway({
      configure: (config) => {
        config.management_keys.push({ id: 'mgmt-console', hash: hashApiKey(MANAGEMENT_KEY) });
      },
    });
    ({ browser, page, browserErrors } = await openConsolePage({ permissions: ['clipboard-read', 'clipboard-write'] }));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    delete process.env.GATEWAY_CONSOLE_DIR;
  });

  it('signs in with a management key and shows the Keys view only', async () => {
    await signIn(MANAGEMENT_KEY, 'Management key');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    const links = await page.getByRole('navigation', { name: 'Views' }).getByRole('link').allTextContents();
    expect(links).toEqual(['Keys']);
    // The configured demo key is listed, and cannot be changed from here.
    await expect(page.locator('table.keys tbody').textContent()).resolves.toContain('configured');
  });

  it('tells a model key signed in as a management key the API\'s 403', async () => {
    const other = await browser.newPage();
    await other.goto(`${gw.baseUrl}/console`);
    await other.getByLabel('API key').fill(gw.apiKey);
    await other.getByRole('radio', { name: /Management key/ }).check();
    await other.getByRole('button', { name: 'Sign in' }).click();
    await expect(other.getByRole('alert').textContent()).resolves.toMatch(/^403: .*management key/i);
    await other.close();
  });

  it('does not send a limit with a 7th decimal (the API takes 6)', async () => {
    const before = (await call('GET', '/v1/keys?limit=100', MANAGEMENT_KEY)).body.data.length;
    await page.getByLabel('Name').fill('too-precise');
    await page.getByLabel(/^Organizations/).fill(gw.orgId);
    await page.getByLabel(/^Limit \(USD\)/).fill('0.0000001');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.locator('input[name="limit_usd"]:invalid').count()).resolves.toBe(1);
    expect((await call('GET', '/v1/keys?limit=100', MANAGEMENT_KEY)).body.data.length).toBe(before);
  });

  it('creates a key and shows its secret once, with a copy button', async () => {
    await page.getByLabel('Name').fill('console-customer');
    await page.getByLabel(/^Organizations/).fill(gw.orgId);
    await page.getByLabel(/^Limit \(USD\)/).fill('0.500001');
    await page.getByLabel('Limit resets').selectOption('daily');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: /shown once/ }).waitFor();
    issuedKey = (await page.getByTestId('issued-key').inputValue()).trim();
    expect(issuedKey).toMatch(/^sk-gw-/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(issuedKey);
    const list = await call('GET', '/v1/keys?limit=100', MANAGEMENT_KEY);
    const entry = list.body.data.find((key: any) => key.name === 'console-customer');
    issuedId = entry.id;
    expect(entry).toMatchObject({ limit_usd: '0.500001', limit_reset: 'daily', organizations: [gw.orgId] });
    expect(JSON.stringify(list.body)).not.toContain(issuedKey);
    await row().waitFor();
    await page.getByRole('button', { name: /I have stored it/ }).click();
    await expect(page.getByTestId('issued-key').count()).resolves.toBe(0);
  });

  it('shows the usage the API reports after the key is used', async () => {
    expect((await chat(issuedKey)).status).toBe(200);
    // The charge reaches the ledger after the answer: wait until the API shows it, then refresh the view.
    let usage: any;
    for (let i = 0; i < 100; i++) {
      usage = (await call('GET', `/v1/keys/${issuedId}`, MANAGEMENT_KEY)).body.usage;
      if (usage.spent_usd !== '0' && usage.held_usd === '0') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(usdToMicros(usage.spent_usd)).toBeGreaterThan(0n);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const spent = String(usdToMicros(usage.spent_usd));
    await page.locator(`tr[data-key-id="${issuedId}"] td.usage[data-spent-micros="${spent}"]`).waitFor();
    const shown = await page.getByTestId(`usage-${issuedId}`).textContent();
    expect(shown).toContain(`spent + $0.000000 held of $0.500001 (daily), resets`);
    expect(await row().locator('meter').getAttribute('aria-label')).toMatch(/% of the limit used$/);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await pageWidthWithin(width)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: join(SHOTS, `keys-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('disables the key (the API answers 401 disabled_api_key) and enables it again', async () => {
    await row().getByRole('button', { name: 'Disable console-customer' }).click();
    await page.locator(`[data-testid="status-${issuedId}"]:text-is("disabled")`).waitFor();
    const refused = await chat(issuedKey);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('disabled_api_key');
    await row().getByRole('button', { name: 'Enable console-customer' }).click();
    await page.locator(`[data-testid="status-${issuedId}"]:text-is("active")`).waitFor();
    expect((await chat(issuedKey)).status).toBe(200);
  });

  it('revokes the key after a confirmation; cancel keeps it', async () => {
    // Keyboard only: the question takes focus on Cancel, Cancel gives it back to Revoke.
    await row().getByRole('button', { name: 'Revoke console-customer' }).focus();
    await page.keyboard.press('Enter');
    await row().getByRole('button', { name: 'Cancel' }).and(page.locator(':focus')).waitFor();
    await page.keyboard.press('Enter');
    await row().getByRole('button', { name: 'Revoke console-customer' }).and(page.locator(':focus')).waitFor();
    expect((await call('GET', `/v1/keys/${issuedId}`, MANAGEMENT_KEY)).body.revoked).toBe(false);
    await page.keyboard.press('Enter');
    await row().getByRole('button', { name: 'Cancel' }).and(page.locator(':focus')).waitFor();
    await page.keyboard.press('Shift+Tab');
    await row().getByRole('button', { name: 'Yes, revoke console-customer' }).and(page.locator(':focus')).waitFor();
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="status-${issuedId}"]:text-is("revoked")`).waitFor();
    const refused = await chat(issuedKey);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('revoked_api_key');
  });

  it('pages through the list', async () => {
    for (let i = 0; i < 20; i++) expect((await call('POST', '/v1/keys', MANAGEMENT_KEY, { name: `bulk-${i}`, organizations: [gw.orgId] })).status).toBe(201);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator('table.keys caption:text-is("Keys 1-20, more on the next page")').waitFor();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.locator('table.keys caption:text-matches("^Keys 21-")').waitFor();
    const ids = await page.locator('table.keys tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key-id')));
    const api = await call('GET', '/v1/keys?limit=20&offset=20', MANAGEMENT_KEY);
    expect(ids).toEqual(api.body.data.map((key: any) => key.id));
  });

  it('shows, sets and removes an organization budget, usage as the API reports it', async () => {
    await page.getByLabel('Organization id').fill(gw.orgId);
    await page.getByRole('button', { name: 'Show budget' }).click();
    await page.getByTestId('budget-usage').waitFor();
    await page.getByLabel('Budget (USD)').fill('2.5');
    await page.getByLabel('Budget resets').selectOption('monthly');
    await page.getByRole('button', { name: 'Set budget' }).click();
    await page.locator('[data-testid="budget-usage"]:has-text("budget from the API")').waitFor();
    const set = (await call('GET', `/v1/organizations/${gw.orgId}/budget`, MANAGEMENT_KEY)).body;
    expect(set).toMatchObject({ source: 'api', limit_usd: '2.5', limit_reset: 'monthly' });
    expect(usdToMicros(set.usage.spent_usd)).toBeGreaterThan(0n);
    expect(await page.getByTestId('budget-usage').getAttribute('data-spent-micros')).toBe(String(usdToMicros(set.usage.spent_usd)));
    await expect(page.getByTestId('budget-usage').textContent()).resolves.toContain('of $2.500000 (monthly), resets');
    await page.getByRole('button', { name: 'Remove budget' }).click();
    await page.locator('[data-testid="budget-usage"]:has-text("no budget")').waitFor();
    const removed = (await call('GET', `/v1/organizations/${gw.orgId}/budget`, MANAGEMENT_KEY)).body;
    expect(removed.limit_usd).toBeNull();
    await expect(page.getByTestId('budget-usage').textContent()).resolves.toContain('no limit');
  });

  it('shows the operator\'s margins of the requests made, equal to GET /v1/margins to the micro', async () => {
    const today = Math.floor(Date.now() / 86_400_000) * 86_400;
    const api = (await call('GET', `/v1/margins?start_time=${today - 6 * 86_400}&group_by=model`, MANAGEMENT_KEY)).body;
    const aria = api.data.flatMap((bucket: any) => bucket.results).filter((r: any) => r.model === 'aria');
    const expected = aria.reduce((sum: bigint, r: any) => sum + BigInt(r.margin_usd_micros), 0n);
    expect(expected).toBeGreaterThan(0n);
    await page.getByLabel('Group by').selectOption('model');
    await page.getByRole('button', { name: 'Show margins' }).click();
    const row = page.locator('tr[data-group="aria"]');
    await row.waitFor();
    expect(await row.getAttribute('data-margin-micros')).toBe(String(expected));
    await page.screenshot({ path: join(SHOTS, 'margins-1280.png'), fullPage: true });
  });

  it('does not show Keys to a model key', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(gw.apiKey, 'Model key');
    await page.getByTestId('range-total').waitFor();
    const links = await page.getByRole('navigation', { name: 'Views' }).getByRole('link').allTextContents();
    expect(links).toEqual(['Costs', 'Requests', 'Models']);
    await page.goto(`${gw.baseUrl}/console#/keys`);
    await page.getByTestId('range-total').waitFor();
    await expect(page.getByRole('heading', { name: 'API keys' }).count()).resolves.toBe(0);
  });

  it('logged no error in the browser console (CSP violations included)', () => {
    expect(browserErrors).toEqual([]);
  });
});

// The cost console in real headless Chromium (Debian's, driven by playwright-core) against a real
// gateway with seeded traffic: sign in, read each view, totals equal to the API's to the micro-dollar,
// the downloaded CSV equal to the API's, organization switching, no browser console errors.
// Screenshots of each view at 1280 px and 390 px go to .cache/test-output/console/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openConsolePage, SHOTS } from './console-page';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { hashApiKey } from '../../src/access/key-hash';
import { eventIdFor, requestStreamId } from '../../src/event-store/event-ids';
import type { CostPricedV1 } from '../../src/billing/billing.events';
import { formatUsd, usdToMicros } from '../../console/lib/money';
import { buildConsoleForTest } from './console-build';

const DAY = 86_400;
const TODAY = Math.floor(Date.now() / 1000 / DAY) * DAY;
const FROM = TODAY - 29 * DAY; // the console's default range: the last 30 days
const MULTI_KEY = 'multi-org-key-secret';

jest.setTimeout(120_000);

describe('cost console in Chromium', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let browserErrors: string[] = [];

  const api = (path: string, headers: Record<string, string> = {}) => fetch(`${gw.baseUrl}${path}`, { headers: { authorization: `Bearer ${gw.apiKey}`, ...headers } });
  /** The API's CSV of the console's default range: exact decimal USD, summed here with BigInt. */
  const apiCsv = async (grouping: string, headers: Record<string, string> = {}) =>
    (await api(`/v1/organization/costs?start_time=${FROM}&end_time=${TODAY + DAY}&limit=31&group_by=${grouping}`, { accept: 'text/csv', ...headers })).text();
  const csvTotal = (csv: string) => csv.trimEnd().split('\r\n').slice(1).reduce((sum, line) => sum + usdToMicros(line.split(',').at(-2)!), 0n);

  async function record(requestId: string, organizationId: string, daysAgo: number, model: string, items: [string, number][]) {
    const total = items.reduce((sum, [, micros]) => sum + micros, 0);
    const event: CostPricedV1 = {
      requestId, organizationId, model, endpoint: '/v1/chat/completions', costUsdMicros: total, priceBookVersion: 'test',
      lineItems: items.map(([name, micros]) => ({ name, side: 'input', modality: 'text', unit: 'tokens', quantity: '1', unit_price_usd: '0', amount_usd_micros: String(micros), exact_usd_micros: String(micros) })) as CostPricedV1['lineItems'],
      occurredAt: new Date((TODAY - daysAgo * DAY + 3600) * 1000).toISOString(),
    };
    await gw.gateway.runtime.eventStore.append(requestStreamId(requestId), [{ id: eventIdFor(requestId, 'CostPriced'), type: 'CostPriced', data: event }]);
  }

  async function shoot(name: string) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      // Usable at that width: nothing wider than the window (the chart follows it, wide tables scroll inside their box).
      await page.waitForFunction(`document.documentElement.scrollWidth <= ${width}`);
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  const text = async (testId: string) => (await page.getByTestId(testId).textContent())?.trim();
  /** Waits for the view to show this text in this test id (the page fetches, then renders). */
  const shows = (testId: string, value: string) => page.locator(`[data-testid="${testId}"]:text-is("${value}")`).waitFor();
  /** A column the grouping alone has: the table was redrawn for it. */
  const GROUP_COLUMN: Record<string, string> = { model: 'vintage', line_item: 'legacy, input text tokens', api_key_id: 'key-multi' };

  beforeAll(async () => {
    buildConsoleForTest();
    gw = await startTestGateway({
      configure: (config) => {
        config.organizations[0].rate_limit = { requests: 1000, window_seconds: 60 };
        config.organizations.push({ id: 'org-second', payment_method: true, rate_limit: { requests: 1000, window_seconds: 60 } });
        config.keys.push({ id: 'key-multi', hash: hashApiKey(MULTI_KEY), owner: 't', organizations: [config.organizations[0].id, 'org-second'], default_organization: config.organizations[0].id });
      },
    });
    for (let i = 0; i < 4; i++) {
      await gw.openai({ apiKey: i % 2 ? MULTI_KEY : gw.apiKey }).chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: `seed ${i}` }] });
    }
    // Amounts whose float sum is not exact (0.1 + 0.2), on several days of the range.
    await record('seed-a', gw.orgId, 3, 'legacy', [['legacy, input text tokens', 100_000], ['legacy, output text tokens', 200_000]]);
    await record('seed-b', gw.orgId, 12, 'legacy', [['legacy, input text tokens', 1]]);
    await record('seed-c', gw.orgId, 28, 'vintage', [['vintage, input text tokens', 123_456_789]]);
    await record('seed-other', 'org-second', 2, 'legacy', [['legacy, input text tokens', 777_777]]);
    ({ browser, page, browserErrors } = await openConsolePage({ acceptDownloads: true }));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    delete process.env.GATEWAY_CONSOLE_DIR;
  });

  it('signs in with the keyboard and keeps the key in this tab only', async () => {
    await page.goto(`${gw.baseUrl}/console`);
    await shoot('sign-in');
    await page.getByLabel('API key').focus();
    await page.keyboard.type(gw.apiKey);
    await page.keyboard.press('Enter');
    await page.getByTestId('range-total').waitFor();
    expect(await page.evaluate('[sessionStorage.length, localStorage.length, document.cookie]')).toEqual([3, 0, '']);
  });

  it('refuses a wrong key with the API\'s message', async () => {
    const other = await browser.newPage();
    await other.goto(`${gw.baseUrl}/console`);
    await other.getByLabel('API key').fill('wrong');
    await other.getByRole('button', { name: 'Sign in' }).click();
    await expect(other.getByRole('alert').textContent()).resolves.toMatch(/^401/);
    await other.close();
  });

  it.each(['model', 'line_item', 'api_key_id'])('shows chart and table totals equal to the API\'s, stacked by %s', async (grouping) => {
    await page.getByLabel('Stack by').selectOption(grouping);
    await page.locator(`table.costs thead th:text-is("${GROUP_COLUMN[grouping]}")`).waitFor();
    const expected = formatUsd(csvTotal(await apiCsv(grouping)));
    expect(await text('table-total')).toBe(expected);
    expect(await text('chart-total')).toBe(expected);
    expect(await text('range-total')).toBe(expected);
    expect(await page.locator('.chart [data-total-micros]').getAttribute('data-total-micros')).toBe(String(csvTotal(await apiCsv(grouping))));
    expect(await page.locator('.chart canvas').count()).toBe(1);
    const rows = await page.locator('table.costs tbody tr').count();
    expect(rows).toBe(30);
    if (grouping === 'model') await shoot('costs');
  });

  it('downloads the CSV the API serves for the same query', async () => {
    await page.getByLabel('Stack by').selectOption('line_item');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^costs_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}_by_line_item\.csv$/);
    const downloaded = readFileSync((await download.path())!, 'utf8');
    expect(downloaded).toBe(await apiCsv('line_item'));
    expect(csvTotal(downloaded)).toBeGreaterThan(123_456_789n);
  });

  it('lists the latest requests as the API does', async () => {
    await page.getByRole('link', { name: 'Requests' }).click();
    await page.locator('table.requests tbody tr').first().waitFor();
    const list = (await (await api('/v1/organization/requests?limit=50')).json()) as any;
    const ids = await page.locator('table.requests tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-request-id')));
    expect(ids).toEqual(list.data.map((entry: any) => entry.id));
    const shown = await page.locator('table.requests tbody td[data-micros]').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-micros')));
    expect(shown).toEqual(list.data.map((entry: any) => String(entry.cost_usd_micros ?? '')));
    await expect(page.locator('table.requests').textContent()).resolves.toContain('key-multi');
    await shoot('requests');
  });

  it('shows the catalog with prices per unit and status', async () => {
    await page.getByRole('link', { name: 'Models' }).click();
    await page.locator('table.models tbody tr').first().waitFor();
    const catalog = (await (await fetch(`${gw.baseUrl}/v1/models`)).json()) as any;
    const shown = await page.locator('table.models tbody tr').evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-model'), row.querySelector('.status')!.textContent]));
    expect(shown).toEqual(catalog.data.map((model: any) => [model.id, model.status ?? 'unknown']));
    const aria = catalog.data.find((model: any) => model.id === 'aria');
    const ariaPrice = Object.entries(aria.pricing.input.text)[0] as [string, string];
    await expect(page.locator('tr[data-model="aria"]').textContent()).resolves.toContain(`input text: $${ariaPrice[1]} / ${ariaPrice[0]}`);
    await shoot('models');
  });

  it('switches organization for a key of several, and the figures follow', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').fill(MULTI_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Costs' }).click();
    await page.getByTestId('range-total').waitFor();
    await page.getByLabel('Organization', { exact: true }).fill('org-second');
    await page.getByRole('button', { name: 'Switch' }).click();
    const expected = formatUsd(csvTotal(await apiCsv('model', { authorization: `Bearer ${MULTI_KEY}`, 'x-organization-id': 'org-second' })));
    expect(expected).toBe('$0.777777');
    await shows('table-total', expected);
    expect(await text('chart-total')).toBe(expected);
  });

  it('logged no error in the browser console (CSP violations included)', () => {
    expect(browserErrors).toEqual([]);
  });
});

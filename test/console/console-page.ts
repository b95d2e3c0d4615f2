// Debian's chromium through playwright-core for the console's browser tests: one page that records
// every console error, page error and failed response (the tests assert there are none), and where
// screenshots go (.cache/test-output/console/, linked from the closing notes).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

export const SHOTS = join(__dirname, '..', '..', '.cache', 'test-output', 'console');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface ConsolePage {
  browser: Browser;
  page: Page;
  /** Console errors, page errors and responses of status 400 or more, in order. */
  browserErrors: string[];
}

export async function openConsolePage(options: BrowserContextOptions = {}): Promise<ConsolePage> {
  mkdirSync(SHOTS, { recursive: true });
  // Root cannot use chromium's sandbox (CI runs as root).
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, ...options });
  page.setDefaultTimeout(15_000);
  const browserErrors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && browserErrors.push(message.text()));
  page.on('pageerror', (error) => browserErrors.push(String(error)));
  page.on('response', (response) => response.status() >= 400 && browserErrors.push(`${response.status()} ${response.url()}`));
  return { browser, page, browserErrors };
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from './build.js';

export const SCREENSHOTS = join(ROOT, 'test/ui/screenshots');
/** The smallest screen the back office must work on (issue 12). */
export const VIEWPORT = { width: 1366, height: 768 };
/** Bounds every wait of a browser test, so a broken screen fails instead of hanging. */
export const ACTION_TIMEOUT_MS = 10_000;

/** Debian's Chromium, headless (common brief); CHROMIUM_PATH overrides the binary. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    timeout: 30_000,
  });
}

/** A fresh context (own sessionStorage/localStorage) at 1366×768 in Japanese, with bounded waits. */
export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(ACTION_TIMEOUT_MS);
  const page = await context.newPage();
  // A React error or a failed request shows up in the test's output.
  page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
  return page;
}

/** Saves test/ui/screenshots/<name>.png (git-ignored) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name.replace(/\.png$/, '')}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

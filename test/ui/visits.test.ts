import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage } from './support/browser.js';
import { until } from './support/demo-api.js';
import { loginAs } from './support/session.js';
import { useDemoUi } from './support/suite.js';

/**
 * Every screen of the nav (and of the masters' and inventory's sub-navs), visited the ordinary
 * way by the demo staff of each demo contract: no console error and no API answer of 400 or more.
 * A screen that asks for something it expects may not exist (a day not closed yet) must ask in
 * a way that answers 200, or every visit leaves a red line in the browser's console (issue 20).
 */
describe('ordinary visits (browser)', () => {
  const ui = useDemoUi();

  /** Records what must not happen on an ordinary visit, and the API calls still in flight. */
  function watch(page: Page) {
    const failures: string[] = [];
    const inFlight = new Set<unknown>();
    const isApi = (url: string) => url.startsWith(ui.server.url) && !new URL(url).pathname.startsWith('/ui/');
    let where = '';
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(`${where}: console error: ${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => failures.push(`${where}: page error: ${error.message}`));
    page.on('request', (request) => {
      if (isApi(request.url())) inFlight.add(request);
    });
    page.on('requestfinished', (request) => inFlight.delete(request));
    page.on('requestfailed', (request) => {
      inFlight.delete(request);
      failures.push(`${where}: request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`);
    });
    page.on('response', (response) => {
      if (isApi(response.url()) && response.status() >= 400) failures.push(`${where}: ${response.status()} ${response.request().method()} ${response.url()}`);
    });
    return {
      failures,
      at: (screen: string) => (where = screen),
      /** The screen is done loading: no API call in flight and nothing busy, twice in a row. */
      settled: async () => {
        let quiet = 0;
        await until(`${where} settles`, async () => {
          const idle = inFlight.size === 0 && (await page.locator('[aria-busy="true"]').count()) === 0;
          quiet = idle ? quiet + 1 : 0;
          return quiet >= 2;
        });
      },
    };
  }

  /** The hrefs of the links of a nav, as the screen shows them. */
  const hrefs = (page: Page, selector: string) => page.locator(`${selector} a`).evaluateAll((links) => links.map((a) => a.getAttribute('href')!));

  for (const contractId of ['demo-retail', 'demo-food', 'demo-premium']) {
    it(`${contractId}: every screen of the nav loads without a console error or a failed API call`, async () => {
      const page = await newPage(ui.browser);
      const seen = watch(page);
      seen.at('login');
      await loginAs(page, ui.server, contractId);
      const visited: string[] = [];
      const visit = async (href: string, link: () => Promise<void>) => {
        seen.at(href);
        await link();
        // A screen may add its state to the query (the reservations' day).
        await page.waitForURL((url) => url.hash === href || url.hash.startsWith(`${href}?`)).catch((error: Error) => {
          throw new Error(`${href}: still at ${page.url()}: ${error.message}`);
        });
        await page.locator('main h1').first().waitFor();
        await seen.settled();
        visited.push(href);
      };

      const nav = await hrefs(page, 'nav[aria-label="メインメニュー"]');
      expect(nav).toEqual(['#/today', '#/sync', '#/closing', '#/masters', '#/reservations', '#/chart', '#/inventory', '#/export', '#/settings']);
      for (const href of nav) {
        await visit(href, () => page.locator(`nav[aria-label="メインメニュー"] a[href="${href}"]`).click());
        // The screen's own sub-nav (master kinds, inventory sections), each entry once.
        for (const sub of await hrefs(page, 'main nav.sub-nav')) {
          if (visited.includes(sub) || sub === href) continue;
          await visit(sub, () => page.locator(`main nav.sub-nav a[href="${sub}"]`).click());
        }
      }
      expect(visited).toContain('#/masters/staffs');
      expect(visited).toContain('#/inventory/stock');
      expect(seen.failures).toEqual([]);
      await page.context().close();
    });
  }
});

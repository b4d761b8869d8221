import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from './support/browser.js';
import { until } from './support/demo-api.js';
import { startUiServer, type UiServer } from './support/server.js';
import { loginAs } from './support/session.js';

type Json = Record<string, any>;

/** `YYYY-MM-DD` in Tokyo (the demo contracts' zone), `days` from today. */
const tokyoDate = (days = 0) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date(Date.now() + days * 86_400_000));
const yen = (n: number) => `¥${n.toLocaleString('en-US')}`;

/**
 * The sales chart against `serve --demo`: sales registered through the API on the second store
 * ten days ago show up in the table beside the chart on their day, with the chart drawn on a canvas.
 */
describe('sales chart (browser)', () => {
  let server: UiServer;
  let browser: Browser;
  let token: string;

  const ok = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${server.url}/demo-food${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  beforeAll(async () => {
    server = await startUiServer();
    browser = await launchBrowser();
    const food = server.contract('demo-food');
    const grant = await fetch(food.tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${food.clientId}:${food.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    token = ((await grant.json()) as Json).access_token;
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('draws 31 days of sales and lists them in a table, with known sales on their day', async () => {
    const stores = (await ok('GET', '/pos/stores')) as Json[];
    const second = stores.filter((s) => s.division === '1')[1]!;
    const day = tokyoDate(-10);
    const otherDay = tokyoDate(-3);
    // Sales of a store without registers go in closed (spec 2.13: an unknown terminal cannot be settled).
    const sale = (date: string, time: string, price: string, quantity: string, extra: Json = {}) =>
      ok('POST', '/pos/transactions', {
        storeId: second.storeId,
        sumDivision: '2',
        sumDate: date,
        transactionHeadDivision: '1',
        terminalTranDateTime: `${date}T${time}+09:00`,
        details: [{ transactionDetailId: '1', productName: 'Chart test', salesPrice: price, quantity }],
        ...extra,
      });
    const a = await sale(day, '11:30:00', '1234', '2');
    const b = await sale(day, '23:59:00', '980', '1');
    const c = await sale(otherDay, '00:00:30', '5000', '1');
    // A cancelled sale (cancelDivision 1) is not sales.
    await sale(day, '12:00:00', '7777', '1', { cancelDivision: '1' });
    const dayTotal = Number(a.total) + Number(b.total);
    expect(dayTotal).toBe(1234 * 2 + 980);

    const page = await newPage(browser);
    await loginAs(page, server, 'demo-food');
    await page.goto(`${server.uiUrl}#/chart`);
    await page.getByRole('heading', { level: 1, name: '売上グラフ（過去31日）' }).waitFor();
    await page.getByLabel('店舗').selectOption(second.storeId);
    await page.waitForURL(new RegExp(`#/chart\\?store=${second.storeId}$`));

    // The table says which store its figures are of: wait for the chosen one's.
    const table = page.locator(`[data-testid="sales-table"][data-store="${second.storeId}"]`);
    await table.waitFor();
    // uPlot drew on a canvas.
    expect(await page.locator('[data-testid="sales-chart"] canvas').count()).toBeGreaterThan(0);
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(31);
    expect(await rows.first().getAttribute('data-date')).toBe(tokyoDate(-30));
    expect(await rows.last().getAttribute('data-date')).toBe(tokyoDate(0));

    const row = table.locator(`tr[data-date="${day}"]`);
    expect(await row.getByTestId('day-total').textContent()).toBe(yen(dayTotal));
    expect(await row.locator('td').first().textContent()).toBe('2');
    expect(await table.locator(`tr[data-date="${otherDay}"]`).getByTestId('day-total').textContent()).toBe(yen(Number(c.total)));
    expect(await table.locator(`tr[data-date="${tokyoDate(-20)}"]`).getByTestId('day-total').textContent()).toBe('¥0');
    // The second store has no other sales, so the 31 days add up to the three.
    expect(await page.getByTestId('sum-total').textContent()).toBe(yen(dayTotal + Number(c.total)));

    // The legend under the plot is never an empty `日付: 売上:`: with no day hovered it names the
    // latest day and its sales (as the table's last row has them), hovered a day it names that day.
    const legend = page.locator('[data-testid="sales-chart"] .u-legend .u-value');
    const shortDate = (d: string) => new Intl.DateTimeFormat('ja-JP', { timeZone: 'UTC', month: 'numeric', day: 'numeric' }).format(new Date(`${d}T00:00:00Z`));
    expect(await page.locator('[data-testid="sales-chart"] .u-legend .u-label').allTextContents()).toEqual(['日付', '売上']);
    expect(await legend.allTextContents()).toEqual([shortDate(tokyoDate(0)), await rows.last().getByTestId('day-total').textContent()]);
    await screenshot(page, 'chart');
    const plot = (await page.locator('[data-testid="sales-chart"] .u-over').boundingBox())!;
    // The x scale runs from -0.5 to 30.5: the day ten days ago (index 20) is centred at 20.5/31 of the width.
    await page.mouse.move(plot.x + (plot.width * 20.5) / 31, plot.y + plot.height / 2);
    await until('the legend names the hovered day', async () => (await legend.first().textContent()) === shortDate(day));
    expect(await legend.allTextContents()).toEqual([shortDate(day), yen(dayTotal)]);
    await screenshot(page, 'chart-hover');
    await page.mouse.move(0, 0);

    // All stores: the demo's own sales are on the main store's today, so this day is the same.
    await page.getByLabel('店舗').selectOption('');
    await page.waitForURL(/#\/chart$/);
    const all = page.locator('[data-testid="sales-table"][data-store=""]');
    await all.waitFor();
    expect(await all.locator(`tr[data-date="${day}"]`).getByTestId('day-total').textContent()).toBe(yen(dayTotal));

    // English labels.
    await page.getByLabel('言語').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Sales, last 31 days' }).waitFor();
    expect(await all.locator('caption').textContent()).toBe('Daily sales');
    await page.context().close();
  });
});

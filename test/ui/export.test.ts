import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CSV_COLUMNS, EXPORT_SORT } from '../../server/sales/exports/columns.js';
import { DETAIL_COLUMNS, EXPORT_COLUMNS, EXPORT_SORT_KEYS, HEADER_COLUMNS } from '../../app/ui/src/screens/export/columns.js';
import { downloadHref } from '../../app/ui/src/screens/export/download.js';
import { launchBrowser, newPage, screenshot } from './support/browser.js';
import { demoApi, tokyoToday, type DemoApi, type Json } from './support/demo-api.js';
import { startUiServer, type UiServer } from './support/server.js';
import { loginAs } from './support/session.js';

describe('export screen: what it sends', () => {
  it('lists the columns and sort keys the server has, in the file order', () => {
    expect([...EXPORT_COLUMNS]).toEqual(CSV_COLUMNS.map((c) => c.name));
    expect([...HEADER_COLUMNS]).toEqual(CSV_COLUMNS.filter((c) => c.table === 'header').map((c) => c.name));
    expect([...DETAIL_COLUMNS]).toEqual(CSV_COLUMNS.filter((c) => c.table === 'detail').map((c) => c.name));
    expect([...EXPORT_SORT_KEYS]).toEqual([...EXPORT_SORT]);
  });

  it('puts the download link on the page origin, keeping the signed path and query', () => {
    const origin = 'http://127.0.0.1:8080';
    const query = '?expires=1795000000&signature=abc_-';
    expect(downloadHref(`http://192.168.1.20:8080/downloads/transaction-details-5001.csv.gz${query}`, origin)).toBe(`${origin}/downloads/transaction-details-5001.csv.gz${query}`);
    // A public URL behind a proxy's prefix: the server's own route has none.
    expect(downloadHref(`https://pos.example.jp/store1/downloads/f.csv.gz${query}`, origin)).toBe(`${origin}/downloads/f.csv.gz${query}`);
    // Not a download URL: left alone.
    expect(downloadHref('https://elsewhere.example/file', origin)).toBe('https://elsewhere.example/file');
  });
});

/**
 * The CSV export screen against `serve --demo` (demo-retail) whose public URL names a host the
 * browser cannot reach: sales registered through the API in a store of their own, the API's
 * validation error shown on the field it names, an export of chosen columns in a chosen order
 * watched to the end, the link clicked and the downloaded file gunzipped and parsed; then a
 * reload keeps it listed, and a range without sales says so.
 */
describe('transaction detail CSV export (browser)', () => {
  const PUBLIC_URL = 'http://backoffice.invalid:9/pos';
  let server: UiServer;
  let browser: Browser;
  let api: DemoApi;
  let store: Json;
  const sales: Json[] = [];

  beforeAll(async () => {
    server = await startUiServer({ env: { POS_PUBLIC_URL: PUBLIC_URL } });
    browser = await launchBrowser();
    api = await demoApi(server, 'demo-retail');
    store = await api.call('POST', '/stores', { storeName: 'Export Test Store', storeCode: 'EXP-1' });
    const today = tokyoToday();
    const sale = (lines: [string, string, string][]) =>
      api.call('POST', '/transactions', {
        storeId: store.storeId,
        // A store without registers: its sales go in settled (spec 2.13).
        sumDivision: '2',
        sumDate: today,
        transactionHeadDivision: '1',
        terminalTranDateTime: new Date().toISOString(),
        details: lines.map(([productName, salesPrice, quantity], i) => ({ transactionDetailId: String(i + 1), productName, salesPrice, quantity })),
      });
    // A comma, a quote and a line break in product names: the file must quote them.
    sales.push(await sale([['Tee "Classic", white', '2500', '2'], ['Socks', '480', '3']]));
    sales.push(await sale([['Cap\nnavy', '1980', '1']]));
    sales.push(await sale([['Bag', '5400', '1'], ['Badge', '300', '4'], ['Sticker', '120.5', '10']]));
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const current = (page: Page) => page.getByTestId('export-current');
  const stateOf = (page: Page, status: string) => current(page).locator(`[data-testid="export-state"][data-status="${status}"]`);

  it('shows the API error on its field, exports the chosen columns and sort, and the downloaded file has exactly those rows', async () => {
    const today = tokyoToday();
    const page = await newPage(browser);
    await loginAs(page, server, 'demo-retail');
    await page.getByRole('link', { name: 'CSV 出力', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: '取引明細 CSV 出力' }).waitFor();
    // The default range: the last 7 days in the contract zone; every column.
    expect(await page.getByLabel('取引日時（まで）').inputValue()).toBe(`${today}T23:59:59`);
    expect(await page.getByTestId('columns-count').getAttribute('data-count')).toBe(String(EXPORT_COLUMNS.length));

    // To before From: the server's message, under the To field, which is marked invalid.
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('取引日時（から）').fill(`${today}T00:00:00`);
    await page.getByLabel('取引日時（まで）').fill(`${yesterday}T23:59:59`);
    await page.getByTestId('export-submit').click();
    const toError = page.locator('[data-field="transactionDateTimeTo"] .field-error');
    await toError.waitFor();
    const refused = await api.raw('POST', '/transactions/details/out_file_async', {
      transactionDateTimeFrom: `${today}T00:00:00+09:00`,
      transactionDateTimeTo: `${yesterday}T23:59:59+09:00`,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(`[transactionDateTimeTo] ${await toError.textContent()}`);
    expect(await toError.textContent()).toBe('must not be earlier than transactionDateTimeFrom');
    expect(await page.getByLabel('取引日時（まで）').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('取引日時（から）').getAttribute('aria-invalid')).toBeNull();
    await screenshot(page, 'export-error');

    // The range right, the test store, seven columns ticked out of file order, newest sale first.
    await page.getByLabel('取引日時（まで）').fill(`${today}T23:59:59`);
    await page.getByLabel('店舗', { exact: true }).selectOption(store.storeId);
    await page.getByRole('button', { name: 'すべて解除' }).click();
    expect(await page.getByTestId('columns-count').getAttribute('data-count')).toBe('0');
    // No column: the screen says so on the picker (the API would read an empty `fields` as every column).
    await page.getByTestId('export-submit').click();
    const columnsError = page.locator('[data-field="fields"] > .field-error');
    expect(await columnsError.textContent()).toBe('出力する列を 1 つ以上選んでください。');
    expect(await page.locator('[data-field="fields"]').getAttribute('aria-invalid')).toBe('true');
    const chosen = ['productName', 'quantity', 'transactionHeadId', 'salesPrice', 'transactionDetailId', 'storeId', 'transactionDateTime'];
    for (const column of chosen) await page.locator(`input[name="fields"][value="${column}"]`).check();
    expect(await page.getByTestId('columns-count').getAttribute('data-count')).toBe(String(chosen.length));
    expect(await columnsError.count()).toBe(0);
    await page.getByLabel('並び順', { exact: true }).selectOption('transactionHeadId');
    await page.getByLabel('順序', { exact: true }).selectOption('desc');
    await page.getByTestId('export-submit').click();

    // The progress bar fills and the link comes, on this page's origin (the public URL's host is unreachable).
    await stateOf(page, 'succeeded').waitFor();
    const lines = sales.reduce((n, s) => n + s.details.length, 0);
    const progress = current(page).getByTestId('export-progress');
    expect([await progress.getAttribute('value'), await progress.getAttribute('max')]).toEqual([String(lines), String(lines)]);
    expect(await current(page).getByTestId('export-rows').textContent()).toBe(` ${lines} / ${lines} 行`);
    expect(await page.locator('[data-field="transactionDateTimeTo"] .field-error').count()).toBe(0);
    const requestCode = (await current(page).getAttribute('data-request-code'))!;
    const progressApi: Json = await api.call('GET', `/transactions/details/out_file_async/${requestCode}`);
    expect(progressApi.fileUrl.startsWith(`${PUBLIC_URL}/downloads/${progressApi.fileName}?`)).toBe(true);
    const link = current(page).getByTestId('download');
    const href = (await link.getAttribute('href'))!;
    expect(href).toBe(`${server.url}/downloads/${progressApi.fileName}${new URL(progressApi.fileUrl).search}`);
    expect(await link.textContent()).toMatch(new RegExp(`^${progressApi.fileName} をダウンロード（\\d+ byte）$`));
    await screenshot(page, 'export');

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(progressApi.fileName);
    const gz = readFileSync((await download.path())!);
    expect(gz.length).toBe(progressApi.fileBytes);
    const rows = parse(gunzipSync(gz).toString('utf8'), { relax_column_count: false }) as string[][];

    // The columns in the file's order (not the order they were ticked), the sales newest first, their lines in order.
    const header = EXPORT_COLUMNS.filter((c) => chosen.includes(c));
    expect(header).toEqual(['transactionHeadId', 'transactionDateTime', 'storeId', 'transactionDetailId', 'productName', 'salesPrice', 'quantity']);
    const expected = [...sales]
      .sort((a, b) => Number(b.transactionHeadId) - Number(a.transactionHeadId))
      .flatMap((s) =>
        s.details.map((d: Json) => [s.transactionHeadId, s.transactionDateTime, store.storeId, d.transactionDetailId, d.productName, d.salesPrice, d.quantity]),
      );
    expect(rows).toEqual([header, ...expected]);
    expect(rows.slice(1).map((r) => r[4])).toEqual(['Bag', 'Badge', 'Sticker', 'Cap\nnavy', 'Tee "Classic", white', 'Socks']);

    // A reload lists the export again (sessionStorage), still downloadable.
    await page.reload();
    await stateOf(page, 'succeeded').waitFor();
    expect(await current(page).getAttribute('data-request-code')).toBe(requestCode);
    expect(await current(page).getByTestId('download').getAttribute('href')).toBe(href);

    // A range without sales of the store: "no data"; the first export moves to the earlier list.
    const otherDay = new Date(Date.parse(`${today}T00:00:00Z`) - 20 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('取引日時（から）').fill(`${otherDay}T00:00:00`);
    await page.getByLabel('取引日時（まで）').fill(`${otherDay}T23:59:59`);
    await page.getByLabel('店舗', { exact: true }).selectOption(store.storeId);
    await page.getByTestId('export-submit').click();
    await stateOf(page, 'failed').waitFor();
    expect(await current(page).getByTestId('export-failure').textContent()).toBe('条件に合う取引明細がありません。');
    expect(await current(page).getByTestId('download').count()).toBe(0);
    const earlier = page.locator(`[data-testid="recent-exports"] tr[data-request-code="${requestCode}"]`);
    expect(await earlier.locator('[data-testid="export-state"]').getAttribute('data-status')).toBe('succeeded');
    expect(await earlier.getByTestId('download').getAttribute('href')).toBe(href);
    await screenshot(page, 'export-no-data');

    // In English: the same screen, the columns by their names alone.
    await page.getByTestId('lang').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Transaction detail CSV export' }).waitFor();
    expect(await current(page).getByTestId('export-failure').textContent()).toBe('No transaction lines match.');
    expect((await page.locator('[data-column="productName"]').textContent())!.trim()).toBe('productName');
    await page.context().close();
  }, 120_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from './support/browser.js';
import { demoApi, tokyoDay, tokyoToday, type DemoApi, type Json } from './support/demo-api.js';
import { startUiServer, type UiServer } from './support/server.js';
import { loginAs } from './support/session.js';

const yen = (n: number) => new Intl.NumberFormat('ja-JP', { style: 'currency', currency: 'JPY' }).format(n).replace('\uFFE5', '\u00A5');
const sum = (rows: Json[], pick: (t: Json) => unknown) => rows.reduce((n, t) => n + Number(pick(t) ?? 0), 0);
const counted = (t: Json) => t.transactionHeadDivision === '1' && t.cancelDivision !== '1';

/**
 * The today screen against `serve --demo` (demo-retail): two more sales through the API (one on
 * Register 2 paid by QR code and then settled, one cash sale on Register 1), then every figure
 * on screen is checked against the API's own transactions of the day.
 */
describe('today (browser)', () => {
  let server: UiServer;
  let browser: Browser;
  let api: DemoApi;
  const store = '1001';
  const ids: Record<string, string> = {};
  const ours: string[] = [];

  beforeAll(async () => {
    server = await startUiServer();
    browser = await launchBrowser();
    api = await demoApi(server, 'demo-retail');
    const terminals: Json[] = await api.call('GET', `/terminals?store_id=${store}`);
    for (const t of terminals) ids[t.terminalName] = t.terminalId;
    const methods: Json[] = await api.call('GET', '/payment_methods');
    ids.QR = methods.find((m) => m.paymentMethodCode === 'QR').paymentMethodId;
    const now = new Date().toISOString();
    const line = (name: string, price: string, quantity = '1') => ({ transactionDetailId: '1', productName: name, salesPrice: price, quantity });
    const qrSale: Json = await api.call('POST', '/transactions', {
      transactionHeadDivision: '1', storeId: store, terminalId: ids['Register 2'], terminalTranDateTime: now,
      details: [line('Tea', '1000')], depositOthers: [{ no: '1', paymentMethodId: ids.QR, depositOthers: '1000' }],
    });
    ours.push(qrSale.transactionHeadId);
    await api.call('POST', '/adjustments', { storeId: store, terminalId: ids['Register 2'] });
    const cashSale: Json = await api.call('POST', '/transactions', {
      transactionHeadDivision: '1', storeId: store, terminalId: ids['Register 1'], terminalTranDateTime: now,
      details: [line('Cake', '2500', '2')], depositCash: '5000',
    });
    ours.push(cashSale.transactionHeadId);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the day's sales by terminal and payment method, open terminals and unsettled transactions as the API has them", async () => {
    const day = tokyoDay(tokyoToday());
    const q = new URLSearchParams({ store_id: store, 'terminal_tran_date_time-from': day.from, 'terminal_tran_date_time-to': day.to, with_deposit_others: 'all', limit: '1000' });
    const all: Json[] = await api.call('GET', `/transactions?${q}`);
    const sales = all.filter(counted);
    const unsettled = all.filter((t) => t.sumDivision === '0');
    // Ours are among the day's sales: the scene is what the test thinks it is. The demo's own
    // sales (10 to 120 minutes old) belong to the day before in Tokyo just after its midnight.
    expect(sales.map((t) => t.transactionHeadId)).toEqual(expect.arrayContaining(ours));
    const total = sum(sales, (t) => t.total);
    const of = (terminal: string) => sales.filter((t) => t.terminalId === ids[terminal]);

    const page = await newPage(browser);
    await loginAs(page, server, 'demo-retail');
    await page.getByRole('heading', { level: 1, name: '本日の売上' }).waitFor();
    const totalCell = page.getByTestId('today-total');
    await totalCell.waitFor();
    expect(await totalCell.getAttribute('data-value')).toBe(String(total));
    expect(await totalCell.textContent()).toBe(yen(total));
    expect(await page.getByTestId('today-count').getAttribute('data-value')).toBe(String(sales.length));

    // By terminal: Register 1 still has unsettled sales (open), Register 2 was settled, the self-checkout sold nothing.
    const row = (terminal: string) => page.locator(`[data-testid="today-terminals"] tr[data-terminal-id="${ids[terminal]}"]`);
    expect(await row('Register 1').getAttribute('data-status')).toBe('open');
    expect(await row('Register 1').locator('td').nth(2).getAttribute('data-value')).toBe(String(sum(of('Register 1'), (t) => t.total)));
    expect(await row('Register 2').getAttribute('data-status')).toBe('settled');
    expect(await row('Register 2').locator('td').nth(2).getAttribute('data-value')).toBe(String(sum(of('Register 2'), (t) => t.total)));
    expect(await row('Register 2').locator('td').nth(2).textContent()).toBe(yen(1000));
    expect(await row('Self-checkout 1').getAttribute('data-status')).toBe('idle');
    expect(await row('Register 1').locator('th').textContent()).toBe('Register 1');
    expect(await page.getByTestId('today-open').getAttribute('data-value')).toBe('1');

    // By payment method: cash and the QR code payment, as the API's transactions add up.
    const payment = (key: string) => page.locator(`[data-testid="today-payments"] tr[data-payment="${key}"] td`);
    expect(await payment('cash').getAttribute('data-value')).toBe(String(sum(sales, (t) => t.cashTotal)));
    expect(await payment(`method:${ids.QR}`).getAttribute('data-value')).toBe('1000');
    expect(await page.locator(`[data-testid="today-payments"] tr[data-payment="method:${ids.QR}"] th`).textContent()).toBe('QR code payment');

    // Unsettled: exactly the API's unprocessed transactions of the day.
    expect(await page.getByTestId('today-unsettled-count').getAttribute('data-value')).toBe(String(unsettled.length));
    const shown = await page.locator('[data-testid="today-unsettled"] tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-transaction-id')));
    expect(shown.sort()).toEqual(unsettled.map((t) => t.transactionHeadId).sort());
    await screenshot(page, 'today');

    // Several stores: a labelled picker; the warehouse sold nothing today.
    await page.getByLabel('店舗').selectOption({ label: 'Demo Warehouse Kawasaki（倉庫）' });
    await page.waitForURL(/#\/today\?store=/);
    await page.locator('[data-testid="today-total"][data-value="0"]').waitFor();
    expect(await page.getByTestId('today-unsettled-count').getAttribute('data-value')).toBe('0');

    // English labels.
    await page.getByLabel('言語').selectOption('en');
    await page.getByRole('heading', { level: 1, name: "Today's sales" }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'By payment method' }).waitFor();
  });
});

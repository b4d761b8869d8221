import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from './support/browser.js';
import { startUiServer, type UiServer } from './support/server.js';
import { loginAs } from './support/session.js';

type Json = Record<string, any>;

/** `YYYY-MM-DD` in Tokyo (the demo contracts' zone), `days` from today. */
const tokyoDate = (days = 0) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date(Date.now() + days * 86_400_000));

/**
 * The reservation screens against `serve --demo`: the day view places a reservation made through
 * the API on its table's row; a reservation made in the form shows the server's field error on
 * the field, then saves and cancels; the orders of a table use with items and totals; the
 * notice a retail contract gets.
 */
describe('reservations (browser)', () => {
  let server: UiServer;
  let browser: Browser;
  let token: string;
  let storeId: string;
  let tables: Map<string, string>;

  const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const res = await fetch(`${server.url}/demo-food${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
  const ok = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await api(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
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
    const stores = (await ok('GET', '/pos/stores')) as Json[];
    storeId = stores.find((s) => s.division === '1')!.storeId;
    tables = new Map(((await ok('GET', `/pos/tables?store_id=${storeId}`)) as Json[]).map((t) => [t.name, t.tableId]));
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a day of reservations by table, shows a field error from the API in the form, then creates and cancels one', async () => {
    const day = tokyoDate(2);
    const made = await ok('POST', '/waiter/reservations', {
      storeId,
      startAt: `${day}T19:00:00+09:00`,
      endAt: `${day}T21:00:00+09:00`,
      persons: { adults: 3, children: 1 },
      reservationPersonName: 'グリッド 太郎',
      tableIds: [tables.get('B1')],
      note: 'Window seat',
    });

    const page = await newPage(browser);
    await loginAs(page, server, 'demo-food');
    await page.goto(`${server.uiUrl}#/reservations?date=${day}&store=${storeId}`);
    await page.getByRole('heading', { level: 1, name: '予約（日別・テーブル別）' }).waitFor();
    expect(await page.getByLabel('日付', { exact: true }).inputValue()).toBe(day);

    // On the B1 row of the grid, placed by its time, with its details; on no other row.
    const block = page.locator(`tr[data-table="B1"] button[data-reservation="${made.id}"]`);
    await block.waitFor();
    const label = await block.getAttribute('aria-label');
    expect(label).toContain('19:00–21:00');
    expect(label).toContain('グリッド 太郎');
    expect(label).toContain('4名');
    expect(label).toContain('来店待ち');
    expect(await page.locator(`tr[data-table="A1"] [data-reservation="${made.id}"]`).count()).toBe(0);
    const listed = page.locator(`table.resv-list tr[data-reservation="${made.id}"]`);
    expect(await listed.textContent()).toContain('Window seat');
    expect(await listed.textContent()).toContain('B1');
    await screenshot(page, 'reservations');

    // The day picker moves a day and back.
    await page.getByRole('button', { name: '翌日' }).click();
    await page.waitForURL(new RegExp(`date=${tokyoDate(3)}`));
    await page.getByRole('button', { name: '前日' }).click();
    await page.waitForURL(new RegExp(`date=${day}`));
    await block.waitFor();

    // A new reservation: the server refuses the phone number, and says so under the phone field.
    await page.getByRole('button', { name: '新規予約' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('開始').fill('12:00');
    await dialog.getByLabel('終了').fill('13:30');
    await dialog.getByLabel('大人').fill('2');
    await dialog.getByLabel('お名前', { exact: true }).fill('フォーム 花子');
    await dialog.getByLabel('電話番号').fill('call me');
    await dialog.getByRole('checkbox', { name: 'A3' }).check();
    await dialog.getByRole('button', { name: '保存' }).click();
    const phoneError = dialog.locator('[data-field="phoneNumber"] .field-error');
    await phoneError.waitFor();
    expect(await phoneError.textContent()).toContain('digits and hyphens');
    expect(await dialog.getByLabel('電話番号').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'reservations-form-error');

    await dialog.getByLabel('電話番号').fill('03-1234-5678');
    await dialog.getByRole('button', { name: '保存' }).click();
    await page.getByRole('status').filter({ hasText: '予約を保存しました。' }).waitFor();
    const created = page.locator('tr[data-table="A3"] button.resv-block', { hasText: 'フォーム 花子' });
    await created.waitFor();
    expect(await created.getAttribute('aria-label')).toContain('12:00–13:30');
    const id = await created.getAttribute('data-reservation');
    const stored = await ok('GET', `/waiter/reservations/${id}`);
    expect(stored).toMatchObject({ phoneNumber: '03-1234-5678', persons: { adults: 2, children: 0 }, tables: [{ name: 'A3' }], status: 'waiting' });
    expect(stored.startAt).toBe(`${day}T12:00:00+09:00`);

    // Open it again and cancel it: the block turns canceled and the API agrees.
    await created.click();
    await page.getByRole('dialog').getByRole('button', { name: '予約を取消' }).click();
    await page.getByRole('status').filter({ hasText: '予約を取り消しました。' }).waitFor();
    await page.locator(`tr[data-table="A3"] button.resv-canceled[data-reservation="${id}"]`).waitFor();
    expect((await ok('GET', `/waiter/reservations/${id}`)).status).toBe('canceled');
    await page.context().close();
  });

  it('lists the table uses of today and shows the orders of one with items, prices and totals', async () => {
    const first = await ok('POST', '/waiter/orders', {
      storeId,
      tableIds: [tables.get('A2')],
      items: [
        { name: 'テスト パスタ', quantity: 2, sellingPrice: { amount: '1200' }, toppings: [{ name: 'Extra cheese', amount: '150' }] },
        { name: 'Coffee', sellingPrice: { amount: '450' }, discount: { type: 'amount', amount: '50' }, status: 'provided' },
      ],
    });
    const tableUseId = first.tableUseId as string;
    await ok('POST', `/waiter/table_uses/${tableUseId}/orders`, { items: [{ name: 'Tiramisu', sellingPrice: { amount: '580', taxType: 'reduced' } }] });
    // (1200 + 150) × 2 + (450 − 50) + 580
    const expectedTotal = '¥3,680';

    const page = await newPage(browser);
    await loginAs(page, server, 'demo-food');
    await page.goto(`${server.uiUrl}#/reservations?store=${storeId}`);
    const row = page.locator(`[data-testid="table-uses"] tr[data-table-use="${tableUseId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('A2');
    await screenshot(page, 'reservations-today');
    await row.getByRole('link', { name: /注文を見る/ }).click();
    await page.waitForURL(new RegExp(`#/reservations/table-uses/${tableUseId}$`));

    await page.getByRole('heading', { level: 1, name: `テーブル利用 ${tableUseId} の注文` }).waitFor();
    await page.getByTestId('table-use-total').waitFor();
    expect(await page.getByTestId('table-use-tables').textContent()).toBe('A2');
    expect(await page.getByTestId('table-use-status').textContent()).toBe('利用中');
    expect(await page.locator('table.table-use-order').count()).toBe(2);
    const pasta = page.locator('table.table-use-order tr', { hasText: 'テスト パスタ' });
    expect(await pasta.locator('td').nth(1).textContent()).toBe('2');
    expect(await pasta.locator('td').nth(4).textContent()).toBe('¥2,700');
    expect(await pasta.textContent()).toContain('Extra cheese');
    const coffee = page.locator('table.table-use-order tr', { hasText: 'Coffee' });
    expect(await coffee.locator('td').nth(3).textContent()).toBe('−¥50');
    expect(await coffee.textContent()).toContain('提供済み');
    expect(await page.getByTestId('order-total').allTextContents()).toEqual(['¥3,100', '¥580']);
    expect(await page.getByTestId('table-use-total').textContent()).toBe(expectedTotal);
    await screenshot(page, 'table-use-orders');

    // English labels, same figures.
    await page.getByLabel('言語').selectOption('en');
    await page.getByRole('heading', { level: 1, name: `Orders of table use ${tableUseId}` }).waitFor();
    expect(await page.getByTestId('table-use-status').textContent()).toBe('In use');
    expect(await page.getByTestId('table-use-total').textContent()).toBe(expectedTotal);
    await page.context().close();
  });

  it('reads every page of a busy day (more reservations than one page of 100)', async () => {
    const day = tokyoDate(5);
    const count = 101;
    for (let i = 0; i < count; i++) {
      const minute = String(i % 60).padStart(2, '0');
      await ok('POST', '/waiter/reservations', {
        storeId,
        startAt: `${day}T${11 + Math.floor(i / 60)}:${minute}:00+09:00`,
        endAt: `${day}T${13 + Math.floor(i / 60)}:${minute}:00+09:00`,
        persons: { adults: 1, children: 0 },
        reservationPersonName: `Busy ${i + 1}`,
        tableIds: [tables.get('Counter')],
      });
    }
    const page = await newPage(browser);
    await loginAs(page, server, 'demo-food');
    await page.goto(`${server.uiUrl}#/reservations?date=${day}&store=${storeId}`);
    await page.locator('table.resv-list').waitFor();
    expect(await page.locator('table.resv-list tbody tr').count()).toBe(count);
    expect(await page.locator('tr[data-table="Counter"] button.resv-block').count()).toBe(count);
    await page.locator('tr[data-table="Counter"] button.resv-block', { hasText: `Busy ${count}` }).waitFor();
    await page.context().close();
  });

  it('tells a retail contract that reservations are a Food Business feature', async () => {
    const page = await newPage(browser);
    await loginAs(page, server, 'demo-retail');
    await page.goto(`${server.uiUrl}#/reservations`);
    const notice = page.getByTestId('plan-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('フードビジネス');
    expect(await page.locator('table.resv-grid').count()).toBe(0);
    await page.context().close();
  });
});

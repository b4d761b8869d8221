import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from './support/browser.js';
import { demoApi, type DemoApi, type Json } from './support/demo-api.js';
import { loginAs } from './support/session.js';
import { useDemoUi } from './support/suite.js';

/**
 * The stocktaking screens (issue 26) against `serve --demo` (demo-retail): a stocktaking of one
 * category started from the inventory hub, counts entered by scanning product codes (one per
 * scan), by code and count, and in the table, the differences to the stock, completion after a
 * confirmation, and the stock then equal to the counts (with stock changes of division 08).
 * The category, products and stock are made through the API with the demo client first.
 */
describe('stocktaking (browser)', () => {
  let api: DemoApi;
  let store: Json;
  let category: Json;
  let tea: Json;
  let cup: Json;

  const ui = useDemoUi(async () => {
    api = await demoApi(ui.server, 'demo-retail');
    store = ((await api.call('GET', '/stores')) as Json[]).find((s) => s.division === '1');
    category = await api.call('POST', '/categories', { categoryName: 'Stocktaking Tea' });
    tea = await api.call('POST', '/products', { categoryId: category.categoryId, productName: 'Sencha 100g', productCode: 'STK-TEA', price: '1200', cost: '500' });
    cup = await api.call('POST', '/products', { categoryId: category.categoryId, productName: 'Tea cup', productCode: 'STK-CUP', price: '800' });
    await api.call('PATCH', `/stock/${tea.productId}`, { storeId: store.storeId, stockAmount: '10' });
    await api.call('PATCH', `/stock/${cup.productId}`, { storeId: store.storeId, stockAmount: '5' });
  });

  const row = (page: Page, product: Json) => page.locator(`[data-testid="count-table"] tr[data-product="${product.productId}"]`);
  const cell = async (page: Page, product: Json, testId: string) => (await row(page, product).getByTestId(testId).textContent())!.trim();

  it('counts a category by scanning and typing, shows the differences and completes into the stock', async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await page.goto(`${ui.server.uiUrl}#/inventory`);
    await page.locator('.inv-hub').getByRole('link', { name: '棚卸' }).click();
    await page.getByRole('heading', { level: 1, name: '棚卸' }).waitFor();
    await page.getByRole('button', { name: '新規棚卸' }).click();

    const form = page.getByTestId('stocktaking-create');
    await form.getByLabel('店舗', { exact: true }).selectOption(store.storeId);
    await form.getByLabel('部門を選ぶ').check();
    // Choosing no category is the API's refusal, shown on the category list.
    await form.getByRole('button', { name: '棚卸を始める' }).click();
    await form.locator('[data-field="categoryIds"] .field-error').waitFor();
    await form.getByLabel('Stocktaking Tea').check();
    await screenshot(page, 'inventory-stocktaking-new');
    await form.getByRole('button', { name: '棚卸を始める' }).click();
    await page.waitForURL(/#\/inventory\/stocktaking\/\d+\?created=1$/);
    const id = /stocktaking\/(\d+)/.exec(page.url())![1]!;
    const detail = page.getByTestId('stocktaking-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('status').textContent()).toBe('棚卸中');
    expect(await detail.getByTestId('store').textContent()).toBe(store.storeName);
    await expect.poll(async () => detail.getByTestId('target').textContent()).toBe('部門別：Stocktaking Tea');
    await row(page, tea).waitFor();
    expect(await page.locator('[data-testid="count-table"] tbody tr').count()).toBe(2);
    expect(await cell(page, tea, 'stock')).toBe('10');

    // Scanning: the code field has the focus; each Enter adds one.
    const code = page.getByLabel('商品コード');
    await code.waitFor();
    for (let i = 0; i < 2; i++) {
      await code.fill('STK-TEA');
      await code.press('Enter');
      await expect.poll(async () => row(page, tea).getByLabel('STK-TEA Sencha 100g の棚卸数').inputValue()).toBe(String(i + 1));
    }
    // By code and count: Enter in the code goes to the count, Enter there replaces the count.
    await page.getByLabel('1つずつ加算').uncheck();
    await code.fill('STK-CUP');
    await code.press('Enter');
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await expect.poll(() => cell(page, cup, 'diff')).toBe('+2');
    expect(await cell(page, tea, 'diff')).toBe('-8');
    // An unknown code is said so under the code field.
    await code.fill('NO-SUCH');
    await code.press('Enter');
    expect(await page.locator('[data-field="productCode"] .field-error').textContent()).toBe('商品コード NO-SUCH の商品はありません。');
    // In the table: a new count for the tea replaces the scanned one.
    const teaCount = row(page, tea).getByLabel('STK-TEA Sencha 100g の棚卸数');
    await teaCount.fill('9');
    await teaCount.press('Enter');
    await expect.poll(() => cell(page, tea, 'diff')).toBe('-1');
    expect(await page.getByTestId('progress').textContent()).toBe('2 / 2 商品を入力済み');
    await screenshot(page, 'inventory-stocktaking');

    // Completing asks first; cancelling changes nothing.
    await page.getByRole('button', { name: '棚卸を完了' }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.textContent()).toMatch(/入力済みの 2 商品/);
    await dialog.getByRole('button', { name: 'やめる' }).click();
    expect(await api.call('GET', `/stock?store_id=${store.storeId}&product_id=${tea.productId}`)).toEqual([expect.objectContaining({ stockAmount: '10' })]);
    await page.getByRole('button', { name: '棚卸を完了' }).click();
    await dialog.getByRole('button', { name: '完了する' }).click();
    await page.locator('[data-testid="stocktaking-detail"][data-status="2"]').waitFor();
    expect(await detail.getByTestId('notice').textContent()).toMatch(/棚卸を完了しました/);
    expect(await cell(page, tea, 'stock')).toBe('10'); // the stock before the count
    expect(await cell(page, tea, 'count')).toBe('9');
    expect(await page.getByLabel('商品コード').count()).toBe(0);

    // The stock is the count now, each difference a stock change of division 08.
    expect(await api.call('GET', `/stock?store_id=${store.storeId}&product_id=${tea.productId}`)).toEqual([expect.objectContaining({ stockAmount: '9' })]);
    expect(await api.call('GET', `/stock?store_id=${store.storeId}&product_id=${cup.productId}`)).toEqual([expect.objectContaining({ stockAmount: '7' })]);
    expect(await api.call('GET', `/stock/changes/${tea.productId}/${store.storeId}?stock_division=08`)).toEqual([expect.objectContaining({ amount: '-1', stockDivision: '08' })]);

    // The list shows it complete; English labels on request.
    await page.goto(`${ui.server.uiUrl}#/inventory/stocktaking`);
    const listed = page.locator(`[data-testid="stocktaking-table"] tr[data-stocktaking="${id}"]`);
    expect(await listed.getByTestId('status').textContent()).toBe('完了');
    await screenshot(page, 'inventory-stocktaking-list');
    await page.getByTestId('lang').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Stocktaking' }).waitFor();
    await page.getByRole('button', { name: 'New stocktaking' }).waitFor();
    await page.goto(`${ui.server.uiUrl}#/inventory/stocktaking/${id}`);
    expect(await page.getByTestId('status').textContent()).toBe('Complete');
    await row(page, tea).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Stock before' }).count()).toBe(1);
    await expect.poll(async () => page.getByTestId('target').textContent()).toBe('By category: Stocktaking Tea');
    await screenshot(page, 'inventory-stocktaking-en');
    await page.getByTestId('lang').selectOption('ja');
    await page.context().close();
  }, 180_000);
});

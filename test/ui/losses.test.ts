import { describe, expect, it } from 'vitest';
import { newPage, screenshot } from './support/browser.js';
import { demoApi, type DemoApi, type Json } from './support/demo-api.js';
import { loginAs } from './support/session.js';
import { useDemoUi } from './support/suite.js';

/**
 * The loss screen (issue 26) against `serve --demo` (demo-retail): loss divisions added in the
 * panel under the list, a loss registered (an API validation error shown on its line first),
 * the stock going down with a loss movement (stock division 14) on the stock screen, its
 * quantity edited, a division in use refused, the loss deleted and the stock back; then the
 * same screen in English. The product and its stock are made through the API first.
 */
describe('losses (browser)', () => {
  let api: DemoApi;
  let store: Json;
  let product: Json;

  const ui = useDemoUi(async () => {
    api = await demoApi(ui.server, 'demo-retail');
    store = ((await api.call('GET', '/stores')) as Json[]).find((s) => s.division === '1');
    const categoryId = ((await api.call('GET', '/categories')) as Json[])[0].categoryId;
    product = await api.call('POST', '/products', { categoryId, productName: 'Loss Test Glass', productCode: 'LOSS-GLASS', price: '800', cost: '300' });
    await api.call('PATCH', `/stock/${product.productId}`, { storeId: store.storeId, stockAmount: '20' });
  });

  const stockOf = async (): Promise<string | undefined> =>
    ((await api.call('GET', `/stock?store_id=${store.storeId}&product_id=${product.productId}`)) as Json[])[0]?.stockAmount;

  it('registers, edits and deletes a loss, with its divisions, and the stock follows', async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await page.getByRole('link', { name: '在庫', exact: true }).click();
    await page.locator('.inv-hub').getByRole('link', { name: 'ロス登録' }).click();
    await page.getByRole('heading', { level: 1, name: 'ロス登録' }).waitFor();

    // Two divisions, added in the panel under the list.
    const panel = page.getByTestId('loss-divisions');
    for (const [code, name] of [['1', '廃棄'], ['2', '盗難']]) {
      await panel.getByLabel('区分コード').fill(code!);
      await panel.getByLabel('区分名').fill(name!);
      await panel.getByRole('button', { name: '区分を追加' }).click();
      await panel.locator(`tr[data-division="${code}"]`).waitFor();
    }
    expect(await panel.getByTestId('division-notice').textContent()).toBe('ロス区分 2 を追加しました。');

    await page.getByRole('button', { name: '新規ロス登録' }).click();
    const form = page.getByTestId('loss-create');
    await form.getByLabel('店舗').selectOption(store.storeId);
    await form.getByLabel('ロス区分').selectOption('1');
    await form.getByLabel('発生日時').fill('2026-11-20T18:30');
    await form.getByLabel('メモ').fill('落として割れた');
    await form.getByLabel('1 行目 商品').fill('LOSS-GLASS');
    await form.getByLabel('1 行目 数量').fill('100000');
    await form.getByRole('button', { name: 'ロスを登録' }).click();
    // The API's `[details[0].quantity]` shows under line 1's quantity.
    const qtyError = form.locator('[data-field="details[0].quantity"] .field-error');
    await qtyError.waitFor();
    expect(await qtyError.textContent()).toMatch(/99999/);
    expect(await stockOf()).toBe('20');

    await form.getByLabel('1 行目 数量').fill('3');
    await form.getByRole('button', { name: 'ロスを登録' }).click();
    await page.waitForURL(/#\/inventory\/losses\/\d+\?created=1$/);
    const lossId = /losses\/(\d+)/.exec(page.url())![1]!;
    const detail = page.getByTestId('loss-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('notice').textContent()).toBe('ロスを登録しました。店舗の在庫を減らしました。');
    expect(await detail.getByTestId('division').textContent()).toBe('1 廃棄');
    expect(await detail.locator(`[data-testid="loss-lines"] tr[data-product="${product.productId}"] [data-testid="quantity"]`).textContent()).toBe('3');
    expect(await stockOf()).toBe('17');
    await screenshot(page, 'losses-detail');

    // The stock screen's history shows the loss: stock division 14, −3, dated when it happened.
    await page.goto(`${ui.server.uiUrl}#/inventory/stock?store=${store.storeId}`);
    await page.getByRole('button', { name: `${store.storeName} の LOSS-GLASS Loss Test Glass の履歴を見る` }).click();
    const movement = page.locator('[data-testid="movements"] tbody tr').first();
    await movement.waitFor();
    expect(await movement.getAttribute('data-division')).toBe('14');
    expect(await movement.getByTestId('change').textContent()).toBe('-3');
    const changes = (await api.call('GET', `/stock/changes/${product.productId}/${store.storeId}?stock_division=14`)) as Json[];
    expect(changes.map((c) => [c.amount, c.targetDateTime])).toEqual([['-3', '2026-11-20T18:30:00+09:00']]);

    // Edit: 3 → 2 gives one back; the division becomes 盗難.
    await page.goto(`${ui.server.uiUrl}#/inventory/losses/${lossId}`);
    const edit = page.getByTestId('loss-edit');
    await edit.getByLabel('1 行目 数量').fill('2');
    await edit.getByLabel('ロス区分').selectOption('2');
    await edit.getByRole('button', { name: '変更を保存' }).click();
    await detail.getByTestId('notice').filter({ hasText: 'ロスを保存しました。' }).waitFor();
    // The notice comes with the save's answer; the record shown is read again after it.
    await detail.getByTestId('division').filter({ hasText: '2 盗難' }).waitFor();
    expect(await detail.getByTestId('division').textContent()).toBe('2 盗難');
    expect(await stockOf()).toBe('18');

    // The list shows it; a division it uses cannot be deleted.
    await page.goto(`${ui.server.uiUrl}#/inventory/losses`);
    const row = page.locator(`[data-testid="losses-table"] tr[data-loss="${lossId}"]`);
    await row.waitFor();
    expect(await row.getByTestId('division').textContent()).toBe('2 盗難');
    await panel.getByRole('button', { name: 'ロス区分 2 を削除' }).click();
    const refused = panel.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toContain(`loss division 2 is used by loss ${lossId}`);
    await screenshot(page, 'losses-list');

    // Delete the loss: the quantity comes back.
    await page.goto(`${ui.server.uiUrl}#/inventory/losses/${lossId}`);
    page.once('dialog', (dialog) => void dialog.accept());
    await detail.getByRole('button', { name: 'このロスを削除' }).click();
    await page.waitForURL(/#\/inventory\/losses\?deleted=\d+$/);
    expect(await page.getByTestId('notice').textContent()).toBe(`ロス ${lossId} を削除しました。数量を店舗の在庫に戻しました。`);
    expect(await stockOf()).toBe('20');
    await page.context().close();
  }, 180_000);

  it('speaks English when asked', async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await page.goto(`${ui.server.uiUrl}#/inventory/losses`);
    await page.getByTestId('lang').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Losses' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Loss divisions' }).waitFor();
    await page.getByRole('button', { name: 'New loss' }).click();
    const form = page.getByTestId('loss-create');
    await form.getByLabel('Happened at').waitFor();
    await form.getByRole('button', { name: 'Register the loss' }).waitFor();
    await screenshot(page, 'losses-create-en');
    await page.getByTestId('lang').selectOption('ja');
    await page.context().close();
  }, 120_000);
});

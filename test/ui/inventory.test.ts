import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from './support/browser.js';
import { demoApi, type DemoApi, type Json } from './support/demo-api.js';
import { loginAs } from './support/session.js';
import { useDemoUi } from './support/suite.js';
import { remapPositions } from '../../app/ui/src/screens/inventory/fields.js';
import { cost } from '../../app/ui/src/shared/format.js';

/**
 * The inventory screens against `serve --demo` (demo-retail): one store-to-store shipping round
 * trip in the browser — create (an API validation error shown on its line's field first), send,
 * the stock leaving the shipping store on the stock screen, inspection, a modification request,
 * an edit of the shipping under it, its completion, receiving complete and the stock arriving at
 * the receiving store — then a shipment through approval, a purchase order with products ×
 * delivery stores, and the notice another plan gets. The stores and products are made through
 * the API with the demo client's credentials first.
 */
describe('inventory (browser)', () => {
  let api: DemoApi;
  let from: Json;
  let to: Json;
  let productA: Json;
  let productB: Json;

  const ui = useDemoUi(async () => {
    api = await demoApi(ui.server, 'demo-retail');
    const stores = (await api.call('GET', '/stores')) as Json[];
    from = stores.find((s) => s.division === '1');
    to = await api.call('POST', '/stores', { storeName: 'Inventory Test Yokohama', storeCode: 'INV-YOK' });
    const categoryId = ((await api.call('GET', '/categories')) as Json[])[0].categoryId;
    productA = await api.call('POST', '/products', { categoryId, productName: 'Inventory Tee A', productCode: 'INV-TEE-A', price: '2000', cost: '900.5' });
    productB = await api.call('POST', '/products', { categoryId, productName: 'Inventory Tee B', productCode: 'INV-TEE-B', price: '2500' });
    await api.call('PATCH', `/stock/${productA.productId}`, { storeId: from.storeId, stockAmount: '50' });
    await api.call('PATCH', `/stock/${productB.productId}`, { storeId: from.storeId, stockAmount: '30' });
  });

  const stockOf = async (storeId: string, productId: string): Promise<string | undefined> =>
    ((await api.call('GET', `/stock?store_id=${storeId}&product_id=${productId}`)) as Json[])[0]?.stockAmount;

  /** The stock screen filtered to a store: the quantity shown for a product. */
  async function shownStock(page: Page, storeId: string, productId: string): Promise<string> {
    await page.goto(`${ui.server.uiUrl}#/inventory/stock?store=${storeId}`);
    const cell = page.locator(`[data-testid="stock-table"] tr[data-store="${storeId}"][data-product="${productId}"] [data-testid="amount"]`);
    await cell.waitFor();
    return (await cell.textContent())!.trim();
  }

  it('takes a shipping from creation through a modification request to receiving, with the stock on the stock screen', async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await page.getByRole('link', { name: '在庫', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: '在庫' }).waitFor();
    await page.locator('.inv-hub').getByRole('link', { name: '店舗間出庫・入庫' }).click();
    await page.getByRole('button', { name: '新規出庫' }).click();

    // The form: stores, two lines (by product code); the first quantity is beyond the API's 99999.
    const form = page.getByTestId('shipping-create');
    await form.getByLabel('出庫元店舗').selectOption(from.storeId);
    await form.getByLabel('入庫先店舗').selectOption(to.storeId);
    await form.getByLabel('1 行目 商品').fill('INV-TEE-A');
    await form.getByLabel('1 行目 数量').fill('100000');
    await form.getByRole('button', { name: '行を追加' }).click();
    await form.getByLabel('2 行目 商品').fill('INV-TEE-B');
    await form.getByLabel('2 行目 数量').fill('5');
    await form.getByRole('button', { name: '出庫を登録' }).click();

    // The API's `[details[0].quantity]` is shown under line 1's quantity, which is marked invalid.
    const qtyError = form.locator('[data-field="details[0].quantity"] .field-error');
    await qtyError.waitFor();
    expect(await qtyError.textContent()).toMatch(/99999/);
    expect(await form.getByLabel('1 行目 数量').getAttribute('aria-invalid')).toBe('true');
    expect(await form.locator('[data-field="details[1].quantity"] .field-error').count()).toBe(0);
    expect(await form.getByLabel('1 行目 商品').getAttribute('aria-invalid')).toBeNull();

    await form.getByLabel('1 行目 数量').fill('10');
    await form.getByRole('button', { name: '出庫を登録' }).click();
    await page.waitForURL(/#\/inventory\/shipping\/\d+\?created=1$/);
    const shippingId = /shipping\/(\d+)/.exec(page.url())![1]!;
    const detail = page.getByTestId('shipping-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('status').textContent()).toBe('未出庫');
    expect(await detail.getByTestId('from').textContent()).toBe(from.storeName);
    expect(await detail.getByTestId('to').textContent()).toBe('Inventory Test Yokohama');

    // Send: status 0 → 1; the receiving side appears with the scheduled quantities.
    await detail.getByRole('button', { name: '出庫する' }).click();
    await page.locator('[data-testid="shipping-detail"][data-status="1"]').waitFor();
    expect(await detail.getByTestId('notice').textContent()).toMatch(/出庫しました/);
    const receiving = page.getByTestId('receiving');
    const row = (product: Json) => receiving.locator(`tr[data-product="${product.productId}"]`);
    expect(await row(productA).getByTestId('scheduled').textContent()).toBe('10');
    await screenshot(page, 'inventory-shipping');

    // The stock left the shipping store: 50 − 10 and 30 − 5, on the stock screen, with the platform's stock division (04 出庫).
    expect(await shownStock(page, from.storeId, productA.productId)).toBe('40');
    expect(await shownStock(page, from.storeId, productB.productId)).toBe('25');
    await page.getByRole('button', { name: `${from.storeName} の INV-TEE-A Inventory Tee A の履歴を見る` }).click();
    const movement = page.locator('[data-testid="movements"] tbody tr').first();
    await movement.waitFor();
    expect(await movement.getAttribute('data-division')).toBe('04');
    expect(await movement.getByRole('cell', { name: '出庫', exact: true }).count()).toBe(1);
    expect(await movement.getByTestId('change').textContent()).toBe('-10');
    expect(await movement.getByRole('cell', { name: `${from.storeName} → Inventory Test Yokohama` }).count()).toBe(1);

    // Inspection: A counted 8 of 10 (so the receiving stays open), B 5 of 5.
    await page.goto(`${ui.server.uiUrl}#/inventory/shipping/${shippingId}`);
    await row(productA).getByLabel('INV-TEE-A Inventory Tee A 検品数').fill('8');
    await row(productB).getByLabel('INV-TEE-B Inventory Tee B 検品数').fill('5');
    await receiving.getByRole('button', { name: '検品を開始・保存' }).click();
    await page.locator('[data-testid="shipping-detail"][data-status="2"]').waitFor();
    expect(await row(productA).getByTestId('inspected').textContent()).toBe('未検品');
    expect(await row(productB).getByTestId('inspected').textContent()).toBe('検品済');

    // The modification request (4.2): memo replaces the memo; the receiving is locked, saying why.
    const panel = page.getByTestId('modification-panel');
    await panel.getByLabel('依頼メモ').fill('A は 8 枚でした');
    await panel.getByRole('button', { name: '修正を依頼する' }).click();
    await page.locator('[data-testid="shipping-detail"][data-modification="1"]').waitFor();
    expect(await panel.getByTestId('mod-state').textContent()).toBe('修正依頼中');
    expect(await panel.getByTestId('mod-requested-at').textContent()).toMatch(/\d{4}\/\d{2}\/\d{2} \d{1,2}:\d{2}/);
    expect(await panel.getByTestId('mod-checked-at').textContent()).toBe('—');
    expect(await detail.getByTestId('memo').textContent()).toBe('A は 8 枚でした');
    await page.locator('[data-testid="receiving"][data-locked="true"]').waitFor();
    expect(await page.getByTestId('receiving-locked').textContent()).toMatch(/修正依頼中のため/);
    expect(await row(productA).getByLabel('INV-TEE-A Inventory Tee A 検品数').isDisabled()).toBe(true);
    await screenshot(page, 'inventory-shipping-request');

    // An edit of the shipping under the request: A 10 → 8. It waits for the completion to reach the receiving side.
    const edit = page.getByTestId('shipping-edit');
    const lineA = edit.locator('tr', { has: page.getByText('INV-TEE-A Inventory Tee A', { exact: true }) });
    await lineA.getByRole('spinbutton').fill('8');
    await edit.getByRole('button', { name: '出庫内容を保存' }).click();
    await page.getByTestId('notice').filter({ hasText: '出庫内容を保存しました' }).waitFor();
    expect(await row(productA).getByTestId('scheduled').textContent()).toBe('10');

    // Completion (4.19): the request closes with its time, the receiving takes 8 and unlocks.
    await panel.getByRole('button', { name: '修正完了' }).click();
    await page.locator('[data-testid="shipping-detail"][data-modification="2"]').waitFor();
    expect(await panel.getByTestId('mod-state').textContent()).toBe('修正完了');
    expect(await panel.getByTestId('mod-checked-at').textContent()).toMatch(/\d{4}\/\d{2}\/\d{2} \d{1,2}:\d{2}/);
    await page.locator('[data-testid="receiving"][data-locked="false"]').waitFor();
    expect(await row(productA).getByTestId('scheduled').textContent()).toBe('8');
    expect(await row(productA).getByTestId('inspected').textContent()).toBe('検品済');

    // Receiving complete (→ 3).
    await receiving.getByRole('button', { name: '入庫完了' }).click();
    await page.locator('[data-testid="shipping-detail"][data-status="3"]').waitFor();
    expect(await detail.getByTestId('status').textContent()).toBe('入庫完了');
    const record = await api.call('GET', `/shipping/${shippingId}`);
    expect([record.status, record.modificationRequestStatus]).toEqual(['3', '2']);

    // The stock arrived at the receiving store (8 and 5); the shipping store got the 2 not sent back.
    expect(await shownStock(page, to.storeId, productA.productId)).toBe('8');
    expect(await shownStock(page, to.storeId, productB.productId)).toBe('5');
    await page.getByRole('button', { name: 'Inventory Test Yokohama の INV-TEE-A Inventory Tee A の履歴を見る' }).click();
    const arrived = page.locator('[data-testid="movements"] tbody tr').first();
    await arrived.waitFor();
    expect(await arrived.getAttribute('data-division')).toBe('05');
    expect(await arrived.getByRole('cell', { name: '入庫', exact: true }).count()).toBe(1);
    expect(await arrived.getByTestId('change').textContent()).toBe('+8');
    await screenshot(page, 'inventory-stock');
    expect([await stockOf(to.storeId, productA.productId), await stockOf(from.storeId, productA.productId)]).toEqual(['8', '42']);
    await page.context().close();
  }, 180_000);

  it('approves a shipping awaiting approval before it can be sent', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
    const made = await api.call('POST', '/shipping', {
      shippingStoreId: from.storeId,
      receivingStoreId: to.storeId,
      shippingDate: today,
      receivingExpectedDateFrom: today,
      receivingExpectedDateTo: today,
      status: '0',
      approvalStatus: '0',
      details: [{ productId: productB.productId, quantity: '1' }],
    });
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await page.goto(`${ui.server.uiUrl}#/inventory/shipping?status=0`);
    await page.getByRole('link', { name: `出庫 ${made.shippingId} を開く` }).click();
    const detail = page.getByTestId('shipping-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('approval').textContent()).toBe('未承認');
    expect(await detail.getByRole('button', { name: '出庫する' }).count()).toBe(0);
    await detail.getByRole('button', { name: '承認する' }).click();
    await detail.getByRole('button', { name: '出庫する' }).waitFor();
    expect(await detail.getByTestId('approval').textContent()).toMatch(/^承認済 \(/);
    expect((await api.call('GET', `/shipping/${made.shippingId}`)).approvalStatus).toBe('1');
    await page.context().close();
  }, 120_000);

  it('registers a shipment awaiting approval, approves it and marks it shipped', async () => {
    const supplier = await api.call('POST', '/suppliers', { supplierName: 'Inventory Textiles' });
    const before = Number(await stockOf(from.storeId, productB.productId));
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await page.goto(`${ui.server.uiUrl}#/inventory/shipments/new`);
    const form = page.getByTestId('shipment-create');
    await form.getByLabel('出荷元店舗').selectOption(from.storeId);
    await form.getByLabel('仕入先', { exact: true }).selectOption(supplier.supplierId);
    await form.getByLabel('承認', { exact: true }).selectOption('0');
    await form.getByLabel('1 行目 商品').fill(productB.productId);
    await form.getByLabel('1 行目 数量').fill('3');
    await form.getByRole('button', { name: '出荷を登録' }).click();
    await page.waitForURL(/#\/inventory\/shipments\/\d+\?created=1$/);
    const detail = page.getByTestId('shipment-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('approval').textContent()).toBe('未承認');
    expect(await detail.getByRole('button', { name: '出荷済にする' }).count()).toBe(0);

    await detail.getByRole('button', { name: '承認する' }).click();
    await page.locator('[data-testid="shipment-detail"][data-approval="1"]').waitFor();
    expect(await detail.getByTestId('approval').textContent()).toMatch(/^承認済 \(\d{4}\/\d{2}\/\d{2}/);
    await detail.getByRole('button', { name: '出荷済にする' }).click();
    await page.locator('[data-testid="shipment-detail"][data-status="2"]').waitFor();
    expect(Number(await stockOf(from.storeId, productB.productId))).toBe(before - 3);

    await page.goto(`${ui.server.uiUrl}#/inventory/shipments?approval=1`);
    const listed = page.locator('[data-testid="shipments-table"] tbody tr').first();
    await listed.waitFor();
    expect(await listed.getByTestId('status').textContent()).toBe('出荷済');
    expect(await listed.textContent()).toContain('Inventory Textiles');
    await screenshot(page, 'inventory-shipments');
    await page.context().close();
  }, 120_000);

  it('registers a purchase order with products × delivery stores and shows it', async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await page.goto(`${ui.server.uiUrl}#/inventory/purchase-orders/new`);
    const form = page.getByTestId('order-create');
    await form.locator(`[data-store="${from.storeId}"]`).getByRole('checkbox').check();
    await form.locator(`[data-store="${to.storeId}"]`).getByRole('checkbox').check();
    await form.getByLabel('1 行目 商品').fill('INV-TEE-A');
    await form.getByLabel(`1 行目 ${from.storeName} 数量`).fill('3');
    await form.getByLabel('1 行目 Inventory Test Yokohama 数量').fill('4');
    await form.getByRole('button', { name: '商品を追加' }).click();
    await form.getByLabel('2 行目 商品').fill('INV-TEE-B');
    await form.getByLabel('2 行目 Inventory Test Yokohama 数量').fill('6');
    await form.getByRole('button', { name: '発注を登録' }).click();
    await page.waitForURL(/#\/inventory\/purchase-orders\/\d+\?created=1$/);
    const detail = page.getByTestId('order-detail');
    await detail.waitFor();
    const line = (p: Json) => detail.locator(`tr[data-product="${p.productId}"]`);
    expect(await line(productA).getByTestId('quantity').textContent()).toBe('7');
    expect(await line(productB).getByTestId('quantity').textContent()).toBe('6');
    // Cost from the product master, to 5 decimals: 900.5 × 7.
    expect(await line(productA).textContent()).toContain('¥6,303.5');
    const id = /purchase-orders\/(\d+)/.exec(page.url())![1]!;
    const order = await api.call('GET', `/purchase_orders/${id}`);
    expect(order.products.map((p: Json) => p.deliveryStore.map((d: Json) => `${d.storeId}:${d.quantity}`))).toEqual([
      [`${from.storeId}:3`, `${to.storeId}:4`],
      [`${to.storeId}:6`],
    ]);
    // Its storages (入荷), one per delivery store: nothing counted yet; a store that receives all is complete.
    const storages = detail.getByTestId('order-storages');
    const storageAt = (storeId: string) => storages.locator(`tr[data-store="${storeId}"]`);
    expect(await storageAt(from.storeId).getByTestId('storage-status').textContent()).toBe('未入荷');
    expect(await storageAt(to.storeId).getByTestId('storage-counted').textContent()).toBe('0 / 10');
    const [atFrom] = await api.call('GET', `/storage?storage_info_id=${id}&storage_store_id=${from.storeId}&with_details=all`);
    await api.call('PATCH', `/storage/${atFrom.storageId}`, {
      storageDate: '2026-11-22',
      details: [{ storageDetailId: atFrom.details[0].storageDetailId, inspectionQuantity: '3', inspectionDate: '2026-11-22' }],
    });
    await page.reload();
    await page.getByTestId('order-storages').waitFor();
    expect(await storageAt(from.storeId).getByTestId('storage-status').textContent()).toBe('入荷完了');
    expect(await storageAt(from.storeId).getByTestId('storage-counted').textContent()).toBe('3 / 3');
    expect(await detail.getByTestId('status').textContent()).toBe('入荷検品中');
    await screenshot(page, 'inventory-purchase-order-storages');
    await page.goto(`${ui.server.uiUrl}#/inventory/purchase-orders`);
    await page.locator(`[data-testid="orders-table"] tr[data-order="${id}"]`).waitFor();
    await screenshot(page, 'inventory-purchase-orders');
    await page.context().close();
  }, 120_000);

  it('speaks English when asked, and tells a contract of another plan that inventory is Retail Business', async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await page.goto(`${ui.server.uiUrl}#/inventory/shipping`);
    await page.getByTestId('lang').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Store-to-store shipping' }).waitFor();
    await page.getByRole('button', { name: 'New shipping' }).waitFor();
    await page.getByTestId('lang').selectOption('ja');
    await page.context().close();

    const food = await newPage(ui.browser);
    await loginAs(food, ui.server, 'demo-food');
    await food.goto(`${ui.server.uiUrl}#/inventory/stock`);
    const notice = food.getByTestId('plan-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/リテールビジネスプラン/);
    expect(await food.getByTestId('stock-table').count()).toBe(0);
    await food.context().close();
  }, 120_000);
});

describe('inventory screens: field positions and costs (no ui.browser)', () => {
  it('maps the API\'s positions of the lines sent back to the form\'s lines', () => {
    const problem = { status: 400, title: 'Bad Request', messages: [], fields: { 'details[0].quantity': 'too big', 'details[1].productId': 'no such product', memo: 'too long' } };
    // Lines 2 and 5 of the form went out as positions 0 and 1.
    expect(remapPositions(problem, 'details', [2, 5]).fields).toEqual({ 'details[2].quantity': 'too big', 'details[5].productId': 'no such product', memo: 'too long' });
    const nested = { ...problem, fields: { 'products[1].deliveryStore[0].quantity': 'bad', 'products[0].deliveryStore[0].quantity': 'other' } };
    expect(remapPositions(nested, 'products[1].deliveryStore', [2]).fields).toEqual({ 'products[1].deliveryStore[2].quantity': 'bad', 'products[0].deliveryStore[0].quantity': 'other' });
  });

  it('shows a cost to its 5 decimals with yen grouping, never rounded', () => {
    expect([cost('2100.50000'), cost('800.00000'), cost('1234567.12345'), cost('-3.1'), cost(null)]).toEqual(['¥2,100.5', '¥800', '¥1,234,567.12345', '-¥3.1', '']);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTRACT, centralAndTwoStores, type CentralAndTwoStores, type Instance } from './helpers.js';

/**
 * Issue 26: a purchase order placed at East's PC (node 3) for West's shop makes West's storage;
 * West's PC (node 5) pulls it, inspects and completes it. Head office ends with the storage
 * complete, the goods in West's stock once, and the order's status following its storage (the
 * order itself is East's record: West never pushes it).
 */

let net: CentralAndTwoStores;
let central: Instance;
let east: Instance;
let west: Instance;
let shopWest: string;
let tea: string;
let supplier: string;

const sync = (store: Instance) => net.sync(store);
const qty = async (i: Instance) => ((await i.ok('GET', `/stock?store_id=${shopWest}&product_id=${tea}`)) as { stockAmount: string }[])[0]?.stockAmount;

beforeEach(async () => {
  net = await centralAndTwoStores(async (head) => {
    shopWest = (await head.ok('POST', '/stores', { storeName: 'West' })).storeId;
    const category = (await head.ok('POST', '/categories', { categoryName: 'Drinks' })).categoryId;
    tea = (await head.ok('POST', '/products', { categoryId: category, productCode: 'TEA', productName: 'Tea', price: '300' })).productId;
    supplier = (await head.ok('POST', '/suppliers', { supplierName: 'Acme' })).supplierId;
  });
  ({ central, east, west } = net);
});
afterEach(() => net.close());

describe('a storage across store PCs', () => {
  it('ordered at East, received at West: head office sees it complete, the stock once, the order received', async () => {
    east.clock.advance(60_000);
    const order = await east.ok('POST', '/purchase_orders', {
      recipientOrderId: supplier,
      status: '2',
      products: [{ productId: tea, deliveryStore: [{ storeId: shopWest, quantity: '6' }] }],
      stores: [{ storageStoreId: shopWest }],
    });
    await sync(east);
    await sync(west);

    const [waiting] = await west.ok('GET', `/storage?storage_info_id=${order.storageInfoId}&with_details=all`);
    expect(waiting).toMatchObject({ storageStoreId: shopWest, status: '0', storageDate: null });
    expect(waiting.storageId.endsWith('003')).toBe(true); // minted by East's node with its order
    west.clock.advance(120_000);
    const done = await west.ok('PATCH', `/storage/${waiting.storageId}`, {
      storageDate: '2026-11-23',
      details: [{ storageDetailId: waiting.details[0].storageDetailId, inspectionQuantity: '6', stockoutQuantity: '0', inspectionDate: '2026-11-23' }],
    });
    expect(done.status).toBe('2');
    expect(await qty(west)).toBe('6');
    await sync(west);
    await sync(east);

    const atCentral = await central.ok('GET', `/storage/${waiting.storageId}?with_details=all`);
    expect(atCentral).toEqual(done);
    expect(await east.ok('GET', `/storage/${waiting.storageId}?with_details=all`)).toEqual(done);
    expect(await qty(central)).toBe('6');
    const movements = central.deps.db.prepare("SELECT stock_division, delta FROM stock_movements WHERE stock_division = '03'").all();
    expect(movements).toEqual([{ stock_division: '03', delta: '6' }]);
    expect((await central.ok('GET', `/purchase_orders/${order.storageInfoId}?with_products=none&with_stores=none`)).status).toBe('4');
    expect((await east.ok('GET', `/purchase_orders/${order.storageInfoId}?with_products=none&with_stores=none`)).status).toBe('4');
    const deadLetters = central.deps.db.prepare('SELECT count(*) FROM dead_letters').pluck().get();
    expect(deadLetters).toBe(0);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTRACT, centralAndTwoStores, type CentralAndTwoStores, type Instance } from './helpers.js';

/**
 * Issue 26: a layaway made at a store moves two quantities of its store's stock, the available
 * one and the laid-away one (layawayStockAmount). Both merge by the movements as the quantity
 * always did: head office adds each pushed movement's deltas, a store counts its own movements
 * still waiting to be pushed on top of what it pulls, and the layaway record travels with its lines.
 */

let net: CentralAndTwoStores;
let central: Instance;
let east: Instance;
let west: Instance;
let shop: string;
let terminal: string;
let tea: string;

const sync = (store: Instance) => net.sync(store);
/** [stockAmount, layawayStockAmount] of tea at the shop, as instance `i` shows them. */
const stock = async (i: Instance) =>
  ((await i.ok('GET', `/stock?store_id=${shop}&product_id=${tea}`)) as { stockAmount: string; layawayStockAmount: string }[]).map((s) => [s.stockAmount, s.layawayStockAmount])[0];

beforeEach(async () => {
  net = await centralAndTwoStores(async (head) => {
    shop = (await head.ok('POST', '/stores', { storeName: 'East' })).storeId;
    terminal = (await head.ok('POST', '/terminals', { storeId: shop, terminalName: 'R1' }))[0].terminalId;
    const category = (await head.ok('POST', '/categories', { categoryName: 'Drinks' })).categoryId;
    tea = (await head.ok('POST', '/products', { categoryId: category, productCode: 'TEA', productName: 'Tea', price: '300' })).productId;
    await head.ok('PATCH', `/stock/${tea}`, { storeId: shop, stockAmount: '10' });
  });
  ({ central, east, west } = net);
});
afterEach(() => net.close());

describe('the laid-away quantity merges by movements', () => {
  it("a store's layaway reaches head office and the other store, added to what head office moved meanwhile", async () => {
    east.clock.advance(1000);
    const made = await east.ok('POST', '/transactions/layaways', {
      transactionHeadDivision: '10',
      subtotal: '900',
      total: '900',
      storeId: shop,
      terminalId: terminal,
      terminalTranId: '1',
      terminalTranDateTime: '2026-11-22T10:00:00+09:00',
      details: [{ transactionDetailId: '1', productId: tea, salesPrice: '300', quantity: '3' }],
    });
    central.clock.advance(2000);
    await central.ok('POST', `/stock/${tea}/add`, { storeId: shop, stockAmount: '1' });
    expect([await stock(central), await stock(east)]).toEqual([
      ['11', '0'],
      ['7', '3'],
    ]);

    // East pulls before its push: its own layaway still counts on top of head office's quantities.
    await net.agent(east).pull(CONTRACT);
    expect(await stock(east)).toEqual(['8', '3']);

    await sync(east);
    await sync(west);
    for (const i of [central, east, west]) expect(await stock(i)).toEqual(['8', '3']);
    const period = 'terminal_tran_date_time-from=2026-11-01T00:00:00%2B09:00&terminal_tran_date_time-to=2026-11-30T00:00:00%2B09:00';
    const atCentral = await central.ok('GET', `/transactions/layaways?${period}&fields=transactionHeadId,amount,total`);
    expect(atCentral).toEqual([{ transactionHeadId: made.transactionHeadId, amount: '3', total: '900' }]);
    // The movement keeps the laid-away quantity its store saw right after it.
    const changes = (await central.ok('GET', `/stock/changes/${tea}/${shop}?stock_division=07`)) as Record<string, string>[];
    expect(changes.map((c) => [c.amount, c.stockAmount, c.layawayStockAmount])).toEqual([['-3', '7', '3']]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTRACT, centralAndTwoStores, count, type CentralAndTwoStores, type Instance } from './helpers.js';

/**
 * Issue 14 item 2: stock quantities merge by their movements across stores and head office. A
 * quantity never travels as a row (last writer wins would drop the other side's movements): each
 * movement is pushed once by the store that made it, central adds it, and every store takes
 * central's quantity plus its own movements still waiting to be pushed.
 */

let net: CentralAndTwoStores;
let central: Instance;
let east: Instance;
let west: Instance;
let shopEast: string;
let shopWest: string;
let tea: string;

const sync = (store: Instance) => net.sync(store);
/** The quantity of `product` at `shop` as instance `i` shows it (undefined: never moved there). */
const qty = async (i: Instance, shop = shopEast, product = tea) =>
  ((await i.ok('GET', `/stock?store_id=${shop}&product_id=${product}`)) as { stockAmount: string }[])[0]?.stockAmount;
const add = (i: Instance, stockAmount: string, shop = shopEast, product = tea) => i.ok('POST', `/stock/${product}/add`, { storeId: shop, stockAmount });

beforeEach(async () => {
  net = await centralAndTwoStores(async (head) => {
    shopEast = (await head.ok('POST', '/stores', { storeName: 'East' })).storeId;
    shopWest = (await head.ok('POST', '/stores', { storeName: 'West' })).storeId;
    const category = (await head.ok('POST', '/categories', { categoryName: 'Drinks' })).categoryId;
    tea = (await head.ok('POST', '/products', { categoryId: category, productCode: 'TEA', productName: 'Tea', price: '300' })).productId;
    await head.ok('PATCH', `/stock/${tea}`, { storeId: shopEast, stockAmount: '10' });
  });
  ({ central, east, west } = net);
});
afterEach(() => net.close());

describe('stock merges by movements', () => {
  it('two stores and head office moving one quantity while apart add up everywhere; nothing is a conflict', async () => {
    for (const i of [central, east, west]) expect(await qty(i)).toBe('10');
    // All three apart. East sells 3 (a sale at its register), west receives 5 for east's shop, head office adds 1.
    const terminal = (await east.ok('POST', '/terminals', { storeId: shopEast, terminalName: 'R1' }))[0].terminalId;
    east.clock.advance(1000);
    await east.ok('POST', '/transactions', {
      transactionHeadDivision: '1',
      storeId: shopEast,
      terminalId: terminal,
      terminalTranDateTime: '2026-11-22T10:00:00+09:00',
      details: [{ transactionDetailId: '1', productId: tea, salesPrice: '300', quantity: '3' }],
    });
    west.clock.advance(2000);
    await add(west, '5');
    central.clock.advance(3000);
    await add(central, '1');
    expect([await qty(central), await qty(east), await qty(west)]).toEqual(['11', '7', '15']);

    await sync(east);
    await sync(west);
    await sync(east);
    for (const i of [central, east, west]) expect(await qty(i), 'after the merge').toBe('13');
    // Each movement is recorded once at head office, with its stock division (02 sale, 15 API).
    expect(count(central.deps, 'SELECT count(*) FROM stock_movements WHERE product_id = ?', tea)).toBe(4);
    expect((await central.ok('GET', `/stock/changes/${tea}/${shopEast}`)).map((c: { stockDivision: string; amount: string }) => [c.stockDivision, c.amount]).sort()).toEqual(
      [['15', '1'], ['15', '5'], ['15', '10'], ['02', '-3']].sort(),
    );
    expect(count(central.deps, 'SELECT count(*) FROM sync_conflicts')).toBe(0);
    for (const i of [east, west]) expect(count(i.deps, 'SELECT count(*) FROM sync_conflicts')).toBe(0);
    // A quantity never rides the outbox: only its movements do.
    expect(count(east.deps, "SELECT count(*) FROM outbox WHERE entity = 'stock'")).toBe(0);
  });

  it('a set at a store while apart is a movement of its difference, added to what others moved, never an overwrite', async () => {
    await east.ok('PATCH', `/stock/${tea}`, { storeId: shopEast, stockAmount: '4' }); // east counted 4: a movement of -6
    await add(west, '2'); // west, meanwhile, added 2
    await sync(west);
    await sync(east);
    await sync(west);
    for (const i of [central, east, west]) expect(await qty(i)).toBe('6');
  });

  it('a store counts its own movements still in the outbox on top of the quantity it pulls', async () => {
    await add(central, '50'); // 60 at head office
    await add(east, '-4'); // east made this while head office was adding
    await net.agent(east).pull(CONTRACT); // the push has not gone out yet
    expect(await qty(east)).toBe('56');
    expect(count(east.deps, "SELECT count(*) FROM outbox WHERE entity = 'stock_movement'")).toBe(1);
    await sync(east);
    expect(await qty(central)).toBe('56');
    await sync(west);
    expect(await qty(west)).toBe('56');
  });

  it('a quantity first moved at a store appears at head office and at the other store', async () => {
    await add(west, '3', shopWest);
    expect(await qty(central, shopWest)).toBeUndefined();
    await sync(west);
    expect(await qty(central, shopWest)).toBe('3');
    await sync(east);
    expect(await qty(east, shopWest)).toBe('3');
    await add(east, '-1', shopWest);
    await sync(east);
    await sync(west);
    for (const i of [central, east, west]) expect(await qty(i, shopWest)).toBe('2');
  });

  it('point balances still merge alongside stock (the shared mechanism serves both)', async () => {
    const member = (await central.ok('POST', '/customers', { customerCode: 'M1', lastName: 'Y', firstName: 'H', sex: '0', mailReceiveFlag: '1', point: '10' })).customerId;
    await sync(east);
    await east.ok('POST', `/customers/${member}/point/add`, { point: '5', mile: '0' });
    await add(east, '1');
    await sync(east);
    expect((await central.ok('GET', `/customers/${member}`)).point).toBe('15');
    expect(await qty(central)).toBe('11');
  });
});

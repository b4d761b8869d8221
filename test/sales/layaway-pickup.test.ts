import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pickedUpNotSold, stockDeltasOf } from '../../server/domain/stock.js';
import { problem } from '../helpers/app.js';
import { makeFixture, SALE_TIME, type Fixture } from './transactions-fixtures.js';

/**
 * A sale that picks up a layaway (引取): POST /transactions with layawayServerTransactionHeadId.
 * In the sale's write the layaway becomes picked up (status 1) and its goods leave the laid-away
 * stock (07); the sale does not take them from the available stock again (they left it when laid
 * away) and takes only what it sells beyond them (02). A cancel or return-cancel of the sale puts
 * the goods back on sale. The test clock is 2026-11-22T10:00:00+09:00.
 */

let f: Fixture;
let tea: string;
let cup: string;
let otherStore: string;
beforeEach(async () => {
  f = await makeFixture('retail_business');
  tea = (await f.create('/products', { categoryId: f.category, productCode: 'P1', productName: 'Tea', price: '300' })).productId;
  cup = (await f.create('/products', { categoryId: f.category, productCode: 'P2', productName: 'Cup', price: '500' })).productId;
  otherStore = (await f.create('/stores', { storeName: 'Second' })).storeId;
  await ok('PATCH', `/stock/${tea}`, { storeId: f.store, stockAmount: '10' });
  await ok('PATCH', `/stock/${cup}`, { storeId: f.store, stockAmount: '5' });
});
afterEach(() => f.t.close());

const ok = async (method: string, path: string, body?: unknown) => {
  const res = await f.api(method, path, body);
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
  return res.json();
};
const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const conflict = (detail: string) => ({ type: 'about:blank', title: 'Conflict', status: 409, detail });

/** The layaway a platform client registers: 2 teas kept for the customer. */
const layAway = async (storeId = f.store, terminalTranId = 'L1') =>
  (
    await ok('POST', '/transactions/layaways', {
      transactionHeadDivision: '10',
      subtotal: '600',
      total: '600',
      storeId,
      ...(storeId === f.store ? { terminalId: f.terminal } : { terminalId: (await f.create('/terminals', { storeId, terminalName: 'R2' })).terminalId }),
      terminalTranId,
      terminalTranDateTime: SALE_TIME,
      details: [{ transactionDetailId: '1', productId: tea, salesPrice: '300', quantity: '2' }],
    })
  ).transactionHeadId as string;

/** The sale a platform client sends to pick the layaway up: the 2 teas, and a cup bought with them. */
const pickUpBody = (layawayId: string, extra: Record<string, unknown> = {}) => ({
  transactionHeadDivision: '1',
  subtotal: '1100',
  total: '1100',
  storeId: f.store,
  terminalId: f.terminal,
  terminalTranId: 'S1',
  terminalTranDateTime: SALE_TIME,
  layawayServerTransactionHeadId: layawayId,
  details: [
    { transactionDetailId: '1', transactionDetailDivision: '1', productId: tea, salesPrice: '300', quantity: '2' },
    { transactionDetailId: '2', transactionDetailDivision: '1', productId: cup, salesPrice: '500', quantity: '1' },
  ],
  ...extra,
});
const post = (body: unknown, headers: Record<string, string> = {}) =>
  f.t.app.inject({
    method: 'POST',
    url: `/${f.t.contractId}/pos/transactions`,
    headers: { authorization: `Bearer ${f.t.token}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });

/** [stockAmount, layawayStockAmount] of a product at the main store (GET /stock). */
const stock = async (productId: string) =>
  ((await ok('GET', `/stock?product_id=${productId}&store_id=${f.store}`)) as { stockAmount: string; layawayStockAmount: string }[]).map((s) => [s.stockAmount, s.layawayStockAmount])[0];
/** [stockDivision, amount, stockAmount, layawayStockAmount] of each movement (GET /stock/changes). */
const changes = async (productId: string) =>
  ((await ok('GET', `/stock/changes/${productId}/${f.store}`)) as Record<string, string>[]).map((c) => [c.stockDivision, c.amount, c.stockAmount, c.layawayStockAmount]);
const layawayState = async (id: string) =>
  ((await ok('GET', `/transactions/layaways?terminal_tran_date_time-from=2026-11-01T00:00:00%2B09:00&terminal_tran_date_time-to=2026-11-30T00:00:00%2B09:00&with_layaway=all&fields=transactionHeadId`)) as {
    transactionHeadId: string;
    layaway: unknown;
  }[]).find((l) => l.transactionHeadId === id)!.layaway;

describe('POST /transactions with layawayServerTransactionHeadId', () => {
  it('picks the layaway up in the sale: the laid-away goods leave the layaway stock, only the rest leaves the available stock', async () => {
    const layawayId = await layAway();
    expect(await stock(tea)).toEqual(['8', '2']);
    const res = await post(pickUpBody(layawayId));
    expect(res.statusCode).toBe(200);
    const sale = res.json();
    expect(sale).toMatchObject({ transactionHeadDivision: '1', subtotal: '1100', total: '1100', amount: '3' });
    expect(await layawayState(layawayId)).toEqual({ transactionHeadId: layawayId, status: '1', pickUpTransactionHeadId: sale.transactionHeadId });
    // The teas left the available stock when laid away; the pick-up only empties the layaway stock.
    expect(await stock(tea)).toEqual(['8', '0']);
    expect(await changes(tea)).toEqual([
      ['15', '10', '10', '0'],
      ['07', '-2', '8', '2'],
      ['07', '0', '8', '0'],
    ]);
    // The cup was not laid away: the sale takes it (02).
    expect(await stock(cup)).toEqual(['4', '0']);
    expect(await changes(cup)).toEqual([
      ['15', '5', '5', '0'],
      ['02', '-1', '4', '0'],
    ]);
  });

  it('takes from the available stock what the sale sells beyond the laid-away goods', async () => {
    const layawayId = await layAway();
    const body = pickUpBody(layawayId, {
      subtotal: '900',
      total: '900',
      details: [{ transactionDetailId: '1', productId: tea, salesPrice: '300', quantity: '3' }],
    });
    expect((await post(body)).statusCode).toBe(200);
    expect(await stock(tea)).toEqual(['7', '0']);
    expect((await changes(tea)).slice(2)).toEqual([
      ['07', '0', '8', '0'],
      ['02', '-1', '7', '0'],
    ]);
  });

  it('is picked up once: a retry of the same sale answers the first one and moves nothing; another sale naming it is a 409', async () => {
    const layawayId = await layAway();
    const first = await post(pickUpBody(layawayId), { 'idempotency-key': 'pick-1' });
    expect(first.statusCode).toBe(200);
    const before = [await changes(tea), await changes(cup)];
    for (const headers of [{ 'idempotency-key': 'pick-1' }, {}]) {
      const again = await post(pickUpBody(layawayId), headers);
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
    }
    expect([await changes(tea), await changes(cup)]).toEqual(before);
    expect(await stock(tea)).toEqual(['8', '0']);
    const sale = first.json().transactionHeadId;
    expect(problem(await post(pickUpBody(layawayId, { terminalTranId: 'S2' })), 409)).toEqual(
      conflict(`[layawayServerTransactionHeadId] layaway ${layawayId} was picked up by transaction ${sale}`),
    );
    expect(await stock(tea)).toEqual(['8', '0']);
  });

  it('refuses an unknown layaway, one of another store, a cancelled one, and a sale that does not sell its goods; nothing moves', async () => {
    const notSale = 'can be set only on a sale (transactionHeadDivision 1) that is neither cancelled (cancelDivision 1) nor a return-cancel (disposeDivision 2)';
    expect(problem(await post(pickUpBody('999999')), 400)).toEqual(bad('[layawayServerTransactionHeadId] layaway 999999 does not exist'));
    expect(problem(await post(pickUpBody('x1')), 400)).toEqual(bad('[layawayServerTransactionHeadId] must be 1 to 9 digits'));
    const elsewhere = await layAway(otherStore, 'L9');
    expect(problem(await post(pickUpBody(elsewhere)), 400)).toEqual(
      bad(`[layawayServerTransactionHeadId] layaway ${elsewhere} belongs to store ${otherStore}, not to store ${f.store}`),
    );
    const layawayId = await layAway();
    const short = pickUpBody(layawayId, { subtotal: '300', total: '300', details: [{ transactionDetailId: '1', productId: tea, salesPrice: '300', quantity: '1' }] });
    expect(problem(await post(short), 400)).toEqual(
      bad(`[layawayServerTransactionHeadId] layaway ${layawayId} keeps 2 of product ${tea} but the sale sells 1; a pick-up sells every laid-away good`),
    );
    expect(problem(await post(pickUpBody(layawayId, { cancelDivision: '1' })), 400)).toEqual(bad(`[layawayServerTransactionHeadId] ${notSale}`));
    expect(problem(await post(pickUpBody(layawayId, { transactionHeadDivision: '2', details: undefined, subtotal: '0', total: '0' })), 400)).toEqual(
      bad(`[layawayServerTransactionHeadId] ${notSale}`),
    );
    expect(await stock(tea)).toEqual(['8', '2']);
    expect(await stock(cup)).toEqual(['5', '0']);
    expect(await layawayState(layawayId)).toEqual({ transactionHeadId: layawayId, status: '0', pickUpTransactionHeadId: null });
    // A refused request recorded no key: the same terminal keys may then pick it up.
    expect((await post(pickUpBody(layawayId))).statusCode).toBe(200);

    const cancelled = await layAway(f.store, 'L2');
    expect((await ok('POST', `/transactions/${cancelled}/cancel`, {})).cancelDivision).toBe('1');
    expect(problem(await post(pickUpBody(cancelled, { terminalTranId: 'S3' })), 409)).toEqual(conflict(`[layawayServerTransactionHeadId] layaway ${cancelled} is cancelled`));
  });

  it('a cancel of the picking sale puts the laid-away goods back on sale (07) and its own goods back (02); the layaway stays picked up', async () => {
    const layawayId = await layAway();
    const sale = (await post(pickUpBody(layawayId))).json();
    f.t.clock.advance(60_000);
    expect((await ok('POST', `/transactions/${sale.transactionHeadId}/cancel`, {})).cancelDivision).toBe('1');
    expect(await stock(tea)).toEqual(['10', '0']);
    expect(await stock(cup)).toEqual(['5', '0']);
    expect((await changes(tea)).slice(3)).toEqual([['07', '2', '10', '0']]);
    expect((await changes(cup)).slice(2)).toEqual([['02', '1', '5', '0']]);
    expect(await layawayState(layawayId)).toEqual({ transactionHeadId: layawayId, status: '1', pickUpTransactionHeadId: sale.transactionHeadId });
  });

  it('a return-cancel of the picking sale brings every good it handed over back to the available stock (12)', async () => {
    const layawayId = await layAway();
    const sale = (await post(pickUpBody(layawayId))).json();
    f.t.clock.advance(60_000);
    expect((await ok('POST', `/transactions/${sale.transactionHeadId}/dispose`)).disposeDivision).toBe('2');
    expect(await stock(tea)).toEqual(['10', '0']);
    expect(await stock(cup)).toEqual(['5', '0']);
    expect((await changes(tea)).slice(3)).toEqual([['12', '2', '10', '0']]);
    expect(await layawayState(layawayId)).toEqual({ transactionHeadId: layawayId, status: '1', pickUpTransactionHeadId: sale.transactionHeadId });
  });
});

describe('the stock rule of a picking sale (server/domain/stock.ts)', () => {
  const lines = [
    { productId: 1, quantity: '3' },
    { productId: 2, quantity: '1' },
    { productId: 1, quantity: '1', transactionDetailDivision: '2' },
  ];
  it('does not take the laid-away goods again; a return-cancel brings everything back', () => {
    const deltas = (h: Record<string, string>, picked = [{ productId: 1, quantity: 2 }]) =>
      stockDeltasOf(h, lines, picked).map((d) => [d.productId, d.division, d.delta.toFixed()]);
    expect(deltas({})).toEqual([
      [1, '02', '-1'],
      [2, '02', '-1'],
      [1, '12', '1'],
    ]);
    expect(deltas({}, [{ productId: 1, quantity: 3 }])).toEqual([
      [2, '02', '-1'],
      [1, '12', '1'],
    ]);
    expect(deltas({ disposeDivision: '2' })).toEqual(deltas({ disposeDivision: '2' }, []));
    expect(deltas({ cancelDivision: '1' })).toEqual([]);
  });
  it('names the first laid-away product the sale does not sell in full (return lines do not count)', () => {
    expect(pickedUpNotSold(lines, [{ productId: 1, quantity: 3 }])).toBeNull();
    expect(pickedUpNotSold(lines, [{ productId: 2, quantity: 1 }, { productId: 1, quantity: 4 }])).toMatchObject({ productId: 1 });
    expect(pickedUpNotSold(lines, [{ productId: 3, quantity: 1 }])).toMatchObject({ productId: 3 });
  });
});

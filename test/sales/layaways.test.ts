import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LayawayRepo } from '../../server/sales/layaways/repo.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';
import { makeCategory, makeProduct, makeStaff, makeStore, ok } from '../inventory/shipments-fixtures.js';

/**
 * Issue 26: layaways (取置き), the platform's POST and GET /transactions/layaways. A layaway keeps
 * goods for a customer: they leave the store's available stock and are laid away (stock division
 * 07, layawayStockAmount); a pick-up hands them over, a cancel puts them back on sale.
 * The test clock is 2026-11-22T10:00:00+09:00.
 */

const NOW = '2026-11-22T10:00:00+09:00';
const KEPT_AT = '2026-11-22T09:30:00+09:00';
const PERIOD = 'terminal_tran_date_time-from=2026-11-01T00:00:00%2B09:00&terminal_tran_date_time-to=2026-11-30T00:00:00%2B09:00';

let t: TestApp;
let store: string;
let store2: string;
let terminal: string;
let product: string;
let product2: string;
let staff: string;
let member: string;
beforeEach(async () => {
  t = await makeTestApp({ plan: 'retail_business' });
  store = await makeStore(t, 'Main');
  store2 = await makeStore(t, 'Second');
  terminal = (await ok(t, 'POST', '/terminals', { storeId: store, terminalName: 'R1' }))[0].terminalId;
  const category = await makeCategory(t);
  product = await makeProduct(t, category);
  product2 = await makeProduct(t, category);
  staff = await makeStaff(t);
  member = (await ok(t, 'POST', '/customers', { customerCode: 'M1', lastName: 'Sato', firstName: 'Hanako', sex: '2', mailReceiveFlag: '1' })).customerId;
  await ok(t, 'PATCH', `/stock/${product}`, { storeId: store, stockAmount: '10' });
  await ok(t, 'PATCH', `/stock/${product2}`, { storeId: store, stockAmount: '5' });
});
afterEach(() => t.close());

/** The request a platform client sends: a layaway of 2 + 1 of product and 1 of product2. */
const layawayBody = (body: Record<string, unknown> = {}) => ({
  transactionHeadDivision: '10',
  subtotal: '4300',
  subtotalDiscountPrice: '300',
  total: '4000',
  storeId: store,
  terminalId: terminal,
  terminalTranId: '1001',
  terminalTranDateTime: KEPT_AT,
  customerId: member,
  staffId: staff,
  memo: 'for Sato-san',
  details: [
    { transactionDetailId: '1', transactionDetailDivision: '1', productId: product, salesPrice: '1100', quantity: '2' },
    { transactionDetailId: '2', productId: product2, salesPrice: '1200', unitDiscountPrice: '100', quantity: '1' },
    { transactionDetailId: '3', productId: product, salesPrice: '1000', unitDiscountPrice: '0', quantity: '1' },
  ],
  ...body,
});
const register = (body: Record<string, unknown> = {}) => ok(t, 'POST', '/transactions/layaways', layawayBody(body));
const post400 = async (body: Record<string, unknown>) => problem(await t.api('POST', '/transactions/layaways', layawayBody(body)), 400).detail;

const stock = async (productId: string, storeId = store) =>
  ((await ok(t, 'GET', `/stock?product_id=${productId}&store_id=${storeId}`)) as { stockAmount: string; layawayStockAmount: string }[]).map((s) => [s.stockAmount, s.layawayStockAmount])[0];
const layawayChanges = async (productId: string) =>
  ((await ok(t, 'GET', `/stock/changes/${productId}/${store}?stock_division=07`)) as Record<string, string | null>[]).map((c) => ({
    amount: c.amount,
    stockAmount: c.stockAmount,
    layawayStockAmount: c.layawayStockAmount,
    stockDivision: c.stockDivision,
    targetDateTime: c.targetDateTime,
    staffId: c.staffId,
  }));
const repo = () => new LayawayRepo(t.deps.db, t.deps.writer, t.deps.ids, t.clock);
const contract = () => ({ contractId: t.contractId, timeZone: 'Asia/Tokyo' }) as Parameters<LayawayRepo['cancel']>[0];

describe('POST /transactions/layaways', () => {
  it('registers the layaway with its lines and lays its goods away: available stock down, layaway stock up (division 07)', async () => {
    const made = await register();
    const id = made.transactionHeadId as string;
    expect(made).toEqual({
      transactionHeadId: id,
      transactionDateTime: NOW,
      transactionHeadDivision: '10',
      cancelDivision: '0',
      cancelDateTime: null,
      subtotal: '4300',
      subtotalDiscountPrice: '300',
      total: '4000',
      amount: '4',
      storeId: store,
      terminalId: terminal,
      customerId: member,
      terminalTranId: '1001',
      terminalTranDateTime: KEPT_AT,
      staffId: staff,
      memo: 'for Sato-san',
      updDateTime: NOW,
      layaway: { transactionHeadId: id, status: '0', pickUpTransactionHeadId: null },
      details: [
        { transactionHeadId: id, transactionDetailId: '1', transactionDetailDivision: '1', productId: product, salesPrice: '1100', unitDiscountPrice: '0', quantity: '2' },
        { transactionHeadId: id, transactionDetailId: '2', transactionDetailDivision: '1', productId: product2, salesPrice: '1200', unitDiscountPrice: '100', quantity: '1' },
        { transactionHeadId: id, transactionDetailId: '3', transactionDetailDivision: '1', productId: product, salesPrice: '1000', unitDiscountPrice: '0', quantity: '1' },
      ],
    });
    expect(await stock(product)).toEqual(['7', '3']);
    expect(await stock(product2)).toEqual(['4', '1']);
    // One movement per product, dated at the terminal's time of the layaway.
    expect(await layawayChanges(product)).toEqual([{ amount: '-3', stockAmount: '7', layawayStockAmount: '3', stockDivision: '07', targetDateTime: KEPT_AT, staffId: staff }]);
    expect(await layawayChanges(product2)).toEqual([{ amount: '-1', stockAmount: '4', layawayStockAmount: '1', stockDivision: '07', targetDateTime: KEPT_AT, staffId: staff }]);
    // A later movement of another kind carries the laid-away quantity as it stands.
    await ok(t, 'PATCH', `/stock/${product}`, { storeId: store, stockAmount: '8' });
    const all = (await ok(t, 'GET', `/stock/changes/${product}/${store}`)) as { stockDivision: string; stockAmount: string; layawayStockAmount: string }[];
    expect(all.map((c) => [c.stockDivision, c.stockAmount, c.layawayStockAmount])).toEqual([
      ['15', '10', '0'],
      ['07', '7', '3'],
      ['15', '8', '3'],
    ]);
  });

  it('takes the minimal body (no member, staff, memo or discounts) and a layaway id is no transaction id', async () => {
    const made = await register({
      subtotal: '1100',
      total: '1100',
      subtotalDiscountPrice: undefined,
      customerId: undefined,
      staffId: undefined,
      memo: undefined,
      transactionHeadDivision: '10',
      details: [{ transactionDetailId: '1', productId: product, salesPrice: '1100', quantity: '1' }],
    });
    expect(made).toMatchObject({ customerId: null, staffId: null, memo: null, subtotalDiscountPrice: '0', total: '1100', amount: '1' });
    expect(await stock(product)).toEqual(['9', '1']);
    expect((await t.api('GET', `/transactions/${made.transactionHeadId}`)).statusCode).toBe(404);
  });

  it('is registered once: the same request again answers the first layaway, the same terminal keys with another body are a 409', async () => {
    const first = await t.api('POST', '/transactions/layaways', layawayBody());
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await t.api('POST', '/transactions/layaways', layawayBody());
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await stock(product)).toEqual(['7', '3']);
    const id = first.json().transactionHeadId;
    expect(problem(await t.api('POST', '/transactions/layaways', layawayBody({ memo: 'changed' })), 409)).toEqual({
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: `[terminalTranId] layaway ${id} was registered with this store, terminal and terminalTranId and a different body`,
    });
    // Another terminal transaction id is another layaway.
    await register({ terminalTranId: '1002' });
    expect(await stock(product)).toEqual(['4', '6']);
  });

  it('refuses each wrong field by name, and moves no stock', async () => {
    const other = (await ok(t, 'POST', '/terminals', { storeId: store2, terminalName: 'R2' }))[0].terminalId;
    const line = (l: Record<string, unknown>) => ({ details: [{ transactionDetailId: '1', productId: product, salesPrice: '1100', quantity: '1', ...l }], subtotal: '1100', total: '800' });
    const cases: [Record<string, unknown>, string][] = [
      [{ transactionHeadDivision: '1' }, '[transactionHeadDivision] must be 10 (layaway): the layaway registration takes layaways only; other transactions are POST /transactions'],
      [{ transactionHeadDivision: undefined }, '[transactionHeadDivision] is required'],
      [{ subtotal: '4200' }, '[subtotal] sent 4200 but the server computes 4300'],
      [{ total: '4300' }, '[total] sent 4300 but the server computes 4000'],
      [{ subtotal: '-1' }, '[subtotal] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals'],
      [{ storeId: '999' }, '[storeId] store 999 does not exist'],
      [{ terminalId: '999' }, '[terminalId] terminal 999 does not exist'],
      [{ terminalId: other }, `[terminalId] terminal ${other} belongs to store ${store2}, not to store ${store}`],
      [{ terminalTranId: undefined }, '[terminalTranId] is required'],
      [{ terminalTranDateTime: 'yesterday' }, '[terminalTranDateTime] must be a date-time like 2026-11-22T10:00:00+09:00'],
      [{ terminalTranDateTime: '2026-11-24T10:00:00+09:00' }, '[terminalTranDateTime] is more than a day ahead of the server clock; check the terminal clock'],
      [{ customerId: '999' }, '[customerId] member 999 does not exist'],
      [{ staffId: '999' }, '[staffId] staff 999 does not exist'],
      [{ memo: 'x'.repeat(1001) }, '[memo] must be at most 1000 characters'],
      [{ details: [] }, '[details] must have at least one entry'],
      [{ details: undefined }, '[details] is required'],
      [{ depositCash: '4000' }, '[depositCash] is not a known field'],
      [line({ productId: '999' }), '[details[0].productId] product 999 does not exist'],
      [line({ quantity: '0' }), '[details[0].quantity] must be a whole number from 1 to 99999'],
      [line({ quantity: '1.5' }), '[details[0].quantity] must be a whole number from 1 to 99999'],
      [line({ transactionDetailDivision: '2' }), '[details[0].transactionDetailDivision] must be 1 (a normal line): a layaway keeps goods, it returns none'],
      [line({ transactionDetailId: '0' }), '[details[0].transactionDetailId] must be 1 to 999'],
      [line({ salesPrice: undefined }), '[details[0].salesPrice] is required'],
      [
        {
          details: [
            { transactionDetailId: '1', productId: product, salesPrice: '100', quantity: '1' },
            { transactionDetailId: '01', productId: product, salesPrice: '100', quantity: '1' },
          ],
        },
        '[details[1].transactionDetailId] 01 is already the number of another line',
      ],
    ];
    for (const [body, detail] of cases) expect(await post400(body), JSON.stringify(body)).toBe(detail);
    expect(await stock(product)).toEqual(['10', '0']);
    expect(await layawayChanges(product)).toEqual([]);
  });

  it("refuses a layaway dated on a closed day of its store, naming terminalTranDateTime, until the closing is released", async () => {
    const DAY = '2026-11-21';
    expect((await t.api('POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: { preparationCash: '0', saving: '0' } })).statusCode).toBe(200);
    const res = await t.api('POST', '/transactions/layaways', layawayBody({ terminalTranDateTime: `${DAY}T18:00:00+09:00` }));
    expect(problem(res, 400)).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: `[terminalTranDateTime] store ${store} is already closed for ${DAY}; release that closing first (POST /daily_summaries/${store}/${DAY}/release)`,
    });
    expect(await stock(product)).toEqual(['10', '0']);
    expect((await t.api('POST', `/daily_summaries/${store}/${DAY}/release`)).statusCode).toBe(200);
    expect((await register({ terminalTranDateTime: `${DAY}T18:00:00+09:00` })).terminalTranDateTime).toBe(`${DAY}T18:00:00+09:00`);
  });

  it('is refused to a plan the layaway pages do not name, and to a token without pos.transactions:write', async () => {
    t.addContract('other', 'enterprise' as never);
    const enterprise = await t.tokenFor({ contractId: 'other' });
    const res = await t.app.inject({ method: 'POST', url: '/other/pos/transactions/layaways', headers: { authorization: `Bearer ${enterprise}` }, payload: layawayBody() });
    expect(problem(res, 403).detail).toBe(
      "the contract's plan enterprise cannot use POST /transactions/layaways (plans: standard, premium, premium_plus, food_business, retail_business)",
    );
    const reader = await t.tokenFor({ scopes: ['pos.transactions:read'] });
    expect((await t.api('POST', '/transactions/layaways', layawayBody(), reader)).statusCode).toBe(403);
    expect((await t.api('GET', `/transactions/layaways?${PERIOD}`, undefined, reader)).statusCode).toBe(200);
  });
});

describe('the laid-away quantity elsewhere', () => {
  it("a stocktaking's details answer the laid-away quantity at the end of the base date, valued at the product's cost", async () => {
    const stocktaking = await ok(t, 'POST', '/stocktaking', { storeId: store, targetDivision: '0' });
    await register();
    const details = (await ok(t, 'GET', `/stocktaking/${stocktaking.stocktakingInfoId}/details/2026-11-22?product_id=${product}`)) as Record<string, string>[];
    expect(details.map((d) => [d.stockQuantity, d.stockMoney, d.layawayQuantity, d.layawayMoney])).toEqual([['7', '840', '3', '360']]);
    const before = (await ok(t, 'GET', `/stocktaking/${stocktaking.stocktakingInfoId}/details/2026-11-21?product_id=${product}`)) as Record<string, string>[];
    expect(before.map((d) => [d.stockQuantity, d.layawayQuantity])).toEqual([['0', '0']]);
  });
});

describe('GET /transactions/layaways', () => {
  it('lists the layaways of a period, by the platform filters, fields and sort; with_layaway=all adds their state', async () => {
    const first = (await register()).transactionHeadId as string;
    const second = (await register({ terminalTranId: '1002', customerId: undefined, terminalTranDateTime: '2026-11-20T12:00:00+09:00' })).transactionHeadId as string;
    const list = (q: string) => ok(t, 'GET', `/transactions/layaways?${PERIOD}${q}`);
    expect(await list('&fields=transactionHeadId,total,customerId')).toEqual([
      { transactionHeadId: first, total: '4000', customerId: member },
      { transactionHeadId: second, total: '4000', customerId: null },
    ]);
    expect((await list('&sort=terminalTranDateTime&fields=transactionHeadId')).map((l: { transactionHeadId: string }) => l.transactionHeadId)).toEqual([second, first]);
    expect((await list(`&customer_id=${member}&fields=transactionHeadId`))).toEqual([{ transactionHeadId: first }]);
    expect(await list(`&store_id=${store2}`)).toEqual([]);
    expect(await list(`&terminal_id=${terminal}&transaction_head_id-from=${second}&transaction_head_id-to=${second}&fields=transactionHeadId`)).toEqual([{ transactionHeadId: second }]);
    expect((await list('&with_layaway=all&fields=transactionHeadId&limit=1'))).toEqual([{ transactionHeadId: first, layaway: { transactionHeadId: first, status: '0', pickUpTransactionHeadId: null } }]);
    const full = await list('&limit=1');
    expect(full[0]).toMatchObject({ transactionHeadId: first, transactionHeadDivision: '10', amount: '4', terminalTranDateTime: KEPT_AT });
    expect(full[0]).not.toHaveProperty('details');
    // The terminal period excludes the ones outside it.
    const narrow = 'terminal_tran_date_time-from=2026-11-22T00:00:00%2B09:00&terminal_tran_date_time-to=2026-11-22T23:59:59%2B09:00';
    expect((await ok(t, 'GET', `/transactions/layaways?${narrow}&fields=transactionHeadId`))).toEqual([{ transactionHeadId: first }]);
  });

  it('needs one complete period of at most 31 days, and refuses unknown parameters', async () => {
    const detail = async (q: string) => problem(await t.api('GET', `/transactions/layaways${q}`), 400).detail;
    expect(await detail('')).toBe(
      '[query] a complete range is required: transaction_date_time-from and transaction_date_time-to, or terminal_tran_date_time-from and terminal_tran_date_time-to, or upd_date_time-from and upd_date_time-to',
    );
    expect(await detail('?upd_date_time-from=2026-10-01T00:00:00%2B09:00&upd_date_time-to=2026-11-22T00:00:00%2B09:00')).toBe(
      '[upd_date_time-to] the range from upd_date_time-from may span at most 31 days',
    );
    expect(await detail('?upd_date_time-from=2026-11-22T00:00:00%2B09:00&upd_date_time-to=2026-11-21T00:00:00%2B09:00')).toBe('[upd_date_time-to] must not be earlier than upd_date_time-from');
    expect(await detail(`?${PERIOD}&sum_date=2026-11-22`)).toBe('[sum_date] is not a known field');
    expect(await detail(`?${PERIOD}&transaction_head_id-from=5&transaction_head_id-to=4`)).toBe('[transaction_head_id-to] must not be less than transaction_head_id-from');
    expect(await detail(`?${PERIOD}&with_layaway=some`)).toBe('[with_layaway] must be one of none, all');
    expect(await detail(`?${PERIOD}&sort=total`)).toBe('[sort] total is not a sort key; use transactionHeadId, transactionDateTime, storeId, terminalId, customerId, terminalTranId, terminalTranDateTime, updDateTime with an optional :desc');
  });

  it('is no longer caught by the transaction item route nor answered as an unserved path', async () => {
    expect(await ok(t, 'GET', `/transactions/layaways?${PERIOD}`)).toEqual([]);
    expect((await t.api('DELETE', '/transactions/layaways')).statusCode).toBe(404);
  });
});

describe('picking up and cancelling a layaway (the rules the transaction writes call)', () => {
  it('a pick-up hands the laid-away goods over: layaway stock down, available stock unchanged; status 1', async () => {
    const id = (await register()).transactionHeadId as string;
    const picked = repo().pickUp(t.contractId, id, 424242);
    expect(picked).toMatchObject({ status: '1', pick_up_transaction_head_id: 424242, cancel_division: '0' });
    expect(await stock(product)).toEqual(['7', '0']);
    expect(await stock(product2)).toEqual(['4', '0']);
    expect((await layawayChanges(product)).map((c) => [c.amount, c.stockAmount, c.layawayStockAmount])).toEqual([
      ['-3', '7', '3'],
      ['0', '7', '0'],
    ]);
    const listed = await ok(t, 'GET', `/transactions/layaways?${PERIOD}&with_layaway=all&fields=transactionHeadId`);
    expect(listed).toEqual([{ transactionHeadId: id, layaway: { transactionHeadId: id, status: '1', pickUpTransactionHeadId: '424242' } }]);
    expect(() => repo().pickUp(t.contractId, id, 5)).toThrow(expect.objectContaining({ field: 'layawayServerTransactionHeadId', reason: `layaway ${id} was picked up by transaction 424242` }));
    expect(() => repo().cancel(contract(), id)).toThrow(expect.objectContaining({ field: 'transaction_id', reason: `layaway ${id} was picked up by transaction 424242` }));
  });

  it('a cancel puts the goods back on sale: available stock up, layaway stock down; cancelDivision 1', async () => {
    const id = (await register()).transactionHeadId as string;
    const cancelled = repo().cancel(contract(), id);
    expect(cancelled).toMatchObject({ cancel_division: '1', status: '0' });
    expect(await stock(product)).toEqual(['10', '0']);
    expect(await stock(product2)).toEqual(['5', '0']);
    expect((await layawayChanges(product2)).map((c) => [c.amount, c.stockAmount, c.layawayStockAmount])).toEqual([
      ['-1', '4', '1'],
      ['1', '5', '0'],
    ]);
    const listed = await ok(t, 'GET', `/transactions/layaways?${PERIOD}&fields=transactionHeadId,cancelDivision,cancelDateTime`);
    expect(listed).toEqual([{ transactionHeadId: id, cancelDivision: '1', cancelDateTime: NOW }]);
    expect(() => repo().cancel(contract(), id)).toThrow(expect.objectContaining({ name: 'ConflictError', field: 'transaction_id', reason: `layaway ${id} is cancelled` }));
    expect(() => repo().pickUp(t.contractId, id, 5)).toThrow(expect.objectContaining({ field: 'layawayServerTransactionHeadId', reason: `layaway ${id} is cancelled` }));
  });

  it('names an unknown layaway, and refuses a cancel on a closed day of the store', async () => {
    expect(() => repo().pickUp(t.contractId, '999', 5)).toThrow(expect.objectContaining({ name: 'InvalidInput', field: 'layawayServerTransactionHeadId', reason: 'layaway 999 does not exist' }));
    expect(() => repo().cancel(contract(), 'abc')).toThrow(expect.objectContaining({ name: 'NotFoundError', field: 'transaction_id', reason: 'layaway abc does not exist' }));
    const id = (await register()).transactionHeadId as string;
    const DAY = '2026-11-22';
    expect((await t.api('POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: { preparationCash: '0', saving: '0' } })).statusCode).toBe(200);
    expect(() => repo().cancel(contract(), id)).toThrow(
      expect.objectContaining({ name: 'InvalidInput', field: 'transaction_id', reason: `store ${store} is already closed for ${DAY}; release that closing first (POST /daily_summaries/${store}/${DAY}/release)` }),
    );
    expect(await stock(product)).toEqual(['7', '3']);
  });
});

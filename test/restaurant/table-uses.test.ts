import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkoutLines, tableUseTotals, type CheckoutItem } from '../../server/domain/checkout.js';
import { okOf, problem } from '../helpers/app.js';
import { makeFixture, type Fixture } from '../sales/transactions-fixtures.js';
import { waiterApi } from './waiter-api.js';

/**
 * Table uses of the waiter API (issue 26): seating a party (POST /table_uses), the history
 * (GET /table_uses), one with its orders, and checkout (PUT /table_uses/{id}/checkout), whose
 * orders become a sale through the one transaction registration.
 */

const NOW = '2026-11-22T10:00:00+09:00';
const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });

const item = (over: Partial<CheckoutItem>): CheckoutItem => ({
  status: 'waiting',
  name: 'Pasta',
  quantity: 1,
  amount: '1000',
  taxRate: '10',
  taxation: 'included',
  discountAmount: null,
  categoryId: null,
  productId: null,
  toppings: [],
  courseItems: [],
  ...over,
});

describe('checkout rules (domain)', () => {
  it('makes a line per item not canceled, an even discount per unit, an uneven one a line of its own, priced sub-items', () => {
    const lines = checkoutLines(
      [
        item({ productId: 7, categoryId: 3, quantity: 2, discountAmount: '200', toppings: [{ menuId: '5', name: 'Cheese', quantity: 1, amount: '100' }] }),
        item({ name: 'Wine', quantity: 3, amount: '800', discountAmount: '100', taxation: 'excluded', categoryId: 4, courseItems: [{ menuId: null, name: 'Bread', quantity: 1, amount: '0' }] }),
        item({ name: 'Soup', status: 'canceled' }),
      ],
      (menuId) => (menuId === '5' ? 9 : null),
    );
    expect(lines).toEqual([
      { transactionDetailId: '1', transactionDetailDivision: '1', productId: '7', productName: 'Pasta', taxDivision: '0', taxRate: '10', salesPrice: '1000', unitDiscountPrice: '100', quantity: '2' },
      { transactionDetailId: '2', transactionDetailDivision: '1', productId: '9', productName: 'Cheese', taxDivision: '0', taxRate: '10', salesPrice: '100', quantity: '2' },
      { transactionDetailId: '3', transactionDetailDivision: '1', productName: 'Wine', taxDivision: '1', taxRate: '10', salesPrice: '800', quantity: '3', categoryId: '4' },
      { transactionDetailId: '4', transactionDetailDivision: '1', productName: '値引 Wine', taxDivision: '1', taxRate: '10', salesPrice: '-100', quantity: '1', categoryId: '4' },
    ]);
    expect(checkoutLines([item({ name: 'あ'.repeat(100) })], () => null)[0]!.productName).toBe('あ'.repeat(85));
  });

  it('totals: items not canceled; tax-included price, tax added to excluded lines rounded down', () => {
    expect(tableUseTotals([item({ quantity: 2, discountAmount: '200', toppings: [{ menuId: null, name: 'C', quantity: 1, amount: '100' }] }), item({ status: 'canceled' })])).toEqual({
      quantity: 2,
      totalPrice: '2000',
    });
    // 3 × 333 = 999 excluded → 999 + 99 (99.9 down) = 1098.
    expect(tableUseTotals([item({ quantity: 3, amount: '333', taxation: 'excluded' })])).toEqual({ quantity: 3, totalPrice: '1098' });
  });
});

describe('table uses', () => {
  let f: Fixture;
  let tables: string[];
  let product: string;
  let menu: string;
  beforeEach(async () => {
    f = await makeFixture('retail_business');
    tables = [];
    for (const name of ['T1', 'T2', 'T3']) tables.push((await f.create('/tables', { storeId: f.store, name })).tableId);
    product = (await f.create('/products', { categoryId: f.category, productCode: 'P1', productName: 'Pasta', price: '1200' })).productId;
    menu = (await f.create('/menus', { storeId: f.store, menuName: 'Pasta', menuType: 'normal', price: '1200', productId: product })).menuId;
  });
  afterEach(() => f.t.close());

  /** The request a platform client sends, under /{contract_id}/waiter. */
  const waiter = async (method: string, path: string, body?: unknown, token?: string) => waiterApi(f.t, method, path, body, token);
  const ok = okOf((method, path, body) => waiter(method, path, body));
  const seat = (table: string, extra: Record<string, unknown> = {}) => ok('POST', '/table_uses', { storeId: f.store, tableId: table, ...extra });
  const orderAt = (useId: string, items: unknown[]) => ok('POST', `/table_uses/${useId}/orders`, { items });
  const pasta = { menuId: '', quantity: 2, sellingPrice: { amount: '1200' }, discount: { type: 'amount', amount: '200' }, toppings: [{ name: 'Cheese', amount: '100' }] };
  const wine = { name: 'Wine', quantity: 3, sellingPrice: { amount: '800' }, discount: { type: 'amount', amount: '100' } };
  const count = (table: string) => (f.t.deps.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

  describe('POST /table_uses', () => {
    it('seats a party from the body platform clients send: the TableUse with its size and customer group', async () => {
      const group = await f.create('/customer_groups', { customerGroupSectionId: '1', label: 'Family' });
      const res = await waiter('POST', '/table_uses', { storeId: f.store, tableId: tables[0], guestCount: 4, customerDivisionId: group.customerGroupId });
      expect(res.statusCode).toBe(200);
      const id = res.json().id;
      expect(res.json()).toEqual({
        id,
        storeId: f.store,
        tables: [{ id: tables[0], name: 'T1' }],
        number: 4,
        status: 'started',
        started: NOW,
        ended: null,
        customerGroups: [{ id: group.customerGroupId, name: 'Family' }],
        quantity: 0,
        tableChargePerPerson: '0',
        serviceChargeRate: 0,
        totalPrice: '0',
        tempTransactionHeadId: null,
        transactionHeadId: null,
        reservationId: null,
        memo: null,
        orders: [],
        orderIds: [],
      });
      // Several tables at once; the party then orders at its table use.
      const two = await seat(tables[1], { tableId: undefined, tableIds: [tables[1], tables[2]], memo: 'window' });
      expect(two).toMatchObject({ tables: [{ id: tables[1], name: 'T2' }, { id: tables[2], name: 'T3' }], number: 0, memo: 'window' });
    });

    it('refuses a busy or foreign table, a missing table or group, a suspended store; nothing is written', async () => {
      const use = await seat(tables[0]);
      const before = count('table_uses');
      const other = (await f.create('/stores', { storeName: 'Other' })).storeId;
      const refusals: [unknown, string][] = [
        [{ storeId: f.store, tableId: tables[0] }, `[tableId] table ${tables[0]} is in use by table use ${use.id}`],
        [{ storeId: f.store, tableIds: [tables[1], tables[0]] }, `[tableIds[1]] table ${tables[0]} is in use by table use ${use.id}`],
        [{ storeId: other, tableId: tables[1] }, `[tableId] table ${tables[1]} does not exist in store ${other}`],
        [{ storeId: f.store }, '[tableId] is required (or tableIds)'],
        [{ storeId: f.store, tableId: tables[1], tableIds: [tables[2]] }, '[tableIds] must not be sent with tableId'],
        [{ storeId: f.store, tableId: tables[1], customerDivisionId: '999' }, '[customerDivisionId] customer group 999 does not exist'],
        [{ storeId: '999', tableId: tables[1] }, '[storeId] store 999 does not exist'],
        [{ storeId: f.store, tableId: tables[1], guestCount: '4' }, '[guestCount] must be an integer'],
      ];
      for (const [body, detail] of refusals) expect(problem(await waiter('POST', '/table_uses', body), 400), JSON.stringify(body)).toEqual(bad(detail));
      await f.api('PATCH', `/stores/${other}`, { pauseFlag: '1' });
      expect(problem(await waiter('POST', '/table_uses', { storeId: other }), 400).detail).toBe(`[storeId] store ${other} is suspended`);
      expect(count('table_uses')).toBe(before);
      expect(problem(await waiter('POST', '/table_uses', { storeId: f.store, tableId: tables[1] }, await f.t.tokenFor({ scopes: ['waiter.orders:read'] })), 403).detail).toBe(
        '[scope] the token lacks the scope waiter.orders:write',
      );
    });
  });

  describe('GET /table_uses', () => {
    it('lists the open table uses newest first; status, store and date filters; pages by cursor with a Link', async () => {
      const a = await seat(tables[0]);
      f.t.clock.advance(60_000);
      const b = await seat(tables[1]);
      f.t.clock.advance(60_000);
      const c = await seat(tables[2]);
      await ok('PATCH', `/table_uses/${a.id}`, { status: 'ended' });
      const ids = async (query: string) => ((await ok('GET', `/table_uses${query}`)) as { id: string }[]).map((u) => u.id);
      expect(await ids('')).toEqual([c.id, b.id]);
      expect(await ids('?status=all')).toEqual([c.id, b.id, a.id]);
      expect(await ids('?status=ended')).toEqual([a.id]);
      expect(await ids('?status=all&sort=started')).toEqual([a.id, b.id, c.id]);
      expect(await ids(`?store_id=${f.store}&started=2026-11-22`)).toEqual([c.id, b.id]);
      expect(await ids('?started=2026-11-21')).toEqual([]);
      expect(await ids('?status=all&ended=2026-11-22')).toEqual([a.id]);
      const first = await waiter('GET', '/table_uses?status=all&limit=2');
      expect(first.json().map((u: { id: string }) => u.id)).toEqual([c.id, b.id]);
      const next = `http://localhost/${f.t.contractId}/waiter/table_uses?status=all&limit=2&cursor=${a.id}`;
      expect(first.headers.link).toBe(`<${next}>; rel="next"`);
      const second = await waiter('GET', `/table_uses?status=all&limit=2&cursor=${a.id}`);
      expect(second.json().map((u: { id: string }) => u.id)).toEqual([a.id]);
      expect(second.headers.link).toBeUndefined();
      expect(await ids('?status=all&cursor=-1&limit=1')).toEqual([c.id]);
      expect(problem(await waiter('GET', '/table_uses?cursor=999999'), 400).detail).toBe('[cursor] table use 999999 does not exist');
      expect(problem(await waiter('GET', '/table_uses?status=open'), 400).detail).toBe('[status] must be one of all, started, ended, canceled, merged');
      expect(problem(await waiter('GET', '/table_uses?limit=101'), 400).detail).toBe('[limit] limit must be at most 100');
      expect(problem(await waiter('GET', '/table_uses?page=2'), 400).status).toBe(400);
      // The history list is the platform's waiter.orders:history; waiter.orders:read reads one table use.
      const reader = await f.t.tokenFor({ scopes: ['waiter.orders:read'] });
      expect(problem(await waiter('GET', '/table_uses', undefined, reader), 403).detail).toBe('[scope] the token lacks the scope waiter.orders:history');
      expect((await waiter('GET', `/table_uses/${a.id}`, undefined, reader)).statusCode).toBe(200);
    });
  });

  describe('PUT /table_uses/{table_use_id}/checkout', () => {
    it('seat → order → checkout: the orders become a sale in GET /pos/transactions, the stock moves, the table use ends on it', async () => {
      await f.api('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '10' });
      const use = await seat(tables[0], { guestCount: 2 });
      await orderAt(use.id, [{ ...pasta, menuId: menu }]);
      const second = await orderAt(use.id, [wine, { name: 'Soup', sellingPrice: { amount: '500' } }]);
      await ok('PATCH', `/orders/${second.orderId}/items/${second.items[1].id}`, { status: 'canceled' });
      // 2 × 1200 − 200 + 2 × 100 cheese + 3 × 800 − 100 = 4700; the soup was canceled.
      expect(await ok('GET', `/table_uses/${use.id}`)).toMatchObject({ quantity: 5, totalPrice: '4700', status: 'started' });

      f.t.clock.advance(30 * 60_000);
      const res = await waiter('PUT', `/table_uses/${use.id}/checkout`, { terminalId: f.terminal, deposit: '5000' });
      expect(res.statusCode).toBe(200);
      const done = res.json();
      expect(done).toMatchObject({ id: use.id, status: 'ended', ended: '2026-11-22T10:30:00+09:00', quantity: 5, totalPrice: '4700', tempTransactionHeadId: null });
      const saleId = done.transactionHeadId as string;
      expect(saleId).toMatch(/^\d+$/);

      const sale = (await f.api('GET', `/transactions/${saleId}?with_details=all`)).json();
      expect(sale).toMatchObject({
        transactionHeadDivision: '1',
        storeId: f.store,
        terminalId: f.terminal,
        total: '4700',
        deposit: '5000',
        change: '300',
        guestNumbers: '2',
        enterDateTime: NOW,
        terminalTranDateTime: '2026-11-22T10:30:00+09:00',
      });
      expect(sale.details.map((d: Record<string, string>) => [d.productId, d.productName, d.salesPrice, d.quantity])).toEqual([
        [product, 'Pasta', '1200', '2'],
        [null, 'Cheese', '100', '2'],
        [null, 'Wine', '800', '3'],
        [null, '値引 Wine', '-100', '1'],
      ]);
      const list = (await f.api('GET', `/transactions?terminal_tran_date_time-from=${encodeURIComponent(NOW)}&terminal_tran_date_time-to=${encodeURIComponent('2026-11-22T11:00:00+09:00')}`)).json();
      expect(list.map((t: { transactionHeadId: string }) => t.transactionHeadId)).toEqual([saleId]);
      const changes = (await f.api('GET', `/stock/changes/${product}/${f.store}`)).json() as Record<string, string>[];
      expect(changes.map((c) => [c.stockDivision, c.amount, c.stockAmount])).toEqual([
        ['15', '10', '10'],
        ['02', '-2', '8'],
      ]);
      // The tables are free again; the list of ended table uses has it.
      expect((await seat(tables[0])).tables).toEqual([{ id: tables[0], name: 'T1' }]);
      expect((await ok('GET', '/table_uses?status=ended')).map((u: { transactionHeadId: string }) => u.transactionHeadId)).toEqual([saleId]);

      // A retry is a conflict naming the sale; nothing is registered twice.
      expect(problem(await waiter('PUT', `/table_uses/${use.id}/checkout`, { terminalId: f.terminal }), 409).detail).toBe(
        `[table_use_id] table use ${use.id} is already checked out (transaction ${saleId})`,
      );
      expect(count('transactions')).toBe(1);
    });

    it('refuses what POST /transactions refuses, and a table use that is not started or has nothing to charge; nothing is written', async () => {
      const use = await seat(tables[0]);
      expect(problem(await waiter('PUT', `/table_uses/${use.id}/checkout`, { terminalId: f.terminal }), 400)).toEqual(
        bad(`[table_use_id] table use ${use.id} has nothing to charge (no item that is not canceled); end it with PATCH /table_uses/${use.id} {"status":"ended"}`),
      );
      await orderAt(use.id, [wine]);
      const refusals: [unknown, string][] = [
        [{}, '[terminalId] is required unless the transaction is registered as closed (sumDivision 2 with sumDate): it could never be settled'],
        [{ terminalId: '999' }, '[terminalId] terminal 999 does not exist; a transaction of an unknown terminal must be registered as closed (sumDivision 2 with sumDate)'],
        [{ terminalId: f.terminal, deposit: '1000' }, '[deposit] the payments (1000) do not cover the total 2300'],
        [{ terminalId: f.terminal, staffId: '999' }, '[staffId] staff 999 does not exist'],
        [{ terminalId: f.terminal, tip: '1' }, '[tip] is not a known field'],
      ];
      for (const [body, detail] of refusals) {
        const res = await waiter('PUT', `/table_uses/${use.id}/checkout`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().detail, JSON.stringify(body)).toBe(detail);
      }
      expect(count('transactions')).toBe(0);
      expect((await ok('GET', `/table_uses/${use.id}`)).status).toBe('started');
      expect(problem(await waiter('PUT', '/table_uses/999999/checkout', { terminalId: f.terminal }), 404).detail).toBe('[table_use_id] table use 999999 does not exist');
      await ok('PATCH', `/table_uses/${use.id}`, { status: 'canceled' });
      expect(problem(await waiter('PUT', `/table_uses/${use.id}/checkout`, { terminalId: f.terminal }), 400).detail).toBe(
        `[table_use_id] table use ${use.id} is canceled; only a started table use can be checked out`,
      );
    });

    it('a closed day refuses the checkout as every sale write, until the closing is released', async () => {
      const use = await seat(tables[0]);
      await orderAt(use.id, [wine]);
      expect((await f.api('POST', '/daily_summaries', { sumDate: '2026-11-22', storeId: f.store, cashInfo: { preparationCash: '0', saving: '0' } })).statusCode).toBe(200);
      expect(problem(await waiter('PUT', `/table_uses/${use.id}/checkout`, { terminalId: f.terminal }), 400).detail).toBe(
        `[terminalTranDateTime] store ${f.store} is already closed for 2026-11-22; release that closing first (POST /daily_summaries/${f.store}/2026-11-22/release)`,
      );
      expect((await ok('GET', `/table_uses/${use.id}`)).status).toBe('started');
      expect((await f.api('POST', `/daily_summaries/${f.store}/2026-11-22/release`)).statusCode).toBe(200);
      expect((await waiter('PUT', `/table_uses/${use.id}/checkout`, { terminalId: f.terminal })).statusCode).toBe(200);
    });

    it('closes on a sale the register made (transactionHeadId): of the store, a sale, not closing another table use', async () => {
      const use = await seat(tables[0]);
      const other = await seat(tables[1]);
      const sale = await f.sale({ details: [{ transactionDetailId: '1', salesPrice: '2300', quantity: '1' }] });
      const id = sale.transactionHeadId as string;
      expect(problem(await waiter('PUT', `/table_uses/${use.id}/checkout`, { transactionHeadId: id, terminalId: f.terminal }), 400).detail).toBe(
        '[terminalId] must not be sent with transactionHeadId: the linked sale already carries it',
      );
      expect(problem(await waiter('PUT', `/table_uses/${use.id}/checkout`, { transactionHeadId: '999999' }), 400).detail).toBe('[transactionHeadId] transaction 999999 does not exist');
      const done = await ok('PUT', `/table_uses/${use.id}/checkout`, { transactionHeadId: id });
      expect(done).toMatchObject({ status: 'ended', transactionHeadId: id, ended: NOW });
      expect(problem(await waiter('PUT', `/table_uses/${other.id}/checkout`, { transactionHeadId: id }), 409).detail).toBe(
        `[transactionHeadId] transaction ${id} already closes table use ${use.id}`,
      );
      const otherStore = (await f.create('/stores', { storeName: 'Other' })).storeId;
      const foreign = await f.sale({ storeId: otherStore, terminalId: (await f.create('/terminals', { storeId: otherStore, terminalName: 'R9' })).terminalId, details: [{ transactionDetailId: '1', salesPrice: '1', quantity: '1' }] });
      expect(problem(await waiter('PUT', `/table_uses/${other.id}/checkout`, { transactionHeadId: foreign.transactionHeadId }), 400).detail).toBe(
        `[transactionHeadId] transaction ${foreign.transactionHeadId} is of store ${otherStore}, not of store ${f.store}`,
      );
      expect(count('transactions')).toBe(2);
    });
  });
});

describe('table uses of a reserved party (Food Business)', () => {
  it('seating binds the reservation (coming); checkout pays it', async () => {
    const f = await makeFixture('food_business');
    try {
      const table = (await f.create('/tables', { storeId: f.store, name: 'T1' })).tableId;
      const reservation = await f.create('/reservations', {
        storeId: f.store,
        startAt: '2026-11-22T18:00:00+09:00',
        endAt: '2026-11-22T20:00:00+09:00',
        persons: { adults: 2, children: 0 },
      });
      const waiter = (method: string, path: string, body?: unknown) => waiterApi(f.t, method, path, body);
      const use = (await waiter('POST', '/table_uses', { storeId: f.store, tableId: table, guestCount: 2, reservationId: reservation.id })).json();
      expect(use.reservationId).toBe(reservation.id);
      expect((await f.api('GET', `/reservations/${reservation.id}`)).json()).toMatchObject({ status: 'coming', tableUseId: use.id });
      await waiter('POST', `/table_uses/${use.id}/orders`, { items: [{ name: 'Course', sellingPrice: { amount: '5000' } }] });
      expect((await waiter('PUT', `/table_uses/${use.id}/checkout`, { terminalId: f.terminal })).statusCode).toBe(200);
      expect((await f.api('GET', `/reservations/${reservation.id}`)).json()).toMatchObject({ status: 'paid', tableUseId: use.id });
    } finally {
      await f.t.close();
    }
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discountAmount, itemStatusChange, tableUseStatusProblem } from '../../server/domain/order-items.js';
import { seedFloor } from '../../server/seed/demo-floor.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const badRequest = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const water = { name: 'Water', sellingPrice: { amount: '0' } };

describe('order item rules (domain)', () => {
  it('computes discount amounts exactly, rounding rate discounts down to the yen', () => {
    expect(discountAmount({ type: 'couponRate', rate: '15' }, '980', 3)).toEqual({ amount: '441' }); // 441.0
    expect(discountAmount({ type: 'rate', rate: '33.3' }, '100.1', 1)).toEqual({ amount: '33' }); // 33.3333
    expect(discountAmount({ type: 'freeCoupon' }, '0.1', 3)).toEqual({ amount: '0.3' }); // no float error
    expect(discountAmount({ type: 'amount', amount: '500' }, '400', 1)).toEqual({ refused: 'amount 500 exceeds the line total 400' });
  });

  it('allows the item and table-use transitions of docs/decisions.md', () => {
    expect(itemStatusChange('waiting', 'provided')).toEqual({ servedAt: 'set' });
    expect(itemStatusChange('provided', 'waiting')).toEqual({ servedAt: 'clear' });
    expect(itemStatusChange('provided', 'canceled')).toEqual({ servedAt: 'keep' });
    expect(itemStatusChange('canceled', 'waiting')).toEqual({ refused: 'a canceled item cannot become waiting' });
    expect(tableUseStatusProblem('started', 'merged')).toBeNull();
    expect(tableUseStatusProblem('ended', 'started')).toBe('a table use that is ended cannot become started');
  });
});

describe('orders', () => {
  let t: TestApp;
  let storeId: string;
  let tables: string[];
  let categoryId: string;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'food_business' });
    storeId = (await t.api('POST', '/stores', { storeName: 'Bistro' })).json().storeId;
    tables = [];
    for (const name of ['T1', 'T2', 'T3']) tables.push((await t.api('POST', '/tables', { storeId, name })).json().tableId);
    categoryId = (await t.api('POST', '/categories', { categoryName: 'Pasta' })).json().categoryId;
  });
  afterEach(() => t.close());

  const order = async (body: Record<string, unknown>) => {
    const res = await t.api('POST', '/orders', body);
    if (res.statusCode !== 200) throw new Error(`order failed: ${res.body}`);
    return res.json();
  };
  const menu = async (body: Record<string, unknown>) => {
    const res = await t.api('POST', '/menus', { storeId, menuType: 'normal', ...body });
    if (res.statusCode !== 200) throw new Error(`menu failed: ${res.body}`);
    return res.json().menuId as string;
  };

  it('writes nothing when any part of an order is refused: no table use, order, item, or bound reservation', async () => {
    const reservation = (await t.api('POST', '/reservations', {
      storeId, startAt: '2026-11-22T18:00:00+09:00', endAt: '2026-11-22T20:00:00+09:00', persons: { adults: 2, children: 0 },
    })).json();
    const refused = await t.api('POST', '/orders', {
      storeId,
      tableIds: [tables[0]],
      reservationId: reservation.id,
      items: [{ name: 'Coffee', sellingPrice: { amount: '480' } }, { menuId: '999999', sellingPrice: { amount: '1' } }],
    });
    expect(problem(refused, 400).detail).toBe(`[items[1].menuId] menu 999999 is not a menu of store ${storeId}`);
    const count = (table: string) => (t.deps.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    for (const table of ['table_uses', 'table_use_tables', 'orders', 'order_items']) expect(count(table), table).toBe(0);
    expect((await t.api('GET', `/reservations/${reservation.id}`)).json()).toMatchObject({ status: 'waiting', tableUseId: null });
    // The table is still free: a valid order seats the party there.
    expect((await t.api('POST', '/orders', { storeId, tableIds: [tables[0]], items: [{ name: 'Coffee', sellingPrice: { amount: '480' } }] })).statusCode).toBe(200);
  });

  it('opens a table use and answers the whole 2.12 shape; GET /orders/{id} gives the same', async () => {
    const menuId = await menu({ menuName: 'Carbonara', categoryId });
    const created = await order({
      storeId,
      tableIds: [tables[1], tables[0]],
      items: [
        { menuId, sellingPrice: { amount: '1200.50', taxType: 'normal', taxation: 'excluded' }, quantity: 2, memo: 'no pepper', timeLimit: 90, preTimeLimitMinutesLeft: 10,
          toppings: [{ name: 'Extra cheese', amount: '150' }], discount: { type: 'couponRate', rateCoupon: '10' } },
        { name: 'Lunch plan', menuType: 'plan', sellingPrice: { amount: '2000', taxType: 'reduced' }, status: 'provided', customContentId: 'C1', customContentName: 'Large',
          courseItems: [{ name: 'Soup', quantity: 2 }] },
        { name: 'Corkage', sellingPrice: { amount: '500', taxType: 'none' }, discount: { type: 'amount', amount: '100' } },
      ],
    });
    const [a, b, c] = created.items.map((i: { id: string }) => i.id);
    expect(created).toEqual({
      orderId: created.orderId,
      ordered: AT_T0,
      tableUseId: created.tableUseId,
      tableUse: { id: created.tableUseId, status: 'started', storeId, tables: [{ id: tables[1], name: 'T2' }, { id: tables[0], name: 'T1' }] },
      items: [
        {
          id: a, name: 'Carbonara', status: 'waiting', servedAt: null, memo: 'no pepper', menuId, quantity: 2, menuType: 'normal',
          customContentId: null, customContentName: null, categoryId,
          sellingPrice: { taxRate: 10, taxType: 'normal', amount: '1200.5', tax: 'excluded', taxation: 'excluded' },
          discount: { type: 'couponRate', rateCoupon: '10', amount: '240' },
          timeLimit: 90, preTimeLimitMinutesLeft: 10,
          toppings: [{ menuId: null, toppingId: null, name: 'Extra cheese', quantity: 1, amount: '150' }], courseItems: [],
        },
        {
          id: b, name: 'Lunch plan', status: 'provided', servedAt: AT_T0, memo: null, menuId: null, quantity: 1, menuType: 'plan',
          customContentId: 'C1', customContentName: 'Large', categoryId: null,
          sellingPrice: { taxRate: 8, taxType: 'reduced', amount: '2000', tax: 'included', taxation: 'included' },
          discount: null, timeLimit: 0, preTimeLimitMinutesLeft: 0,
          toppings: [], courseItems: [{ menuId: null, name: 'Soup', quantity: 2, amount: '0' }],
        },
        {
          id: c, name: 'Corkage', status: 'waiting', servedAt: null, memo: null, menuId: null, quantity: 1, menuType: 'normal',
          customContentId: null, customContentName: null, categoryId: null,
          // non-taxable without a rate: the standard rate (spec 2.12)
          sellingPrice: { taxRate: 10, taxType: 'none', amount: '500', tax: 'none', taxation: 'none' },
          discount: { type: 'amount', amount: '100' }, timeLimit: 0, preTimeLimitMinutesLeft: 0, toppings: [], courseItems: [],
        },
      ],
    });
    const got = await t.api('GET', `/orders/${created.orderId}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(created);
  });

  it('renders each discount variant', async () => {
    const res = await order({
      storeId,
      tableIds: [tables[0]],
      items: [
        { name: 'A', sellingPrice: { amount: '1000' }, discount: { type: 'couponAmount', amount: '300' } },
        { name: 'B', sellingPrice: { amount: '1000' }, quantity: 2, discount: { type: 'freeCoupon' } },
        { name: 'C', sellingPrice: { amount: '999' }, discount: { type: 'rate', rate: '5' } },
        { name: 'D', sellingPrice: { amount: '1000' }, discount: { type: 'couponRate', rateCoupon: '50', amount: '400' } },
      ],
    });
    expect(res.items.map((i: { discount: unknown }) => i.discount)).toEqual([
      { type: 'couponAmount', amountCoupon: '300', amount: '300' },
      { type: 'freeCoupon', freeCoupon: true, amount: '2000' },
      { type: 'rate', rate: '5', amount: '49' },
      { type: 'couponRate', rateCoupon: '50', amount: '400' },
    ]);
  });

  it('names bad item fields', async () => {
    const post = (item: Record<string, unknown>) => t.api('POST', '/orders', { storeId, tableIds: [tables[0]], items: [item] });
    expect(problem(await post({ sellingPrice: { amount: '1' } }), 400)).toEqual(badRequest('[items[0].name] is required without menuId'));
    expect(problem(await post({ name: 'x' }), 400).detail).toBe('[items[0].sellingPrice] is required');
    expect(problem(await post({ name: 'x', sellingPrice: { amount: 12 } }), 400).detail).toContain('[items[0].sellingPrice.amount]');
    expect(problem(await post({ name: 'x', sellingPrice: { amount: '1.23456' } }), 400).detail).toBe(
      '[items[0].sellingPrice.amount] must be a decimal string like 1200 or 1200.5 (at most 4 decimals)',
    );
    expect(problem(await post({ name: 'x', sellingPrice: { amount: '1', taxRate: '10' } }), 400).detail).toBe('[items[0].sellingPrice.taxRate] must be a number (percent)');
    expect(problem(await post({ name: 'x', quantity: 0, sellingPrice: { amount: '1' } }), 400).detail).toBe('[items[0].quantity] must be at least 1');
    expect(problem(await post({ name: 'x', quantity: 1.5, sellingPrice: { amount: '1' } }), 400).detail).toBe('[items[0].quantity] must be an integer');
    expect(problem(await post({ name: 'x', menuType: 'set', sellingPrice: { amount: '1' } }), 400).detail).toBe(
      '[items[0].menuType] must be one of normal, plan, inPlan, course',
    );
    expect(problem(await post({ name: 'x', sellingPrice: { amount: '1' }, discount: { type: 'coupon' } }), 400).detail).toContain(
      'type must be one of couponRate, couponAmount, freeCoupon, rate, amount',
    );
    expect(problem(await post({ name: 'x', sellingPrice: { amount: '100' }, discount: { type: 'amount', amount: '101' } }), 400)).toEqual(
      badRequest('[items[0].discount.amount] amount 101 exceeds the line total 100'),
    );
    expect(problem(await post({ name: 'x', sellingPrice: { amount: '100' }, discount: { type: 'rate', rate: '101' } }), 400).detail).toBe(
      '[items[0].discount.rate] must be more than 0 and at most 100',
    );
    expect(problem(await post({ name: 'x', sellingPrice: { amount: '1' }, categoryId: '999999' }), 400).detail).toBe('[items[0].categoryId] category 999999 does not exist');
    expect(problem(await post({ name: 'x', sellingPrice: { amount: '1' }, status: 'canceled' }), 400).detail).toBe('[items[0].status] must be one of waiting, provided');
    expect(problem(await t.api('POST', '/orders', { storeId, tableIds: [tables[0]], items: [] }), 400).detail).toBe('[items] must have at least one item');
    // a refused order starts no table use
    expect((await order({ storeId, tableIds: [tables[0]], items: [water] })).tableUse.tables).toEqual([{ id: tables[0], name: 'T1' }]);
  });

  it("validates menuId against the store's menus and takes the menu's defaults", async () => {
    const other = (await t.api('POST', '/stores', { storeName: 'Other' })).json().storeId;
    const foreign = await menu({ storeId: other, menuName: 'Elsewhere' });
    const course = await menu({ menuName: 'Dinner course', menuType: 'course', courseDivision: 'standard' });
    const post = (item: Record<string, unknown>) => t.api('POST', '/orders', { storeId, tableIds: [tables[0]], items: [item] });
    expect(problem(await post({ menuId: foreign, sellingPrice: { amount: '1' } }), 400)).toEqual(
      badRequest(`[items[0].menuId] menu ${foreign} is not a menu of store ${storeId}`),
    );
    expect(problem(await post({ menuId: '999999', sellingPrice: { amount: '1' } }), 400).detail).toBe(`[items[0].menuId] menu 999999 is not a menu of store ${storeId}`);
    expect(problem(await post({ name: 'x', sellingPrice: { amount: '1' }, toppings: [{ name: 'y', menuId: foreign }] }), 400).detail).toBe(
      `[items[0].toppings[0].menuId] menu ${foreign} is not a menu of store ${storeId}`,
    );
    const res = await order({ storeId, tableIds: [tables[0]], items: [{ menuId: course, sellingPrice: { amount: '5000' } }, { menuId: course, name: 'Course (kids)', menuType: 'inPlan', sellingPrice: { amount: '0' } }] });
    expect(res.items.map((i: Record<string, unknown>) => [i.name, i.menuType, i.menuId])).toEqual([
      ['Dinner course', 'course', course],
      ['Course (kids)', 'inPlan', course],
    ]);
  });

  it('adds orders to a started table use and refuses the table-use rules', async () => {
    const first = await order({ storeId, tableIds: [tables[0]], items: [water] });
    const useId = first.tableUseId;
    const second = await order({ tableUseId: useId, items: [water] });
    expect(second.tableUseId).toBe(useId);
    expect(second.orderId).not.toBe(first.orderId);
    expect(problem(await t.api('POST', '/orders', { tableUseId: useId, tableIds: [tables[1]], items: [water] }), 400).detail).toBe(
      '[tableIds] must not be sent with tableUseId (the table use has its tables)',
    );
    const other = (await t.api('POST', '/stores', { storeName: 'Other' })).json().storeId;
    expect(problem(await t.api('POST', '/orders', { storeId: other, tableUseId: useId, items: [water] }), 400).detail).toBe(
      `[storeId] table use ${useId} belongs to store ${storeId}`,
    );
    expect(problem(await t.api('POST', '/orders', { tableUseId: '999999', items: [water] }), 400).detail).toBe('[tableUseId] table use 999999 does not exist');
    expect(problem(await t.api('POST', '/orders', { tableIds: [tables[1]], items: [water] }), 400).detail).toBe('[storeId] is required without tableUseId');
    expect(problem(await t.api('POST', '/orders', { storeId, items: [water] }), 400).detail).toBe('[tableIds] is required without tableUseId');
    expect(problem(await t.api('POST', '/orders', { storeId, tableIds: [tables[1], tables[0]], items: [water] }), 400)).toEqual(
      badRequest(`[tableIds[1]] table ${tables[0]} is in use by table use ${useId}`),
    );
    expect(problem(await t.api('POST', '/orders', { storeId, tableIds: [tables[1], tables[1]], items: [water] }), 400).detail).toBe(
      `[tableIds[1]] table ${tables[1]} is given more than once`,
    );
    await t.api('PATCH', `/table_uses/${useId}`, { status: 'ended' });
    expect(problem(await t.api('POST', '/orders', { tableUseId: useId, items: [water] }), 400).detail).toBe(
      `[tableUseId] table use ${useId} is ended; orders need a started table use`,
    );
    // the table is free again
    expect((await t.api('POST', '/orders', { storeId, tableIds: [tables[0]], items: [water] })).statusCode).toBe(200);
    await t.api('PATCH', `/stores/${storeId}`, { pauseFlag: '1' });
    expect(problem(await t.api('POST', '/orders', { storeId, tableIds: [tables[2]], items: [water] }), 400).detail).toBe(`[storeId] store ${storeId} is suspended`);
  });

  it('changes item status: provided sets servedAt from the clock; canceled is final', async () => {
    const created = await order({ storeId, tableIds: [tables[0]], items: [water, water] });
    const [a, b] = created.items.map((i: { id: string }) => i.id);
    const path = (item: string) => `/orders/${created.orderId}/items/${item}`;
    t.clock.advance(5 * 60_000);
    const served = await t.api('PATCH', path(a), { status: 'provided' });
    expect(served.statusCode).toBe(200);
    expect(served.json().items[0]).toMatchObject({ status: 'provided', servedAt: '2026-11-22T10:05:00+09:00' });
    t.clock.advance(60_000);
    expect((await t.api('PATCH', path(a), { status: 'provided' })).json().items[0].servedAt).toBe('2026-11-22T10:05:00+09:00');
    expect((await t.api('PATCH', path(a), { status: 'waiting' })).json().items[0]).toMatchObject({ status: 'waiting', servedAt: null });
    await t.api('PATCH', path(a), { status: 'provided' });
    expect((await t.api('PATCH', path(a), { status: 'canceled' })).json().items[0]).toMatchObject({ status: 'canceled', servedAt: '2026-11-22T10:06:00+09:00' });
    expect((await t.api('PATCH', path(b), { status: 'canceled' })).json().items[1]).toMatchObject({ status: 'canceled', servedAt: null });
    expect(problem(await t.api('PATCH', path(b), { status: 'provided' }), 400)).toEqual(badRequest('[status] a canceled item cannot become provided'));
    expect(problem(await t.api('PATCH', path(b), { status: 'eaten' }), 400).detail).toBe('[status] must be one of waiting, provided, canceled');
    expect(problem(await t.api('PATCH', path(b), {}), 400).detail).toBe('[status] is required');
    expect(problem(await t.api('PATCH', path('999999'), { status: 'provided' }), 404).detail).toBe(`[item_id] order ${created.orderId} has no item 999999`);
    expect(problem(await t.api('PATCH', '/orders/999999/items/1', { status: 'provided' }), 404).detail).toBe('[order_id] order 999999 does not exist');
  });

  it('freezes items once the table use is no longer started', async () => {
    const created = await order({ storeId, tableIds: [tables[0]], items: [water] });
    await t.api('PATCH', `/table_uses/${created.tableUseId}`, { status: 'canceled' });
    expect(problem(await t.api('PATCH', `/orders/${created.orderId}/items/${created.items[0].id}`, { status: 'provided' }), 400).detail).toBe(
      `[status] table use ${created.tableUseId} is canceled; its items can no longer change`,
    );
  });

  it('moves table uses from started only; ending finishes the bound reservation', async () => {
    const res = await t.api('POST', '/reservations', { storeId, startAt: '2026-11-22T18:00:00+09:00', endAt: '2026-11-22T20:00:00+09:00', persons: { adults: 2, children: 0 } });
    const reservationId = res.json().id;
    const created = await order({ storeId, tableIds: [tables[0], tables[1]], reservationId, items: [water] });
    const useId = created.tableUseId;
    expect((await t.api('GET', `/table_uses/${useId}`)).json()).toMatchObject({ ...created.tableUse, orderIds: [created.orderId] });
    const ended = await t.api('PATCH', `/table_uses/${useId}`, { status: 'ended' });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ ...created.tableUse, status: 'ended', ended: '2026-11-22T10:00:00+09:00', orderIds: [created.orderId] });
    expect((await t.api('GET', `/reservations/${reservationId}`)).json()).toMatchObject({ status: 'finished', tableUseId: useId });
    expect((await t.api('PATCH', `/table_uses/${useId}`, { status: 'ended' })).statusCode).toBe(200);
    expect(problem(await t.api('PATCH', `/table_uses/${useId}`, { status: 'started' }), 400)).toEqual(badRequest('[status] a table use that is ended cannot become started'));
    const merged = await order({ storeId, tableIds: [tables[2]], items: [water] });
    expect((await t.api('PATCH', `/table_uses/${merged.tableUseId}`, { status: 'merged' })).json().status).toBe('merged');
    expect(problem(await t.api('PATCH', '/table_uses/999999', { status: 'ended' }), 404).detail).toBe('[table_use_id] table use 999999 does not exist');
    expect(problem(await t.api('GET', '/table_uses/999999'), 404).status).toBe(404);
  });

  it('cancelling a table use releases its reservation, which can then be cancelled (no 405 for ever)', async () => {
    const res = await t.api('POST', '/reservations', { storeId, startAt: '2026-11-22T18:00:00+09:00', endAt: '2026-11-22T20:00:00+09:00', persons: { adults: 2, children: 0 } });
    const reservationId = res.json().id;
    const created = await order({ storeId, tableIds: [tables[0]], reservationId, items: [water] });
    expect(problem(await t.api('PATCH', `/reservations/${reservationId}`, { status: 'canceled' }), 405).status).toBe(405);
    expect((await t.api('PATCH', `/table_uses/${created.tableUseId}`, { status: 'canceled' })).statusCode).toBe(200);
    expect((await t.api('GET', `/reservations/${reservationId}`)).json()).toMatchObject({ status: 'coming', tableUseId: null });
    expect((await t.api('PATCH', `/reservations/${reservationId}`, { status: 'canceled' })).statusCode).toBe(204);
  });

  it('binds a reservation only when it is of the store, open and not bound elsewhere', async () => {
    const mk = async (status?: string) =>
      (await t.api('POST', '/reservations', { storeId, startAt: '2026-11-22T18:00:00+09:00', endAt: '2026-11-22T20:00:00+09:00', persons: { adults: 2, children: 0 }, ...(status ? { status } : {}) })).json().id;
    const canceled = await mk('canceled');
    expect(problem(await t.api('POST', '/orders', { storeId, tableIds: [tables[0]], reservationId: canceled, items: [water] }), 400).detail).toBe(
      `[reservationId] reservation ${canceled} is canceled`,
    );
    expect(problem(await t.api('POST', '/orders', { storeId, tableIds: [tables[0]], reservationId: '999999', items: [water] }), 400).detail).toBe(
      `[reservationId] reservation 999999 does not exist in store ${storeId}`,
    );
    const r = await mk();
    const first = await order({ storeId, tableIds: [tables[0]], reservationId: r, items: [water] });
    // the same table use may be named again (a second order of the same party)
    expect((await t.api('POST', '/orders', { tableUseId: first.tableUseId, reservationId: r, items: [water] })).statusCode).toBe(200);
    expect(problem(await t.api('POST', '/orders', { storeId, tableIds: [tables[1]], reservationId: r, items: [water] }), 400).detail).toBe(
      `[reservationId] reservation ${r} is already bound to table use ${first.tableUseId}`,
    );
  });

  it('404s an unknown order and 400s a malformed id', async () => {
    expect(problem(await t.api('GET', '/orders/999999'), 404)).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: '[order_id] order 999999 does not exist' });
    expect(problem(await t.api('GET', '/orders/abc'), 400).detail).toBe('[order_id] must be 1 to 9 digits');
  });

  it('needs the waiter.orders scopes (pos.orders means purchase orders on the platform)', async () => {
    const reader = await t.tokenFor({ scopes: ['waiter.orders:read', 'pos.orders:write'] });
    expect(problem(await t.api('POST', '/orders', { storeId, tableIds: [tables[0]], items: [water] }, reader), 403).detail).toBe(
      '[scope] the token lacks the scope waiter.orders:write',
    );
  });
});

describe('orders on other plans', () => {
  it('are open to every plan (4.17 names none)', async () => {
    const t = await makeTestApp({ plan: 'enterprise' });
    try {
      const storeId = (await t.api('POST', '/stores', { storeName: 'S' })).json().storeId;
      const tableId = (await t.api('POST', '/tables', { storeId, name: 'T' })).json().tableId;
      const res = await t.api('POST', '/orders', { storeId, tableIds: [tableId], items: [water] });
      expect(res.statusCode).toBe(200);
      expect((await t.api('GET', `/orders/${res.json().orderId}`)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('demo floor seed', () => {
  const ctxOf = async (t: TestApp) => {
    const main = (await t.api('POST', '/stores', { storeName: 'Main' })).json().storeId as string;
    const second = (await t.api('POST', '/stores', { storeName: 'Second' })).json().storeId as string;
    const categoryIds = { DRK: (await t.api('POST', '/categories', { categoryName: 'Drinks', categoryCode: 'DRK' })).json().categoryId as string };
    return { main, ctx: { contractId: t.contractId, storeIds: [main, second] as [string, string], categoryIds } };
  };

  it('gives a food business contract tables, reservations and an order, on the demo menus when present', async () => {
    const t = await makeTestApp({ plan: 'food_business' });
    try {
      const { main, ctx } = await ctxOf(t);
      const menuId = (await t.api('POST', '/menus', { storeId: main, menuName: 'House blend', menuType: 'normal' })).json().menuId;
      expect(seedFloor(t.deps, { ...ctx, plan: 'food_business' })).toEqual({ tables: 6, reservations: 4, tableUses: 1, orders: 1 });
      expect((await t.api('GET', `/tables?store_id=${main}`)).json()).toHaveLength(6);
      const reservations = (await t.api('GET', '/reservations')).json() as { status: string; reservationCode: string | null; tableUseId: string | null }[];
      expect(reservations.map((r) => r.status).sort()).toEqual(['coming', 'coming', 'waiting', 'waiting']);
      expect(reservations.filter((r) => r.reservationCode !== null)).toHaveLength(1);
      const bound = reservations.find((r) => r.tableUseId !== null)!;
      const { order_id } = t.deps.db.prepare('SELECT order_id FROM orders').get() as { order_id: number };
      const order = (await t.api('GET', `/orders/${order_id}`)).json();
      expect(order.tableUseId).toBe(bound.tableUseId);
      expect(order.items[0]).toMatchObject({ menuId, name: 'House blend', status: 'provided', servedAt: AT_T0 });
      expect(order.items[1].discount).toEqual({ type: 'couponRate', rateCoupon: '10', amount: '256' });
      expect(order.items[2].toppings).toEqual([{ menuId: null, toppingId: null, name: 'Extra basil', quantity: 1, amount: '100' }]);
    } finally {
      await t.close();
    }
  });

  it('adds nothing on other plans', async () => {
    const t = await makeTestApp({ plan: 'retail_business' });
    try {
      const { ctx } = await ctxOf(t);
      expect(seedFloor(t.deps, { ...ctx, plan: 'retail_business' })).toEqual({ tables: 0, reservations: 0, tableUses: 0, orders: 0 });
      expect((await t.api('GET', '/tables')).json()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

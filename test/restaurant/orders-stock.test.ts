import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { afterCancel, afterOrder, stockRefusal } from '../../server/domain/menus.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

/** Issue 10 item 9: orders take menus' remaining quantities; sold-out menus take no order. */

const badRequest = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const water = { name: 'Water', sellingPrice: { amount: '0' } };

describe('menu stock rules (domain)', () => {
  it('refuses soldout, 0 left, and more than is left (the running total of the order)', () => {
    expect(stockRefusal('12', { condition: 'soldout', quantity: null }, 1)).toEqual({ field: 'menuId', message: 'menu 12 is sold out' });
    expect(stockRefusal('12', { condition: 'soldout', quantity: 4 }, 1)).toEqual({ field: 'menuId', message: 'menu 12 is sold out' });
    expect(stockRefusal('12', { condition: 'orderable', quantity: 0 }, 1)).toEqual({ field: 'menuId', message: 'menu 12 is sold out' });
    expect(stockRefusal('12', { condition: 'orderable', quantity: 3 }, 4)).toEqual({
      field: 'quantity',
      message: 'menu 12 has only 3 left; this order asks for 4',
    });
    expect(stockRefusal('12', { condition: 'orderable', quantity: 3 }, 3)).toBeNull();
    expect(stockRefusal('12', { condition: 'orderable', quantity: null }, 999)).toBeNull();
  });

  it('lowers a counted menu, soldout at 0; an uncounted one does not change', () => {
    expect(afterOrder({ condition: 'orderable', quantity: 5 }, 2)).toEqual({ next: { condition: 'orderable', quantity: 3 }, changed: true });
    expect(afterOrder({ condition: 'orderable', quantity: 2 }, 2)).toEqual({ next: { condition: 'soldout', quantity: 0 }, changed: true });
    expect(afterOrder({ condition: 'orderable', quantity: null }, 2)).toEqual({ next: { condition: 'orderable', quantity: null }, changed: false });
  });

  it('gives back to a counted menu; one that ran out is orderable again, one staff stopped stays soldout', () => {
    expect(afterCancel({ condition: 'soldout', quantity: 0 }, 2)).toEqual({ next: { condition: 'orderable', quantity: 2 }, changed: true });
    expect(afterCancel({ condition: 'orderable', quantity: 1 }, 2)).toEqual({ next: { condition: 'orderable', quantity: 3 }, changed: true });
    expect(afterCancel({ condition: 'soldout', quantity: 4 }, 1)).toEqual({ next: { condition: 'soldout', quantity: 5 }, changed: true });
    expect(afterCancel({ condition: 'soldout', quantity: null }, 1)).toEqual({ next: { condition: 'soldout', quantity: null }, changed: false });
  });
});

describe('orders and menu stock', () => {
  let t: TestApp;
  let storeId: string;
  let tables: string[];
  let changes: Change[];
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'food_business' });
    storeId = (await t.api('POST', '/stores', { storeName: 'Bistro' })).json().storeId;
    tables = [];
    for (const name of ['T1', 'T2', 'T3']) tables.push((await t.api('POST', '/tables', { storeId, name })).json().tableId);
    changes = [];
    t.deps.writer.onChange((c) => changes.push(c));
  });
  afterEach(() => t.close());

  const menu = async (menuName: string, condition?: Record<string, unknown>) => {
    const res = await t.api('POST', '/menus', { storeId, menuType: 'normal', menuName });
    if (res.statusCode !== 200) throw new Error(`menu failed: ${res.body}`);
    const menuId = res.json().menuId as string;
    if (condition) {
      const put = await t.api('PUT', `/menu_conditions/stores/${storeId}/menus/${menuId}`, condition);
      if (put.statusCode !== 200) throw new Error(`condition failed: ${put.body}`);
    }
    return menuId;
  };
  const item = (menuId: string, quantity = 1) => ({ menuId, quantity, sellingPrice: { amount: '1000' } });
  const post = (items: unknown[], table = tables[0]) => t.api('POST', '/orders', { storeId, tableIds: [table], items });
  const order = async (items: unknown[], table = tables[0]) => {
    const res = await post(items, table);
    if (res.statusCode !== 200) throw new Error(`order failed: ${res.body}`);
    return res.json();
  };
  const conditionOf = async (menuId: string) =>
    (await t.api('GET', `/menu_conditions/stores/${storeId}?menu_ids=${menuId}`)).json()[0] as { condition: string; quantity: number | null };
  const changedSince = async (at: string) =>
    ((await t.api('GET', `/menu_conditions/stores/${storeId}?updated_from=${encodeURIComponent(at)}`)).json() as { menuId: string }[]).map((c) => c.menuId);
  const menuChanges = () => changes.filter((c) => c.entity === 'menu');
  const count = (table: string) => (t.deps.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const cancel = (o: { orderId: string; items: { id: string }[] }, i: number) =>
    t.api('PATCH', `/orders/${o.orderId}/items/${o.items[i]!.id}`, { status: 'canceled' });

  it('refuses a sold-out menu naming the item; nothing is written', async () => {
    const soup = await menu('Soup');
    const stopped = await menu('Pescatore', { condition: 'soldout' });
    const gone = await menu('Carbonara', { quantity: 0 });
    // An orderable menu with 0 left (written by an older version or by hand) is sold out too.
    const zero = await menu('Lasagne', { quantity: 2 });
    t.deps.db.prepare('UPDATE menus SET quantity = 0 WHERE menu_id = ?').run(Number(zero));
    changes.length = 0;
    for (const menuId of [stopped, gone, zero]) {
      expect(problem(await post([item(soup), item(menuId)]), 400)).toEqual(badRequest(`[items[1].menuId] menu ${menuId} is sold out`));
    }
    for (const table of ['table_uses', 'orders', 'order_items']) expect(count(table), table).toBe(0);
    expect(changes).toEqual([]);
    expect(await conditionOf(zero)).toEqual({ menuId: zero, condition: 'orderable', quantity: 0 });
  });

  it('refuses more than is left, counting items of the same menu together; nothing is written', async () => {
    const carbonara = await menu('Carbonara', { quantity: 3 });
    changes.length = 0;
    const res = await post([item(carbonara, 2), water, item(carbonara, 2)]);
    expect(problem(res, 400)).toEqual(badRequest(`[items[2].quantity] menu ${carbonara} has only 3 left; this order asks for 4`));
    expect(problem(await post([item(carbonara, 4)]), 400).detail).toBe(`[items[0].quantity] menu ${carbonara} has only 3 left; this order asks for 4`);
    expect(await conditionOf(carbonara)).toEqual({ menuId: carbonara, condition: 'orderable', quantity: 3 });
    for (const table of ['table_uses', 'orders', 'order_items']) expect(count(table), table).toBe(0);
    expect(changes).toEqual([]);
  });

  it('lowers the remaining quantity with the order, reports the menu once and moves its change time', async () => {
    const carbonara = await menu('Carbonara', { quantity: 5 });
    const uncounted = await menu('Espresso');
    t.clock.advance(60_000); // 10:01
    changes.length = 0;
    const created = await order([item(carbonara, 2), item(uncounted, 3), item(carbonara, 1)]);
    expect(created.items.map((i: { menuId: string; quantity: number }) => [i.menuId, i.quantity])).toEqual([
      [carbonara, 2],
      [uncounted, 3],
      [carbonara, 1],
    ]);
    expect(await conditionOf(carbonara)).toEqual({ menuId: carbonara, condition: 'orderable', quantity: 2 });
    expect(await conditionOf(uncounted)).toEqual({ menuId: uncounted, condition: 'orderable', quantity: null });
    expect(menuChanges()).toEqual([{ contractId: t.contractId, entity: 'menu', id: carbonara, op: 'update' }]);
    expect(changes.filter((c) => c.entity === 'order')).toHaveLength(1);
    expect(await changedSince('2026-11-22T10:01:00+09:00')).toEqual([carbonara]);
  });

  it('marks the menu sold out when it reaches 0; the next order is refused', async () => {
    const carbonara = await menu('Carbonara', { quantity: 3 });
    await order([item(carbonara, 1), item(carbonara, 2)]);
    expect(await conditionOf(carbonara)).toEqual({ menuId: carbonara, condition: 'soldout', quantity: 0 });
    expect(problem(await post([item(carbonara)], tables[1]), 400).detail).toBe(`[items[0].menuId] menu ${carbonara} is sold out`);
  });

  it('gives the quantity back when an item is canceled; a menu that ran out is orderable again', async () => {
    const carbonara = await menu('Carbonara', { quantity: 3 });
    const created = await order([item(carbonara, 2), item(carbonara, 1), water]);
    expect(await conditionOf(carbonara)).toEqual({ menuId: carbonara, condition: 'soldout', quantity: 0 });
    t.clock.advance(5 * 60_000); // 10:05
    changes.length = 0;
    const res = await cancel(created, 0);
    expect(res.statusCode).toBe(200);
    expect(res.json().items[0].status).toBe('canceled');
    expect(await conditionOf(carbonara)).toEqual({ menuId: carbonara, condition: 'orderable', quantity: 2 });
    expect(menuChanges()).toEqual([{ contractId: t.contractId, entity: 'menu', id: carbonara, op: 'update' }]);
    expect(await changedSince('2026-11-22T10:05:00+09:00')).toEqual([carbonara]);
    // Canceling again is a no-op: nothing more comes back.
    changes.length = 0;
    expect((await cancel(created, 0)).statusCode).toBe(200);
    expect(await conditionOf(carbonara)).toEqual({ menuId: carbonara, condition: 'orderable', quantity: 2 });
    expect(changes).toEqual([]);
    // A provided item canceled comes back too; an item without a menu changes no menu.
    await t.api('PATCH', `/orders/${created.orderId}/items/${created.items[1].id}`, { status: 'provided' });
    expect((await cancel(created, 1)).statusCode).toBe(200);
    expect((await cancel(created, 2)).statusCode).toBe(200);
    expect(await conditionOf(carbonara)).toEqual({ menuId: carbonara, condition: 'orderable', quantity: 3 });
    // It can be ordered again, up to what came back.
    expect(problem(await post([item(carbonara, 4)], tables[1]), 400).detail).toBe(`[items[0].quantity] menu ${carbonara} has only 3 left; this order asks for 4`);
    expect((await post([item(carbonara, 3)], tables[1])).statusCode).toBe(200);
  });

  it('keeps a menu staff stopped soldout, and an uncounted menu unchanged, when an item is canceled', async () => {
    const carbonara = await menu('Carbonara', { quantity: 5 });
    const espresso = await menu('Espresso');
    const created = await order([item(carbonara, 2), item(espresso, 2)]);
    await t.api('PUT', `/menu_conditions/stores/${storeId}/menus/${carbonara}`, { condition: 'soldout' });
    await t.api('PUT', `/menu_conditions/stores/${storeId}/menus/${espresso}`, { condition: 'soldout' });
    changes.length = 0;
    await cancel(created, 0);
    await cancel(created, 1);
    expect(await conditionOf(carbonara)).toEqual({ menuId: carbonara, condition: 'soldout', quantity: 5 });
    expect(await conditionOf(espresso)).toEqual({ menuId: espresso, condition: 'soldout', quantity: null });
    expect(menuChanges()).toEqual([{ contractId: t.contractId, entity: 'menu', id: carbonara, op: 'update' }]);
  });

  it('applies the same rules to POST /table_uses/{id}/orders', async () => {
    const carbonara = await menu('Carbonara', { quantity: 2 });
    const stopped = await menu('Pescatore', { condition: 'soldout' });
    const first = await order([water]);
    const path = `/table_uses/${first.tableUseId}/orders`;
    expect(problem(await t.api('POST', path, { items: [water, item(stopped)] }), 400)).toEqual(
      badRequest(`[items[1].menuId] menu ${stopped} is sold out`),
    );
    expect(problem(await t.api('POST', path, { items: [item(carbonara), item(carbonara, 2)] }), 400)).toEqual(
      badRequest(`[items[1].quantity] menu ${carbonara} has only 2 left; this order asks for 3`),
    );
    expect(count('orders')).toBe(1);
    const res = await t.api('POST', path, { items: [item(carbonara, 2)] });
    expect(res.statusCode).toBe(200);
    expect(await conditionOf(carbonara)).toEqual({ menuId: carbonara, condition: 'soldout', quantity: 0 });
    expect((await cancel(res.json(), 0)).statusCode).toBe(200);
    expect(await conditionOf(carbonara)).toEqual({ menuId: carbonara, condition: 'orderable', quantity: 2 });
  });
});

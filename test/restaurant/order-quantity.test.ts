import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { itemQuantityChange } from '../../server/domain/order-items.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';
import { waiterApi } from './waiter-api.js';

/**
 * 注文明細更新 with quantity (issue 26): the platform's other form of PATCH /orders/{order_id}/items/{order_item_id};
 * and the platform's name of the selling price's tax information (`tax`).
 */

const item = { status: 'waiting' as const, quantity: 3, amount: '1000', discountType: null, discountRate: null, discountAmount: null };

describe('quantity change rules (domain)', () => {
  it('lowers only, never a canceled item; the discount follows the new line', () => {
    expect(itemQuantityChange(item, 2)).toEqual({ discountAmount: null });
    expect(itemQuantityChange(item, 4)).toEqual({ refused: 'must not be more than the 3 ordered; order more as a new order', field: 'quantity' });
    expect(itemQuantityChange({ ...item, status: 'canceled' }, 1)).toEqual({ refused: 'a canceled item cannot change its quantity', field: 'status' });
    expect(itemQuantityChange({ ...item, discountType: 'rate', discountRate: '15', discountAmount: '450' }, 1)).toEqual({ discountAmount: '150' });
    expect(itemQuantityChange({ ...item, discountType: 'freeCoupon', discountAmount: '3000' }, 2)).toEqual({ discountAmount: '2000' });
    expect(itemQuantityChange({ ...item, discountType: 'amount', discountAmount: '500' }, 1)).toEqual({ discountAmount: '500' });
    expect(itemQuantityChange({ ...item, discountType: 'amount', discountAmount: '1500' }, 1)).toEqual({ refused: 'the discount amount 1500 exceeds the line total 1000', field: 'quantity' });
  });
});

describe('PATCH /orders/{order_id}/items/{order_item_id} with quantity', () => {
  let t: TestApp;
  let store: string;
  let table: string;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'food_business' });
    store = (await t.api('POST', '/stores', { storeName: 'Bistro' })).json().storeId;
    table = (await t.api('POST', '/tables', { storeId: store, name: 'T1' })).json().tableId;
  });
  afterEach(() => t.close());

  const waiter = (method: string, path: string, body?: unknown) => waiterApi(t, method, path, body);

  it('lowers the quantity as the platform client sends it; the discount and the menu count follow', async () => {
    const menu = (await t.api('POST', '/menus', { storeId: store, menuName: 'Gyoza', menuType: 'normal' })).json().menuId;
    await t.api('PUT', `/menu_conditions/stores/${store}/menus/${menu}`, { condition: 'orderable', quantity: 10 });
    const order = (
      await waiter('POST', '/orders', { storeId: store, tableIds: [table], items: [{ menuId: menu, quantity: 4, sellingPrice: { amount: '500' }, discount: { type: 'rate', rate: '10' } }] })
    ).json();
    const itemId = order.items[0].id;
    const res = await waiter('PATCH', `/orders/${order.orderId}/items/${itemId}`, { quantity: 2, orderPrints: { kitchenTicket: true, orderSlip: false } });
    expect(res.statusCode).toBe(200);
    expect(res.json().items[0]).toMatchObject({ quantity: 2, discount: { type: 'rate', rate: '10', amount: '100' } });
    expect((await t.api('GET', `/menu_conditions/stores/${store}?menu_ids=${menu}`)).json()[0]).toMatchObject({ condition: 'orderable', quantity: 8 });
    // The same quantity changes nothing.
    expect((await waiter('PATCH', `/orders/${order.orderId}/items/${itemId}`, { quantity: 2 })).json().items[0].quantity).toBe(2);

    const refusals: [unknown, string][] = [
      [{ quantity: 3 }, '[quantity] must not be more than the 2 ordered; order more as a new order'],
      [{ quantity: 0 }, '[quantity] must be at least 1'],
      [{ status: 'provided', quantity: 1 }, '[status] send either status or quantity, not both'],
      [{}, '[status] is required'],
      [{ status: 'provided', orderPrints: { kitchenTicket: true } }, '[orderPrints] is sent with quantity only'],
    ];
    for (const [body, detail] of refusals) expect(problem(await waiter('PATCH', `/orders/${order.orderId}/items/${itemId}`, body), 400).detail, JSON.stringify(body)).toBe(detail);
    await waiter('PATCH', `/orders/${order.orderId}/items/${itemId}`, { status: 'canceled' });
    expect(problem(await waiter('PATCH', `/orders/${order.orderId}/items/${itemId}`, { quantity: 1 }), 400).detail).toBe('[status] a canceled item cannot change its quantity');
    await waiter('PATCH', `/table_uses/${order.tableUseId}`, { status: 'ended' });
    expect(problem(await waiter('PATCH', `/orders/${order.orderId}/items/${itemId}`, { quantity: 1 }), 400).detail).toBe(
      `[quantity] table use ${order.tableUseId} is ended; its items can no longer change`,
    );
  });
});

describe('sellingPrice.tax, the platform name', () => {
  it('takes the order body a platform client sends (sellingPrice.tax) and answers tax beside taxation', async () => {
    const t = await makeTestApp({ plan: 'food_business' });
    try {
      const store = (await t.api('POST', '/stores', { storeName: 'Bistro' })).json().storeId;
      const table = (await t.api('POST', '/tables', { storeId: store, name: 'T1' })).json().tableId;
      const use = (await t.app.inject({ method: 'POST', url: `/${t.contractId}/waiter/table_uses`, headers: { authorization: `Bearer ${t.token}` }, payload: { storeId: store, tableId: table } })).json();
      const body = { items: [{ name: 'Burger', quantity: 1, sellingPrice: { taxRate: 10, taxType: 'normal', amount: '1650', tax: 'excluded' } }] };
      const res = await t.app.inject({ method: 'POST', url: `/${t.contractId}/waiter/table_uses/${use.id}/orders`, headers: { authorization: `Bearer ${t.token}` }, payload: body });
      expect(res.statusCode).toBe(200);
      expect(res.json().items[0].sellingPrice).toEqual({ taxRate: 10, taxType: 'normal', amount: '1650', tax: 'excluded', taxation: 'excluded' });
      const both = { items: [{ name: 'B', sellingPrice: { amount: '1', tax: 'excluded', taxation: 'excluded' } }] };
      const refused = await t.app.inject({ method: 'POST', url: `/${t.contractId}/waiter/table_uses/${use.id}/orders`, headers: { authorization: `Bearer ${t.token}` }, payload: both });
      expect(problem(refused, 400).detail).toBe('[items[0].sellingPrice.taxation] send tax or taxation, not both');
    } finally {
      await t.close();
    }
  });
});

describe('discount, the platform variants', () => {
  it('takes the untagged variants a platform client sends and answers their keys', async () => {
    const t = await makeTestApp({ plan: 'food_business' });
    try {
      const store = (await t.api('POST', '/stores', { storeName: 'Bistro' })).json().storeId;
      const table = (await t.api('POST', '/tables', { storeId: store, name: 'T1' })).json().tableId;
      const line = (discount: unknown) => ({ name: 'X', quantity: 2, sellingPrice: { amount: '1000' }, discount });
      const res = await t.app.inject({
        method: 'POST',
        url: `/${t.contractId}/waiter/orders`,
        headers: { authorization: `Bearer ${t.token}` },
        payload: { storeId: store, tableIds: [table], items: [line({ rateCoupon: '10' }), line({ amountCoupon: '300' }), line({ freeCoupon: true }), line({ rate: '5' }), line({ amount: '100' })] },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().items.map((i: { discount: unknown }) => i.discount)).toEqual([
        { type: 'couponRate', rateCoupon: '10', amount: '200' },
        { type: 'couponAmount', amountCoupon: '300', amount: '300' },
        { type: 'freeCoupon', freeCoupon: true, amount: '2000' },
        { type: 'rate', rate: '5', amount: '100' },
        { type: 'amount', amount: '100' },
      ]);
      const bad = await t.app.inject({
        method: 'POST',
        url: `/${t.contractId}/waiter/orders`,
        headers: { authorization: `Bearer ${t.token}` },
        payload: { storeId: store, tableIds: [table], items: [line({ freeCoupon: false })] },
      });
      expect(problem(bad, 400).detail).toContain('type must be one of couponRate, couponAmount, freeCoupon, rate, amount');
    } finally {
      await t.close();
    }
  });
});

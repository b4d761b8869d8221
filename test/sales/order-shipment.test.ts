import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

/**
 * /{contract_id}/order-shipment/orders: the supporting resource of 6.1 (issue 11 item 7).
 * Order heads (id, store, status) are created received, then shipped or canceled once.
 */
describe('order-shipment orders', () => {
  let t: TestApp;
  let store: string;
  beforeEach(async () => {
    t = await makeTestApp();
    store = (await t.api('POST', '/stores', { storeName: 'Web shop', division: '1' })).json().storeId;
  });
  afterEach(() => t.close());

  const os = (method: string, path: string, body?: object, token = t.token) =>
    t.app.inject({
      method: method as 'GET',
      url: `/${t.contractId}/order-shipment${path}`,
      headers: { authorization: `Bearer ${token}` },
      ...(body ? { payload: body } : {}),
    });

  it('creates, reads, lists, ships and cancels', async () => {
    const created = await os('POST', '/orders', { storeId: store, orderCode: 'EC-1' });
    expect(created.statusCode, created.body).toBe(200);
    const a = created.json();
    expect(a).toEqual({
      orderHeadId: a.orderHeadId,
      storeId: store,
      orderCode: 'EC-1',
      status: 'received',
      shippedDateTime: null,
      canceledDateTime: null,
      insDateTime: '2026-11-22T10:00:00+09:00',
      updDateTime: '2026-11-22T10:00:00+09:00',
    });
    const b = (await os('POST', '/orders', { storeId: store })).json();
    expect(b.orderCode).toBeNull();

    t.clock.advance(60_000);
    const shipped = (await os('POST', `/orders/${a.orderHeadId}/ship`)).json();
    expect(shipped).toMatchObject({ status: 'shipped', shippedDateTime: '2026-11-22T10:01:00+09:00', canceledDateTime: null, updDateTime: '2026-11-22T10:01:00+09:00' });
    expect((await os('POST', `/orders/${b.orderHeadId}/cancel`)).json()).toMatchObject({ status: 'canceled', canceledDateTime: '2026-11-22T10:01:00+09:00' });

    expect((await os('GET', `/orders/${a.orderHeadId}`)).json()).toEqual(shipped);
    const ids = (res: { json(): { orderHeadId: string }[] }) => res.json().map((o) => o.orderHeadId);
    expect(ids(await os('GET', '/orders'))).toEqual([a.orderHeadId, b.orderHeadId]);
    expect(ids(await os('GET', '/orders?status=canceled'))).toEqual([b.orderHeadId]);
    expect(ids(await os('GET', `/orders?store_id=${store}&sort=orderHeadId:desc`))).toEqual([b.orderHeadId, a.orderHeadId]);
    expect(ids(await os('GET', '/orders?store_id=999'))).toEqual([]);
  });

  it('refuses a second transition, unknown orders and stores, bad bodies', async () => {
    const a = (await os('POST', '/orders', { storeId: store })).json();
    await os('POST', `/orders/${a.orderHeadId}/ship`);
    expect(problem(await os('POST', `/orders/${a.orderHeadId}/ship`), 409).detail).toBe(
      `[order_head_id] order ${a.orderHeadId} is already shipped; only a received order can be shipped`,
    );
    expect(problem(await os('POST', `/orders/${a.orderHeadId}/cancel`), 409).detail).toBe(
      `[order_head_id] order ${a.orderHeadId} is already shipped; only a received order can be canceled`,
    );
    expect(problem(await os('POST', '/orders/99999/cancel'), 404).detail).toBe('[order_head_id] order 99999 does not exist');
    expect(problem(await os('GET', '/orders/99999'), 404).detail).toBe('[order_head_id] order 99999 does not exist');
    expect(problem(await os('POST', '/orders', { storeId: '999999' }), 400).detail).toBe('[storeId] store 999999 does not exist');
    expect(problem(await os('POST', '/orders', {}), 400).detail).toMatch(/^\[storeId\]/);
    expect(problem(await os('POST', '/orders', { storeId: store, status: 'shipped' }), 400).detail).toMatch(/status/);
    expect(problem(await os('GET', '/orders?status=lost'), 400).detail).toMatch(/^\[status\]/);
  });

  it('scopes order-shipment.orders:read|write; the Retail Business plan only', async () => {
    const reader = await t.tokenFor({ scopes: ['order-shipment.orders:read'] });
    const a = (await os('POST', '/orders', { storeId: store })).json();
    expect((await os('GET', `/orders/${a.orderHeadId}`, undefined, reader)).statusCode).toBe(200);
    expect(problem(await os('POST', `/orders/${a.orderHeadId}/ship`, undefined, reader), 403).detail).toBe(
      '[scope] the token lacks the scope order-shipment.orders:write',
    );
    expect(problem(await os('POST', '/orders', { storeId: store }, reader), 403).detail).toBe('[scope] the token lacks the scope order-shipment.orders:write');
    const posOnly = await t.tokenFor({ scopes: ['pos.stores:read'] });
    expect(problem(await os('GET', '/orders', undefined, posOnly), 403).detail).toBe('[scope] the token lacks the scope order-shipment.orders:read');
    expect(problem(await os('GET', '/orders', undefined, 'nope'), 401).status).toBe(401);

    const other = await makeTestApp({ plan: 'standard' });
    try {
      const res = await other.app.inject({ method: 'GET', url: `/${other.contractId}/order-shipment/orders`, headers: { authorization: `Bearer ${other.token}` } });
      expect(problem(res, 403).detail).toBe("the contract's plan standard cannot use the order-shipment API (plans: retail_business)");
    } finally {
      await other.close();
    }
  });
});

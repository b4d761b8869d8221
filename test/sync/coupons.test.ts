import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncAgent } from '../../sync/agent.js';
import { CONTRACT, centralAndStore, type CentralAndStore, type Instance } from './helpers.js';

/**
 * Issue 26: coupons and their items (composite key coupon, type, division, item) travel between
 * a store and central, on two real servers on 127.0.0.1; a store's sale checks its coupon lines
 * against the coupons it pulled, and a cancel made at the store reaches central.
 */
let linked: CentralAndStore;
let central: Instance;
let store: Instance;
let agent: SyncAgent;

beforeEach(async () => {
  linked = await centralAndStore();
  ({ central, store, agent } = linked);
});
afterEach(() => linked.close());

describe('coupons across a store and central', () => {
  it('a store pulls coupons with their items, sells with one, and its edits and cancels reach central', async () => {
    const shop = (await central.ok('POST', '/stores', { storeName: 'Main' })).storeId;
    const categoryId = (await central.ok('POST', '/categories', { categoryName: 'Drinks' })).categoryId;
    const tea = (await central.ok('POST', '/products', { categoryId, productCode: 'TEA', productName: 'Tea', price: '300' })).productId;
    const coupon = await central.ok('POST', '/coupons', { couponName: '100円引き', couponDivision: '1', couponValue: '100', startDate: '2026-11-01', endDate: '2026-11-30' });
    const condition = await central.ok('POST', `/coupons/${coupon.couponId}/products`, { division: '1', itemId: categoryId, type: '1' });
    const granted = await central.ok('POST', `/coupons/${coupon.couponId}/products`, { division: '2', itemId: tea, type: '2', salesPrice: '0' });

    await agent.drain(CONTRACT);
    expect(await store.ok('GET', `/coupons/${coupon.couponId}`)).toEqual(coupon);
    expect(await store.ok('GET', `/coupons/${coupon.couponId}/products`)).toEqual([condition, granted]);

    // The store's sale takes the pulled coupon's name and benefit; the store cancels it.
    const terminal = (await store.ok('POST', '/terminals', { storeId: shop, terminalName: 'R1' }))[0].terminalId;
    const sale = await store.ok('POST', '/transactions', {
      transactionHeadDivision: '1',
      storeId: shop,
      terminalId: terminal,
      terminalTranDateTime: '2026-11-22T10:00:00+09:00',
      couponDiscount: '100',
      details: [{ transactionDetailId: '1', productId: tea, salesPrice: '300', quantity: '1' }],
      coupons: [{ couponId: coupon.couponId, couponDiscountTotal: '100' }],
    });
    expect(sale.coupons[0]).toMatchObject({ couponName: '100円引き', benefitType: '1', benefitValue: '100' });
    store.clock.advance(60_000);
    await store.ok('POST', `/transactions/${sale.transactionHeadId}/cancel`, {});

    await store.ok('PATCH', `/coupons/${coupon.couponId}/type/2/division/2/products/${tea}`, { salesPrice: '50' });
    expect((await store.api('DELETE', `/coupons/${coupon.couponId}/type/1/division/1/products/${categoryId}`)).statusCode).toBe(204);
    await agent.drain(CONTRACT);
    expect(await central.ok('GET', `/coupons/${coupon.couponId}/products`)).toEqual([{ ...granted, salesPrice: '50', updDateTime: expect.any(String) }]);
    expect(await central.ok('GET', `/transactions/${sale.transactionHeadId}`)).toMatchObject({ cancelDivision: '1', coupons: [{ couponId: coupon.couponId, couponName: '100円引き' }] });

    // A coupon deleted at central is gone from the store with its items.
    expect((await central.api('DELETE', `/coupons/${coupon.couponId}`)).statusCode).toBe(204);
    await agent.drain(CONTRACT);
    expect((await store.api('GET', `/coupons/${coupon.couponId}`)).statusCode).toBe(404);
    expect((await store.api('GET', `/coupons/${coupon.couponId}/products`)).statusCode).toBe(404);
  });
});

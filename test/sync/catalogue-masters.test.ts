import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncAgent } from '../../sync/agent.js';
import { CONTRACT, centralAndStore, type CentralAndStore, type Instance } from './helpers.js';

/**
 * Issue 26 (options-sets): option groups with their option products, bargains with their stores
 * and targets, and discount divisions travel between a store and central as whole records, on two
 * real servers on 127.0.0.1.
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

describe('catalogue masters across a store and central', () => {
  it('a store pulls them with their children, and its edits of the children reach central', async () => {
    const shop = (await central.ok('POST', '/stores', { storeName: 'Main' })).storeId;
    const categoryId = (await central.ok('POST', '/categories', { categoryName: 'Food' })).categoryId;
    const option = async (productCode: string) =>
      (await central.ok('POST', '/products', { categoryId, productCode, productName: productCode, price: '50', productDivision: '2' })).productId as string;
    const cheese = await option('CHEESE');
    const bacon = await option('BACON');
    const group = await central.ok('POST', '/product_option_groups', { productOptionGroupName: 'Toppings', conditionId: '1', max: 2, min: 0, products: [{ productId: cheese }, { productId: bacon }] });
    const burger = await central.ok('POST', '/products', { categoryId, productCode: 'BURGER', productName: 'Burger', price: '500', productOptionGroupId: group.productOptionGroupId });
    const sale = await central.ok('POST', '/bargains', { bargainName: 'Winter', termStart: '2026-12-01', termEnd: '2026-12-31' });
    await central.ok('POST', `/bargains/${sale.bargainId}/stores`, { storeId: shop });
    const target = await central.ok('POST', `/bargains/${sale.bargainId}/products`, { targetDivision: '2', targetId: burger.productId, division: '3', value: '450' });
    const division = await central.ok('POST', '/discount_divisions', { awardType: '2', discountDivisionName: 'Staff' });

    await agent.drain(CONTRACT);
    const groupUrl = `/product_option_groups/${group.productOptionGroupId}?with_products=all`;
    expect(await store.ok('GET', groupUrl)).toEqual(await central.ok('GET', groupUrl));
    expect((await store.ok('GET', `/products/${burger.productId}`)).productOptionGroupId).toBe(group.productOptionGroupId);
    expect(await store.ok('GET', `/bargains/${sale.bargainId}/stores`)).toEqual(await central.ok('GET', `/bargains/${sale.bargainId}/stores`));
    expect(await store.ok('GET', `/bargains/${sale.bargainId}/products`)).toEqual([target]);
    expect(await store.ok('GET', `/discount_divisions/${division.discountDivision}`)).toEqual(division);

    store.clock.advance(60_000);
    await store.ok('PATCH', `/product_option_groups/${group.productOptionGroupId}`, { products: [{ productId: bacon }] });
    expect((await store.api('DELETE', `/bargains/${sale.bargainId}/products/${target.bargainProductId}`)).statusCode).toBe(204);
    await agent.drain(CONTRACT);
    expect((await central.ok('GET', groupUrl)).products).toEqual([{ productId: bacon }]);
    expect(await central.ok('GET', `/bargains/${sale.bargainId}/products`)).toEqual([]);
    expect((await central.ok('GET', `/bargains/${sale.bargainId}/stores`)).length).toBe(1);
  });
});

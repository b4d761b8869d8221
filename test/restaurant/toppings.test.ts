import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';
import { waiterApi } from './waiter-api.js';

/** Toppings (issue 26): GET /toppings and /toppings/{topping_id} of the waiter API; writes are supporting. */

describe('toppings', () => {
  let t: TestApp;
  let group: string;
  let other: string;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'food_business' });
    group = (await t.api('POST', '/topping_groups', { name: 'Ramen' })).json().id;
    other = (await t.api('POST', '/topping_groups', { name: 'Drinks' })).json().id;
  });
  afterEach(() => t.close());

  const waiter = (method: string, path: string, token = t.token) =>
    t.app.inject({ method: method as 'GET', url: `/${t.contractId}/waiter${path}`, headers: { authorization: `Bearer ${token}` } });
  const create = async (body: Record<string, unknown>) => {
    const res = await t.api('POST', '/toppings', { toppingGroupId: group, ...body });
    if (res.statusCode !== 200) throw new Error(`topping: ${res.body}`);
    return res.json();
  };

  it('answers the platform Topping: one primary price, defaults for what is not sent', async () => {
    const category = (await t.api('POST', '/categories', { categoryName: 'Toppings' })).json().categoryId;
    const egg = await create({ name: '煮卵', kana: 'ニタマゴ', categoryId: category, note: 'soft', sortNo: 2, amount: '120', applyDatetime: '2026-12-01T10:00:00+09:00' });
    expect(egg).toEqual({
      id: egg.id,
      name: '煮卵',
      kana: 'ニタマゴ',
      categoryId: category,
      note: 'soft',
      sortNo: 2,
      applyDatetime: '2026-12-01T10:00:00+09:00',
      isOpenPrice: false,
      createdIn: 'pos-backoffice',
      prices: [{ taxRate: 10, taxType: 'normal', amount: '120', tax: 'include', primary: true }],
      toppingGroupId: group,
    });
    const res = await waiter('GET', `/toppings/${egg.id}`, await t.tokenFor({ scopes: ['waiter.menus:read'] }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(egg);
    const free = await create({ name: 'Water', taxType: 'none' });
    expect(free).toMatchObject({ kana: null, categoryId: null, sortNo: 0, applyDatetime: null, prices: [{ taxRate: 10, taxType: 'none', amount: '0', tax: 'none', primary: true }] });
    const reduced = await create({ name: 'Takeout', taxType: 'reduced', tax: 'exclude', amount: '50' });
    expect(reduced.prices).toEqual([{ taxRate: 8, taxType: 'reduced', amount: '50', tax: 'exclude', primary: true }]);
    const patched = (await t.api('PATCH', `/toppings/${reduced.id}`, { taxType: 'normal', note: 'x' })).json();
    expect(patched).toMatchObject({ note: 'x', prices: [{ taxRate: 10, taxType: 'normal', amount: '50', tax: 'include', primary: true }] });
    expect((await t.api('PATCH', `/toppings/${reduced.id}`, { note: null })).json().note).toBeNull();
  });

  it('lists by group and category in sort_no order; sort id and name; waiter.menus:read', async () => {
    const b = await create({ name: 'B', sortNo: 2 });
    const a = await create({ name: 'A', sortNo: 1 });
    const c = await create({ name: 'C', sortNo: 1, toppingGroupId: other });
    const ids = async (query: string) => ((await waiter('GET', `/toppings${query}`)).json() as { id: string }[]).map((x) => x.id);
    expect(await ids('')).toEqual([a.id, c.id, b.id]);
    expect(await ids(`?group_id=${group}`)).toEqual([a.id, b.id]);
    expect(await ids(`?group_id=${other}`)).toEqual([c.id]);
    expect(await ids('?sort=id')).toEqual([b.id, a.id, c.id]);
    expect(await ids('?sort=name:desc')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?category_id=1')).toEqual([]);
    const page = await waiter('GET', '/toppings?limit=2');
    expect(page.headers.link).toBe(`<http://localhost/${t.contractId}/waiter/toppings?limit=2&page=2>; rel="next"`);
    expect(problem(await waiter('GET', '/toppings?sort=price'), 400).detail).toBe('[sort] price is not a sort key; use sort_no, id, name with an optional :desc');
    expect(problem(await waiter('GET', '/toppings', await t.tokenFor({ scopes: ['pos.products:read'] })), 403).detail).toBe('[scope] the token lacks the scope waiter.menus:read');
  });

  it('refuses a missing group or category and a topping that does not exist; a group with toppings is not deleted', async () => {
    const bad = async (body: Record<string, unknown>) => problem(await t.api('POST', '/toppings', { toppingGroupId: group, name: 'X', ...body }), 400).detail;
    expect(await bad({ toppingGroupId: '999' })).toBe('[toppingGroupId] topping group 999 does not exist');
    expect(await bad({ categoryId: '999' })).toBe('[categoryId] category 999 does not exist');
    expect(await bad({ amount: '-1' })).toBe('[amount] must be a decimal string from 0 to 999999 (at most 3 decimals)');
    expect(await bad({ tax: 'included' })).toBe('[tax] must be one of include, exclude, none');
    expect(problem(await waiter('GET', '/toppings/999'), 404).detail).toBe('[topping_id] topping 999 does not exist');
    const x = await create({ name: 'X' });
    expect(problem(await t.api('DELETE', `/topping_groups/${group}`), 400).detail).toBe(
      `[topping_group_id] topping group ${group} has toppings (topping ${x.id}); move or delete them first`,
    );
    expect((await t.api('PATCH', `/toppings/${x.id}`, { toppingGroupId: other })).json().toppingGroupId).toBe(other);
    expect((await t.api('DELETE', `/topping_groups/${group}`)).statusCode).toBe(204);
    expect((await t.api('DELETE', `/toppings/${x.id}`)).statusCode).toBe(204);
    expect((await waiter('GET', `/toppings/${x.id}`)).statusCode).toBe(404);
  });

  it("GET /stores/{store_id}/topping_groups[/{id}]: the store's groups, each with its toppings in sort_no order", async () => {
    const store = (await t.api('POST', '/stores', { storeName: 'Ramen-ya' })).json().storeId;
    const nori = await create({ name: 'Nori', sortNo: 2, amount: '50' });
    const egg = await create({ name: 'Egg', sortNo: 1, amount: '100', taxType: 'reduced' });
    const price = (amount: string, taxType = 'normal', taxRate = 10) => [{ taxRate, taxType, amount, tax: 'include', primary: true }];
    const ramen = {
      id: group,
      name: 'Ramen',
      createdIn: 'pos-backoffice',
      rule: null,
      toppings: [
        { id: egg.id, name: 'Egg', categoryId: null, prices: price('100', 'reduced', 8) },
        { id: nori.id, name: 'Nori', categoryId: null, prices: price('50') },
      ],
    };
    const reader = await t.tokenFor({ scopes: ['waiter.menus:read'] });
    const list = await waiter('GET', `/stores/${store}/topping_groups`, reader);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([ramen, { id: other, name: 'Drinks', createdIn: 'pos-backoffice', rule: null, toppings: [] }]);
    expect((await waiter('GET', `/stores/${store}/topping_groups?sort=name`)).json().map((g: { name: string }) => g.name)).toEqual(['Drinks', 'Ramen']);
    expect((await waiter('GET', `/stores/${store}/topping_groups/${group}`, reader)).json()).toEqual(ramen);
    expect(problem(await waiter('GET', '/stores/999/topping_groups'), 404).detail).toBe('[store_id] store 999 does not exist');
    expect(problem(await waiter('GET', `/stores/${store}/topping_groups/999`), 404).detail).toBe('[topping_group_id] topping group 999 does not exist');
  });
});

describe('topping conditions and orders naming toppings', () => {
  let t: TestApp;
  let store: string;
  let table: string;
  let group: string;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'food_business' });
    store = (await t.api('POST', '/stores', { storeName: 'Ramen-ya' })).json().storeId;
    table = (await t.api('POST', '/tables', { storeId: store, name: 'T1' })).json().tableId;
    group = (await t.api('POST', '/topping_groups', { name: 'Ramen' })).json().id;
  });
  afterEach(() => t.close());

  const waiter = (method: string, path: string, body?: unknown, token?: string) => waiterApi(t, method, path, body, token);
  const topping = async (name: string, amount: string) => (await t.api('POST', '/toppings', { toppingGroupId: group, name, amount })).json();
  const events = () =>
    (t.deps.db.prepare("SELECT body FROM webhook_events WHERE event = 'waiter:topping-conditions' ORDER BY event_id").all() as { body: string }[]).map((e) => JSON.parse(e.body));
  const conditions = async (query = '') => (await waiter('GET', `/topping_conditions/stores/${store}${query}`)).json();

  it('lists every topping orderable and uncounted until set; an order naming a topping takes from it, a cancel gives back', async () => {
    const egg = await topping('Egg', '100');
    const nori = await topping('Nori', '50');
    expect(await conditions()).toEqual([
      { toppingId: egg.id, condition: 'orderable', quantity: null },
      { toppingId: nori.id, condition: 'orderable', quantity: null },
    ]);
    const put = await waiter('PUT', `/topping_conditions/stores/${store}/toppings/${egg.id}`, { quantity: 3 });
    expect(put.json()).toEqual({ toppingId: egg.id, condition: 'orderable', quantity: 3 });
    expect(events()).toEqual([{ contractId: t.contractId, event: 'waiter:topping-conditions', action: 'updated', storeId: store, toppingIds: [egg.id] }]);

    // The platform's order topping: the topping's id and a quantity per item; name and price from the topping.
    const order = (
      await waiter('POST', '/orders', { storeId: store, tableIds: [table], items: [{ name: 'Ramen', quantity: 2, sellingPrice: { amount: '900' }, toppings: [{ toppingId: egg.id, quantity: 1 }] }] })
    ).json();
    expect(order.items[0].toppings).toEqual([{ menuId: null, toppingId: egg.id, name: 'Egg', quantity: 1, amount: '100' }]);
    expect(await conditions(`?topping_ids=${egg.id}`)).toEqual([{ toppingId: egg.id, condition: 'orderable', quantity: 1 }]);
    const refused = await waiter('POST', `/table_uses/${order.tableUseId}/orders`, { items: [{ name: 'Ramen', quantity: 2, sellingPrice: { amount: '900' }, toppings: [{ toppingId: egg.id }] }] });
    expect(problem(refused, 400).detail).toBe(`[items[0].toppings[0].quantity] topping ${egg.id} has only 1 left; this order asks for 2`);
    await waiter('POST', `/table_uses/${order.tableUseId}/orders`, { items: [{ name: 'Ramen', sellingPrice: { amount: '900' }, toppings: [{ toppingId: egg.id }] }] });
    expect(await conditions(`?topping_ids=${egg.id}`)).toEqual([{ toppingId: egg.id, condition: 'soldout', quantity: 0 }]);
    expect(problem(await waiter('POST', `/table_uses/${order.tableUseId}/orders`, { items: [{ name: 'R', sellingPrice: { amount: '1' }, toppings: [{ toppingId: egg.id }] }] }), 400).detail).toBe(
      `[items[0].toppings[0].toppingId] topping ${egg.id} is sold out`,
    );
    // Lowering the first item to one gives one egg back; it ran out, so it is orderable again.
    await waiter('PATCH', `/orders/${order.orderId}/items/${order.items[0].id}`, { quantity: 1 });
    expect(await conditions(`?topping_ids=${egg.id}`)).toEqual([{ toppingId: egg.id, condition: 'orderable', quantity: 1 }]);
    await waiter('PATCH', `/orders/${order.orderId}/items/${order.items[0].id}`, { status: 'canceled' });
    expect(await conditions(`?topping_ids=${egg.id}`)).toEqual([{ toppingId: egg.id, condition: 'orderable', quantity: 2 }]);
    expect(events().map((e) => e.toppingIds)).toEqual([[egg.id], [egg.id], [egg.id], [egg.id], [egg.id]]);
    // Another store's conditions are its own.
    const other = (await t.api('POST', '/stores', { storeName: 'Other' })).json().storeId;
    expect((await waiter('GET', `/topping_conditions/stores/${other}?topping_ids=${egg.id}`)).json()).toEqual([{ toppingId: egg.id, condition: 'orderable', quantity: null }]);
  });

  it('filters by ids, category and change time; refuses bad queries, a missing store or topping, a suspended store', async () => {
    const category = (await t.api('POST', '/categories', { categoryName: 'Toppings' })).json().categoryId;
    const egg = await topping('Egg', '100');
    const nori = (await t.api('POST', '/toppings', { toppingGroupId: group, name: 'Nori', categoryId: category })).json();
    t.clock.advance(60_000);
    await waiter('PUT', `/topping_conditions/stores/${store}/toppings/${egg.id}`, { condition: 'soldout' });
    const ids = async (query: string) => ((await conditions(query)) as { toppingId: string }[]).map((c) => c.toppingId);
    expect(await ids(`?category_id=${category}`)).toEqual([nori.id]);
    expect(await ids(`?updated_from=${encodeURIComponent('2026-11-22T10:01:00+09:00')}`)).toEqual([egg.id]);
    expect(await ids('?sort=topping_id:desc')).toEqual([nori.id, egg.id]);
    expect(problem(await waiter('GET', `/topping_conditions/stores/${store}?topping_ids=1,x`), 400).detail).toBe('[topping_ids] "x" is not a topping id (1 to 9 digits)');
    expect(problem(await waiter('GET', '/topping_conditions/stores/999'), 404).detail).toBe('[store_id] store 999 does not exist');
    expect(problem(await waiter('PUT', `/topping_conditions/stores/${store}/toppings/999`, { quantity: 1 }), 404).detail).toBe('[topping_id] topping 999 does not exist');
    expect(problem(await waiter('PUT', `/topping_conditions/stores/${store}/toppings/${egg.id}`, { condition: 'orderable', quantity: 0 }), 400).detail).toBe(
      '[condition] a topping with quantity 0 cannot be orderable; send a quantity above 0 or null with it',
    );
    expect(problem(await waiter('POST', '/orders', { storeId: store, tableIds: [table], items: [{ name: 'R', sellingPrice: { amount: '1' }, toppings: [{ toppingId: '999' }] }] }), 400).detail).toBe(
      '[items[0].toppings[0].toppingId] topping 999 does not exist',
    );
    expect(problem(await waiter('POST', '/orders', { storeId: store, tableIds: [table], items: [{ name: 'R', sellingPrice: { amount: '1' }, toppings: [{ quantity: 1 }] }] }), 400).detail).toBe(
      '[items[0].toppings[0].name] is required without toppingId',
    );
    await t.api('PATCH', `/stores/${store}`, { pauseFlag: '1' });
    expect(problem(await waiter('GET', `/topping_conditions/stores/${store}`), 400).detail).toBe(`[store_id] store ${store} is suspended`);
    // A topping's conditions go with it.
    await t.api('DELETE', `/toppings/${egg.id}`);
    expect((t.deps.db.prepare('SELECT count(*) AS n FROM topping_conditions').get() as { n: number }).n).toBe(0);
  });
});

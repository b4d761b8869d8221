import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import type { Plan } from '../../server/domain/plans.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T0_PLUS_1MIN = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/product_option_groups';
const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const notFound = (detail: string) => ({ type: 'about:blank', title: 'Not Found', status: 404, detail });

describe('product option groups (the platform POS operations)', () => {
  let t: TestApp;
  let cheese: string;
  let bacon: string;
  let egg: string;
  let burger: string;
  beforeEach(async () => {
    t = await makeTestApp();
    const categoryId = (await t.api('POST', '/categories', { categoryName: 'Food' })).json().categoryId;
    const product = async (productCode: string, productDivision: string) => {
      const res = await t.api('POST', '/products', { categoryId, productCode, productName: productCode, price: '100', productDivision });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().productId as string;
    };
    cheese = await product('CHEESE', '2');
    bacon = await product('BACON', '2');
    egg = await product('EGG', '2');
    burger = await product('BURGER', '0');
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>) => {
    const res = await t.api('POST', '/product_option_groups', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown> & { productOptionGroupId: string };
  };
  const toppings = () =>
    create({ productOptionGroupName: 'Toppings', conditionId: '1', min: 1, max: 3, products: [{ productId: Number(bacon) }, { productId: Number(cheese) }] });

  describe('POST /product_option_groups', () => {
    it('registers a group with its option products, as the platform client sends it (numbers for max, min and productId)', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const group = await toppings();
      expect(group).toEqual({
        productOptionGroupId: group.productOptionGroupId,
        productOptionGroupName: 'Toppings',
        conditionId: '1',
        max: '3',
        min: '1',
        syncDivision: '0',
        insDateTime: AT_T0,
        updDateTime: AT_T0,
        products: [{ productId: cheese }, { productId: bacon }].sort((a, b) => Number(a.productId) - Number(b.productId)),
      });
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'topping_group', id: group.productOptionGroupId, op: 'insert' }]);
    });

    it('is the restaurant API topping group of the same id', async () => {
      const group = await toppings();
      expect((await t.api('GET', `/topping_groups/${group.productOptionGroupId}`)).json()).toEqual({
        id: group.productOptionGroupId,
        name: 'Toppings',
        createdIn: 'pos-backoffice',
        rule: { condition: 'all', max: 3, min: 1 },
      });
      const perCategory = await create({ productOptionGroupName: 'Sides', conditionId: '2', max: '2', min: '0', products: [{ productId: egg }] });
      expect((await t.api('GET', `/topping_groups/${perCategory.productOptionGroupId}`)).json().rule).toEqual({ condition: 'category', max: 2, min: 0 });
      const none = await create({ productOptionGroupName: 'Free', conditionId: '0', products: [{ productId: egg }] });
      expect(none).toMatchObject({ conditionId: '0', max: null, min: null });
      expect((await t.api('GET', `/topping_groups/${none.productOptionGroupId}`)).json().rule).toBeNull();
    });

    it('requires the name, the condition and at least one option product, and names every bad field', async () => {
      expect(problem(await t.api('POST', '/product_option_groups', {}), 400)).toEqual(
        bad('[productOptionGroupName] is required; [conditionId] is required; [products] is required'),
      );
      expect(
        problem(
          await t.api('POST', '/product_option_groups', {
            productOptionGroupName: ' ',
            conditionId: '3',
            max: 0,
            min: 1000,
            products: [],
            syncDivision: '1',
          }),
          400,
        ),
      ).toEqual(
        bad(
          '[productOptionGroupName] must not be empty; [conditionId] must be one of 0, 1, 2; [max] must be an integer from 1 to 999; ' +
            '[min] must be an integer from 0 to 999; [products] must list at least one option product; [syncDivision] is not a known field',
        ),
      );
      expect(problem(await t.api('POST', '/product_option_groups', { productOptionGroupName: 'x'.repeat(86), conditionId: '0', products: [{ productId: egg }] }), 400).detail).toBe(
        '[productOptionGroupName] must be at most 85 characters',
      );
      for (const max of [1.5, '1.5', '', -1, '1000', true]) {
        expect(problem(await t.api('POST', '/product_option_groups', { productOptionGroupName: 'G', conditionId: '1', max, min: 0, products: [{ productId: egg }] }), 400).detail, String(max)).toBe(
          '[max] must be an integer from 1 to 999',
        );
      }
      expect(problem(await t.api('POST', '/product_option_groups', { productOptionGroupName: 'G', conditionId: '0', products: [{ productId: 0 }, { id: 1 }] }), 400).detail).toBe(
        '[products[0].productId] must be an integer from 1 to 999999999999999; [products[1].productId] is required; [products[1].id] is not a known field',
      );
    });

    it('takes max and min exactly as conditionId asks: both with 1 and 2, none with 0, min not above max', async () => {
      const body = (extra: Record<string, unknown>) => ({ productOptionGroupName: 'G', products: [{ productId: egg }], ...extra });
      const detail = async (extra: Record<string, unknown>) => problem(await t.api('POST', '/product_option_groups', body(extra)), 400).detail;
      expect(await detail({ conditionId: '1', min: 1 })).toBe('[max] is required when conditionId is 1');
      expect(await detail({ conditionId: '2', max: 1 })).toBe('[min] is required when conditionId is 2');
      expect(await detail({ conditionId: '0', max: 1 })).toBe('[max] must not be given when conditionId is 0 (no condition)');
      expect(await detail({ conditionId: '0', min: 0 })).toBe('[min] must not be given when conditionId is 0 (no condition)');
      expect(await detail({ conditionId: '1', max: 2, min: 3 })).toBe('[min] must not be greater than max (2)');
      expect((await create(body({ conditionId: '1', max: 999, min: 999 }))).min).toBe('999');
    });

    it('takes only existing option products (productDivision 2), each once', async () => {
      const detail = async (products: unknown[]) =>
        problem(await t.api('POST', '/product_option_groups', { productOptionGroupName: 'G', conditionId: '0', products }), 400).detail;
      expect(await detail([{ productId: egg }, { productId: 999999 }])).toBe('[products[1].productId] product 999999 does not exist');
      expect(await detail([{ productId: burger }])).toBe(`[products[0].productId] product ${burger} is not an option product (its productDivision is 0, not 2)`);
      expect(await detail([{ productId: egg }, { productId: Number(egg) }])).toBe(`[products[1].productId] product ${egg} is given twice`);
      expect((await t.api('GET', '/product_option_groups')).json()).toEqual([]);
    });
  });

  describe('GET /product_option_groups/{product_option_group_id}', () => {
    it('answers the group; with_products=all adds its option products; fields limits the rest', async () => {
      const { products, ...group } = await toppings();
      expect((await t.api('GET', `/product_option_groups/${group.productOptionGroupId}`)).json()).toEqual(group);
      expect((await t.api('GET', `/product_option_groups/${group.productOptionGroupId}?with_products=none`)).json()).toEqual(group);
      expect((await t.api('GET', `/product_option_groups/${group.productOptionGroupId}?with_products=all`)).json()).toEqual({ ...group, products });
      expect((await t.api('GET', `/product_option_groups/${group.productOptionGroupId}?fields=productOptionGroupName,max&with_products=all`)).json()).toEqual({
        productOptionGroupName: 'Toppings',
        max: '3',
        products,
      });
    });

    it('answers 404 for an unknown group and 400 for a bad query', async () => {
      expect(problem(await t.api('GET', '/product_option_groups/999999'), 404)).toEqual(
        notFound('[product_option_group_id] product option group 999999 does not exist'),
      );
      const { productOptionGroupId } = await toppings();
      expect(problem(await t.api('GET', `/product_option_groups/${productOptionGroupId}?with_products=yes`), 400).detail).toBe(
        '[with_products] must be one of all, none',
      );
      expect(problem(await t.api('GET', `/product_option_groups/${productOptionGroupId}?fields=products`), 400).detail).toBe(
        '[fields] products is not a product option group field',
      );
    });
  });

  describe('GET /product_option_groups', () => {
    it('lists groups made here and by the restaurant side, with the platform filters, sort, fields and paging', async () => {
      const toppingGroup = await toppings();
      t.clock.advance(60_000);
      const free = await create({ productOptionGroupName: 'Free', conditionId: '0', products: [{ productId: egg }] });
      const waiter = (await t.api('POST', '/topping_groups', { name: 'Sauces', createdIn: 'waiter', rule: { condition: 'category', max: 1, min: 1 } })).json();
      const other = (await t.api('POST', '/topping_groups', { name: 'Dips', createdIn: 'kiosk' })).json();

      const all = await t.api('GET', '/product_option_groups');
      expect(all.statusCode).toBe(200);
      expect(all.json()).toEqual([
        { productOptionGroupId: toppingGroup.productOptionGroupId, productOptionGroupName: 'Toppings', conditionId: '1', max: '3', min: '1', syncDivision: '0', insDateTime: AT_T0, updDateTime: AT_T0 },
        { productOptionGroupId: free.productOptionGroupId, productOptionGroupName: 'Free', conditionId: '0', max: null, min: null, syncDivision: '0', insDateTime: AT_T0_PLUS_1MIN, updDateTime: AT_T0_PLUS_1MIN },
        { productOptionGroupId: waiter.id, productOptionGroupName: 'Sauces', conditionId: '2', max: '1', min: '1', syncDivision: '1', insDateTime: AT_T0_PLUS_1MIN, updDateTime: AT_T0_PLUS_1MIN },
        { productOptionGroupId: other.id, productOptionGroupName: 'Dips', conditionId: '0', max: null, min: null, syncDivision: '9', insDateTime: AT_T0_PLUS_1MIN, updDateTime: AT_T0_PLUS_1MIN },
      ]);
      const ids = async (query: string) => ((await t.api('GET', `/product_option_groups?${query}`)).json() as { productOptionGroupId: string }[]).map((g) => g.productOptionGroupId);
      expect(await ids('condition_id=0')).toEqual([free.productOptionGroupId, other.id]);
      expect(await ids('condition_id=2')).toEqual([waiter.id]);
      expect(await ids('product_option_group_name=Free')).toEqual([free.productOptionGroupId]);
      expect(await ids('product_option_group_name=Fre')).toEqual([]);
      expect(await ids('sort=conditionId:desc')).toEqual([waiter.id, toppingGroup.productOptionGroupId, free.productOptionGroupId, other.id]);
      expect(await ids('sort=productOptionGroupId:desc')).toEqual([other.id, waiter.id, free.productOptionGroupId, toppingGroup.productOptionGroupId]);
      expect(await ids('upd_date_time-from=2026-11-22T10:00:30%2B09:00')).toEqual([free.productOptionGroupId, waiter.id, other.id]);
      expect((await t.api('GET', '/product_option_groups?fields=productOptionGroupId,conditionId&condition_id=1')).json()).toEqual([
        { productOptionGroupId: toppingGroup.productOptionGroupId, conditionId: '1' },
      ]);

      const first = await t.api('GET', '/product_option_groups?limit=3');
      expect(first.json()).toHaveLength(3);
      expect(first.headers.link).toBe(`<${LINK_BASE}?limit=3&page=2>; rel="next"`);
    });

    it('refuses unknown parameters and values', async () => {
      expect(problem(await t.api('GET', '/product_option_groups?condition_id=3'), 400).detail).toBe('[condition_id] must be one of 0, 1, 2');
      expect(problem(await t.api('GET', '/product_option_groups?with_products=all'), 400).detail).toBe('[with_products] is not a known field');
      expect(problem(await t.api('GET', '/product_option_groups?sort=productOptionGroupName'), 400).detail).toMatch(/^\[sort\]/);
    });
  });

  describe('PATCH /product_option_groups/{product_option_group_id}', () => {
    it('changes only the keys sent, keeps max and min for a new condition that needs them, and reports the change', async () => {
      const group = await toppings();
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      t.clock.advance(60_000);
      const url = `/product_option_groups/${group.productOptionGroupId}`;
      const renamed = await t.api('PATCH', url, { productOptionGroupName: 'Extras' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json()).toEqual({ ...group, productOptionGroupName: 'Extras', updDateTime: AT_T0_PLUS_1MIN });
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'topping_group', id: group.productOptionGroupId, op: 'update' }]);

      expect((await t.api('PATCH', url, { conditionId: '2' })).json()).toMatchObject({ conditionId: '2', max: '3', min: '1' });
      expect((await t.api('PATCH', url, { max: 1 })).json()).toMatchObject({ conditionId: '2', max: '1', min: '1' });
      expect(problem(await t.api('PATCH', url, { min: 2 }), 400)).toEqual(bad('[min] must not be greater than max (1)'));
      expect((await t.api('PATCH', url, { conditionId: '0' })).json()).toMatchObject({ conditionId: '0', max: null, min: null });
      expect(problem(await t.api('PATCH', url, { max: 2 }), 400).detail).toBe('[max] must not be given when conditionId is 0 (no condition)');
      expect(problem(await t.api('PATCH', url, { conditionId: '1', max: 2 }), 400).detail).toBe('[min] is required when conditionId is 1');
      expect((await t.api('PATCH', url, { conditionId: '1', max: 2, min: 0 })).json()).toMatchObject({ conditionId: '1', max: '2', min: '0' });
      expect((await t.api('GET', `/topping_groups/${group.productOptionGroupId}`)).json().rule).toEqual({ condition: 'all', max: 2, min: 0 });
    });

    it('replaces the whole product list, checked as on registration', async () => {
      const group = await toppings();
      const url = `/product_option_groups/${group.productOptionGroupId}`;
      expect((await t.api('PATCH', url, { products: [{ productId: Number(egg) }] })).json().products).toEqual([{ productId: egg }]);
      expect((await t.api('GET', `${url}?with_products=all`)).json().products).toEqual([{ productId: egg }]);
      expect(problem(await t.api('PATCH', url, { products: [{ productId: Number(burger) }] }), 400).detail).toBe(
        `[products[0].productId] product ${burger} is not an option product (its productDivision is 0, not 2)`,
      );
      expect(problem(await t.api('PATCH', url, { products: [] }), 400).detail).toBe('[products] must list at least one option product');
      expect((await t.api('GET', `${url}?with_products=all`)).json().products).toEqual([{ productId: egg }]);
    });

    it('answers 404 for an unknown group before the body, and 400 for an empty or unknown body', async () => {
      expect(problem(await t.api('PATCH', '/product_option_groups/999999', { conditionId: '1' }), 404).detail).toBe(
        '[product_option_group_id] product option group 999999 does not exist',
      );
      const { productOptionGroupId } = await toppings();
      expect(problem(await t.api('PATCH', `/product_option_groups/${productOptionGroupId}`, {}), 400).detail).toBe('[body] no field to update was given');
      expect(problem(await t.api('PATCH', `/product_option_groups/${productOptionGroupId}`, { syncDivision: '1' }), 400).detail).toBe(
        '[syncDivision] is not a known field; [body] no field to update was given',
      );
    });
  });

  describe('DELETE /product_option_groups/{product_option_group_id}', () => {
    it('deletes a group no product offers (204), with its option products; 404 after', async () => {
      const { productOptionGroupId } = await toppings();
      const res = await t.api('DELETE', `/product_option_groups/${productOptionGroupId}`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(problem(await t.api('GET', `/product_option_groups/${productOptionGroupId}`), 404).detail).toBe(
        `[product_option_group_id] product option group ${productOptionGroupId} does not exist`,
      );
      expect(t.deps.db.prepare('SELECT count(*) FROM product_option_group_products').pluck().get()).toBe(0);
      expect(problem(await t.api('DELETE', `/product_option_groups/${productOptionGroupId}`), 404).status).toBe(404);
    });

    it('refuses (400) while a product offers the group', async () => {
      const { productOptionGroupId } = await toppings();
      expect((await t.api('PATCH', `/products/${burger}`, { productOptionGroupId })).statusCode).toBe(200);
      expect(problem(await t.api('DELETE', `/product_option_groups/${productOptionGroupId}`), 400)).toEqual(
        bad(
          `[product_option_group_id] product option group ${productOptionGroupId} is in use: product ${burger} offer it; ` +
            'set their productOptionGroupId to another group or null first',
        ),
      );
      expect((await t.api('PATCH', `/products/${burger}`, { productOptionGroupId: null })).json().productOptionGroupId).toBeNull();
      expect((await t.api('DELETE', `/product_option_groups/${productOptionGroupId}`)).statusCode).toBe(204);
    });
  });

  describe('one group, two views: deleting through either refuses while anything points at it', () => {
    it('DELETE /product_option_groups refuses (400) while a restaurant topping belongs to the group', async () => {
      const { productOptionGroupId } = await toppings();
      const topping = (await t.api('POST', '/toppings', { toppingGroupId: productOptionGroupId, name: 'Egg' })).json();
      expect(problem(await t.api('DELETE', `/product_option_groups/${productOptionGroupId}`), 400)).toEqual(
        bad(`[product_option_group_id] product option group ${productOptionGroupId} has toppings (topping ${topping.id}); move or delete them first`),
      );
      expect((await t.api('DELETE', `/toppings/${topping.id}`)).statusCode).toBe(204);
      expect((await t.api('DELETE', `/product_option_groups/${productOptionGroupId}`)).statusCode).toBe(204);
    });

    it('DELETE /topping_groups refuses (400) while a product offers the group', async () => {
      const { productOptionGroupId } = await toppings();
      await t.api('PATCH', `/products/${burger}`, { productOptionGroupId });
      expect(problem(await t.api('DELETE', `/topping_groups/${productOptionGroupId}`), 400)).toEqual(
        bad(
          `[topping_group_id] topping group ${productOptionGroupId} is in use: product ${burger} offer it; ` +
            'set their productOptionGroupId to another group or null first',
        ),
      );
      await t.api('PATCH', `/products/${burger}`, { productOptionGroupId: null });
      expect((await t.api('DELETE', `/topping_groups/${productOptionGroupId}`)).statusCode).toBe(204);
      expect(t.deps.db.prepare('SELECT count(*) FROM product_option_group_products').pluck().get()).toBe(0);
    });
  });

  it('writes of the same group through /topping_groups raise pos:option-groups too', async () => {
    const id = (await t.api('POST', '/topping_groups', { name: 'Sauces', createdIn: 'waiter' })).json().id as string;
    await t.api('PATCH', `/topping_groups/${id}`, { name: 'Dips' });
    await t.api('DELETE', `/topping_groups/${id}`);
    const bodies = (t.deps.db.prepare("SELECT body FROM webhook_events WHERE contract_id = ? AND event = 'pos:option-groups' ORDER BY created_at, CAST(event_id AS INTEGER)").pluck().all(t.contractId) as string[]).map(
      (b) => JSON.parse(b),
    );
    expect(bodies).toEqual(
      (['created', 'edited', 'deleted'] as const).map((action) => ({ contractId: t.contractId, event: 'pos:option-groups', action, productOptionGroupIds: [id] })),
    );
  });

  describe('DELETE /product_option_groups/{product_option_group_id}/products/{product_id}', () => {
    it('removes one option product (204) and reports the group changed', async () => {
      const group = await toppings();
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      t.clock.advance(60_000);
      const res = await t.api('DELETE', `/product_option_groups/${group.productOptionGroupId}/products/${bacon}`);
      expect(res.statusCode).toBe(204);
      expect((await t.api('GET', `/product_option_groups/${group.productOptionGroupId}?with_products=all`)).json()).toMatchObject({
        products: [{ productId: cheese }],
        updDateTime: AT_T0_PLUS_1MIN,
      });
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'topping_group', id: group.productOptionGroupId, op: 'update' }]);
    });

    it('keeps the last option product (400) and answers 404 for an unknown group, product or pair', async () => {
      const group = await create({ productOptionGroupName: 'One', conditionId: '0', products: [{ productId: egg }] });
      const url = (groupId: string, productId: string) => `/product_option_groups/${groupId}/products/${productId}`;
      expect(problem(await t.api('DELETE', url(group.productOptionGroupId, egg)), 400)).toEqual(
        bad(`[product_id] product ${egg} is the only option product of product option group ${group.productOptionGroupId}: a group keeps at least one`),
      );
      expect(problem(await t.api('DELETE', url('999999', egg)), 404)).toEqual(notFound('[product_option_group_id] product option group 999999 does not exist'));
      expect(problem(await t.api('DELETE', url(group.productOptionGroupId, '999999')), 404)).toEqual(notFound('[product_id] product 999999 does not exist'));
      expect(problem(await t.api('DELETE', url(group.productOptionGroupId, cheese)), 404)).toEqual(
        notFound(`[product_id] product ${cheese} is not an option product of product option group ${group.productOptionGroupId}`),
      );
    });
  });

  describe("the product master's productOptionGroupId", () => {
    it('links a normal product to an existing group, answered on the product, and clears it with null', async () => {
      const { productOptionGroupId } = await toppings();
      const linked = await t.api('PATCH', `/products/${burger}`, { productOptionGroupId });
      expect(linked.json().productOptionGroupId).toBe(productOptionGroupId);
      expect((await t.api('GET', `/products/${burger}`)).json().productOptionGroupId).toBe(productOptionGroupId);
      expect((await t.api('GET', `/products/${cheese}`)).json().productOptionGroupId).toBeNull();
      const categoryId = linked.json().categoryId;
      const created = await t.api('POST', '/products', { categoryId, productCode: 'DOG', productName: 'Hot dog', price: '300', productOptionGroupId });
      expect(created.json().productOptionGroupId).toBe(productOptionGroupId);
      expect((await t.api('PATCH', `/products/${burger}`, { productOptionGroupId: '' })).json().productOptionGroupId).toBeNull();
    });

    it('refuses an unknown group, a group on a product that is not normal, and a division change away from 0 while it offers one', async () => {
      const { productOptionGroupId } = await toppings();
      expect(problem(await t.api('PATCH', `/products/${burger}`, { productOptionGroupId: '999999' }), 400)).toEqual(
        bad('[productOptionGroupId] product option group 999999 does not exist'),
      );
      expect(problem(await t.api('PATCH', `/products/${egg}`, { productOptionGroupId }), 400).detail).toBe(
        "[productOptionGroupId] only a product of productDivision 0 (normal) offers an option group; this one's productDivision is 2",
      );
      await t.api('PATCH', `/products/${burger}`, { productOptionGroupId });
      expect(problem(await t.api('PATCH', `/products/${burger}`, { productDivision: '1' }), 400).detail).toBe(
        "[productOptionGroupId] only a product of productDivision 0 (normal) offers an option group; this one's productDivision is 1",
      );
      expect((await t.api('PATCH', `/products/${burger}`, { productDivision: '1', productOptionGroupId: null })).json()).toMatchObject({
        productDivision: '1',
        productOptionGroupId: null,
      });
    });

    it('keeps an option product a group holds: no deletion, no other division', async () => {
      const { productOptionGroupId } = await toppings();
      expect(problem(await t.api('DELETE', `/products/${bacon}`), 400)).toEqual(
        bad(`[product_id] product ${bacon} is an option product of product option group ${productOptionGroupId}; remove it from there first`),
      );
      expect(problem(await t.api('PATCH', `/products/${bacon}`, { productDivision: '0' }), 400).detail).toBe(
        `[productDivision] product ${bacon} is an option product of product option group ${productOptionGroupId}, so it stays 2; remove it from there first`,
      );
      expect((await t.api('PATCH', `/products/${bacon}`, { productName: 'Smoked bacon' })).statusCode).toBe(200);
      expect((await t.api('DELETE', `/products/${egg}`)).statusCode).toBe(204);
    });
  });

  it('raises the platform notices pos:option-groups and pos:product-options on every write', async () => {
    const notices = () =>
      (
        t.deps.db
          .prepare("SELECT body FROM webhook_events WHERE contract_id = ? AND event IN ('pos:option-groups', 'pos:product-options') ORDER BY created_at, CAST(event_id AS INTEGER)")
          .pluck()
          .all(t.contractId) as string[]
      ).map((b) => JSON.parse(b));
    const base = { contractId: t.contractId };
    const group = await toppings();
    const g = group.productOptionGroupId;
    await t.api('PATCH', `/product_option_groups/${g}`, { productOptionGroupName: 'Extras' });
    await t.api('PATCH', `/product_option_groups/${g}`, { products: [{ productId: egg }, { productId: cheese }] });
    await t.api('DELETE', `/product_option_groups/${g}/products/${egg}`);
    await t.api('DELETE', `/product_option_groups/${g}`);
    expect(notices()).toEqual([
      { ...base, event: 'pos:option-groups', action: 'created', productOptionGroupIds: [g] },
      { ...base, event: 'pos:product-options', action: 'created', ids: [{ productOptionGroupId: g, productId: bacon }, { productOptionGroupId: g, productId: cheese }] },
      { ...base, event: 'pos:option-groups', action: 'edited', productOptionGroupIds: [g] },
      { ...base, event: 'pos:option-groups', action: 'edited', productOptionGroupIds: [g] },
      { ...base, event: 'pos:product-options', action: 'bulk-update', ids: [{ productOptionGroupId: g, productId: egg }, { productOptionGroupId: g, productId: cheese }] },
      { ...base, event: 'pos:product-options', action: 'deleted', ids: [{ productOptionGroupId: g, productId: egg }] },
      { ...base, event: 'pos:option-groups', action: 'deleted', productOptionGroupIds: [g] },
    ]);
  });

  it('needs pos.products scopes', async () => {
    const { productOptionGroupId } = await toppings();
    const readOnly = await t.tokenFor({ scopes: ['pos.products:read'] });
    expect((await t.api('GET', '/product_option_groups', undefined, readOnly)).statusCode).toBe(200);
    for (const [method, url] of [
      ['POST', '/product_option_groups'],
      ['PATCH', `/product_option_groups/${productOptionGroupId}`],
      ['DELETE', `/product_option_groups/${productOptionGroupId}`],
      ['DELETE', `/product_option_groups/${productOptionGroupId}/products/${bacon}`],
    ] as const) {
      expect(problem(await t.api(method, url, method === 'DELETE' ? undefined : { conditionId: '0' }, readOnly), 403).detail, `${method} ${url}`).toBe(
        '[scope] the token lacks the scope pos.products:write',
      );
    }
    const none = await t.tokenFor({ scopes: ['pos.customers:read'] });
    expect(problem(await t.api('GET', `/product_option_groups/${productOptionGroupId}`, undefined, none), 403).detail).toBe(
      '[scope] the token lacks the scope pos.products:read',
    );
  });

  it('is open to the five plans the platform names, not to enterprise', async () => {
    const plans: Plan[] = ['standard', 'premium', 'premium_plus', 'food_business', 'retail_business'];
    for (const plan of plans) {
      const p = await makeTestApp({ plan });
      expect((await p.api('GET', '/product_option_groups')).statusCode, plan).toBe(200);
      await p.close();
    }
    const enterprise = await makeTestApp({ plan: 'enterprise' });
    expect(problem(await enterprise.api('GET', '/product_option_groups'), 403).detail).toBe(
      "the contract's plan enterprise cannot use GET /product_option_groups (plans: standard, premium, premium_plus, food_business, retail_business)",
    );
    await enterprise.close();
  });
});

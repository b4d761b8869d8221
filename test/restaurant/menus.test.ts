import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import type { Menu } from '../../server/restaurant/menus/schema.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/menus';
const badRequest = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });

describe('menus', () => {
  let t: TestApp;
  let store: string;
  let category: string;
  beforeEach(async () => {
    t = await makeTestApp();
    store = (await t.api('POST', '/stores', { storeName: 'Bistro' })).json().storeId;
    category = (await t.api('POST', '/categories', { categoryName: 'Pasta' })).json().categoryId;
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>): Promise<Menu> => {
    const res = await t.api('POST', '/menus', { storeId: store, ...body });
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  describe('POST /menus', () => {
    it('creates an orderable, uncounted menu with price 0 and nulls for unset fields', async () => {
      const res = await t.api('POST', '/menus', { storeId: store, menuName: 'Carbonara', menuType: 'normal' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        menuId: '1001',
        storeId: store,
        menuName: 'Carbonara',
        menuType: 'normal',
        courseDivision: null,
        categoryId: null,
        price: '0',
        condition: 'orderable',
        quantity: null,
        conditionUpdDateTime: AT_10_00,
        productId: null,
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      });
    });

    it('stores a course with its division, a category and an exact price', async () => {
      const m = await create({ menuName: 'Dinner course', menuType: 'course', courseDivision: 'standard', categoryId: category, price: '04800.500' });
      expect(m).toMatchObject({ menuType: 'course', courseDivision: 'standard', categoryId: category, price: '4800.5' });
      const simple = await create({ menuName: 'Quick course', menuType: 'course', courseDivision: 'simple' });
      expect(simple.courseDivision).toBe('simple');
      const plan = await create({ menuName: 'Drink plan', menuType: 'plan', price: '1500' });
      expect(plan).toMatchObject({ menuType: 'plan', courseDivision: null, price: '1500' });
    });

    it('requires storeId, menuName and menuType', async () => {
      expect(problem(await t.api('POST', '/menus', {}), 400)).toEqual(
        badRequest('[storeId] is required; [menuName] is required; [menuType] is required'),
      );
      expect(problem(await t.api('POST', '/menus'), 400).detail).toBe('[body] is required');
    });

    it('names every malformed field and refuses unknown keys', async () => {
      const body = problem(
        await t.api('POST', '/menus', {
          storeId: 'S1',
          menuName: ' ',
          menuType: 'buffet',
          courseDivision: 'deluxe',
          categoryId: '1234567890',
          price: '-1',
          condition: 'soldout',
        }),
        400,
      );
      expect(body.detail).toBe(
        '[storeId] must be 1 to 9 digits; [menuName] must not be empty; [menuType] must be one of normal, plan, course; ' +
          '[courseDivision] must be one of standard, simple; [categoryId] must be 1 to 9 digits; ' +
          '[price] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals; [condition] is not a known field',
      );
    });

    it('limits menuName to 85 characters, counted as characters', async () => {
      expect(problem(await t.api('POST', '/menus', { storeId: store, menuName: 'あ'.repeat(86), menuType: 'normal' }), 400).detail).toBe(
        '[menuName] must be at most 85 characters',
      );
      expect((await create({ menuName: 'あ'.repeat(85), menuType: 'normal' })).menuName).toBe('あ'.repeat(85));
    });

    it('refuses a store or category that does not exist (400 naming the field), and creates nothing', async () => {
      expect(problem(await t.api('POST', '/menus', { storeId: '999', menuName: 'X', menuType: 'normal' }), 400)).toEqual(
        badRequest('[storeId] store 999 does not exist'),
      );
      expect(problem(await t.api('POST', '/menus', { storeId: store, menuName: 'X', menuType: 'normal', categoryId: '999' }), 400)).toEqual(
        badRequest('[categoryId] category 999 does not exist'),
      );
      expect((await t.api('GET', '/menus')).json()).toEqual([]);
    });

    it("treats another contract's store as not existing", async () => {
      t.addContract('other', 'food_business');
      const token = await t.tokenFor({ contractId: 'other' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/other/pos/menus',
        headers: { authorization: `Bearer ${token}` },
        payload: { storeId: store, menuName: 'X', menuType: 'normal' },
      });
      expect(problem(res, 400).detail).toBe(`[storeId] store ${store} does not exist`);
    });

    it('requires courseDivision for a course and refuses it on other types', async () => {
      expect(problem(await t.api('POST', '/menus', { storeId: store, menuName: 'C', menuType: 'course' }), 400)).toEqual(
        badRequest('[courseDivision] is required for a course menu (standard or simple)'),
      );
      for (const menuType of ['normal', 'plan']) {
        expect(
          problem(await t.api('POST', '/menus', { storeId: store, menuName: 'C', menuType, courseDivision: 'standard' }), 400).detail,
        ).toBe(`[courseDivision] only course menus have a course division; this menu is ${menuType}`);
      }
    });

    it('needs pos.products:write and is open to every plan', async () => {
      const reader = await t.tokenFor({ scopes: ['pos.products:read'] });
      expect(problem(await t.api('POST', '/menus', { storeId: store, menuName: 'X', menuType: 'normal' }, reader), 403).detail).toBe(
        '[scope] the token lacks the scope pos.products:write',
      );
      for (const plan of ['standard', 'enterprise', 'retail_business'] as const) {
        const other = await makeTestApp({ plan });
        const s = (await other.api('POST', '/stores', { storeName: 'S' })).json().storeId;
        expect((await other.api('POST', '/menus', { storeId: s, menuName: 'X', menuType: 'normal' })).statusCode).toBe(200);
        expect((await other.api('GET', '/menus')).statusCode).toBe(200);
        await other.close();
      }
    });
  });

  describe('GET /menus/{menu_id}', () => {
    it('answers the menu, 404 for an unknown one and 400 for a malformed id', async () => {
      const m = await create({ menuName: 'Soup', menuType: 'normal' });
      const res = await t.api('GET', `/menus/${m.menuId}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(m);
      expect(problem(await t.api('GET', '/menus/999'), 404)).toEqual({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: '[menu_id] menu 999 does not exist',
      });
      expect(problem(await t.api('GET', '/menus/abc'), 400).detail).toBe('[menu_id] must be 1 to 9 digits');
    });

    it('needs waiter.menus:read (the platform reads menus with it; pos.products:read is not enough)', async () => {
      const writer = await t.tokenFor({ scopes: ['pos.products:write', 'pos.products:read'] });
      expect(problem(await t.api('GET', '/menus/1', undefined, writer), 403).detail).toBe('[scope] the token lacks the scope waiter.menus:read');
    });
  });

  describe('PATCH /menus/{menu_id}', () => {
    it('changes only the keys sent and moves updDateTime, not conditionUpdDateTime', async () => {
      const m = await create({ menuName: 'Soup', menuType: 'normal', price: '500', categoryId: category });
      t.clock.advance(60_000);
      const res = await t.api('PATCH', `/menus/${m.menuId}`, { menuName: 'Soup of the day', price: '550.25', categoryId: null });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        ...m,
        menuName: 'Soup of the day',
        price: '550.25',
        categoryId: null,
        updDateTime: AT_10_01,
      });
    });

    it('turns a menu into a course only with a division, and clears the division when it leaves course', async () => {
      const m = await create({ menuName: 'M', menuType: 'normal' });
      expect(problem(await t.api('PATCH', `/menus/${m.menuId}`, { menuType: 'course' }), 400).detail).toBe(
        '[courseDivision] is required for a course menu (standard or simple)',
      );
      expect(problem(await t.api('PATCH', `/menus/${m.menuId}`, { courseDivision: 'standard' }), 400).detail).toBe(
        '[courseDivision] only course menus have a course division; this menu is normal',
      );
      const course = (await t.api('PATCH', `/menus/${m.menuId}`, { menuType: 'course', courseDivision: 'simple' })).json();
      expect(course).toMatchObject({ menuType: 'course', courseDivision: 'simple' });
      expect((await t.api('PATCH', `/menus/${m.menuId}`, { courseDivision: 'standard' })).json().courseDivision).toBe('standard');
      expect(problem(await t.api('PATCH', `/menus/${m.menuId}`, { courseDivision: null }), 400).detail).toBe(
        '[courseDivision] is required for a course menu (standard or simple)',
      );
      expect(problem(await t.api('PATCH', `/menus/${m.menuId}`, { menuType: 'plan', courseDivision: 'standard' }), 400).detail).toBe(
        '[courseDivision] only course menus have a course division; this menu is plan',
      );
      const plan = (await t.api('PATCH', `/menus/${m.menuId}`, { menuType: 'plan' })).json();
      expect(plan).toMatchObject({ menuType: 'plan', courseDivision: null });
    });

    it('refuses an empty body, unknown keys (storeId too), a missing category, and changes nothing then', async () => {
      const m = await create({ menuName: 'M', menuType: 'normal' });
      expect(problem(await t.api('PATCH', `/menus/${m.menuId}`, {}), 400)).toEqual(badRequest('[body] no field to update was given'));
      expect(problem(await t.api('PATCH', `/menus/${m.menuId}`, { storeId: store }), 400).detail).toBe(
        '[storeId] is not a known field; [body] no field to update was given',
      );
      expect(problem(await t.api('PATCH', `/menus/${m.menuId}`, { menuName: 'New', categoryId: '999' }), 400).detail).toBe(
        '[categoryId] category 999 does not exist',
      );
      expect(problem(await t.api('PATCH', `/menus/${m.menuId}`, { menuName: '' }), 400).detail).toBe('[menuName] must not be empty');
      expect(problem(await t.api('PATCH', `/menus/${m.menuId}`, { menuName: null }), 400).detail).toMatch(/^\[menuName\] /);
      expect((await t.api('GET', `/menus/${m.menuId}`)).json()).toEqual(m);
    });

    it('answers 404 for an unknown menu', async () => {
      expect(problem(await t.api('PATCH', '/menus/999', { menuName: 'X' }), 404).detail).toBe('[menu_id] menu 999 does not exist');
    });
  });

  describe('DELETE /menus/{menu_id}', () => {
    it('deletes with 204, then the menu is gone; 404 when absent', async () => {
      const m = await create({ menuName: 'M', menuType: 'normal' });
      const res = await t.api('DELETE', `/menus/${m.menuId}`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await t.api('GET', `/menus/${m.menuId}`)).statusCode).toBe(404);
      expect(problem(await t.api('DELETE', `/menus/${m.menuId}`), 404).detail).toBe(`[menu_id] menu ${m.menuId} does not exist`);
    });

    it('refuses (400, nothing deleted) a menu that an order item, a topping or a course item names', async () => {
      const table = (await t.api('POST', '/tables', { storeId: store, name: 'A1' })).json().tableId;
      const [item, topping, course, free] = await Promise.all(['Pasta', 'Cheese', 'Soup', 'Tea'].map((menuName) => create({ menuName, menuType: 'normal' })));
      const ordered = await t.api('POST', '/orders', {
        storeId: store,
        tableIds: [table],
        items: [
          { menuId: item!.menuId, sellingPrice: { amount: '900' }, toppings: [{ menuId: topping!.menuId, name: 'Cheese', amount: '100' }] },
          { name: 'Course', menuType: 'course', sellingPrice: { amount: '3000' }, courseItems: [{ menuId: course!.menuId, name: 'Soup', amount: '0' }] },
        ],
      });
      expect(ordered.statusCode, ordered.body).toBe(200);
      const orderId = ordered.json().orderId;
      for (const m of [item!, topping!, course!]) {
        expect(problem(await t.api('DELETE', `/menus/${m.menuId}`), 400).detail).toBe(`[menu_id] menu ${m.menuId} is used by order ${orderId} and cannot be deleted`);
        expect((await t.api('GET', `/menus/${m.menuId}`)).statusCode).toBe(200);
      }
      expect((await t.api('DELETE', `/menus/${free!.menuId}`)).statusCode).toBe(204);
    });
  });

  it('reports each insert, update and delete for sync', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const m = await create({ menuName: 'M', menuType: 'normal' });
    await t.api('PATCH', `/menus/${m.menuId}`, { menuName: 'N' });
    await t.api('PUT', `/menu_conditions/stores/${store}/menus/${m.menuId}`, { condition: 'soldout' });
    await t.api('DELETE', `/menus/${m.menuId}`);
    expect(changes).toEqual(
      (['insert', 'update', 'update', 'delete'] as const).map((op) => ({ contractId: 'test-contract', entity: 'menu', id: m.menuId, op })),
    );
  });

  describe('GET /menus', () => {
    it('filters by store_id, type and category_id', async () => {
      const second = (await t.api('POST', '/stores', { storeName: 'Second' })).json().storeId;
      const a = await create({ menuName: 'A', menuType: 'normal', categoryId: category });
      const b = await create({ menuName: 'B', menuType: 'course', courseDivision: 'simple' });
      const c = (await t.api('POST', '/menus', { storeId: second, menuName: 'C', menuType: 'plan' })).json();
      const ids = async (query: string) => (await t.api('GET', `/menus${query}`)).json().map((m: Menu) => m.menuId);
      expect(await ids('')).toEqual([a.menuId, b.menuId, c.menuId]);
      expect(await ids(`?store_id=${store}`)).toEqual([a.menuId, b.menuId]);
      expect(await ids(`?store_id=${second}`)).toEqual([c.menuId]);
      expect(await ids('?type=course')).toEqual([b.menuId]);
      expect(await ids('?type=all')).toEqual([a.menuId, b.menuId, c.menuId]);
      expect(await ids(`?category_id=${category}`)).toEqual([a.menuId]);
      expect(await ids('?store_id=999')).toEqual([]);
    });

    it('pages 20 by default, at most 100, with Link headers, and sorts by menuName, categoryId or menuId', async () => {
      for (let i = 0; i < 23; i++) await create({ menuName: `M${String(i).padStart(2, '0')}`, menuType: 'normal' });
      const first = await t.api('GET', '/menus');
      expect(first.json()).toHaveLength(20);
      expect(first.headers.link).toBe(`<${LINK_BASE}?page=2>; rel="next"`);
      const second = await t.api('GET', '/menus?page=2');
      expect(second.json()).toHaveLength(3);
      expect(second.headers.link).toBe(`<${LINK_BASE}?page=1>; rel="prev"`);
      const sorted = await t.api('GET', '/menus?limit=2&sort=menuName:desc');
      expect(sorted.json().map((m: Menu) => m.menuName)).toEqual(['M22', 'M21']);
      expect(sorted.headers.link).toBe(`<${LINK_BASE}?limit=2&sort=menuName%3Adesc&page=2>; rel="next"`);
      expect((await t.api('GET', '/menus?limit=100')).json()).toHaveLength(23);
      expect((await t.api('GET', '/menus?sort=categoryId,menuId:desc&limit=1')).json()[0].menuName).toBe('M22');
    });

    it('refuses bad paging, sort, filters and unknown parameters', async () => {
      expect(problem(await t.api('GET', '/menus?limit=101'), 400).detail).toBe('[limit] limit must be at most 100');
      expect(problem(await t.api('GET', '/menus?limit=0'), 400).detail).toBe('[limit] limit must be at least 1');
      expect(problem(await t.api('GET', '/menus?sort=price'), 400).detail).toBe(
        '[sort] price is not a sort key; use menuId, categoryId, menuName with an optional :desc',
      );
      expect(problem(await t.api('GET', '/menus?type=buffet'), 400).detail).toBe('[type] must be one of all, normal, plan, course');
      expect(problem(await t.api('GET', '/menus?store_id=x'), 400).detail).toBe('[store_id] must be 1 to 9 digits');
      expect(problem(await t.api('GET', '/menus?storeId=1'), 400).detail).toBe('[storeId] is not a known field');
    });
  });
});

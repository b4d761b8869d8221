import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MenuCondition } from '../../server/restaurant/menus/condition-schema.js';
import type { Menu } from '../../server/restaurant/menus/schema.js';
import type { DemoContext } from '../../server/seed/context.js';
import { seedMenus } from '../../server/seed/demo-menus.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const badRequest = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const notFound = (detail: string) => ({ type: 'about:blank', title: 'Not Found', status: 404, detail });

describe('menu conditions', () => {
  let t: TestApp;
  let store: string;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'food_business' });
    store = (await t.api('POST', '/stores', { storeName: 'Bistro' })).json().storeId;
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>, storeId = store): Promise<Menu> => {
    const res = await t.api('POST', '/menus', { storeId, ...body });
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const put = (menuId: string, body: unknown, storeId = store) => t.api('PUT', `/menu_conditions/stores/${storeId}/menus/${menuId}`, body);
  const list = (query = '', storeId = store) => t.api('GET', `/menu_conditions/stores/${storeId}${query}`);
  const ids = async (query = '') => {
    const res = await list(query);
    if (res.statusCode !== 200) throw new Error(`list failed: ${res.statusCode} ${res.body}`);
    return res.json().map((c: MenuCondition) => c.menuId);
  };

  describe('PUT /menu_conditions/stores/{store_id}/menus/{menu_id}', () => {
    it('sets condition and quantity, keeps keys not sent, and answers the 2.5 item', async () => {
      const m = await create({ menuName: 'Soup', menuType: 'normal' });
      const res = await put(m.menuId, { quantity: 5 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ menuId: m.menuId, condition: 'orderable', quantity: 5 });
      expect((await put(m.menuId, { condition: 'soldout' })).json()).toEqual({ menuId: m.menuId, condition: 'soldout', quantity: 5 });
      expect((await put(m.menuId, { condition: 'orderable', quantity: null })).json()).toEqual({
        menuId: m.menuId,
        condition: 'orderable',
        quantity: null,
      });
    });

    it('makes a menu soldout when its quantity is set to 0, and refuses orderable with 0 left', async () => {
      const m = await create({ menuName: 'Soup', menuType: 'normal' });
      expect((await put(m.menuId, { quantity: 0 })).json()).toEqual({ menuId: m.menuId, condition: 'soldout', quantity: 0 });
      const detail = '[condition] a menu with quantity 0 cannot be orderable; send a quantity above 0 or null with it';
      expect(problem(await put(m.menuId, { condition: 'orderable' }), 400)).toEqual(badRequest(detail));
      expect(problem(await put(m.menuId, { condition: 'orderable', quantity: 0 }), 400)).toEqual(badRequest(detail));
      // Raising the quantity alone leaves it soldout; orderable must be asked for.
      expect((await put(m.menuId, { quantity: 3 })).json()).toEqual({ menuId: m.menuId, condition: 'soldout', quantity: 3 });
      expect((await put(m.menuId, { condition: 'orderable' })).json()).toEqual({ menuId: m.menuId, condition: 'orderable', quantity: 3 });
    });

    it('moves conditionUpdDateTime only on a real change, never updDateTime', async () => {
      const m = await create({ menuName: 'Soup', menuType: 'normal' });
      t.clock.advance(60_000);
      await put(m.menuId, { condition: 'soldout' });
      t.clock.advance(60_000);
      await put(m.menuId, { condition: 'soldout', quantity: null }); // the same values: no change
      const after = (await t.api('GET', `/menus/${m.menuId}`)).json();
      expect(after.conditionUpdDateTime).toBe('2026-11-22T10:01:00+09:00');
      expect(after.updDateTime).toBe('2026-11-22T10:00:00+09:00');
    });

    it('validates the body', async () => {
      const m = await create({ menuName: 'Soup', menuType: 'normal' });
      expect(problem(await put(m.menuId, {}), 400)).toEqual(badRequest('[body] no field to update was given'));
      expect(problem(await put(m.menuId, undefined), 400).detail).toBe('[body] is required');
      const range = 'must be an integer from 0 to 999999999, or null';
      for (const quantity of [-1, 1.5, '3', 1_000_000_000]) {
        expect(problem(await put(m.menuId, { quantity }), 400).detail).toBe(`[quantity] ${range}`);
      }
      expect(problem(await put(m.menuId, { condition: 'closed' }), 400).detail).toBe('[condition] must be one of orderable, soldout');
      expect(problem(await put(m.menuId, { condition: 'soldout', memo: 'x' }), 400).detail).toBe('[memo] is not a known field');
      expect((await t.api('GET', `/menus/${m.menuId}`)).json()).toMatchObject({ condition: 'orderable', quantity: null });
    });

    it('answers 404 for a missing store, a missing menu and a menu of another store; 400 for malformed ids', async () => {
      const second = (await t.api('POST', '/stores', { storeName: 'Second' })).json().storeId;
      const m = await create({ menuName: 'Soup', menuType: 'normal' });
      expect(problem(await put(m.menuId, { quantity: 1 }, '999'), 404)).toEqual(notFound('[store_id] store 999 does not exist'));
      expect(problem(await put('999', { quantity: 1 }), 404)).toEqual(notFound(`[menu_id] menu 999 does not exist in store ${store}`));
      expect(problem(await put(m.menuId, { quantity: 1 }, second), 404)).toEqual(
        notFound(`[menu_id] menu ${m.menuId} does not exist in store ${second}`),
      );
      expect(problem(await put('x', { quantity: 1 }), 400).detail).toBe('[menu_id] must be 1 to 9 digits');
      expect(problem(await put(m.menuId, { quantity: 1 }, 'x'), 400).detail).toBe('[store_id] must be 1 to 9 digits');
    });

    it('needs pos.products:write', async () => {
      const m = await create({ menuName: 'Soup', menuType: 'normal' });
      const reader = await t.tokenFor({ scopes: ['pos.products:read'] });
      const res = await t.api('PUT', `/menu_conditions/stores/${store}/menus/${m.menuId}`, { quantity: 1 }, reader);
      expect(problem(res, 403).detail).toBe('[scope] the token lacks the scope pos.products:write');
    });
  });

  describe('GET /menu_conditions/stores/{store_id} (spec 4.6)', () => {
    it('lists {menuId, condition, quantity} of the store in menu_id order, without simple courses', async () => {
      const normal = await create({ menuName: 'Soup', menuType: 'normal' });
      const plan = await create({ menuName: 'Drinks', menuType: 'plan' });
      const standard = await create({ menuName: 'Dinner', menuType: 'course', courseDivision: 'standard' });
      const simple = await create({ menuName: 'Lunch', menuType: 'course', courseDivision: 'simple' });
      const second = (await t.api('POST', '/stores', { storeName: 'Second' })).json().storeId;
      await create({ menuName: 'Elsewhere', menuType: 'normal' }, second);
      await put(plan.menuId, { quantity: 4 });
      await put(simple.menuId, { condition: 'soldout' });

      const res = await list();
      expect(res.statusCode).toBe(200);
      expect(res.headers.link).toBeUndefined();
      expect(res.json()).toEqual([
        { menuId: normal.menuId, condition: 'orderable', quantity: null },
        { menuId: plan.menuId, condition: 'orderable', quantity: 4 },
        { menuId: standard.menuId, condition: 'orderable', quantity: null },
      ]);
      expect(await ids(`?menu_ids=${simple.menuId}`)).toEqual([]);
      expect(await ids('?type=course')).toEqual([standard.menuId]);
      expect(await ids('?type=plan')).toEqual([plan.menuId]);
      expect(await ids('?type=normal')).toEqual([normal.menuId]);
      expect(await ids('?type=all')).toEqual([normal.menuId, plan.menuId, standard.menuId]);
    });

    it('filters by menu_ids (comma separated or repeated), ignoring ids of other stores or none', async () => {
      const a = await create({ menuName: 'A', menuType: 'normal' });
      const b = await create({ menuName: 'B', menuType: 'normal' });
      const c = await create({ menuName: 'C', menuType: 'normal' });
      expect(await ids(`?menu_ids=${c.menuId},${a.menuId}`)).toEqual([a.menuId, c.menuId]);
      expect(await ids(`?menu_ids=${b.menuId}&menu_ids=${c.menuId}`)).toEqual([b.menuId, c.menuId]);
      expect(await ids(`?menu_ids=${a.menuId},${a.menuId},999`)).toEqual([a.menuId]);
    });

    it('refuses more than 100 menu_ids and items that are not ids', async () => {
      const hundred = Array.from({ length: 100 }, (_, i) => String(i + 1)).join(',');
      expect((await list(`?menu_ids=${hundred}`)).statusCode).toBe(200);
      expect(problem(await list(`?menu_ids=${hundred},101`), 400)).toEqual(badRequest('[menu_ids] at most 100 menu ids, got 101'));
      expect(problem(await list('?menu_ids=1,x'), 400).detail).toBe('[menu_ids] "x" is not a menu id (1 to 9 digits)');
      expect(problem(await list('?menu_ids=1,,2'), 400).detail).toBe('[menu_ids] (empty) is not a menu id (1 to 9 digits)');
      expect(problem(await list('?menu_ids='), 400).detail).toBe('[menu_ids] (empty) is not a menu id (1 to 9 digits)');
      expect(problem(await list('?menu_ids=1234567890'), 400).detail).toBe('[menu_ids] "1234567890" is not a menu id (1 to 9 digits)');
    });

    it('filters by category_id and by updated_from (changed at or after it)', async () => {
      const category = (await t.api('POST', '/categories', { categoryName: 'Pasta' })).json().categoryId;
      const a = await create({ menuName: 'A', menuType: 'normal', categoryId: category });
      const b = await create({ menuName: 'B', menuType: 'normal' });
      expect(await ids(`?category_id=${category}`)).toEqual([a.menuId]);
      expect(await ids('?category_id=999')).toEqual([]);

      t.clock.advance(60_000); // 10:01
      await put(b.menuId, { condition: 'soldout' });
      expect(await ids('?updated_from=2026-11-22T10:00:00%2B09:00')).toEqual([a.menuId, b.menuId]);
      expect(await ids('?updated_from=2026-11-22T10:01:00%2B09:00')).toEqual([b.menuId]);
      expect(await ids('?updated_from=2026-11-22T01:01:00.001Z')).toEqual([]);
      // Renaming a menu is not a condition change.
      t.clock.advance(60_000);
      await t.api('PATCH', `/menus/${a.menuId}`, { menuName: 'A2' });
      expect(await ids('?updated_from=2026-11-22T10:02:00%2B09:00')).toEqual([]);
      expect(problem(await list('?updated_from=yesterday'), 400).detail).toBe(
        '[updated_from] must be a date-time like 2026-11-22T10:00:00+09:00',
      );
      expect(problem(await list('?category_id=abc'), 400).detail).toBe('[category_id] must be 1 to 9 digits');
    });

    it('pages 20 by default, at most 100, sorts by menu_id or category_id, with Link headers', async () => {
      const cats = [];
      for (const name of ['X', 'Y']) cats.push((await t.api('POST', '/categories', { categoryName: name })).json().categoryId);
      const menus: Menu[] = [];
      for (let i = 0; i < 25; i++) menus.push(await create({ menuName: `M${i}`, menuType: 'normal', categoryId: cats[i % 2] }));
      const base = `http://localhost/test-contract/pos/menu_conditions/stores/${store}`;

      const first = await list();
      expect(first.json()).toHaveLength(20);
      expect(first.headers.link).toBe(`<${base}?page=2>; rel="next"`);
      const second = await list('?page=2');
      expect(second.json().map((c: MenuCondition) => c.menuId)).toEqual(menus.slice(20).map((m) => m.menuId));
      expect(second.headers.link).toBe(`<${base}?page=1>; rel="prev"`);

      const byCategory = await list('?sort=category_id:desc,menu_id:desc&limit=3&type=normal');
      expect(byCategory.json().map((c: MenuCondition) => c.menuId)).toEqual([menus[23]!, menus[21]!, menus[19]!].map((m) => m.menuId));
      expect(byCategory.headers.link).toBe(`<${base}?sort=category_id%3Adesc%2Cmenu_id%3Adesc&limit=3&type=normal&page=2>; rel="next"`);
      expect(await ids('?sort=menu_id:desc&limit=1')).toEqual([menus[24]!.menuId]);
      expect((await list('?limit=100')).json()).toHaveLength(25);
    });

    it('refuses bad paging, sort keys, type and unknown parameters', async () => {
      expect(problem(await list('?limit=101'), 400).detail).toBe('[limit] limit must be at most 100');
      expect(problem(await list('?limit=0'), 400).detail).toBe('[limit] limit must be at least 1');
      expect(problem(await list('?page=abc'), 400).detail).toBe('[page] page must be a positive integer');
      expect(problem(await list('?sort=menuId'), 400).detail).toBe('[sort] menuId is not a sort key; use menu_id, category_id with an optional :desc');
      expect(problem(await list('?type=simple'), 400).detail).toBe('[type] must be one of all, normal, plan, course');
      expect(problem(await list('?store=1'), 400).detail).toBe('[store] is not a known field');
    });

    it('answers 404 for a store that does not exist and 400 for a suspended one', async () => {
      expect(problem(await list('', '999'), 404)).toEqual(notFound('[store_id] store 999 does not exist'));
      expect(problem(await list('', 'abc'), 400)).toEqual(badRequest('[store_id] must be 1 to 9 digits'));
      await create({ menuName: 'A', menuType: 'normal' });
      await t.api('PATCH', `/stores/${store}`, { pauseFlag: '1' });
      expect(problem(await list(), 400)).toEqual(badRequest(`[store_id] store ${store} is suspended`));
      await t.api('PATCH', `/stores/${store}`, { pauseFlag: '0' });
      expect(await ids()).toHaveLength(1);
    });

    it("treats another contract's store as not existing", async () => {
      t.addContract('other', 'standard');
      const token = await t.tokenFor({ contractId: 'other' });
      const res = await t.app.inject({ method: 'GET', url: `/other/pos/menu_conditions/stores/${store}`, headers: { authorization: `Bearer ${token}` } });
      expect(problem(res, 404).detail).toBe(`[store_id] store ${store} does not exist`);
    });

    it('needs waiter.menus:read and is open to every plan (4.6 names none)', async () => {
      const writer = await t.tokenFor({ scopes: ['pos.products:write', 'pos.products:read'] });
      expect(problem(await t.api('GET', `/menu_conditions/stores/${store}`, undefined, writer), 403).detail).toBe(
        '[scope] the token lacks the scope waiter.menus:read',
      );
      for (const plan of ['standard', 'premium', 'premium_plus', 'retail_business', 'enterprise'] as const) {
        const other = await makeTestApp({ plan });
        const s = (await other.api('POST', '/stores', { storeName: 'S' })).json().storeId;
        expect((await other.api('GET', `/menu_conditions/stores/${s}`)).statusCode).toBe(200);
        await other.close();
      }
    });
  });
});

describe('seedMenus (demo)', () => {
  const FOOD_CODES = ['DRK', 'DRK-COF', 'DRK-ALC', 'FOD', 'FOD-PST', 'FOD-DST'];

  const contextOf = async (t: TestApp, plan: DemoContext['plan']): Promise<DemoContext> => {
    const main = (await t.api('POST', '/stores', { storeName: 'Main' })).json().storeId;
    const second = (await t.api('POST', '/stores', { storeName: 'Second' })).json().storeId;
    const categoryIds: Record<string, string> = {};
    for (const code of FOOD_CODES) {
      categoryIds[code] = (await t.api('POST', '/categories', { categoryName: code, categoryCode: code })).json().categoryId;
    }
    return { contractId: t.contractId, plan, storeIds: [main, second], categoryIds };
  };

  it('gives a food business main store menus of every kind, conditions to show, and topping groups', async () => {
    const t = await makeTestApp({ plan: 'food_business' });
    const ctx = await contextOf(t, 'food_business');
    expect(t.deps.writer.write(() => seedMenus(t.deps, ctx))).toEqual({ menus: 12, toppingGroups: 3 });

    const menus: Menu[] = (await t.api('GET', `/menus?store_id=${ctx.storeIds[0]}&limit=100`)).json();
    expect(menus).toHaveLength(12);
    expect(new Set(menus.map((m) => `${m.menuType}/${m.courseDivision}`))).toEqual(
      new Set(['normal/null', 'plan/null', 'course/standard', 'course/simple']),
    );
    expect(menus.every((m) => m.categoryId !== null)).toBe(true);
    const conditions = (await t.api('GET', `/menu_conditions/stores/${ctx.storeIds[0]}`)).json();
    expect(conditions).toHaveLength(11); // the simple course is not listed
    expect(conditions.filter((c: { condition: string }) => c.condition === 'soldout')).toHaveLength(1);
    expect(conditions.filter((c: { quantity: number | null }) => c.quantity !== null)).toEqual([expect.objectContaining({ quantity: 8 })]);
    expect((await t.api('GET', `/menu_conditions/stores/${ctx.storeIds[1]}`)).json()).toEqual([]);
    const rules = (await t.api('GET', '/topping_groups')).json().map((g: { rule: { condition: string } | null }) => g.rule?.condition ?? null);
    expect(rules).toEqual(['all', null, 'category']);
    await t.close();
  });

  it('seeds nothing on other plans', async () => {
    const t = await makeTestApp({ plan: 'retail_business' });
    const ctx = await contextOf(t, 'retail_business');
    expect(t.deps.writer.write(() => seedMenus(t.deps, ctx))).toEqual({ menus: 0, toppingGroups: 0 });
    expect((await t.api('GET', '/menus')).json()).toEqual([]);
    expect((await t.api('GET', '/topping_groups')).json()).toEqual([]);
    await t.close();
  });
});

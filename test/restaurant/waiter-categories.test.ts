import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

/** カテゴリー一覧取得 / カテゴリー取得 under /waiter (issue 26): the POS categories in the waiter's shape. */

describe('GET /waiter/categories', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'food_business' });
  });
  afterEach(() => t.close());

  const waiter = (path: string, token = t.token) =>
    t.app.inject({ method: 'GET', url: `/${t.contractId}/waiter${path}`, headers: { authorization: `Bearer ${token}` } });
  const category = async (body: Record<string, unknown>) => (await t.api('POST', '/categories', body)).json();

  it('answers id, name, abbr, sortNo, parentId, createdIn; level and sort filters; children on request', async () => {
    const drinks = await category({ categoryName: 'Drinks', categoryAbbr: 'DR', displaySequence: '2' });
    const desserts = await category({ categoryName: 'Desserts', displaySequence: '1' });
    const cold = await category({ categoryName: 'Cold', parentCategoryId: drinks.categoryId, displaySequence: '3' });
    const reader = await t.tokenFor({ scopes: ['waiter.menus:read'] });
    const res = await waiter('/categories', reader);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: desserts.categoryId, name: 'Desserts', abbr: null, sortNo: 1, parentId: null, createdIn: 'pos' },
      { id: drinks.categoryId, name: 'Drinks', abbr: 'DR', sortNo: 2, parentId: null, createdIn: 'pos' },
      { id: cold.categoryId, name: 'Cold', abbr: null, sortNo: 3, parentId: drinks.categoryId, createdIn: 'pos' },
    ]);
    const ids = async (query: string) => ((await waiter(`/categories${query}`)).json() as { id: string }[]).map((c) => c.id);
    expect(await ids('?level=1')).toEqual([desserts.categoryId, drinks.categoryId]);
    expect(await ids('?level=2')).toEqual([cold.categoryId]);
    expect(await ids('?sort=id:desc&limit=2')).toEqual([cold.categoryId, desserts.categoryId]);
    expect((await waiter(`/categories/${drinks.categoryId}`)).json()).toEqual({ id: drinks.categoryId, name: 'Drinks', abbr: 'DR', sortNo: 2, parentId: null, createdIn: 'pos' });
    expect((await waiter(`/categories/${drinks.categoryId}?with_children=all`)).json().children).toEqual([
      { id: cold.categoryId, name: 'Cold', abbr: null, sortNo: 3, parentId: drinks.categoryId, createdIn: 'pos' },
    ]);
    // The /pos path stays the category master.
    expect((await t.api('GET', `/categories/${drinks.categoryId}`)).json()).toMatchObject({ categoryId: drinks.categoryId, categoryName: 'Drinks' });
  });

  it('404 for a category that does not exist, 400 for a bad level, 403 without waiter.menus:read', async () => {
    expect(problem(await waiter('/categories/999'), 404).detail).toBe('[category_id] category 999 does not exist');
    expect(problem(await waiter('/categories?level=3'), 400).detail).toBe('[level] must be one of none, 1, 2');
    expect(problem(await waiter('/categories?with_children=yes'), 400).status).toBe(400);
    expect(problem(await waiter('/categories', await t.tokenFor({ scopes: ['pos.products:read'] })), 403).detail).toBe('[scope] the token lacks the scope waiter.menus:read');
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import type { Category } from '../../server/masters/categories/schema.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/categories';

const DEFAULTS = {
  categoryCode: null,
  categoryAbbr: null,
  displaySequence: null,
  displayFlag: '1',
  taxDivision: '0',
  pointNotApplicable: '0',
  taxFreeDivision: '0',
  reduceTaxId: null,
  color: null,
  categoryGroupId: null,
  parentCategoryId: null,
  level: '1',
  tag: null,
  insDateTime: AT_10_00,
  updDateTime: AT_10_00,
};

describe('categories', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>): Promise<Category> => {
    const res = await t.api('POST', '/categories', body);
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const get = async (id: string): Promise<Category> => (await t.api('GET', `/categories/${id}`)).json();
  /** A (1) > B (2) > C (3) and a lone D (1). */
  const tree = async () => {
    const a = await create({ categoryName: 'A' });
    const b = await create({ categoryName: 'B', parentCategoryId: a.categoryId });
    const c = await create({ categoryName: 'C', parentCategoryId: b.categoryId });
    const d = await create({ categoryName: 'D' });
    return { a: a.categoryId, b: b.categoryId, c: c.categoryId, d: d.categoryId };
  };

  describe('POST /categories', () => {
    it('creates a category with defaults, nulls for unset fields and times in the contract zone', async () => {
      const res = await t.api('POST', '/categories', { categoryName: 'Drinks' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ categoryId: '1001', categoryName: 'Drinks', ...DEFAULTS });
    });

    it('stores every settable field', async () => {
      const parent = await create({ categoryName: 'Food' });
      const group = (await t.api('POST', '/category_groups', { categoryGroupName: 'Group' })).json().categoryGroupId;
      const res = await t.api('POST', '/categories', {
        categoryName: 'Sweets',
        categoryCode: 'SW-01',
        categoryAbbr: 'Swt',
        displaySequence: '000000012',
        displayFlag: '0',
        taxDivision: '1',
        pointNotApplicable: '1',
        taxFreeDivision: '2',
        reduceTaxId: '10000001',
        color: '#FF8800',
        categoryGroupId: group,
        parentCategoryId: parent.categoryId,
        tag: 'sweet,seasonal',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        categoryId: '2001',
        categoryCode: 'SW-01',
        categoryName: 'Sweets',
        categoryAbbr: 'Swt',
        displaySequence: '12',
        displayFlag: '0',
        taxDivision: '1',
        pointNotApplicable: '1',
        taxFreeDivision: '2',
        reduceTaxId: '10000001',
        color: '#FF8800',
        categoryGroupId: group,
        parentCategoryId: '1001',
        level: '2',
        tag: 'sweet,seasonal',
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      });
    });

    it('names every bad field', async () => {
      const body = problem(
        await t.api('POST', '/categories', {
          categoryName: '  ',
          categoryCode: 'with space',
          categoryAbbr: 'x'.repeat(86),
          displaySequence: '1234567890',
          displayFlag: '2',
          taxDivision: '3',
          pointNotApplicable: 'x',
          taxFreeDivision: 3,
          reduceTaxId: '10000005',
          color: 'red',
          categoryGroupId: 'abc',
          parentCategoryId: '-1',
          tag: 'y'.repeat(86),
          level: '1',
        }),
        400,
      );
      expect(body).toEqual({
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail:
          '[categoryName] must not be empty; [categoryCode] must be 1 to 20 half-width alphanumerics or symbols; ' +
          '[categoryAbbr] must be at most 85 characters; [displaySequence] must be 1 to 9 digits; ' +
          '[displayFlag] must be one of 0, 1; [taxDivision] must be one of 0, 1, 2; [pointNotApplicable] must be one of 0, 1; ' +
          '[taxFreeDivision] must be one of 0, 1, 2; [reduceTaxId] must be null or one of 10000001, 10000002, 10000003, 10000004; ' +
          '[color] must be an HTML colour code like #FF8800; [categoryGroupId] must be 1 to 9 digits; ' +
          '[parentCategoryId] must be 1 to 9 digits; [tag] must be at most 85 characters; [level] is not a known field',
      });
    });

    it('requires categoryName, counts characters not bytes, and limits the code to 20', async () => {
      expect(problem(await t.api('POST', '/categories', {}), 400).detail).toBe('[categoryName] is required');
      expect(problem(await t.api('POST', '/categories', { categoryName: 'あ'.repeat(86) }), 400).detail).toBe(
        '[categoryName] must be at most 85 characters',
      );
      expect((await create({ categoryName: 'あ'.repeat(85) })).categoryName).toBe('あ'.repeat(85));
      expect(problem(await t.api('POST', '/categories', { categoryName: 'A', categoryCode: 'C'.repeat(21) }), 400).detail).toBe(
        '[categoryCode] must be 1 to 20 half-width alphanumerics or symbols',
      );
      expect(problem(await t.api('POST', '/categories', []), 400).detail).toBe('[body] Invalid input: expected object, received array');
    });

    it('refuses a category code already used in the contract', async () => {
      await create({ categoryName: 'A', categoryCode: 'X1' });
      const body = problem(await t.api('POST', '/categories', { categoryName: 'B', categoryCode: 'X1' }), 400);
      expect(body.detail).toBe('[categoryCode] category code X1 is already used by category 1001');
    });

    it('accepts the four reduced-tax ids, null and "" (standard rate), and nothing else', async () => {
      for (const id of ['10000001', '10000002', '10000003', '10000004']) {
        expect((await create({ categoryName: id, reduceTaxId: id })).reduceTaxId).toBe(id);
      }
      expect((await create({ categoryName: 'null', reduceTaxId: null })).reduceTaxId).toBeNull();
      expect((await create({ categoryName: 'blank', reduceTaxId: '' })).reduceTaxId).toBeNull();
      const detail = '[reduceTaxId] must be null or one of 10000001, 10000002, 10000003, 10000004';
      for (const bad of ['10000005', '1', 10000001]) {
        expect(problem(await t.api('POST', '/categories', { categoryName: 'X', reduceTaxId: bad }), 400).detail).toBe(detail);
      }
    });

    it('computes the level from the parent and refuses a fourth level or a missing parent', async () => {
      const { a, b, c } = await tree();
      expect([(await get(a)).level, (await get(b)).level, (await get(c)).level]).toEqual(['1', '2', '3']);
      expect(problem(await t.api('POST', '/categories', { categoryName: 'E', parentCategoryId: c }), 400).detail).toBe(
        `[parentCategoryId] category ${c} is at level 3, so a category under it would be at level 4: level would exceed 3`,
      );
      expect(problem(await t.api('POST', '/categories', { categoryName: 'E', parentCategoryId: '999999' }), 400).detail).toBe(
        '[parentCategoryId] category 999999 does not exist',
      );
    });

    it('does not accept a parent of another contract', async () => {
      t.addContract('other', 'standard');
      const other = await t.app.inject({
        method: 'POST',
        url: '/other/pos/categories',
        headers: { authorization: `Bearer ${await t.tokenFor({ contractId: 'other' })}` },
        payload: { categoryName: 'Theirs' },
      });
      expect(other.statusCode).toBe(200);
      const theirs = other.json().categoryId as string;
      expect(problem(await t.api('POST', '/categories', { categoryName: 'Mine', parentCategoryId: theirs }), 400).detail).toBe(
        `[parentCategoryId] category ${theirs} does not exist`,
      );
      expect(problem(await t.api('GET', `/categories/${theirs}`), 404).detail).toBe(`[category_id] category ${theirs} does not exist`);
    });
  });

  describe('GET /categories/:category_id', () => {
    it('returns the category, only the chosen top-level fields, or all of them for an empty list', async () => {
      await create({ categoryName: 'A', categoryCode: 'A1' });
      const full = { categoryId: '1001', categoryName: 'A', ...DEFAULTS, categoryCode: 'A1' };
      expect((await t.api('GET', '/categories/1001')).json()).toEqual(full);

      const some = await t.api('GET', '/categories/1001?fields=level,categoryId,tag');
      expect(some.statusCode).toBe(200);
      expect(some.body).toBe('{"categoryId":"1001","level":"1","tag":null}');
      expect((await t.api('GET', '/categories/1001?fields=categoryCode&fields=level')).json()).toEqual({ categoryCode: 'A1', level: '1' });
      expect((await t.api('GET', '/categories/1001?fields=')).json()).toEqual(full);
      expect((await t.api('GET', '/categories/1001?fields=%20categoryName%20,')).json()).toEqual({ categoryName: 'A' });
    });

    it('refuses unknown and second-level field names', async () => {
      await create({ categoryName: 'A' });
      expect(problem(await t.api('GET', '/categories/1001?fields=categoryId,nope'), 400).detail).toBe('[fields] nope is not a category field');
      expect(problem(await t.api('GET', '/categories/1001?fields=categoryName.value'), 400).detail).toBe(
        '[fields] categoryName.value: fields of the second level and below cannot be chosen',
      );
      expect(problem(await t.api('GET', '/categories/1001?other=1'), 400).detail).toBe('[other] is not a known field');
    });

    it('404s an unknown id and 400s a malformed one', async () => {
      expect(problem(await t.api('GET', '/categories/424242'), 404).detail).toBe('[category_id] category 424242 does not exist');
      expect(problem(await t.api('GET', '/categories/abc'), 400).detail).toBe('[category_id] must be 1 to 9 digits');
      expect(problem(await t.api('GET', '/categories/1234567890'), 400).detail).toBe('[category_id] must be 1 to 9 digits');
    });
  });

  describe('GET /categories', () => {
    it('filters by code, parent, level and display flag', async () => {
      const { a, b } = await tree();
      await create({ categoryName: 'E', categoryCode: 'E1', displayFlag: '0', parentCategoryId: a });
      const names = async (query: string) => {
        const res = await t.api('GET', `/categories${query}`);
        expect(res.statusCode).toBe(200);
        return (res.json() as Category[]).map((c) => c.categoryName);
      };
      expect(await names('')).toEqual(['A', 'B', 'C', 'D', 'E']);
      expect(await names('?category_code=E1')).toEqual(['E']);
      expect(await names(`?parent_category_id=${a}`)).toEqual(['B', 'E']);
      expect(await names(`?parent_category_id=${b}`)).toEqual(['C']);
      expect(await names('?level=1')).toEqual(['A', 'D']);
      expect(await names('?level=3')).toEqual(['C']);
      expect(await names('?display_flag=0')).toEqual(['E']);
      expect(await names('?level=2&display_flag=1')).toEqual(['B']);
    });

    it('sorts by the allowed keys with categoryId as the tie-break', async () => {
      await create({ categoryName: 'A', displaySequence: '3', categoryCode: 'Z' });
      await create({ categoryName: 'B', displaySequence: '10', categoryCode: 'Y' });
      t.clock.advance(60_000);
      await create({ categoryName: 'C', displaySequence: '3', categoryCode: 'X' });
      const names = async (sort: string) => ((await t.api('GET', `/categories?sort=${sort}`)).json() as Category[]).map((c) => c.categoryName);
      expect(await names('displaySequence')).toEqual(['A', 'C', 'B']);
      expect(await names('displaySequence:desc,categoryId:desc')).toEqual(['B', 'C', 'A']);
      expect(await names('categoryCode')).toEqual(['C', 'B', 'A']);
      expect(await names('updDateTime:desc')).toEqual(['C', 'A', 'B']);
      expect(await names('categoryId:desc')).toEqual(['C', 'B', 'A']);
    });

    it('pages with absolute prev/next links that keep the other query parameters', async () => {
      for (const n of ['A', 'B', 'C', 'D', 'E']) await create({ categoryName: n });
      await create({ categoryName: 'child', parentCategoryId: '1001' });

      const first = await t.api('GET', '/categories?limit=2&level=1');
      expect(first.statusCode).toBe(200);
      expect((first.json() as Category[]).map((c) => c.categoryName)).toEqual(['A', 'B']);
      expect(first.headers.link).toBe(`<${LINK_BASE}?limit=2&level=1&page=2>; rel="next"`);

      const middle = await t.api('GET', '/categories?limit=2&level=1&page=2');
      expect((middle.json() as Category[]).map((c) => c.categoryName)).toEqual(['C', 'D']);
      expect(middle.headers.link).toBe(
        `<${LINK_BASE}?limit=2&level=1&page=1>; rel="prev", <${LINK_BASE}?limit=2&level=1&page=3>; rel="next"`,
      );

      const last = await t.api('GET', '/categories?limit=2&level=1&page=3');
      expect((last.json() as Category[]).map((c) => c.categoryName)).toEqual(['E']);
      expect(last.headers.link).toBe(`<${LINK_BASE}?limit=2&level=1&page=2>; rel="prev"`);

      const all = await t.api('GET', '/categories');
      expect((all.json() as Category[]).length).toBe(6);
      expect(all.headers.link).toBeUndefined();
    });

    it('applies fields to every item', async () => {
      await create({ categoryName: 'A' });
      await create({ categoryName: 'B' });
      const res = await t.api('GET', '/categories?fields=categoryId,categoryName');
      expect(res.json()).toEqual([
        { categoryId: '1001', categoryName: 'A' },
        { categoryId: '2001', categoryName: 'B' },
      ]);
      expect(problem(await t.api('GET', '/categories?fields=a.b'), 400).detail).toBe(
        '[fields] a.b: fields of the second level and below cannot be chosen',
      );
    });

    it('names every bad query parameter', async () => {
      const body = problem(await t.api('GET', '/categories?limit=1001&level=4&page=0&sort=nope&parent_category_id=x&x=1'), 400);
      expect(body.detail).toBe(
        '[parent_category_id] must be 1 to 9 digits; [level] must be one of 1, 2, 3; [limit] limit must be at most 1000; ' +
          '[page] page must be at least 1; [sort] nope is not a sort key; use categoryId, categoryCode, displaySequence, level, ' +
          'updDateTime with an optional :desc; [x] is not a known field',
      );
    });
  });

  describe('PATCH /categories/:category_id', () => {
    it('changes only the keys sent', async () => {
      await create({ categoryName: 'A', categoryCode: 'A1', color: '#000', tag: 't1' });
      t.clock.advance(60_000);
      const res = await t.api('PATCH', '/categories/1001', { categoryName: 'A2', taxDivision: '2', displaySequence: '5' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        ...DEFAULTS,
        categoryId: '1001',
        categoryName: 'A2',
        categoryCode: 'A1',
        color: '#000',
        tag: 't1',
        taxDivision: '2',
        displaySequence: '5',
        updDateTime: AT_10_01,
      });
      expect(await get('1001')).toEqual(res.json());
    });

    it('clears nullable fields with null or "" but never categoryName', async () => {
      await create({ categoryName: 'P' });
      const group = (await t.api('POST', '/category_groups', { categoryGroupName: 'Group' })).json().categoryGroupId;
      await create({
        categoryName: 'A',
        categoryCode: 'A1',
        categoryAbbr: 'a',
        displaySequence: '1',
        reduceTaxId: '10000002',
        color: '#fff',
        categoryGroupId: group,
        parentCategoryId: '1001',
        tag: 'x',
      });
      const res = await t.api('PATCH', '/categories/2001', {
        categoryCode: null,
        categoryAbbr: '',
        displaySequence: null,
        reduceTaxId: '',
        color: null,
        categoryGroupId: '',
        parentCategoryId: '',
        tag: null,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ...DEFAULTS, categoryId: '2001', categoryName: 'A' });
      expect(problem(await t.api('PATCH', '/categories/2001', { categoryName: null }), 400).detail).toBe(
        '[categoryName] Invalid input: expected string, received null',
      );
      expect(problem(await t.api('PATCH', '/categories/2001', { categoryName: '' }), 400).detail).toBe('[categoryName] must not be empty');
    });

    it('keeps the code unique but lets a category keep its own', async () => {
      await create({ categoryName: 'A', categoryCode: 'A1' });
      await create({ categoryName: 'B', categoryCode: 'B1' });
      expect((await t.api('PATCH', '/categories/1001', { categoryCode: 'A1' })).statusCode).toBe(200);
      expect(problem(await t.api('PATCH', '/categories/2001', { categoryCode: 'A1' }), 400).detail).toBe(
        '[categoryCode] category code A1 is already used by category 1001',
      );
      expect((await t.api('PATCH', '/categories/1001', { categoryCode: null })).statusCode).toBe(200);
      expect((await t.api('PATCH', '/categories/2001', { categoryCode: 'A1' })).json().categoryCode).toBe('A1');
    });

    it('reparents and recomputes the levels of the whole subtree', async () => {
      const { a, b, c, d } = await tree();
      t.clock.advance(60_000);
      const top = await t.api('PATCH', `/categories/${b}`, { parentCategoryId: null });
      expect(top.statusCode).toBe(200);
      expect(top.json()).toMatchObject({ parentCategoryId: null, level: '1', updDateTime: AT_10_01 });
      expect(await get(c)).toMatchObject({ parentCategoryId: b, level: '2', updDateTime: AT_10_01 });
      expect(await get(a)).toMatchObject({ level: '1', updDateTime: AT_10_00 });

      const under = await t.api('PATCH', `/categories/${b}`, { parentCategoryId: d });
      expect(under.json()).toMatchObject({ parentCategoryId: d, level: '2' });
      expect((await get(c)).level).toBe('3');

      const leaf = await t.api('PATCH', `/categories/${c}`, { parentCategoryId: a });
      expect(leaf.json()).toMatchObject({ parentCategoryId: a, level: '2' });
    });

    it('refuses a parent that is the category itself, a descendant, or missing', async () => {
      const { a, c } = await tree();
      expect(problem(await t.api('PATCH', `/categories/${a}`, { parentCategoryId: a }), 400).detail).toBe(
        `[parentCategoryId] category ${a} cannot be its own parent`,
      );
      expect(problem(await t.api('PATCH', `/categories/${a}`, { parentCategoryId: c }), 400).detail).toBe(
        `[parentCategoryId] category ${c} is a descendant of category ${a}`,
      );
      expect(problem(await t.api('PATCH', `/categories/${a}`, { parentCategoryId: '999999' }), 400).detail).toBe(
        '[parentCategoryId] category 999999 does not exist',
      );
    });

    it('refuses a move that would put any category below level 3 and changes nothing', async () => {
      const { a, b, c, d } = await tree();
      const e = (await create({ categoryName: 'E', parentCategoryId: d })).categoryId;
      const before = (await t.api('GET', '/categories')).body;
      t.clock.advance(60_000);

      expect(problem(await t.api('PATCH', `/categories/${b}`, { parentCategoryId: e, categoryName: 'renamed' }), 400).detail).toBe(
        `[parentCategoryId] under category ${e} the descendants of category ${b} would reach level 4: level would exceed 3`,
      );
      expect(problem(await t.api('PATCH', `/categories/${a}`, { parentCategoryId: d }), 400).detail).toBe(
        `[parentCategoryId] under category ${d} the descendants of category ${a} would reach level 4: level would exceed 3`,
      );
      expect(problem(await t.api('PATCH', `/categories/${d}`, { parentCategoryId: c }), 400).detail).toBe(
        `[parentCategoryId] category ${c} is at level 3, so category ${d} under it would be at level 4: level would exceed 3`,
      );
      expect((await t.api('GET', '/categories')).body).toBe(before);
    });

    it('refuses an empty body, unknown keys and level, and 404s an unknown id', async () => {
      await create({ categoryName: 'A' });
      expect(problem(await t.api('PATCH', '/categories/1001', {}), 400).detail).toBe('[body] no field to update was given');
      expect(problem(await t.api('PATCH', '/categories/1001', { foo: 1, categoryName: 'B' }), 400).detail).toBe('[foo] is not a known field');
      expect(problem(await t.api('PATCH', '/categories/1001', { level: '2' }), 400).detail).toBe(
        '[level] is not a known field; [body] no field to update was given',
      );
      expect(problem(await t.api('PATCH', '/categories/424242', { categoryName: 'B' }), 404).detail).toBe(
        '[category_id] category 424242 does not exist',
      );
      expect((await get('1001')).categoryName).toBe('A');
    });
  });

  describe('DELETE /categories/:category_id', () => {
    it('deletes with 204 and no body, refuses a category with children, and 404s an unknown one', async () => {
      const { a, b, c } = await tree();
      expect(problem(await t.api('DELETE', `/categories/${b}`), 400).detail).toBe(`[category_id] category ${b} has child categories`);
      const res = await t.api('DELETE', `/categories/${c}`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(problem(await t.api('GET', `/categories/${c}`), 404).detail).toBe(`[category_id] category ${c} does not exist`);
      expect((await t.api('DELETE', `/categories/${b}`)).statusCode).toBe(204);
      expect((await t.api('DELETE', `/categories/${a}`)).statusCode).toBe(204);
      expect(problem(await t.api('DELETE', `/categories/${a}`), 404).detail).toBe(`[category_id] category ${a} does not exist`);
      expect(problem(await t.api('DELETE', '/categories/x'), 400).detail).toBe('[category_id] must be 1 to 9 digits');
    });

    it('refuses a category that a product or a menu uses, and deletes it once they are gone', async () => {
      const { c } = await tree();
      const store = (await t.api('POST', '/stores', { storeName: 'Shop' })).json().storeId;
      const product = await t.api('POST', '/products', { productCode: 'P-1', productName: 'Tee', categoryId: c, price: '1000' });
      expect(product.statusCode).toBe(200);
      const productId = product.json().productId;
      expect(problem(await t.api('DELETE', `/categories/${c}`), 400).detail).toBe(`[category_id] category ${c} is used by product ${productId}`);
      expect((await t.api('DELETE', `/products/${productId}`)).statusCode).toBe(204);

      const menu = await t.api('POST', '/menus', { storeId: store, menuName: 'Soup', menuType: 'normal', categoryId: c });
      expect(menu.statusCode).toBe(200);
      const menuId = menu.json().menuId;
      expect(problem(await t.api('DELETE', `/categories/${c}`), 400).detail).toBe(`[category_id] category ${c} is used by menu ${menuId}`);
      expect((await t.api('DELETE', `/menus/${menuId}`)).statusCode).toBe(204);
      expect((await t.api('DELETE', `/categories/${c}`)).statusCode).toBe(204);
    });
  });

  it('reports every write to the writer, including the subtree of a move', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const { b, c, d } = await tree();
    await t.api('PATCH', `/categories/${b}`, { parentCategoryId: d }); // same level: C is untouched
    await t.api('PATCH', `/categories/${b}`, { parentCategoryId: null }); // one level up: so is C
    await t.api('DELETE', `/categories/${c}`);
    const ops = changes.map((ch) => `${ch.contractId} ${ch.entity} ${ch.op} ${ch.id}`);
    expect(ops).toEqual([
      'test-contract category insert 1001',
      'test-contract category insert 2001',
      'test-contract category insert 3001',
      'test-contract category insert 4001',
      'test-contract category update 2001',
      'test-contract category update 3001',
      'test-contract category update 2001',
      'test-contract category delete 3001',
    ]);
  });

  describe('authorization', () => {
    it('needs pos.products:write to write and pos.products:read to read', async () => {
      await create({ categoryName: 'A' });
      const reader = await t.tokenFor({ scopes: ['pos.products:read'] });
      const detail = '[scope] the token lacks the scope pos.products:write';
      expect(problem(await t.api('POST', '/categories', { categoryName: 'B' }, reader), 403).detail).toBe(detail);
      expect(problem(await t.api('PATCH', '/categories/1001', { categoryName: 'B' }, reader), 403).detail).toBe(detail);
      expect(problem(await t.api('DELETE', '/categories/1001', undefined, reader), 403).detail).toBe(detail);
      expect((await t.api('GET', '/categories/1001', undefined, reader)).statusCode).toBe(200);
      expect((await t.api('GET', '/categories', undefined, reader)).statusCode).toBe(200);

      const writer = await t.tokenFor({ scopes: ['pos.products:write'] });
      expect(problem(await t.api('GET', '/categories', undefined, writer), 403).detail).toBe(
        '[scope] the token lacks the scope pos.products:read',
      );
    });

    it('refuses GET /categories/:id to an enterprise contract but lets it register and list', async () => {
      await t.close();
      t = await makeTestApp({ plan: 'enterprise' });
      expect((await t.api('POST', '/categories', { categoryName: 'A' })).statusCode).toBe(200);
      expect((await t.api('GET', '/categories')).statusCode).toBe(200);
      expect(problem(await t.api('GET', '/categories/1001'), 403).detail).toBe(
        "the contract's plan enterprise cannot use GET /categories/{category_id} " +
          '(plans: standard, premium, premium_plus, food_business, retail_business)',
      );
    });
  });
});

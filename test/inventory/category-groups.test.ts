import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { hashPasswordSync } from '../../server/platform/auth/password.js';
import { StaffLoginRepo } from '../../server/platform/auth/staff-logins.js';
import { makeTestApp, okOf, problem, type TestApp } from '../helpers/app.js';

/** Issue 14 item 1: category groups (/category_groups) and categories' categoryGroupId. */

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';

describe('category groups', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'retail_business' });
  });
  afterEach(() => t.close());

  const ok = okOf((method, path, body) => t.api(method, path, body));

  describe('POST, GET, PATCH, DELETE /category_groups', () => {
    it('registers a group with defaults and every field; GET with fields', async () => {
      expect(await ok('POST', '/category_groups', { categoryGroupName: 'Fresh' })).toEqual({
        categoryGroupId: '1001',
        categoryGroupCode: null,
        categoryGroupName: 'Fresh',
        displaySequence: null,
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      });
      expect(await ok('POST', '/category_groups', { categoryGroupName: 'Dry', categoryGroupCode: 'G-2', displaySequence: '007' })).toEqual({
        categoryGroupId: '2001',
        categoryGroupCode: 'G-2',
        categoryGroupName: 'Dry',
        displaySequence: '7',
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      });
      expect(await ok('GET', '/category_groups/2001')).toMatchObject({ categoryGroupName: 'Dry' });
      expect(await ok('GET', '/category_groups/2001?fields=categoryGroupCode')).toEqual({ categoryGroupCode: 'G-2' });
      expect(problem(await t.api('GET', '/category_groups/2001?fields=a.b'), 400).detail).toBe('[fields] a.b: fields of the second level and below cannot be chosen');
      expect(problem(await t.api('GET', '/category_groups/9'), 404).detail).toBe('[category_group_id] category group 9 does not exist');
      expect(problem(await t.api('GET', '/category_groups/abc'), 400).detail).toBe('[category_group_id] must be 1 to 9 digits');
    });

    it('names every bad field; requires the name; refuses unknown keys', async () => {
      expect(
        problem(await t.api('POST', '/category_groups', { categoryGroupName: '', categoryGroupCode: 'a b', displaySequence: '1234567890' }), 400).detail,
      ).toBe('[categoryGroupName] must not be empty; [categoryGroupCode] must be 1 to 20 half-width alphanumerics or symbols; [displaySequence] must be 1 to 9 digits');
      expect(problem(await t.api('POST', '/category_groups', {}), 400).detail).toBe('[categoryGroupName] is required');
      expect(problem(await t.api('POST', '/category_groups', { categoryGroupName: 'A', level: '1' }), 400).detail).toBe('[level] is not a known field');
    });

    it('keeps codes unique; PATCH changes the keys sent and clears with null or ""', async () => {
      await ok('POST', '/category_groups', { categoryGroupName: 'A', categoryGroupCode: 'A' });
      await ok('POST', '/category_groups', { categoryGroupName: 'B', categoryGroupCode: 'B', displaySequence: '2' });
      expect(problem(await t.api('POST', '/category_groups', { categoryGroupName: 'C', categoryGroupCode: 'A' }), 400).detail).toBe(
        '[categoryGroupCode] category group code A is already used by category group 1001',
      );
      expect(problem(await t.api('PATCH', '/category_groups/2001', { categoryGroupCode: 'A' }), 400).detail).toBe(
        '[categoryGroupCode] category group code A is already used by category group 1001',
      );
      t.clock.advance(60_000);
      expect(await ok('PATCH', '/category_groups/2001', { categoryGroupName: 'B2', categoryGroupCode: null, displaySequence: '' })).toEqual({
        categoryGroupId: '2001',
        categoryGroupCode: null,
        categoryGroupName: 'B2',
        displaySequence: null,
        insDateTime: AT_10_00,
        updDateTime: AT_10_01,
      });
      expect((await ok('PATCH', '/category_groups/2001', { displaySequence: '5' })).displaySequence).toBe('5');
      expect(problem(await t.api('PATCH', '/category_groups/2001', {}), 400).detail).toBe('[body] no field to update was given');
      expect(problem(await t.api('PATCH', '/category_groups/9', { categoryGroupName: 'X' }), 404).detail).toBe('[category_group_id] category group 9 does not exist');
    });

    it('lists with filters, sort, paging and the update-time range', async () => {
      await ok('POST', '/category_groups', { categoryGroupName: 'A', categoryGroupCode: 'A', displaySequence: '3' });
      t.clock.advance(60_000);
      await ok('POST', '/category_groups', { categoryGroupName: 'B', categoryGroupCode: 'B', displaySequence: '1' });
      await ok('POST', '/category_groups', { categoryGroupName: 'C', categoryGroupCode: 'C', displaySequence: '2' });
      const names = async (query: string) => ((await ok('GET', `/category_groups${query}`)) as { categoryGroupName: string }[]).map((g) => g.categoryGroupName);
      expect(await names('')).toEqual(['A', 'B', 'C']);
      expect(await names('?category_group_code=B')).toEqual(['B']);
      expect(await names('?category_group_id=3001')).toEqual(['C']);
      expect(await names('?sort=displaySequence')).toEqual(['B', 'C', 'A']);
      expect(await names('?sort=categoryGroupId:desc')).toEqual(['C', 'B', 'A']);
      expect(await names('?upd_date_time-from=2026-11-22T10:00:30%2B09:00')).toEqual(['B', 'C']);
      expect(await ok('GET', '/category_groups?fields=categoryGroupId&limit=1&page=2')).toEqual([{ categoryGroupId: '2001' }]);
      expect(problem(await t.api('GET', '/category_groups?sort=categoryGroupName'), 400).detail).toMatch(/^\[sort\] categoryGroupName is not a sort key/);
    });

    it('DELETE: 204, then 404; refused while a category names the group', async () => {
      const g = (await ok('POST', '/category_groups', { categoryGroupName: 'A' })).categoryGroupId;
      const c = (await ok('POST', '/categories', { categoryName: 'Food', categoryGroupId: g })).categoryId;
      expect(problem(await t.api('DELETE', `/category_groups/${g}`), 400).detail).toBe(`[category_group_id] category group ${g} is used by category ${c}`);
      await ok('PATCH', `/categories/${c}`, { categoryGroupId: null });
      expect((await t.api('DELETE', `/category_groups/${g}`)).statusCode).toBe(204);
      expect(problem(await t.api('DELETE', `/category_groups/${g}`), 404).detail).toBe(`[category_group_id] category group ${g} does not exist`);
    });

    it('every write is reported for sync as a master', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((ch) => changes.push(ch));
      await ok('POST', '/category_groups', { categoryGroupName: 'A' });
      await ok('PATCH', '/category_groups/1001', { categoryGroupName: 'B' });
      await t.api('DELETE', '/category_groups/1001');
      expect(changes.map((ch) => [ch.entity, ch.id, ch.op])).toEqual([
        ['category_group', '1001', 'insert'],
        ['category_group', '1001', 'update'],
        ['category_group', '1001', 'delete'],
      ]);
    });
  });

  describe("categories' categoryGroupId", () => {
    it('must name an existing group on POST and PATCH; null or "" clears it', async () => {
      const g = (await ok('POST', '/category_groups', { categoryGroupName: 'A' })).categoryGroupId;
      expect(problem(await t.api('POST', '/categories', { categoryName: 'X', categoryGroupId: '999' }), 400).detail).toBe(
        '[categoryGroupId] category group 999 does not exist',
      );
      const c = await ok('POST', '/categories', { categoryName: 'X', categoryGroupId: g });
      expect(c.categoryGroupId).toBe(g);
      expect(problem(await t.api('PATCH', `/categories/${c.categoryId}`, { categoryGroupId: '999' }), 400).detail).toBe(
        '[categoryGroupId] category group 999 does not exist',
      );
      expect((await ok('GET', `/categories/${c.categoryId}`)).categoryGroupId).toBe(g);
      expect((await ok('PATCH', `/categories/${c.categoryId}`, { categoryGroupId: '' })).categoryGroupId).toBeNull();
      expect((await ok('PATCH', `/categories/${c.categoryId}`, { categoryGroupId: g })).categoryGroupId).toBe(g);
    });

    it('a group of another contract is not found', async () => {
      t.addContract('other', 'retail_business');
      const token = await t.tokenFor({ contractId: 'other' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/other/pos/category_groups',
        headers: { authorization: `Bearer ${token}` },
        payload: { categoryGroupName: 'Theirs' },
      });
      const theirs = res.json().categoryGroupId;
      expect(problem(await t.api('POST', '/categories', { categoryName: 'X', categoryGroupId: theirs }), 400).detail).toBe(
        `[categoryGroupId] category group ${theirs} does not exist`,
      );
    });
  });

  describe('access', () => {
    it('scope pos.products, Retail Business only, and user tokens need product_edit to write', async () => {
      const read = await t.tokenFor({ scopes: ['pos.products:read'] });
      expect((await t.api('GET', '/category_groups', undefined, read)).statusCode).toBe(200);
      expect(problem(await t.api('POST', '/category_groups', { categoryGroupName: 'A' }, read), 403).detail).toMatch(/pos\.products:write/);

      t.addContract('food', 'food_business');
      const food = await t.tokenFor({ contractId: 'food' });
      const res = await t.app.inject({ method: 'GET', url: '/food/pos/category_groups', headers: { authorization: `Bearer ${food}` } });
      expect(problem(res, 403).detail).toBe("the contract's plan food_business cannot use GET /category_groups (plans: retail_business)");

      const logins = new StaffLoginRepo(t.deps.db, t.deps.writer, t.clock);
      const userWith = async (code: string, rights: Parameters<StaffLoginRepo['set']>[3]) => {
        const staffId = (await ok('POST', '/staffs', { staffName: code, staffCode: code })).staffId;
        logins.set(t.contractId, staffId, hashPasswordSync('correct horse 1'), rights);
        const { clientId, clientSecret } = t.createClient(t.contractId);
        const login = await t.app.inject({
          method: 'POST',
          url: `/app/${t.contractId}/token`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
          payload: `grant_type=password&username=${code}&password=correct%20horse%201`,
        });
        return login.json().access_token as string;
      };
      const clerk = await userWith('C1', ['sales_view']);
      expect((await t.api('GET', '/category_groups', undefined, clerk)).statusCode).toBe(200);
      expect(problem(await t.api('POST', '/category_groups', { categoryGroupName: 'A' }, clerk), 403).detail).toBe('[right] the user token lacks the right product_edit');
      const editor = await userWith('E1', ['product_edit']);
      expect((await t.api('POST', '/category_groups', { categoryGroupName: 'A' }, editor)).statusCode).toBe(200);
      expect(problem(await t.api('DELETE', '/category_groups/1001', undefined, clerk), 403).detail).toBe('[right] the user token lacks the right product_edit');
    });
  });
});

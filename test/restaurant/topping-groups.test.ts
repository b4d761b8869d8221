import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import type { ToppingGroup } from '../../server/restaurant/topping-groups/schema.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const badRequest = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const LINK_BASE = 'http://localhost/test-contract/pos/topping_groups';

describe('topping groups', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'food_business' });
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>): Promise<ToppingGroup> => {
    const res = await t.api('POST', '/topping_groups', body);
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  describe('POST /topping_groups', () => {
    it('creates a group without a rule, createdIn pos-backoffice by default', async () => {
      const res = await t.api('POST', '/topping_groups', { name: 'Sauces' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ id: '1001', name: 'Sauces', createdIn: 'pos-backoffice', rule: null });
    });

    it('stores a rule and the source service', async () => {
      expect(await create({ name: 'Toppings', createdIn: 'waiter', rule: { condition: 'all', max: 3, min: 0 } })).toEqual({
        id: '1001',
        name: 'Toppings',
        createdIn: 'waiter',
        rule: { condition: 'all', max: 3, min: 0 },
      });
      expect((await create({ name: 'Sides', rule: { condition: 'category', max: 2, min: 2 } })).rule).toEqual({ condition: 'category', max: 2, min: 2 });
      expect((await create({ name: 'Free', rule: null })).rule).toBeNull();
    });

    it('refuses min above max naming rule.min, and bad rule values', async () => {
      expect(problem(await t.api('POST', '/topping_groups', { name: 'X', rule: { condition: 'all', max: 1, min: 2 } }), 400)).toEqual(
        badRequest('[rule.min] must not be greater than rule.max (1)'),
      );
      const range = 'must be an integer from 0 to 999';
      expect(problem(await t.api('POST', '/topping_groups', { name: 'X', rule: { condition: 'all', max: 1, min: -1 } }), 400).detail).toBe(
        `[rule.min] ${range}`,
      );
      expect(
        problem(await t.api('POST', '/topping_groups', { name: 'X', rule: { condition: 'each', max: 1.5, min: '0' } }), 400).detail,
      ).toBe(`[rule.condition] must be one of all, category; [rule.max] ${range}; [rule.min] ${range}`);
      expect(problem(await t.api('POST', '/topping_groups', { name: 'X', rule: { condition: 'all', max: 1000, min: 0 } }), 400).detail).toBe(
        `[rule.max] ${range}`,
      );
      expect(problem(await t.api('POST', '/topping_groups', { name: 'X', rule: { condition: 'all' } }), 400).detail).toBe(
        '[rule.max] is required; [rule.min] is required',
      );
      expect(problem(await t.api('POST', '/topping_groups', { name: 'X', rule: { condition: 'all', max: 1, min: 0, x: 1 } }), 400).detail).toBe(
        '[rule.x] is not a known field',
      );
      expect((await t.api('GET', '/topping_groups')).json()).toEqual([]);
    });

    it('requires a non-blank name of at most 85 characters and refuses unknown keys', async () => {
      expect(problem(await t.api('POST', '/topping_groups', {}), 400).detail).toBe('[name] is required');
      expect(problem(await t.api('POST', '/topping_groups', { name: ' ' }), 400).detail).toBe('[name] must not be empty');
      expect(problem(await t.api('POST', '/topping_groups', { name: 'x'.repeat(86) }), 400).detail).toBe('[name] must be at most 85 characters');
      expect(problem(await t.api('POST', '/topping_groups', { name: 'X', createdIn: '' }), 400).detail).toBe('[createdIn] must not be empty');
      expect(problem(await t.api('POST', '/topping_groups', { name: 'X', id: '5' }), 400).detail).toBe('[id] is not a known field');
    });

    it('needs pos.products:write and is open to every plan', async () => {
      const reader = await t.tokenFor({ scopes: ['pos.products:read'] });
      expect(problem(await t.api('POST', '/topping_groups', { name: 'X' }, reader), 403).detail).toBe(
        '[scope] the token lacks the scope pos.products:write',
      );
      for (const plan of ['standard', 'retail_business', 'enterprise'] as const) {
        const other = await makeTestApp({ plan });
        expect((await other.api('POST', '/topping_groups', { name: 'X' })).statusCode).toBe(200);
        expect((await other.api('GET', '/topping_groups')).statusCode).toBe(200);
        await other.close();
      }
    });
  });

  describe('GET, PATCH, DELETE /topping_groups/{id}', () => {
    it('gets a group; 404 when absent; 400 for a malformed id', async () => {
      const g = await create({ name: 'Sauces' });
      expect((await t.api('GET', `/topping_groups/${g.id}`)).json()).toEqual(g);
      expect(problem(await t.api('GET', '/topping_groups/999'), 404)).toEqual({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: '[topping_group_id] topping group 999 does not exist',
      });
      expect(problem(await t.api('GET', '/topping_groups/x'), 400).detail).toBe('[topping_group_id] must be 1 to 9 digits');
    });

    it('changes only the keys sent; rule is replaced whole and cleared by null', async () => {
      const g = await create({ name: 'Sauces', rule: { condition: 'all', max: 2, min: 1 } });
      expect((await t.api('PATCH', `/topping_groups/${g.id}`, { name: 'Dips' })).json()).toEqual({ ...g, name: 'Dips' });
      expect((await t.api('PATCH', `/topping_groups/${g.id}`, { rule: { condition: 'category', max: 5, min: 0 } })).json().rule).toEqual({
        condition: 'category',
        max: 5,
        min: 0,
      });
      expect((await t.api('PATCH', `/topping_groups/${g.id}`, { rule: null })).json()).toEqual({ ...g, name: 'Dips', rule: null });
    });

    it('refuses an empty or invalid PATCH and changes nothing', async () => {
      const g = await create({ name: 'Sauces', rule: { condition: 'all', max: 2, min: 1 } });
      expect(problem(await t.api('PATCH', `/topping_groups/${g.id}`, {}), 400)).toEqual(badRequest('[body] no field to update was given'));
      expect(problem(await t.api('PATCH', `/topping_groups/${g.id}`, { name: 'N', rule: { condition: 'all', max: 0, min: 1 } }), 400).detail).toBe(
        '[rule.min] must not be greater than rule.max (0)',
      );
      expect(problem(await t.api('PATCH', `/topping_groups/${g.id}`, { name: null }), 400).detail).toMatch(/^\[name\] /);
      expect(problem(await t.api('PATCH', '/topping_groups/999', { name: 'N' }), 404).detail).toBe(
        '[topping_group_id] topping group 999 does not exist',
      );
      expect((await t.api('GET', `/topping_groups/${g.id}`)).json()).toEqual(g);
    });

    it('deletes with 204; then 404', async () => {
      const g = await create({ name: 'Sauces' });
      const res = await t.api('DELETE', `/topping_groups/${g.id}`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(problem(await t.api('DELETE', `/topping_groups/${g.id}`), 404).detail).toBe(`[topping_group_id] topping group ${g.id} does not exist`);
    });

    it('reports each change for sync', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const g = await create({ name: 'Sauces' });
      await t.api('PATCH', `/topping_groups/${g.id}`, { name: 'Dips' });
      await t.api('DELETE', `/topping_groups/${g.id}`);
      expect(changes.map((c) => [c.entity, c.id, c.op])).toEqual([
        ['topping_group', g.id, 'insert'],
        ['topping_group', g.id, 'update'],
        ['topping_group', g.id, 'delete'],
      ]);
    });
  });

  describe('GET /topping_groups (spec 4.10)', () => {
    it('pages 20 by default, at most 100, with Link headers; sorts by id or name, :desc', async () => {
      const names = ['b', 'a', 'c'];
      for (let i = 0; i < 23; i++) await create({ name: `${names[i % 3]}${String(i).padStart(2, '0')}` });
      const first = await t.api('GET', '/topping_groups');
      expect(first.statusCode).toBe(200);
      expect(first.json()).toHaveLength(20);
      expect(first.json()[0].id).toBe('1001');
      expect(first.headers.link).toBe(`<${LINK_BASE}?page=2>; rel="next"`);
      const last = await t.api('GET', '/topping_groups?page=2');
      expect(last.json()).toHaveLength(3);
      expect(last.headers.link).toBe(`<${LINK_BASE}?page=1>; rel="prev"`);
      expect((await t.api('GET', '/topping_groups?limit=100')).json()).toHaveLength(23);

      const byName = await t.api('GET', '/topping_groups?sort=name&limit=2&page=2');
      expect(byName.json().map((g: ToppingGroup) => g.name)).toEqual(['a07', 'a10']);
      expect(byName.headers.link).toBe(`<${LINK_BASE}?sort=name&limit=2&page=1>; rel="prev", <${LINK_BASE}?sort=name&limit=2&page=3>; rel="next"`);
      expect((await t.api('GET', '/topping_groups?sort=name:desc&limit=1')).json()[0].name).toBe('c20');
      expect((await t.api('GET', '/topping_groups?sort=id:desc&limit=1')).json()[0].id).toBe('23001');
    });

    it('answers 400 for an invalid parameter or value', async () => {
      expect(problem(await t.api('GET', '/topping_groups?limit=0'), 400)).toEqual(badRequest('[limit] limit must be at least 1'));
      expect(problem(await t.api('GET', '/topping_groups?limit=101'), 400).detail).toBe('[limit] limit must be at most 100');
      expect(problem(await t.api('GET', '/topping_groups?limit=abc'), 400).detail).toBe('[limit] limit must be a positive integer');
      expect(problem(await t.api('GET', '/topping_groups?page=0'), 400).detail).toBe('[page] page must be at least 1');
      expect(problem(await t.api('GET', '/topping_groups?sort=createdIn'), 400).detail).toBe(
        '[sort] createdIn is not a sort key; use id, name with an optional :desc',
      );
      expect(problem(await t.api('GET', '/topping_groups?sort=name:up'), 400).detail).toBe(
        '[sort] name:up is not a sort key; use id, name with an optional :desc',
      );
      expect(problem(await t.api('GET', '/topping_groups?name=x'), 400).detail).toBe('[name] is not a known field');
    });

    it('needs waiter.menus:read', async () => {
      const writer = await t.tokenFor({ scopes: ['pos.products:write', 'pos.products:read'] });
      expect(problem(await t.api('GET', '/topping_groups', undefined, writer), 403).detail).toBe('[scope] the token lacks the scope waiter.menus:read');
    });
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { ProductBundleGroupRepo } from '../../server/masters/product-bundle-groups/repo.js';
import type { ProductBundleGroup } from '../../server/masters/product-bundle-groups/schema.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/product_bundle_groups';
const THREE_FOR_1000 = { productBundleGroupName: '3 for 1000', division: '1', quantity: '3', value: '1000' };

describe('product bundle groups', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>): Promise<ProductBundleGroup> => {
    const res = await t.api('POST', '/product_bundle_groups', body);
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const detail400 = async (method: string, path: string, body?: unknown) => problem(await t.api(method, path, body), 400).detail;

  describe('POST /product_bundle_groups', () => {
    it('creates a group without a period, reports the insert', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const res = await t.api('POST', '/product_bundle_groups', THREE_FOR_1000);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        productBundleGroupId: '1001',
        productBundleGroupName: '3 for 1000',
        division: '1',
        quantity: '3',
        value: '1000',
        startDate: null,
        endDate: null,
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      });
      expect(changes).toEqual([{ contractId: 'test-contract', entity: 'product_bundle_group', id: '1001', op: 'insert' }]);
    });

    it('normalises quantity and value; keeps a period of one day', async () => {
      const g = await create({ productBundleGroupName: '200 off', division: '2', quantity: '002', value: '0200.500', startDate: '2026-12-01', endDate: '2026-12-01' });
      expect(g).toMatchObject({ division: '2', quantity: '2', value: '200.5', startDate: '2026-12-01', endDate: '2026-12-01' });
      const open = await create({ ...THREE_FOR_1000, startDate: '2026-12-01', endDate: '' });
      expect(open).toMatchObject({ startDate: '2026-12-01', endDate: null });
    });

    it('refuses an end before the start', async () => {
      expect(await detail400('POST', '/product_bundle_groups', { ...THREE_FOR_1000, startDate: '2026-12-02', endDate: '2026-12-01' })).toBe(
        '[endDate] 2026-12-01 is before the start date 2026-12-02',
      );
      expect((await t.api('GET', '/product_bundle_groups')).json()).toEqual([]);
    });

    it('validates every field', async () => {
      const bad = async (patch: Record<string, unknown>) => detail400('POST', '/product_bundle_groups', { ...THREE_FOR_1000, ...patch });
      expect(await bad({ productBundleGroupName: undefined })).toBe('[productBundleGroupName] is required');
      expect(await bad({ productBundleGroupName: 'x'.repeat(86) })).toBe('[productBundleGroupName] must be at most 85 characters');
      expect(await bad({ division: undefined })).toBe('[division] is required');
      expect(await bad({ division: '3' })).toBe('[division] must be one of 1, 2');
      expect(await bad({ quantity: undefined })).toBe('[quantity] is required');
      expect(await bad({ quantity: '0' })).toBe('[quantity] must be at least 1');
      expect(await bad({ quantity: '000' })).toBe('[quantity] must be at least 1');
      expect(await bad({ quantity: '1.5' })).toBe('[quantity] must be 1 to 9 digits');
      expect(await bad({ quantity: 3 })).toContain('[quantity]');
      expect(await bad({ value: undefined })).toBe('[value] is required');
      expect(await bad({ value: '-1' })).toBe('[value] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals');
      expect(await bad({ value: '1000000000' })).toBe('[value] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals');
      expect(await bad({ startDate: '2026-02-30' })).toBe('[startDate] must be a calendar date YYYY-MM-DD from 1900');
      expect(await bad({ endDate: '2026/12/01' })).toBe('[endDate] must be a calendar date YYYY-MM-DD from 1900');
      expect(await bad({ productIds: ['1'] })).toBe('[productIds] is not a known field');
    });

    it('needs pos.products:write to write and pos.products:read to read, on every plan', async () => {
      const reader = await t.tokenFor({ scopes: ['pos.products:read'] });
      expect(problem(await t.api('POST', '/product_bundle_groups', THREE_FOR_1000, reader), 403).detail).toBe(
        '[scope] the token lacks the scope pos.products:write',
      );
      const other = await t.tokenFor({ scopes: ['pos.transactions:read'] });
      expect(problem(await t.api('GET', '/product_bundle_groups', undefined, other), 403).detail).toBe('[scope] the token lacks the scope pos.products:read');
      const e = await makeTestApp({ plan: 'enterprise' });
      try {
        expect((await e.api('POST', '/product_bundle_groups', THREE_FOR_1000)).statusCode).toBe(200);
      } finally {
        await e.close();
      }
    });
  });

  describe('GET /product_bundle_groups', () => {
    it('filters by division, sorts, pages with Link', async () => {
      await create({ ...THREE_FOR_1000, productBundleGroupName: 'B' });
      await create({ ...THREE_FOR_1000, productBundleGroupName: 'A', division: '2' });
      await create({ ...THREE_FOR_1000, productBundleGroupName: 'C' });
      const names = (res: { json(): unknown }) => (res.json() as ProductBundleGroup[]).map((g) => g.productBundleGroupName);
      expect(names(await t.api('GET', '/product_bundle_groups'))).toEqual(['B', 'A', 'C']);
      expect(names(await t.api('GET', '/product_bundle_groups?division=1'))).toEqual(['B', 'C']);
      expect(names(await t.api('GET', '/product_bundle_groups?sort=productBundleGroupName'))).toEqual(['A', 'B', 'C']);
      const first = await t.api('GET', '/product_bundle_groups?limit=1&page=2');
      expect(names(first)).toEqual(['A']);
      expect(first.headers.link).toBe(`<${LINK_BASE}?limit=1&page=1>; rel="prev", <${LINK_BASE}?limit=1&page=3>; rel="next"`);
      expect(await detail400('GET', '/product_bundle_groups?division=0')).toBe('[division] must be one of 1, 2');
      expect(await detail400('GET', '/product_bundle_groups?sort=value')).toContain('[sort] value is not a sort key');
    });
  });

  describe('GET and PATCH /product_bundle_groups/{id}', () => {
    it('answers the group, 404 when absent, 400 for a malformed id; find() for transaction lines', async () => {
      const g = await create(THREE_FOR_1000);
      expect((await t.api('GET', `/product_bundle_groups/${g.productBundleGroupId}`)).json()).toEqual(g);
      expect(problem(await t.api('GET', '/product_bundle_groups/999'), 404).detail).toBe(
        '[product_bundle_group_id] product bundle group 999 does not exist',
      );
      expect(await detail400('GET', '/product_bundle_groups/x')).toBe('[product_bundle_group_id] must be 1 to 9 digits');
      const repo = new ProductBundleGroupRepo(t.deps.db, t.deps.writer, t.deps.ids, t.deps.clock);
      expect(repo.find(t.contractId, g.productBundleGroupId)).toMatchObject({ product_bundle_group_id: 1001, division: '1', quantity: 3, value_units: 1_000_000 });
      expect(repo.find(t.contractId, '999')).toBeUndefined();
    });

    it('changes only the keys sent, clears the period, reports the update', async () => {
      const g = await create({ ...THREE_FOR_1000, startDate: '2026-12-01', endDate: '2026-12-31' });
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      t.clock.advance(60_000);
      const path = `/product_bundle_groups/${g.productBundleGroupId}`;
      expect((await t.api('PATCH', path, { quantity: '4', value: '1200' })).json()).toEqual({ ...g, quantity: '4', value: '1200', updDateTime: AT_10_01 });
      expect((await t.api('PATCH', path, { startDate: null, endDate: '' })).json()).toMatchObject({ startDate: null, endDate: null, quantity: '4' });
      expect(changes).toEqual([
        { contractId: 'test-contract', entity: 'product_bundle_group', id: g.productBundleGroupId, op: 'update' },
        { contractId: 'test-contract', entity: 'product_bundle_group', id: g.productBundleGroupId, op: 'update' },
      ]);
    });

    it('checks a period end sent alone against the stored other end', async () => {
      const g = await create({ ...THREE_FOR_1000, startDate: '2026-12-10', endDate: '2026-12-20' });
      const path = `/product_bundle_groups/${g.productBundleGroupId}`;
      expect(await detail400('PATCH', path, { endDate: '2026-12-09' })).toBe('[endDate] 2026-12-09 is before the start date 2026-12-10');
      expect(await detail400('PATCH', path, { startDate: '2026-12-21' })).toBe('[startDate] 2026-12-21 is after the end date 2026-12-20');
      expect(await detail400('PATCH', path, { startDate: '2026-12-21', endDate: '2026-12-15' })).toBe(
        '[endDate] 2026-12-15 is before the start date 2026-12-21',
      );
      expect((await t.api('GET', path)).json()).toEqual(g);
      // moving both ends together, or clearing the end, is fine
      expect((await t.api('PATCH', path, { startDate: '2027-01-01', endDate: '2027-01-31' })).statusCode).toBe(200);
      expect((await t.api('PATCH', path, { endDate: null })).statusCode).toBe(200);
      expect((await t.api('PATCH', path, { startDate: '2030-01-01' })).json()).toMatchObject({ startDate: '2030-01-01', endDate: null });
    });

    it('refuses an empty body, cleared required fields, unknown keys and a missing group', async () => {
      const g = await create(THREE_FOR_1000);
      const path = `/product_bundle_groups/${g.productBundleGroupId}`;
      expect(await detail400('PATCH', path, {})).toBe('[body] no field to update was given');
      expect(await detail400('PATCH', path, { quantity: null })).toContain('[quantity]');
      expect(await detail400('PATCH', path, { value: '' })).toBe('[value] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals');
      expect(await detail400('PATCH', path, { division: '0' })).toBe('[division] must be one of 1, 2');
      expect(await detail400('PATCH', path, { value: '1', productBundleGroupId: '5' })).toBe('[productBundleGroupId] is not a known field');
      expect(problem(await t.api('PATCH', '/product_bundle_groups/999', { value: '1' }), 404).detail).toBe(
        '[product_bundle_group_id] product bundle group 999 does not exist',
      );
      expect((await t.api('GET', path)).json()).toEqual(g);
    });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../server/db/migrate.js';
import { openDatabase, type Sqlite } from '../../server/db/open.js';
import type { Change } from '../../server/db/write.js';
import type { Plan } from '../../server/domain/plans.js';
import { line, makeFixture } from '../sales/transactions-fixtures.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T0_PLUS_1MIN = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/bundles';

type Bundle = Record<string, any> & { productBundleGroupId: string; products: { productBundleId: string }[] };

describe('bundle sales (the platform POS operations /bundles)', () => {
  let t: TestApp;
  let food: string;
  let drinks: string;
  let tea: string;
  let coffee: string;
  beforeEach(async () => {
    t = await makeTestApp();
    food = (await t.api('POST', '/categories', { categoryName: 'Food' })).json().categoryId;
    drinks = (await t.api('POST', '/categories', { categoryName: 'Drinks' })).json().categoryId;
    const product = async (productCode: string) => {
      const res = await t.api('POST', '/products', { categoryId: drinks, productCode, productName: productCode, price: '300' });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().productId as string;
    };
    tea = await product('TEA');
    coffee = await product('COFFEE');
  });
  afterEach(() => t.close());

  /** What a platform client sends: every value a string, the targets as objects naming one key. */
  const THREE_DRINKS = {
    productBundleGroupName: 'Any 3 drinks for 800',
    type: '1',
    quantity: '3',
    value: '800',
    termFrom: '2026-12-01',
    termTo: '2026-12-31',
    products: [{ categoryId: '' as string }],
  };
  const threeDrinks = () => ({ ...THREE_DRINKS, products: [{ categoryId: drinks }] });
  const create = async (body: Record<string, unknown>): Promise<Bundle> => {
    const res = await t.api('POST', '/bundles', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const detail400 = async (method: string, path: string, body?: unknown) => problem(await t.api(method, path, body), 400).detail;
  const targetRows = () => t.deps.db.prepare('SELECT count(*) FROM product_bundle_products WHERE contract_id = ?').pluck().get(t.contractId);
  const notices = () =>
    (
      t.deps.db
        .prepare("SELECT body FROM webhook_events WHERE contract_id = ? AND event IN ('pos:bundles', 'pos:bundle-products') ORDER BY CAST(event_id AS INTEGER)")
        .pluck()
        .all(t.contractId) as string[]
    ).map((b) => JSON.parse(b));

  describe('POST /bundles', () => {
    it('registers a bundle with its targets as the platform client sends it, with the defaults of the fields left out', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const res = await t.api('POST', '/bundles', {
        ...threeDrinks(),
        products: [{ categoryId: drinks }, { productId: tea }, { productGroupCode: 'MUG-2026' }],
      });
      expect(res.statusCode, res.body).toBe(200);
      const b = res.json() as Bundle;
      expect(b).toEqual({
        productBundleGroupId: '1001',
        productBundleGroupName: 'Any 3 drinks for 800',
        type: '1',
        taxDivision: '0',
        reduceTaxId: null,
        quantity: '3',
        value: '800',
        priority: null,
        termFrom: '2026-12-01',
        termTo: '2026-12-31',
        pointNotApplicable: '0',
        taxFreeDivision: '0',
        calcDiscount: '1',
        insDateTime: AT_T0,
        updDateTime: AT_T0,
        products: [
          { productBundleId: '1001', categoryId: drinks, productId: null, productGroupCode: null },
          { productBundleId: '2001', categoryId: null, productId: tea, productGroupCode: null },
          { productBundleId: '3001', categoryId: null, productId: null, productGroupCode: 'MUG-2026' },
        ],
      });
      // One record (its targets travel with it), and the platform's two notices.
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'product_bundle_group', id: '1001', op: 'insert' }]);
      expect(notices()).toEqual([
        { contractId: t.contractId, event: 'pos:bundles', action: 'created', productBundleGroupIds: ['1001'] },
        {
          contractId: t.contractId,
          event: 'pos:bundle-products',
          action: 'created',
          ids: ['1001', '2001', '3001'].map((productBundleId) => ({ productBundleGroupId: '1001', productBundleId })),
        },
      ]);
    });

    it('takes every field of the platform, a rate off up to 100 and a set sale that counts its targets', async () => {
      const rate = await create({
        ...threeDrinks(),
        type: '3',
        value: '100',
        taxDivision: '1',
        reduceTaxId: '10000001',
        priority: '5',
        pointNotApplicable: '1',
        taxFreeDivision: '2',
        calcDiscount: '0',
      });
      expect(rate).toMatchObject({ type: '3', value: '100', taxDivision: '1', reduceTaxId: '10000001', priority: '5', pointNotApplicable: '1', taxFreeDivision: '2', calcDiscount: '0' });
      const set = await create({ productBundleGroupName: 'Tea and coffee', type: '4', value: '500.5', termFrom: '2026-12-01', termTo: '2026-12-01', products: [{ productId: tea }, { productId: coffee }] });
      expect(set).toMatchObject({ type: '4', quantity: '2', value: '500.5', termFrom: '2026-12-01', termTo: '2026-12-01' });
      expect((await create({ ...threeDrinks(), type: '4', quantity: '1' })).quantity).toBe('1');
    });

    it('names every bad field', async () => {
      const bad = (patch: Record<string, unknown>) => detail400('POST', '/bundles', { ...threeDrinks(), ...patch });
      expect(await bad({ productBundleGroupName: undefined })).toBe('[productBundleGroupName] is required');
      expect(await bad({ productBundleGroupName: 'x'.repeat(86) })).toBe('[productBundleGroupName] must be at most 85 characters');
      expect(await bad({ type: undefined })).toBe('[type] is required');
      expect(await bad({ type: '5' })).toBe('[type] must be one of 1, 2, 3, 4');
      expect(await bad({ taxDivision: '3' })).toBe('[taxDivision] must be one of 0, 1, 2');
      expect(await bad({ reduceTaxId: '1' })).toBe('[reduceTaxId] must be null or one of 10000001, 10000002, 10000003, 10000004');
      expect(await bad({ quantity: '0' })).toBe('[quantity] must be at least 1');
      expect(await bad({ quantity: 3 })).toContain('[quantity]');
      expect(await bad({ value: undefined })).toBe('[value] is required');
      expect(await bad({ value: '-1' })).toBe('[value] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals');
      expect(await bad({ priority: 'first' })).toBe('[priority] must be 1 to 9 digits');
      expect(await bad({ termFrom: undefined })).toBe('[termFrom] is required');
      expect(await bad({ termTo: '2026/12/31' })).toBe('[termTo] must be a calendar date YYYY-MM-DD from 1900');
      expect(await bad({ pointNotApplicable: '2' })).toBe('[pointNotApplicable] must be one of 0, 1');
      expect(await bad({ taxFreeDivision: '3' })).toBe('[taxFreeDivision] must be one of 0, 1, 2');
      expect(await bad({ calcDiscount: '2' })).toBe('[calcDiscount] must be one of 0, 1');
      expect(await bad({ products: undefined })).toBe('[products] is required');
      expect(await bad({ products: [] })).toBe('[products] must list at least one target');
      expect(await bad({ productBundleGroupId: '5' })).toBe('[productBundleGroupId] is not a known field');
      expect((await t.api('GET', '/bundles')).json()).toEqual([]);
    });

    it('takes targets that name exactly one existing category, product or group code, each once', async () => {
      const bad = (products: unknown[]) => detail400('POST', '/bundles', { ...threeDrinks(), products });
      expect(await bad([{ categoryId: drinks, productId: tea }])).toBe('[products[0]] must name exactly one of categoryId, productId, productGroupCode');
      expect(await bad([{ productId: tea }, {}])).toBe('[products[1]] must name exactly one of categoryId, productId, productGroupCode');
      expect(await bad([{ productId: 'tea' }])).toBe('[products[0].productId] must be 1 to 9 digits');
      expect(await bad([{ productGroupCode: '' }])).toBe('[products[0].productGroupCode] must not be empty');
      expect(await bad([{ productId: tea, quantity: '1' }])).toBe('[products[0].quantity] is not a known field');
      expect(await bad([{ productId: tea }, { categoryId: food }, { productId: `00${tea}` }])).toBe(`[products[2]] productId ${tea} is already products[0]`);
      expect(await bad([{ categoryId: drinks }, { categoryId: '999' }])).toBe('[products[1].categoryId] category 999 does not exist');
      expect(await bad([{ productId: '999' }])).toBe('[products[0].productId] product 999 does not exist');
      expect(targetRows()).toBe(0);
    });

    it('checks the value against the type, the quantity a bundle sale needs and the order of the days', async () => {
      expect(await detail400('POST', '/bundles', { ...threeDrinks(), type: '3', value: '100.001' })).toBe('[value] must be at most 100 (percent) when type is 3');
      expect(await detail400('POST', '/bundles', { ...threeDrinks(), type: '2', quantity: undefined })).toBe(
        '[quantity] is required for type 2 (the number of items the bundle takes)',
      );
      expect(await detail400('POST', '/bundles', { ...threeDrinks(), termFrom: '2026-12-02', termTo: '2026-12-01' })).toBe(
        '[termTo] 2026-12-01 is before the start date 2026-12-02',
      );
      expect((await t.api('GET', '/bundles')).json()).toEqual([]);
    });
  });

  describe('GET /bundles and /bundles/{product_bundle_group_id}', () => {
    it('answers one bundle with its targets; fields limits it; 404 when absent, 400 for a malformed id', async () => {
      const b = await create(threeDrinks());
      const path = `/bundles/${b.productBundleGroupId}`;
      expect((await t.api('GET', path)).json()).toEqual(b);
      expect((await t.api('GET', `${path}?fields=productBundleGroupName,products`)).json()).toEqual({ productBundleGroupName: b.productBundleGroupName, products: b.products });
      expect(problem(await t.api('GET', '/bundles/999'), 404).detail).toBe('[product_bundle_group_id] product bundle group 999 does not exist');
      expect(await detail400('GET', '/bundles/x')).toBe('[product_bundle_group_id] must be 1 to 9 digits');
      expect(await detail400('GET', `${path}?fields=products.productId`)).toBe('[fields] products.productId: fields of the second level and below cannot be chosen');
      expect(await detail400('GET', `${path}?with_products=all`)).toBe('[with_products] is not a known field');
    });

    it('lists with the platform filters, sort and paging', async () => {
      const dec = await create({ ...threeDrinks(), productBundleGroupName: 'December' });
      const nov = await create({ ...threeDrinks(), productBundleGroupName: 'November', termFrom: '2026-11-01', termTo: '2026-11-30' });
      const jan = await create({ ...threeDrinks(), productBundleGroupName: 'January', termFrom: '2027-01-01', termTo: '2027-01-31' });
      const names = (res: { json(): unknown }) => (res.json() as Bundle[]).map((b) => b.productBundleGroupName);
      expect(names(await t.api('GET', '/bundles'))).toEqual(['December', 'November', 'January']);
      expect(names(await t.api('GET', `/bundles?product_bundle_group_id=${nov.productBundleGroupId}`))).toEqual(['November']);
      expect(names(await t.api('GET', '/bundles?term_from=2026-12-01'))).toEqual(['December', 'January']);
      expect(names(await t.api('GET', '/bundles?term_to=2026-12-31'))).toEqual(['December', 'November']);
      expect(names(await t.api('GET', '/bundles?term_from=2026-12-01&term_to=2026-12-31'))).toEqual(['December']);
      expect(names(await t.api('GET', '/bundles?sort=termFrom'))).toEqual(['November', 'December', 'January']);
      expect(names(await t.api('GET', '/bundles?sort=termTo:desc'))).toEqual(['January', 'December', 'November']);
      expect(names(await t.api('GET', '/bundles?sort=productBundleGroupId:desc'))).toEqual(['January', 'November', 'December']);
      const page = await t.api('GET', '/bundles?limit=1&page=2');
      expect((page.json() as Bundle[]).map((b) => b.productBundleGroupId)).toEqual([nov.productBundleGroupId]);
      expect(page.headers.link).toBe(`<${LINK_BASE}?limit=1&page=1>; rel="prev", <${LINK_BASE}?limit=1&page=3>; rel="next"`);
      expect((await t.api('GET', '/bundles?fields=productBundleGroupId,type')).json()).toEqual(
        [dec, nov, jan].map((b) => ({ productBundleGroupId: b.productBundleGroupId, type: '1' })),
      );
      expect(await detail400('GET', '/bundles?term_from=2026-13-01')).toBe('[term_from] must be a calendar date YYYY-MM-DD from 1900');
      expect(await detail400('GET', '/bundles?sort=value')).toContain('[sort] value is not a sort key');
      expect(await detail400('GET', '/bundles?type=1')).toBe('[type] is not a known field');
    });
  });

  describe('PATCH /bundles/{product_bundle_group_id}', () => {
    it('changes only the keys sent and reports the update', async () => {
      const b = await create(threeDrinks());
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      t.clock.advance(60_000);
      const path = `/bundles/${b.productBundleGroupId}`;
      expect((await t.api('PATCH', path, { type: '2', value: '150', priority: '3', termTo: '2027-01-15', taxDivision: '2' })).json()).toEqual({
        ...b,
        type: '2',
        value: '150',
        priority: '3',
        termTo: '2027-01-15',
        taxDivision: '2',
        updDateTime: AT_T0_PLUS_1MIN,
      });
      expect((await t.api('PATCH', path, { priority: null, reduceTaxId: '' })).json()).toMatchObject({ priority: null, reduceTaxId: null, value: '150' });
      expect(changes).toEqual([
        { contractId: t.contractId, entity: 'product_bundle_group', id: b.productBundleGroupId, op: 'update' },
        { contractId: t.contractId, entity: 'product_bundle_group', id: b.productBundleGroupId, op: 'update' },
      ]);
    });

    it('adds the targets sent and keeps those the bundle has already; a change of targets alone is a change of the bundle', async () => {
      const b = await create(threeDrinks());
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      t.clock.advance(60_000);
      const res = await t.api('PATCH', `/bundles/${b.productBundleGroupId}`, { products: [{ categoryId: drinks }, { productId: coffee }] });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        ...b,
        updDateTime: AT_T0_PLUS_1MIN,
        products: [...b.products, { productBundleId: '2001', categoryId: null, productId: coffee, productGroupCode: null }],
      });
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'product_bundle_group', id: b.productBundleGroupId, op: 'update' }]);
      expect(notices().slice(2)).toEqual([
        { contractId: t.contractId, event: 'pos:bundles', action: 'edited', productBundleGroupIds: [b.productBundleGroupId] },
        { contractId: t.contractId, event: 'pos:bundle-products', action: 'created', ids: [{ productBundleGroupId: b.productBundleGroupId, productBundleId: '2001' }] },
      ]);
    });

    it('checks the bundle after the change: the value against the type, the days against the stored other end, the targets', async () => {
      const b = await create(threeDrinks());
      const path = `/bundles/${b.productBundleGroupId}`;
      expect(await detail400('PATCH', path, { type: '3' })).toBe('[value] must be at most 100 (percent) when type is 3');
      expect(await detail400('PATCH', path, { termTo: '2026-11-30' })).toBe('[termTo] 2026-11-30 is before the start date 2026-12-01');
      expect(await detail400('PATCH', path, { termFrom: '2027-01-01' })).toBe('[termFrom] 2027-01-01 is after the end date 2026-12-31');
      expect(await detail400('PATCH', path, { products: [{ productId: '999' }] })).toBe('[products[0].productId] product 999 does not exist');
      expect((await t.api('GET', path)).json()).toEqual(b);
      expect((await t.api('PATCH', path, { type: '3', value: '10' })).json()).toMatchObject({ type: '3', value: '10' });
    });

    it('answers 404 for an unknown bundle before the body, and 400 for an empty body or an unknown key', async () => {
      const b = await create(threeDrinks());
      expect(problem(await t.api('PATCH', '/bundles/999', { type: '3' }), 404).detail).toBe('[product_bundle_group_id] product bundle group 999 does not exist');
      expect(await detail400('PATCH', `/bundles/${b.productBundleGroupId}`, {})).toBe('[body] no field to update was given');
      expect(await detail400('PATCH', `/bundles/${b.productBundleGroupId}`, { termFrom: null })).toContain('[termFrom]');
      expect(await detail400('PATCH', `/bundles/${b.productBundleGroupId}`, { value: '1', division: '1' })).toBe('[division] is not a known field');
    });
  });

  describe('DELETE /bundles/{product_bundle_group_id}', () => {
    it('deletes the bundle with its targets (204); 404 after', async () => {
      const b = await create(threeDrinks());
      await create(threeDrinks());
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const res = await t.api('DELETE', `/bundles/${b.productBundleGroupId}`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'product_bundle_group', id: b.productBundleGroupId, op: 'delete' }]);
      expect(targetRows()).toBe(1);
      expect(problem(await t.api('GET', `/bundles/${b.productBundleGroupId}`), 404).detail).toBe(`[product_bundle_group_id] product bundle group ${b.productBundleGroupId} does not exist`);
      expect(problem(await t.api('DELETE', `/bundles/${b.productBundleGroupId}`), 404).detail).toBe(`[product_bundle_group_id] product bundle group ${b.productBundleGroupId} does not exist`);
      expect(notices().at(-1)).toEqual({ contractId: t.contractId, event: 'pos:bundles', action: 'deleted', productBundleGroupIds: [b.productBundleGroupId] });
    });
  });

  describe('DELETE /bundles/{product_bundle_group_id}/products/{product_bundle_id}', () => {
    it('removes one target (204), reports the bundle changed and raises pos:bundle-products deleted', async () => {
      const b = await create({ ...threeDrinks(), products: [{ categoryId: drinks }, { productId: tea }] });
      const [drinksTarget, teaTarget] = b.products.map((p) => p.productBundleId);
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      t.clock.advance(60_000);
      const res = await t.api('DELETE', `/bundles/${b.productBundleGroupId}/products/${teaTarget}`);
      expect(res.statusCode).toBe(204);
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'product_bundle_group', id: b.productBundleGroupId, op: 'update' }]);
      expect((await t.api('GET', `/bundles/${b.productBundleGroupId}`)).json()).toMatchObject({
        updDateTime: AT_T0_PLUS_1MIN,
        products: [{ productBundleId: drinksTarget, categoryId: drinks, productId: null, productGroupCode: null }],
      });
      expect(notices().at(-1)).toEqual({
        contractId: t.contractId,
        event: 'pos:bundle-products',
        action: 'deleted',
        ids: [{ productBundleGroupId: b.productBundleGroupId, productBundleId: teaTarget }],
      });
    });

    it("keeps the bundle's last target (400) and answers 404 for an unknown bundle, target or pair", async () => {
      const b = await create(threeDrinks());
      const other = await create({ ...threeDrinks(), products: [{ productId: tea }, { productId: coffee }] });
      const last = b.products[0]!.productBundleId;
      const path = `/bundles/${b.productBundleGroupId}/products`;
      expect(await detail400('DELETE', `${path}/${last}`)).toBe(
        `[product_bundle_id] bundle product ${last} is the only target of product bundle group ${b.productBundleGroupId}: a bundle keeps at least one`,
      );
      expect(problem(await t.api('DELETE', `/bundles/999/products/${last}`), 404).detail).toBe('[product_bundle_group_id] product bundle group 999 does not exist');
      expect(problem(await t.api('DELETE', `${path}/999`), 404).detail).toBe('[product_bundle_id] bundle product 999 does not exist');
      const theirs = other.products[0]!.productBundleId;
      expect(problem(await t.api('DELETE', `${path}/${theirs}`), 404).detail).toBe(
        `[product_bundle_id] bundle product ${theirs} is not a target of product bundle group ${b.productBundleGroupId}`,
      );
      expect(await detail400('DELETE', `${path}/x`)).toBe('[product_bundle_id] must be 1 to 9 digits');
      expect(targetRows()).toBe(3);
    });
  });

  describe('one record, two views: /bundles and /product_bundle_groups', () => {
    it('a bundle registered through /bundles is a product bundle group of the same id; types 3 and 4 answer as their division', async () => {
      const b = await create(threeDrinks());
      expect((await t.api('GET', `/product_bundle_groups/${b.productBundleGroupId}`)).json()).toEqual({
        productBundleGroupId: b.productBundleGroupId,
        productBundleGroupName: 'Any 3 drinks for 800',
        division: '1',
        quantity: '3',
        value: '800',
        startDate: '2026-12-01',
        endDate: '2026-12-31',
        insDateTime: AT_T0,
        updDateTime: AT_T0,
      });
      const rate = await create({ ...threeDrinks(), type: '3', value: '20' });
      const set = await create({ ...threeDrinks(), type: '4' });
      const listed = (await t.api('GET', '/product_bundle_groups')).json() as { productBundleGroupId: string; division: string }[];
      expect(listed.map((g) => [g.productBundleGroupId, g.division])).toEqual([
        [b.productBundleGroupId, '1'],
        [rate.productBundleGroupId, '3'],
        [set.productBundleGroupId, '4'],
      ]);
      // The spec 2.13 view's own filter keeps its divisions 1 and 2.
      expect((await t.api('GET', '/product_bundle_groups?division=1')).json()).toHaveLength(1);
    });

    it('a PATCH through /product_bundle_groups keeps the rules of the bundle: a rate stays at most 100', async () => {
      const rate = await create({ ...threeDrinks(), type: '3', value: '20' });
      const path = `/product_bundle_groups/${rate.productBundleGroupId}`;
      expect(await detail400('PATCH', path, { value: '150' })).toBe('[value] must be at most 100 (percent) when division is 3');
      expect((await t.api('PATCH', path, { value: '25', productBundleGroupName: 'Drinks 25% off' })).json()).toMatchObject({ division: '3', value: '25' });
      // Setting a division of this view makes the value a price or an amount again; the bundle keeps its settings and targets.
      expect((await t.api('PATCH', path, { division: '1', value: '150' })).json()).toMatchObject({ division: '1', value: '150' });
      expect((await t.api('GET', `/bundles/${rate.productBundleGroupId}`)).json()).toEqual({
        ...rate,
        productBundleGroupName: 'Drinks 25% off',
        type: '1',
        value: '150',
      });
    });

    it('a group registered through /product_bundle_groups is a bundle with the defaults and no targets until PATCH adds them', async () => {
      const g = (await t.api('POST', '/product_bundle_groups', { productBundleGroupName: '2 for 500', division: '2', quantity: '2', value: '500' })).json();
      const path = `/bundles/${g.productBundleGroupId}`;
      expect((await t.api('GET', path)).json()).toEqual({
        productBundleGroupId: g.productBundleGroupId,
        productBundleGroupName: '2 for 500',
        type: '2',
        taxDivision: '0',
        reduceTaxId: null,
        quantity: '2',
        value: '500',
        priority: null,
        termFrom: null,
        termTo: null,
        pointNotApplicable: '0',
        taxFreeDivision: '0',
        calcDiscount: '1',
        insDateTime: AT_T0,
        updDateTime: AT_T0,
        products: [],
      });
      expect(notices()).toEqual([{ contractId: t.contractId, event: 'pos:bundles', action: 'created', productBundleGroupIds: [g.productBundleGroupId] }]);
      const patched = (await t.api('PATCH', path, { products: [{ productId: tea }], termFrom: '2026-12-01' })).json();
      expect(patched).toMatchObject({ termFrom: '2026-12-01', termTo: null, products: [{ productId: tea }] });
      expect((await t.api('GET', `/product_bundle_groups/${g.productBundleGroupId}`)).json()).toMatchObject({ startDate: '2026-12-01', endDate: null });
      await t.api('PATCH', `/product_bundle_groups/${g.productBundleGroupId}`, { quantity: '4' });
      expect(notices().at(-1)).toEqual({ contractId: t.contractId, event: 'pos:bundles', action: 'edited', productBundleGroupIds: [g.productBundleGroupId] });
    });
  });

  it('needs pos.products scopes; writes need the product_edit right', async () => {
    const b = await create(threeDrinks());
    const readOnly = await t.tokenFor({ scopes: ['pos.products:read'] });
    expect((await t.api('GET', '/bundles', undefined, readOnly)).statusCode).toBe(200);
    for (const [method, url] of [
      ['POST', '/bundles'],
      ['PATCH', `/bundles/${b.productBundleGroupId}`],
      ['DELETE', `/bundles/${b.productBundleGroupId}`],
      ['DELETE', `/bundles/${b.productBundleGroupId}/products/${b.products[0]!.productBundleId}`],
    ] as const) {
      expect(problem(await t.api(method, url, method === 'DELETE' ? undefined : { value: '1' }, readOnly), 403).detail, `${method} ${url}`).toBe(
        '[scope] the token lacks the scope pos.products:write',
      );
    }
    const none = await t.tokenFor({ scopes: ['pos.customers:read'] });
    expect(problem(await t.api('GET', `/bundles/${b.productBundleGroupId}`, undefined, none), 403).detail).toBe('[scope] the token lacks the scope pos.products:read');
  });

  it('is open to the five plans the platform names, not to enterprise', async () => {
    const plans: Plan[] = ['standard', 'premium', 'premium_plus', 'food_business', 'retail_business'];
    for (const plan of plans) {
      const p = await makeTestApp({ plan });
      expect((await p.api('GET', '/bundles')).statusCode, plan).toBe(200);
      await p.close();
    }
    const enterprise = await makeTestApp({ plan: 'enterprise' });
    expect(problem(await enterprise.api('GET', '/bundles'), 403).detail).toBe(
      "the contract's plan enterprise cannot use GET /bundles (plans: standard, premium, premium_plus, food_business, retail_business)",
    );
    // /product_bundle_groups (spec 2.13) stays open to every plan.
    expect((await enterprise.api('GET', '/product_bundle_groups')).statusCode).toBe(200);
    await enterprise.close();
  });
});

describe('a sale names a bundle registered through /bundles', () => {
  it('a bundle parent line (productDivision 4) takes its id, of any type; after the bundle is deleted the sale keeps the id it was sent', async () => {
    const f = await makeFixture();
    try {
      const bundle = await f.create('/bundles', {
        productBundleGroupName: 'Drinks 10% off',
        type: '3',
        quantity: '2',
        value: '10',
        termFrom: '2026-11-01',
        termTo: '2026-11-30',
        products: [{ categoryId: f.category }],
      });
      const parent = line(1, '0', { productDivision: '4', productBundleGroupId: bundle.productBundleGroupId });
      const child = line(2, '500', { productDivision: '7', parentTransactionDetailId: '1' });
      const sale = await f.sale({ details: [parent, child] });
      expect(sale.details[0].productBundleGroupId).toBe(bundle.productBundleGroupId);
      expect((await f.api('DELETE', `/bundles/${bundle.productBundleGroupId}`)).statusCode).toBe(204);
      const read = (await f.api('GET', `/transactions/${sale.transactionHeadId}/details`)).json() as { productBundleGroupId: string | null }[];
      expect(read.map((d) => d.productBundleGroupId)).toEqual([bundle.productBundleGroupId, null]);
      expect(problem(await f.post({ details: [parent, child] }), 400).detail).toBe(
        `[details[0].productBundleGroupId] product bundle group ${bundle.productBundleGroupId} does not exist`,
      );
    } finally {
      await f.t.close();
    }
  });
});

/** A database written before migration 0042: its product bundle groups keep their ids and values. */
describe('migration 0042: product bundle groups of an old database', () => {
  let dir: string;
  let db: Sqlite;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pos-bundles-'));
    db = openDatabase(join(dir, 'pos.sqlite'));
    migrate(db, loadMigrations().filter((m) => m.version < 42));
    db.prepare("INSERT INTO contracts (contract_id, name, plan, created_at, updated_at) VALUES ('c', 'Old shop', 'retail_business', 0, 0)").run();
    const insert = db.prepare(
      `INSERT INTO product_bundle_groups (contract_id, product_bundle_group_id, product_bundle_group_name, division, quantity, value_units, start_date, end_date, ins_at, upd_at)
       VALUES ('c', ?, ?, ?, ?, ?, ?, ?, 5, 6)`,
    );
    insert.run(1001, '3 for 1000', '1', 3, 1_000_000, null, null);
    insert.run(2001, '200 off', '2', 2, 200_500, '2026-12-01', '2026-12-31');
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every row and id, gives them the defaults of the new fields, and takes types 3 and 4 from then on', () => {
    expect(() => db.prepare("UPDATE product_bundle_groups SET division = '3' WHERE product_bundle_group_id = 1001").run()).toThrow(/CHECK constraint failed/);
    migrate(db);
    expect(db.prepare('SELECT * FROM product_bundle_groups ORDER BY product_bundle_group_id').all()).toEqual([
      {
        contract_id: 'c',
        product_bundle_group_id: 1001,
        product_bundle_group_name: '3 for 1000',
        division: '1',
        quantity: 3,
        value_units: 1_000_000,
        start_date: null,
        end_date: null,
        tax_division: '0',
        reduce_tax_id: null,
        priority: null,
        point_not_applicable: '0',
        tax_free_division: '0',
        calc_discount: '1',
        ins_at: 5,
        upd_at: 6,
      },
      {
        contract_id: 'c',
        product_bundle_group_id: 2001,
        product_bundle_group_name: '200 off',
        division: '2',
        quantity: 2,
        value_units: 200_500,
        start_date: '2026-12-01',
        end_date: '2026-12-31',
        tax_division: '0',
        reduce_tax_id: null,
        priority: null,
        point_not_applicable: '0',
        tax_free_division: '0',
        calc_discount: '1',
        ins_at: 5,
        upd_at: 6,
      },
    ]);
    db.prepare("UPDATE product_bundle_groups SET division = '4' WHERE product_bundle_group_id = 1001").run();
    expect(() => db.prepare("UPDATE product_bundle_groups SET division = '5' WHERE product_bundle_group_id = 1001").run()).toThrow(/CHECK constraint failed/);
    // A target names exactly one thing and goes with its group.
    const target = db.prepare('INSERT INTO product_bundle_products (contract_id, product_bundle_id, product_bundle_group_id, category_id, product_id, product_group_code) VALUES (?, ?, ?, ?, ?, ?)');
    expect(() => target.run('c', 1, 1001, 5, 6, null)).toThrow(/CHECK constraint failed/);
    expect(() => target.run('c', 1, 1001, null, null, null)).toThrow(/CHECK constraint failed/);
    target.run('c', 1, 1001, null, null, 'GROUP');
    db.prepare('DELETE FROM product_bundle_groups WHERE product_bundle_group_id = 1001').run();
    expect(db.prepare('SELECT count(*) FROM product_bundle_products').pluck().get()).toBe(0);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { problem, type TestApp } from '../helpers/app.js';
import { CONTRACT } from '../sync/helpers.js';
import { headOfficeWithProduct } from './head-office.js';
import { makeProduct, makeStaff, ok, stockOf, twoStoresAndProduct } from './shipments-fixtures.js';

/**
 * Issue 26: losses (the platform's /losses, ロス登録). A loss takes its quantities out of its
 * store's stock (stock division 14, dated at lossDateTime), an edit moves the difference, a
 * delete gives them back; every write raises `pos:losses`.
 */

const NOW = '2026-11-22T10:00:00+09:00'; // T0 in the contract's zone
const LATER = '2026-11-22T10:05:00+09:00';
const LOST_AT = '2026-11-21T18:30:00+09:00';

let t: TestApp;
let store: string;
let store2: string;
let category: string;
let product: string; // cost 120, standard rate
let product2: string;
beforeEach(async () => {
  ({ t, store, store2, category, product } = await twoStoresAndProduct());
  product2 = await makeProduct(t, category, { cost: null });
  await ok(t, 'POST', '/loss_divisions', { divisionCode: '1', divisionName: '廃棄' });
  await ok(t, 'POST', '/loss_divisions', { divisionCode: '2', divisionName: '盗難' });
});
afterEach(() => t.close());

const lossBody = (body: Record<string, unknown> = {}) => ({
  storeId: store,
  division: '1',
  lossDateTime: LOST_AT,
  details: [{ productId: product, quantity: '3' }],
  ...body,
});
const create = (body: Record<string, unknown> = {}) => ok(t, 'POST', '/losses', lossBody(body));
const detail = async (status: number, method: string, path: string, body?: unknown) => problem(await t.api(method, path, body), status).detail;
const post400 = (body: Record<string, unknown>) => detail(400, 'POST', '/losses', lossBody(body));

/** The loss movements of a product at a store, as a platform client reads them. */
const lossChanges = async (productId: string, storeId: string) =>
  ((await ok(t, 'GET', `/stock/changes/${productId}/${storeId}?stock_division=14`)) as Record<string, string | null>[]).map((c) => ({
    amount: c.amount,
    stockAmount: c.stockAmount,
    stockDivision: c.stockDivision,
    targetDateTime: c.targetDateTime,
    updDateTime: c.updDateTime,
    staffId: c.staffId,
  }));

/** The pos:losses notices raised, as their receivers get them. */
const notices = () =>
  (t.deps.db.prepare("SELECT body FROM webhook_events WHERE contract_id = ? AND event = 'pos:losses' ORDER BY created_at, CAST(event_id AS INTEGER)").pluck().all(t.contractId) as string[]).map(
    (b) => JSON.parse(b),
  );

describe('POST /losses', () => {
  it("registers a loss and takes its quantities out of the store's stock, dated when the loss happened", async () => {
    const loss = await create();
    expect(loss).toEqual({
      lossId: '1001',
      storeId: store,
      division: '1',
      lossDateTime: LOST_AT,
      memo: null,
      identificationNo: null,
      staffId: null,
      staffName: null,
      insDateTime: NOW,
      updDateTime: NOW,
      details: [{ lossDetailId: '1001', productId: product, taxRate: '10.000', cost: '120.00000', quantity: '3' }],
    });
    expect(stockOf(t, store, product)).toBe('-3');
    expect(stockOf(t, store2, product)).toBe('0');
    expect(await lossChanges(product, store)).toEqual([
      { amount: '-3', stockAmount: '-3', stockDivision: '14', targetDateTime: LOST_AT, updDateTime: NOW, staffId: null },
    ]);
    expect(await ok(t, 'GET', '/losses/1001')).toEqual(loss);
    expect(notices()).toEqual([{ contractId: t.contractId, event: 'pos:losses', action: 'created', lossIds: ['1001'] }]);
  });

  it('takes every field; the tax rate defaults to the one in force at lossDateTime, cost to the product master', async () => {
    const staff = await makeStaff(t);
    const reduced = await makeProduct(t, category, { reduceTaxId: '10000001', cost: '55.5' });
    const loss = await create({
      division: '2',
      memo: '割れ',
      identificationNo: 'L-1',
      staffId: staff,
      details: [
        { productId: product, quantity: '2', taxRate: '8.5' },
        { productId: reduced, quantity: '1' },
        { productId: product2, quantity: '4' },
        { productId: product, quantity: '1' },
      ],
    });
    expect(loss).toMatchObject({ division: '2', memo: '割れ', identificationNo: 'L-1', staffId: staff, staffName: 'Clerk' });
    expect(loss.details.map((d: any) => [d.productId, d.taxRate, d.cost, d.quantity])).toEqual([
      [product, '8.500', '120.00000', '2'],
      [reduced, '8.000', '55.50000', '1'],
      [product2, '10.000', '0.00000', '4'],
      [product, '10.000', '120.00000', '1'],
    ]);
    // One movement per product: the two lines of `product` are taken together.
    expect(await lossChanges(product, store)).toEqual([{ amount: '-3', stockAmount: '-3', stockDivision: '14', targetDateTime: LOST_AT, updDateTime: NOW, staffId: staff }]);
    expect([stockOf(t, store, reduced), stockOf(t, store, product2)]).toEqual(['-1', '-4']);
  });

  it('names the store, division, staff member or product that does not exist, and moves nothing', async () => {
    expect(await post400({ storeId: '999' })).toBe('[storeId] store 999 does not exist');
    expect(await post400({ division: '9' })).toBe('[division] loss division 9 does not exist');
    expect(await post400({ staffId: '999' })).toBe('[staffId] staff 999 does not exist');
    expect(await post400({ details: [{ productId: product, quantity: '1' }, { productId: '999', quantity: '1' }] })).toBe('[details[1].productId] product 999 does not exist');
    expect(stockOf(t, store, product)).toBe('0');
    expect(await ok(t, 'GET', '/losses')).toEqual([]);
    expect(notices()).toEqual([]);
  });

  it('checks the body: required keys, formats, limits, unknown keys', async () => {
    expect(await detail(400, 'POST', '/losses', {})).toBe('[storeId] is required; [division] is required; [lossDateTime] is required; [details] is required');
    expect(await post400({ lossDateTime: '2026-11-21 18:30', division: 'a', storeId: 'x' })).toBe(
      '[storeId] must be 1 to 9 digits; [division] must be 1 to 9 digits; [lossDateTime] must be a date-time like 2026-11-22T10:00:00+09:00',
    );
    expect(await post400({ details: [] })).toBe('[details] must have at least one entry');
    expect(await post400({ details: Array.from({ length: 1001 }, () => ({ productId: product, quantity: '1' })) })).toBe('[details] must have at most 1000 entries');
    expect(await post400({ details: [{ productId: product, quantity: '-1' }] })).toBe('[details[0].quantity] must be a whole number from 0 to 99999');
    expect(await post400({ details: [{ productId: product, quantity: '1', taxRate: '101' }] })).toBe('[details[0].taxRate] must be at most 100');
    expect(await post400({ details: [{ productId: product }] })).toBe('[details[0].quantity] is required');
    expect(await post400({ details: [{ productId: product, quantity: '1', cost: '1' }] })).toBe('[details[0].cost] is not a known field');
    expect(await post400({ memo: 'x'.repeat(1001), identificationNo: 'x'.repeat(33) })).toBe('[memo] must be at most 1000 characters; [identificationNo] must be at most 32 characters');
    expect(await post400({ lossId: '5' })).toBe('[lossId] is not a known field');
  });
});

describe('GET /losses', () => {
  it('lists heads, filtered by store and division, sorted, paged, with fields', async () => {
    await create();
    t.clock.advance(60_000);
    await create({ storeId: store2, division: '2', lossDateTime: '2026-11-20T09:00:00+09:00' });
    await create({ division: '2' });
    const all = await ok(t, 'GET', '/losses');
    expect(all.map((l: any) => l.lossId)).toEqual(['1001', '2001', '3001']);
    expect(all[0]).not.toHaveProperty('details');
    expect(all[1]).toMatchObject({ storeId: store2, division: '2', lossDateTime: '2026-11-20T09:00:00+09:00', updDateTime: '2026-11-22T10:01:00+09:00' });
    expect((await ok(t, 'GET', `/losses?store_id=${store}`)).map((l: any) => l.lossId)).toEqual(['1001', '3001']);
    expect((await ok(t, 'GET', `/losses?division=2&store_id=${store}`)).map((l: any) => l.lossId)).toEqual(['3001']);
    expect((await ok(t, 'GET', '/losses?sort=lossDateTime')).map((l: any) => l.lossId)).toEqual(['2001', '1001', '3001']);
    expect((await ok(t, 'GET', '/losses?sort=lossId:desc&limit=1&page=2')).map((l: any) => l.lossId)).toEqual(['2001']);
    expect(await ok(t, 'GET', '/losses?fields=lossId,division&limit=1')).toEqual([{ lossId: '1001', division: '1' }]);
    expect(await detail(400, 'GET', '/losses?fields=details')).toMatch(/^\[fields\] /);
    expect(await detail(400, 'GET', '/losses?store=1')).toBe('[store] is not a known field');
    expect(await detail(404, 'GET', '/losses/5')).toBe('[loss_id] loss 5 does not exist');
  });
});

describe('PATCH /losses/{loss_id}', () => {
  it('changes a quantity: only the difference moves; new details are added and taken', async () => {
    const loss = await create({ details: [{ productId: product, quantity: '5' }] });
    t.clock.advance(5 * 60_000);
    const edited = await ok(t, 'PATCH', `/losses/${loss.lossId}`, {
      details: [
        { lossDetailId: loss.details[0].lossDetailId, quantity: '3' },
        { productId: product2, quantity: '2' },
      ],
    });
    expect(edited).toMatchObject({ lossId: loss.lossId, insDateTime: NOW, updDateTime: LATER });
    expect(edited.details.map((d: any) => [d.lossDetailId, d.productId, d.quantity])).toEqual([
      ['1001', product, '3'],
      ['2001', product2, '2'],
    ]);
    expect(stockOf(t, store, product)).toBe('-3');
    expect(stockOf(t, store, product2)).toBe('-2');
    expect(await lossChanges(product, store)).toEqual([
      { amount: '-5', stockAmount: '-5', stockDivision: '14', targetDateTime: LOST_AT, updDateTime: NOW, staffId: null },
      { amount: '2', stockAmount: '-3', stockDivision: '14', targetDateTime: LOST_AT, updDateTime: LATER, staffId: null },
    ]);
    expect(notices().map((n) => n.action)).toEqual(['created', 'edited']);
    expect(notices()[1]).toEqual({ contractId: t.contractId, event: 'pos:losses', action: 'edited', lossIds: [loss.lossId] });
  });

  it("a detail's other product gives the first one back and takes the other, with its own rate and cost", async () => {
    const loss = await create();
    const edited = await ok(t, 'PATCH', `/losses/${loss.lossId}`, { details: [{ lossDetailId: '1001', productId: product2 }] });
    expect(edited.details).toEqual([{ lossDetailId: '1001', productId: product2, taxRate: '10.000', cost: '0.00000', quantity: '3' }]);
    expect([stockOf(t, store, product), stockOf(t, store, product2)]).toEqual(['0', '-3']);
  });

  it('changes division, memo, identification number and staff; clears them with null or ""; moves no stock', async () => {
    const staff = await makeStaff(t);
    const loss = await create({ memo: 'm', identificationNo: 'X' });
    const edited = await ok(t, 'PATCH', `/losses/${loss.lossId}`, { division: '2', memo: 'broken', identificationNo: 'ID-9', staffId: staff });
    expect(edited).toMatchObject({ division: '2', memo: 'broken', identificationNo: 'ID-9', staffId: staff, staffName: 'Clerk', storeId: store, lossDateTime: LOST_AT });
    expect(await ok(t, 'PATCH', `/losses/${loss.lossId}`, { memo: '', identificationNo: null, staffId: null })).toMatchObject({
      memo: null,
      identificationNo: null,
      staffId: null,
      staffName: null,
    });
    expect((await lossChanges(product, store)).length).toBe(1);
  });

  it('refuses what the platform does not change and names every refusal', async () => {
    const loss = await create();
    const id = loss.lossId;
    expect(await detail(400, 'PATCH', `/losses/${id}`, { storeId: store2 })).toBe('[storeId] is not a known field; [body] no field to update was given');
    expect(await detail(400, 'PATCH', `/losses/${id}`, {})).toBe('[body] no field to update was given');
    expect(await detail(400, 'PATCH', `/losses/${id}`, { division: '9' })).toBe('[division] loss division 9 does not exist');
    expect(await detail(400, 'PATCH', `/losses/${id}`, { staffId: '999' })).toBe('[staffId] staff 999 does not exist');
    expect(await detail(400, 'PATCH', `/losses/${id}`, { details: [{ lossDetailId: '5', quantity: '1' }] })).toBe(`[details[0].lossDetailId] loss detail 5 does not exist in loss ${id}`);
    expect(await detail(400, 'PATCH', `/losses/${id}`, { details: [{ lossDetailId: '1001', quantity: '1' }, { lossDetailId: '1001', quantity: '2' }] })).toBe(
      '[details[1].lossDetailId] loss detail 1001 is given twice',
    );
    expect(await detail(400, 'PATCH', `/losses/${id}`, { details: [{ quantity: '1' }] })).toBe('[details[0].productId] is required for a new detail (one without lossDetailId)');
    expect(await detail(400, 'PATCH', `/losses/${id}`, { details: [{ productId: product }] })).toBe('[details[0].quantity] is required for a new detail (one without lossDetailId)');
    expect(await detail(400, 'PATCH', `/losses/${id}`, { details: [{ productId: '999', quantity: '1' }] })).toBe('[details[0].productId] product 999 does not exist');
    expect(await detail(400, 'PATCH', `/losses/${id}`, { details: Array.from({ length: 1000 }, () => ({ productId: product, quantity: '1' })) })).toBe(
      '[details] a loss has at most 1000 details: 1 existing and 1000 added would make 1001',
    );
    expect(await detail(404, 'PATCH', '/losses/5', { memo: 'x' })).toBe('[loss_id] loss 5 does not exist');
    // Nothing of the refused edits stayed.
    expect(await ok(t, 'GET', `/losses/${id}`)).toEqual(loss);
    expect(stockOf(t, store, product)).toBe('-3');
    expect(notices().length).toBe(1);
  });
});

describe('DELETE /losses/{loss_id}', () => {
  it("deletes a loss: its quantities come back into the store's stock", async () => {
    const loss = await create({ details: [{ productId: product, quantity: '3' }, { productId: product2, quantity: '1' }] });
    t.clock.advance(5 * 60_000);
    const res = await t.api('DELETE', `/losses/${loss.lossId}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect([stockOf(t, store, product), stockOf(t, store, product2)]).toEqual(['0', '0']);
    expect(await lossChanges(product, store)).toEqual([
      { amount: '-3', stockAmount: '-3', stockDivision: '14', targetDateTime: LOST_AT, updDateTime: NOW, staffId: null },
      { amount: '3', stockAmount: '0', stockDivision: '14', targetDateTime: LOST_AT, updDateTime: LATER, staffId: null },
    ]);
    expect(await detail(404, 'GET', `/losses/${loss.lossId}`)).toBe(`[loss_id] loss ${loss.lossId} does not exist`);
    expect(await detail(404, 'DELETE', `/losses/${loss.lossId}`)).toBe(`[loss_id] loss ${loss.lossId} does not exist`);
    expect(t.deps.db.prepare('SELECT count(*) FROM loss_details').pluck().get()).toBe(0);
    expect(notices().map((n) => [n.action, n.lossIds])).toEqual([
      ['created', [loss.lossId]],
      ['deleted', [loss.lossId]],
    ]);
  });
});

describe('sync', () => {
  it('reports each write as entity loss (a sales record) with its stock movements', async () => {
    const changes: string[] = [];
    t.deps.writer.onChange((c) => changes.push(`${c.entity} ${c.op}${c.balanceOnly ? ' balance' : ''}`));
    const loss = await create();
    await ok(t, 'PATCH', `/losses/${loss.lossId}`, { memo: 'x' });
    await t.api('DELETE', `/losses/${loss.lossId}`);
    expect(changes).toEqual(['stock insert balance', 'stock_movement insert', 'loss insert', 'loss update', 'stock update balance', 'stock_movement insert', 'loss delete']);
  });
});

describe('head office', () => {
  it("a store's loss, its edit and its delete reach central with the details and stock movements; the division comes down from central", async () => {
    const { central, store: shop, agent, close, storeId, productId } = await headOfficeWithProduct();
    try {
      await central.ok('POST', '/loss_divisions', { divisionCode: '1', divisionName: '廃棄' });
      await agent.drain(CONTRACT);

      const loss = await shop.ok('POST', '/losses', { storeId, division: '1', lossDateTime: LOST_AT, details: [{ productId, quantity: '3' }] });
      expect(loss.lossId).toMatch(/007$/); // minted by node 7
      await agent.drain(CONTRACT);
      expect(await central.ok('GET', `/losses/${loss.lossId}`)).toEqual(loss);

      const edited = await shop.ok('PATCH', `/losses/${loss.lossId}`, { details: [{ lossDetailId: loss.details[0].lossDetailId, quantity: '2' }] });
      await agent.drain(CONTRACT);
      expect(await central.ok('GET', `/losses/${loss.lossId}`)).toEqual(edited);

      expect((await shop.api('DELETE', `/losses/${loss.lossId}`)).statusCode).toBe(204);
      await agent.drain(CONTRACT);
      expect((await central.api('GET', `/losses/${loss.lossId}`)).statusCode).toBe(404);
      expect(central.deps.db.prepare("SELECT delta FROM stock_movements WHERE stock_division = '14' ORDER BY movement_id").pluck().all()).toEqual(['-3', '1', '2']);
    } finally {
      await close();
    }
  }, 30_000);
});

describe('access', () => {
  it('scope pos.losses (read, write); Retail Business only', async () => {
    const read = await t.tokenFor({ scopes: ['pos.losses:read'] });
    expect((await t.api('GET', '/losses', undefined, read)).statusCode).toBe(200);
    expect(problem(await t.api('POST', '/losses', lossBody(), read), 403).detail).toMatch(/pos\.losses:write/);
    expect(problem(await t.api('DELETE', '/losses/1001', undefined, read), 403).detail).toMatch(/pos\.losses:write/);
    const other = await t.tokenFor({ scopes: ['pos.stock:read', 'pos.stock:write'] });
    expect(problem(await t.api('GET', '/losses', undefined, other), 403).detail).toMatch(/pos\.losses:read/);

    t.addContract('food', 'food_business');
    const food = await t.tokenFor({ contractId: 'food' });
    const res = await t.app.inject({ method: 'POST', url: '/food/pos/losses', payload: lossBody(), headers: { authorization: `Bearer ${food}` } });
    expect(problem(res, 403).detail).toBe("the contract's plan food_business cannot use POST /losses (plans: retail_business)");
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';
import { makeCategory, makeProduct, makeStore, ok } from './shipments-fixtures.js';

/** Issue 26: loss divisions (the platform's /loss_divisions, ロス区分), the list a loss names. */

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp({ plan: 'retail_business' });
});
afterEach(() => t.close());

const detail = async (status: number, method: string, path: string, body?: unknown) => problem(await t.api(method, path, body), status).detail;

describe('POST, GET, PATCH, DELETE /loss_divisions', () => {
  it('registers a division under the code the shop gives it; GET by code, with fields', async () => {
    expect(await ok(t, 'POST', '/loss_divisions', { divisionCode: '1', divisionName: '廃棄' })).toEqual({
      divisionCode: '1',
      divisionName: '廃棄',
      insDateTime: AT_10_00,
      updDateTime: AT_10_00,
    });
    await ok(t, 'POST', '/loss_divisions', { divisionCode: '02', divisionName: '盗難' });
    expect(await ok(t, 'GET', '/loss_divisions/02')).toMatchObject({ divisionCode: '02', divisionName: '盗難' });
    expect(await ok(t, 'GET', '/loss_divisions/1?fields=divisionName')).toEqual({ divisionName: '廃棄' });
    expect(await detail(404, 'GET', '/loss_divisions/2')).toBe('[division_code] loss division 2 does not exist');
    expect(await detail(400, 'GET', '/loss_divisions/a')).toBe('[division_code] must be 1 to 9 digits');
  });

  it('names every bad field, a code already used and unknown keys', async () => {
    expect(await detail(400, 'POST', '/loss_divisions', { divisionCode: 'x1', divisionName: ' ' })).toBe(
      '[divisionCode] must be 1 to 9 digits; [divisionName] must not be empty',
    );
    expect(await detail(400, 'POST', '/loss_divisions', {})).toBe('[divisionCode] is required; [divisionName] is required');
    expect(await detail(400, 'POST', '/loss_divisions', { divisionCode: '1', divisionName: 'x'.repeat(86) })).toBe('[divisionName] must be at most 85 characters');
    expect(await detail(400, 'POST', '/loss_divisions', { divisionCode: '1', divisionName: 'A', memo: 'x' })).toBe('[memo] is not a known field');
    await ok(t, 'POST', '/loss_divisions', { divisionCode: '1', divisionName: '廃棄' });
    expect(await detail(400, 'POST', '/loss_divisions', { divisionCode: '1', divisionName: 'Other' })).toBe('[divisionCode] loss division 1 already exists');
  });

  it('PATCH renames; the code is the path and cannot change', async () => {
    await ok(t, 'POST', '/loss_divisions', { divisionCode: '3', divisionName: 'その他' });
    t.clock.advance(60_000);
    expect(await ok(t, 'PATCH', '/loss_divisions/3', { divisionName: 'Other' })).toEqual({
      divisionCode: '3',
      divisionName: 'Other',
      insDateTime: AT_10_00,
      updDateTime: AT_10_01,
    });
    expect(await detail(400, 'PATCH', '/loss_divisions/3', { divisionCode: '4' })).toBe('[divisionCode] is not a known field; [body] no field to update was given');
    expect(await detail(400, 'PATCH', '/loss_divisions/3', {})).toBe('[body] no field to update was given');
    expect(await detail(404, 'PATCH', '/loss_divisions/4', { divisionName: 'X' })).toBe('[division_code] loss division 4 does not exist');
  });

  it('lists by code with paging, sort and fields', async () => {
    for (const [code, name] of [['2', '盗難'], ['1', '廃棄'], ['3', 'その他']]) await ok(t, 'POST', '/loss_divisions', { divisionCode: code, divisionName: name });
    expect((await ok(t, 'GET', '/loss_divisions')).map((d: any) => d.divisionCode)).toEqual(['1', '2', '3']);
    expect((await ok(t, 'GET', '/loss_divisions?sort=divisionCode:desc&limit=2')).map((d: any) => d.divisionCode)).toEqual(['3', '2']);
    expect(await ok(t, 'GET', '/loss_divisions?fields=divisionName&limit=1&page=2')).toEqual([{ divisionName: '盗難' }]);
    expect(await detail(400, 'GET', '/loss_divisions?sort=divisionName')).toMatch(/^\[sort\] /);
  });

  it('deletes a division no loss names; one a loss names is refused', async () => {
    await ok(t, 'POST', '/loss_divisions', { divisionCode: '1', divisionName: '廃棄' });
    await ok(t, 'POST', '/loss_divisions', { divisionCode: '2', divisionName: '盗難' });
    const store = await makeStore(t);
    const product = await makeProduct(t, await makeCategory(t));
    const loss = await ok(t, 'POST', '/losses', { storeId: store, division: '1', lossDateTime: AT_10_00, details: [{ productId: product, quantity: '1' }] });
    expect(await detail(400, 'DELETE', '/loss_divisions/1')).toBe(`[division_code] loss division 1 is used by loss ${loss.lossId}`);
    expect((await t.api('DELETE', '/loss_divisions/2')).statusCode).toBe(204);
    expect(await detail(404, 'DELETE', '/loss_divisions/2')).toBe('[division_code] loss division 2 does not exist');
    expect((await t.api('DELETE', `/losses/${loss.lossId}`)).statusCode).toBe(204);
    expect((await t.api('DELETE', '/loss_divisions/1')).statusCode).toBe(204);
    expect(await ok(t, 'GET', '/loss_divisions')).toEqual([]);
  });

  it('reports each write for sync as entity loss_division', async () => {
    const changes: { entity: string; id: string; op: string }[] = [];
    t.deps.writer.onChange((c) => changes.push({ entity: c.entity, id: c.id, op: c.op }));
    await ok(t, 'POST', '/loss_divisions', { divisionCode: '1', divisionName: '廃棄' });
    await ok(t, 'PATCH', '/loss_divisions/1', { divisionName: 'Disposal' });
    await t.api('DELETE', '/loss_divisions/1');
    expect(changes).toEqual([
      { entity: 'loss_division', id: '1', op: 'insert' },
      { entity: 'loss_division', id: '1', op: 'update' },
      { entity: 'loss_division', id: '1', op: 'delete' },
    ]);
  });
});

describe('access', () => {
  it('scope pos.losses (read, write); Retail Business only', async () => {
    const read = await t.tokenFor({ scopes: ['pos.losses:read'] });
    expect((await t.api('GET', '/loss_divisions', undefined, read)).statusCode).toBe(200);
    expect(problem(await t.api('POST', '/loss_divisions', { divisionCode: '1', divisionName: 'A' }, read), 403).detail).toMatch(/pos\.losses:write/);
    const other = await t.tokenFor({ scopes: ['pos.stock:read'] });
    expect(problem(await t.api('GET', '/loss_divisions', undefined, other), 403).detail).toMatch(/pos\.losses:read/);

    t.addContract('food', 'food_business');
    const food = await t.tokenFor({ contractId: 'food' });
    const res = await t.app.inject({ method: 'GET', url: '/food/pos/loss_divisions', headers: { authorization: `Bearer ${food}` } });
    expect(problem(res, 403).detail).toBe("the contract's plan food_business cannot use GET /loss_divisions (plans: retail_business)");
  });
});

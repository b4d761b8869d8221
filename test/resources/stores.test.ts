import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const DEFAULT_SETTINGS = {
  pointGivingDivision: '1',
  pointGivingUnitPrice: '100',
  pointGivingUnit: '1',
  pointSpendDivision: '1',
  mileageDivision: '0',
  mileageLabel: null,
  closingMethod: '0',
  closingTime: '23:59',
  bankDepositAutoInput: '0',
  bankDepositAutoInputAmount: '0',
  cashInputAtSettlement: '0',
  cashDrawerDivision: '0',
};

describe('stores', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  it('creates a store with defaults and renders times in the contract zone', async () => {
    const res = await t.api('POST', '/stores', { storeName: 'Shibuya', storeCode: 'SBY-01' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      storeId: '1001',
      storeName: 'Shibuya',
      storeCode: 'SBY-01',
      division: '0',
      pauseFlag: '0',
      ...DEFAULT_SETTINGS,
      insDateTime: '2026-11-22T10:00:00+09:00',
      updDateTime: '2026-11-22T10:00:00+09:00',
    });
  });

  it('takes the sales and closing settings on create and PATCH, decimals in their shortest form', async () => {
    const created = await t.api('POST', '/stores', {
      storeName: 'Ginza',
      pointGivingUnitPrice: '0200',
      pointGivingUnit: '1.50',
      closingMethod: '1',
      closingTime: '22:30',
      bankDepositAutoInput: '1',
      bankDepositAutoInputAmount: '30000.000',
    });
    expect(created.json()).toMatchObject({
      pointGivingUnitPrice: '200',
      pointGivingUnit: '1.5',
      pointGivingDivision: '1',
      closingMethod: '1',
      closingTime: '22:30',
      bankDepositAutoInput: '1',
      bankDepositAutoInputAmount: '30000',
    });
    const id = created.json().storeId;
    const patched = await t.api('PATCH', `/stores/${id}`, { cashInputAtSettlement: '1', mileageLabel: 'Sky miles', pointSpendDivision: '2' });
    expect(patched.json()).toMatchObject({ cashInputAtSettlement: '1', mileageLabel: 'Sky miles', pointSpendDivision: '2', closingTime: '22:30' });
    const cleared = await t.api('PATCH', `/stores/${id}`, { mileageLabel: '' });
    expect(cleared.json().mileageLabel).toBeNull();
  });

  it('refuses settings out of their ranges, naming each', async () => {
    const body = problem(
      await t.api('POST', '/stores', {
        storeName: 'Bad',
        pointGivingUnitPrice: '0',
        pointGivingUnit: '100000',
        closingTime: '24:00',
        pointGivingDivision: '5',
        bankDepositAutoInputAmount: '-1',
      }),
      400,
    );
    expect(body.detail).toContain('[pointGivingUnitPrice] must be an integer from 1 to 99999');
    expect(body.detail).toContain('[pointGivingUnit] must be a non-negative decimal string of up to 5 integer digits and up to 2 decimals');
    expect(body.detail).toContain('[closingTime] must be a time HH:MM from 00:00 to 23:59');
    expect(body.detail).toContain('[pointGivingDivision] must be one of 1, 2, 3, 4');
    expect(body.detail).toContain('[bankDepositAutoInputAmount]');
    expect(problem(await t.api('POST', '/stores', { storeName: 'X', pointGivingUnitPrice: '100000' }), 400).detail).toContain('[pointGivingUnitPrice]');
  });

  it('names every bad field', async () => {
    const body = problem(await t.api('POST', '/stores', { storeCode: 'with space', division: '7', extra: 1 }), 400);
    expect(body.title).toBe('Bad Request');
    expect(body.status).toBe(400);
    expect(body.detail).toContain('[storeName] is required');
    expect(body.detail).toContain('[storeCode]');
    expect(body.detail).toContain('[division] must be one of 0, 1, 2');
    expect(body.detail).toContain('[extra] is not a known field');
  });

  it('refuses a store code already used', async () => {
    await t.api('POST', '/stores', { storeName: 'A', storeCode: 'X1' });
    const body = problem(await t.api('POST', '/stores', { storeName: 'B', storeCode: 'X1' }), 400);
    expect(body.detail).toMatch(/^\[storeCode\] store code X1 is already used/);
  });

  it('patches only the keys sent and clears the code with null or ""', async () => {
    const { storeId } = (await t.api('POST', '/stores', { storeName: 'A', storeCode: 'X1' })).json();
    t.clock.advance(60_000);
    const res = await t.api('PATCH', `/stores/${storeId}`, { pauseFlag: '1', storeCode: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ storeName: 'A', storeCode: null, pauseFlag: '1', updDateTime: '2026-11-22T10:01:00+09:00' });
    problem(await t.api('PATCH', `/stores/${storeId}`, {}), 400);
    problem(await t.api('PATCH', '/stores/999999', { pauseFlag: '0' }), 404);
  });

  it('gets one and 404s an unknown one', async () => {
    const { storeId } = (await t.api('POST', '/stores', { storeName: 'A' })).json();
    expect((await t.api('GET', `/stores/${storeId}`)).json().storeName).toBe('A');
    expect(problem(await t.api('GET', '/stores/424242'), 404).detail).toBe('[store_id] store 424242 does not exist');
    expect(problem(await t.api('GET', '/stores/abc'), 400).detail).toContain('[store_id]');
  });

  it('lists with filters and sort', async () => {
    for (const [n, d] of [['C', '0'], ['A', '1'], ['B', '0']]) await t.api('POST', '/stores', { storeName: n, division: d });
    const res = await t.api('GET', '/stores?division=0&sort=storeName:desc');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((s: { storeName: string }) => s.storeName)).toEqual(['C', 'B']);
    expect(problem(await t.api('GET', '/stores?sort=nope'), 400).detail).toContain('[sort]');
  });
});

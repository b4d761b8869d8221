import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreRepo } from '../../server/masters/stores/repo.js';
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

/** The platform's store fields of a new store (division 1, no texts set). */
const DEFAULT_PLATFORM_FIELDS = {
  storeAbbr: null,
  printReceiptStoreName: null,
  printStockReceiptStoreName: null,
  division: '1',
  postCode: null,
  address: null,
  phoneNumber: null,
  faxNumber: null,
  mailAddress: null,
  homepage: null,
  tempTranMailAddress: null,
  priceChangeFlag: '1',
  sellDivision: '0',
  sumProcDivision: '0',
  sumDateChangeTime: '2359',
  sumRefColumn: '0',
  pointNotApplicable: '0',
  taxFreeDivision: '0',
  maxBundleProductCount: '9',
  maxDiscountRate: null,
  carriageDisplayFlag: '0',
  terminalAdjustmentCashFlag: '0',
  terminalCheckCashFlag: '0',
  waiterAdjustmentDivision: '0',
  savingAutoDivision: '0',
  savingAutoPrice: '0',
  cancelSettingDivision: '1',
  roundingDivision: '00',
  discountRoundingDivision: '0',
  cardCompanySelectDivision: '0',
  giftReceiptValidDays: null,
  taxLabelNormal: null,
  taxLabelReduce: null,
  pauseFlag: '0',
  displaySequence: null,
  facePaymentUseDivision: '0',
  invoiceRegistrationNo: null,
};

const pointConditionOf = (storeId: string) => ({
  storeId,
  pointUseDivision: '1',
  spendRate: '1',
  pointGivingUnitPrice: '100',
  pointGivingUnit: '1',
  pointGivingDivision: '1',
  pointUseUnit: null,
  pointSpendDivision: '1',
  pointSpendLimitDivision: '0',
  expireDivision: '0',
  expireLimit: null,
  mileageDivision: '0',
  mileageLimit: null,
});

const receiptPrintInfoOf = (storeId: string) => ({
  storeId,
  header: null,
  footer: null,
  receiptTaxOfficeStampComment: null,
  taxOfficeName: null,
  airPrintLogo: null,
  advertisementImage: null,
  giftReceiptImage: null,
  giftReceiptNote: null,
  discountReceiptHeader: null,
  discountReceiptFooter: null,
});

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
      ...DEFAULT_PLATFORM_FIELDS,
      ...DEFAULT_SETTINGS,
      insDateTime: '2026-11-22T10:00:00+09:00',
      updDateTime: '2026-11-22T10:00:00+09:00',
      pointCondition: pointConditionOf('1001'),
      receiptPrintInfo: receiptPrintInfoOf('1001'),
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
      // the platform's names of the same settings
      sumProcDivision: '1',
      sumDateChangeTime: '2230',
      savingAutoDivision: '1',
      savingAutoPrice: '30000',
      pointCondition: { pointGivingUnitPrice: '200', pointGivingUnit: '1.5', pointGivingDivision: '1' },
    });
    const id = created.json().storeId;
    const patched = await t.api('PATCH', `/stores/${id}`, { cashInputAtSettlement: '1', mileageLabel: 'Sky miles', pointSpendDivision: '2' });
    expect(patched.json()).toMatchObject({ cashInputAtSettlement: '1', terminalAdjustmentCashFlag: '1', mileageLabel: 'Sky miles', pointSpendDivision: '2', closingTime: '22:30' });
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
    expect(body.detail).toContain('[division] must be one of 1, 2');
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
    for (const [n, d] of [['C', '1'], ['A', '2'], ['B', '1']]) await t.api('POST', '/stores', { storeName: n, division: d });
    const res = await t.api('GET', '/stores?division=1&sort=storeName:desc');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((s: { storeName: string }) => s.storeName)).toEqual(['C', 'B']);
    expect(problem(await t.api('GET', '/stores?sort=nope'), 400).detail).toContain('[sort]');
  });
});

describe('stores: division as the platform has it (1 normal store, 2 warehouse)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  it('a store is 1 by default and a warehouse 2, on create, GET one and the list filter', async () => {
    const normal = (await t.api('POST', '/stores', { storeName: 'Shop' })).json();
    const warehouse = (await t.api('POST', '/stores', { storeName: 'Depot', division: '2' })).json();
    expect([normal.division, warehouse.division]).toEqual(['1', '2']);
    expect((await t.api('GET', `/stores/${warehouse.storeId}`)).json().division).toBe('2');
    const listed = (await t.api('GET', '/stores?division=2')).json() as { storeId: string; division: string }[];
    expect(listed.map((s) => [s.storeId, s.division])).toEqual([[warehouse.storeId, '2']]);
  });

  it('refuses the invented 0 and any other value, in bodies and the list filter', async () => {
    for (const division of ['0', 0, '3']) {
      expect(problem(await t.api('POST', '/stores', { storeName: 'X', division }), 400).detail).toBe('[division] must be one of 1, 2');
    }
    expect(problem(await t.api('GET', '/stores?division=0'), 400).detail).toBe('[division] must be one of 1, 2');
  });

  it('is fixed at registration: PATCH takes it back unchanged and refuses a change', async () => {
    const { storeId } = (await t.api('POST', '/stores', { storeName: 'Depot', division: '2' })).json();
    expect((await t.api('PATCH', `/stores/${storeId}`, { division: '2', storeName: 'Depot East' })).json()).toMatchObject({ division: '2', storeName: 'Depot East' });
    expect(problem(await t.api('PATCH', `/stores/${storeId}`, { division: '1' }), 400).detail).toBe(
      '[division] cannot be changed after registration (store 1001 is 2, a warehouse)',
    );
    expect((await t.api('GET', `/stores/${storeId}`)).json().division).toBe('2');
  });

  it('an order-receiving store (the order-shipment API\'s) is not served by /stores and has no daily closing', async () => {
    const repo = new StoreRepo(t.deps.db, t.deps.writer, t.deps.ids, t.deps.clock);
    const shop = (await t.api('POST', '/stores', { storeName: 'Shop' })).json();
    const orders = String(repo.create(t.contractId, { storeName: 'Web orders' }, { orderReceiving: true }).store_id);
    expect((await t.api('GET', '/stores')).json().map((s: { storeId: string }) => s.storeId)).toEqual([shop.storeId]);
    const detail = `[store_id] store ${orders} is an order-receiving store, which the order-shipment API serves`;
    expect(problem(await t.api('GET', `/stores/${orders}`), 404).detail).toBe(detail);
    expect(problem(await t.api('PATCH', `/stores/${orders}`, { storeName: 'X' }), 404).detail).toBe(detail);
    const closing = await t.api('POST', '/daily_summaries', { sumDate: '2026-11-22', storeId: orders });
    expect(problem(closing, 400).detail).toBe(`[storeId] store ${orders} is an order-receiving store and has no daily closing`);
  });
});

describe('stores: the platform\'s fields, pointCondition and receiptPrintInfo', () => {
  let t: TestApp;
  let storeId: string;
  beforeEach(async () => {
    t = await makeTestApp();
    storeId = (await t.api('POST', '/stores', { storeName: 'Shibuya', storeCode: 'SBY-01' })).json().storeId;
  });
  afterEach(() => t.close());

  it('GET one and the list add pointCondition and receiptPrintInfo only when asked with all', async () => {
    const plain = (await t.api('GET', `/stores/${storeId}`)).json();
    expect(plain).not.toHaveProperty('pointCondition');
    expect(plain).not.toHaveProperty('receiptPrintInfo');
    const none = (await t.api('GET', `/stores/${storeId}?with_point_condition=none&with_receipt_print_info=none`)).json();
    expect(Object.keys(none)).toEqual(Object.keys(plain));

    const both = (await t.api('GET', `/stores/${storeId}?with_point_condition=all&with_receipt_print_info=all`)).json();
    expect(both.pointCondition).toEqual(pointConditionOf(storeId));
    expect(both.receiptPrintInfo).toEqual(receiptPrintInfoOf(storeId));
    expect((await t.api('GET', `/stores/${storeId}?with_receipt_print_info=all`)).json()).not.toHaveProperty('pointCondition');

    const list = (await t.api('GET', '/stores?with_point_condition=all&with_receipt_print_info=all')).json();
    expect(list).toEqual([both]);
    expect((await t.api('GET', '/stores?with_point_condition=all')).json()[0]).not.toHaveProperty('receiptPrintInfo');
    expect(problem(await t.api('GET', `/stores/${storeId}?with_point_condition=yes`), 400).detail).toBe('[with_point_condition] must be one of all, none');
  });

  it('a store read with both with_* is written back unchanged: the objects as read, and the whole store as read', async () => {
    await t.api('PATCH', `/stores/${storeId}`, {
      storeAbbr: 'SBY',
      receiptPrintInfo: { header: 'Thank you', footer: 'See you', taxOfficeName: 'Shibuya' },
      pointCondition: { pointGivingUnitPrice: '200', expireDivision: '2', expireLimit: '12' },
    });
    const path = `/stores/${storeId}?with_point_condition=all&with_receipt_print_info=all`;
    const read = (await t.api('GET', path)).json();
    t.clock.advance(60_000);

    const objects = await t.api('PATCH', `/stores/${storeId}`, { pointCondition: read.pointCondition, receiptPrintInfo: read.receiptPrintInfo });
    expect(objects.statusCode, objects.body).toBe(200);
    const whole = await t.api('PATCH', `/stores/${storeId}`, read);
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json()).toEqual({ ...read, updDateTime: '2026-11-22T10:01:00+09:00' });
    expect((await t.api('GET', path)).json()).toEqual({ ...read, updDateTime: '2026-11-22T10:01:00+09:00' });
  });

  it('takes back what a Go or Python client decoded: divisions as numbers, flags as booleans', async () => {
    const body = {
      division: 1,
      priceChangeFlag: false,
      sellDivision: 1,
      maxBundleProductCount: 12,
      savingAutoPrice: 5000,
      pointCondition: {
        storeId: Number(storeId),
        pointUseDivision: 1,
        spendRate: 1.5,
        pointGivingUnitPrice: '100',
        pointGivingUnit: '1',
        pointGivingDivision: 3,
        pointUseUnit: 10,
        pointSpendDivision: 2,
        pointSpendLimitDivision: 1,
        expireDivision: 3,
        expireLimit: '2',
        mileageDivision: 0,
      },
    };
    const res = await t.api('PATCH', `/stores/${storeId}`, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      division: '1',
      priceChangeFlag: '0',
      sellDivision: '1',
      maxBundleProductCount: '12',
      savingAutoPrice: '5000',
      bankDepositAutoInputAmount: '5000',
      pointGivingDivision: '3',
      pointSpendDivision: '2',
      pointCondition: { ...pointConditionOf(storeId), spendRate: '1.5', pointGivingDivision: '3', pointUseUnit: '10', pointSpendDivision: '2', pointSpendLimitDivision: '1', expireDivision: '3', expireLimit: '2' },
    });
    const bad = problem(await t.api('PATCH', `/stores/${storeId}`, { pointCondition: { pointGivingDivision: 5, expireDivision: true } }), 400).detail;
    expect(bad).toContain('[pointCondition.pointGivingDivision] must be one of 1, 2, 3, 4');
    expect(bad).toContain('[pointCondition.expireDivision] must be one of 0, 1, 2, 3');
  });

  it('pointCondition writes the point settings the sales rules read: one source with the flat fields', async () => {
    const viaObject = await t.api('PATCH', `/stores/${storeId}`, {
      pointCondition: { pointGivingUnitPrice: '0300', pointGivingUnit: '2.50', pointGivingDivision: '2', pointSpendDivision: '2', mileageDivision: '1' },
    });
    expect(viaObject.json()).toMatchObject({ pointGivingUnitPrice: '300', pointGivingUnit: '2.5', pointGivingDivision: '2', pointSpendDivision: '2', mileageDivision: '1' });
    const row = t.deps.db.prepare('SELECT point_giving_unit_price, point_giving_unit, point_giving_division FROM stores WHERE store_id = ?').get(Number(storeId));
    expect(row).toEqual({ point_giving_unit_price: '300', point_giving_unit: '2.5', point_giving_division: '2' });

    const viaFlat = await t.api('PATCH', `/stores/${storeId}`, { pointGivingUnitPrice: '50', mileageDivision: '0' });
    expect(viaFlat.json().pointCondition).toMatchObject({ pointGivingUnitPrice: '50', mileageDivision: '0' });
    // the same value under both names is one setting; two values are a contradiction
    expect((await t.api('PATCH', `/stores/${storeId}`, { pointGivingUnit: '3', pointCondition: { pointGivingUnit: '3.00' } })).statusCode).toBe(200);
    expect(problem(await t.api('PATCH', `/stores/${storeId}`, { pointGivingDivision: '1', pointCondition: { pointGivingDivision: '4' } }), 400).detail).toBe(
      '[pointCondition.pointGivingDivision] contradicts pointGivingDivision (1): they are one setting; send one of them',
    );
  });

  it('the platform\'s closing names write the closing settings: sumProcDivision, sumDateChangeTime (HHMM), savingAuto*, terminalAdjustmentCashFlag', async () => {
    const res = await t.api('PATCH', `/stores/${storeId}`, {
      sumProcDivision: '1',
      sumDateChangeTime: '2130',
      savingAutoDivision: '1',
      savingAutoPrice: '20000',
      terminalAdjustmentCashFlag: '1',
    });
    expect(res.json()).toMatchObject({
      closingMethod: '1',
      closingTime: '21:30',
      bankDepositAutoInput: '1',
      bankDepositAutoInputAmount: '20000',
      cashInputAtSettlement: '1',
      sumDateChangeTime: '2130',
    });
    expect((await t.api('PATCH', `/stores/${storeId}`, { sumDateChangeTime: '06:05' })).json()).toMatchObject({ closingTime: '06:05', sumDateChangeTime: '0605' });
    expect(problem(await t.api('PATCH', `/stores/${storeId}`, { sumDateChangeTime: '2400' }), 400).detail).toBe(
      '[sumDateChangeTime] must be a time HHMM (or HH:MM) from 0000 to 2359',
    );
    expect(problem(await t.api('PATCH', `/stores/${storeId}`, { closingMethod: '0', sumProcDivision: '1' }), 400).detail).toBe(
      '[sumProcDivision] contradicts closingMethod (0): they are one setting; send one of them',
    );
  });

  it('stores the other platform fields and receipt texts; null or "" clears them', async () => {
    const set = await t.api('PATCH', `/stores/${storeId}`, {
      storeAbbr: 'SBY',
      printReceiptStoreName: 'Shibuya Store',
      postCode: '150-0002',
      address: 'Shibuya 1-1',
      phoneNumber: '03-0000-0000',
      mailAddress: 'shop@example.com',
      tempTranMailAddress: 'a@example.com, b@example.com',
      taxFreeDivision: '2',
      maxDiscountRate: '50.5',
      roundingDivision: '12',
      cancelSettingDivision: '3',
      displaySequence: '7',
      invoiceRegistrationNo: 'T1234567890123',
      receiptPrintInfo: { header: 'Welcome', discountReceiptFooter: 'Bye', airPrintLogo: null },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      storeAbbr: 'SBY',
      printReceiptStoreName: 'Shibuya Store',
      postCode: '150-0002',
      mailAddress: 'shop@example.com',
      taxFreeDivision: '2',
      maxDiscountRate: '50.5',
      roundingDivision: '12',
      cancelSettingDivision: '3',
      displaySequence: '7',
      invoiceRegistrationNo: 'T1234567890123',
      receiptPrintInfo: { header: 'Welcome', discountReceiptFooter: 'Bye', footer: null, airPrintLogo: null },
    });
    const cleared = (await t.api('PATCH', `/stores/${storeId}`, { storeAbbr: '', displaySequence: null, receiptPrintInfo: { header: null } })).json();
    expect([cleared.storeAbbr, cleared.displaySequence, cleared.receiptPrintInfo.header, cleared.receiptPrintInfo.discountReceiptFooter]).toEqual([null, null, null, 'Bye']);
    const bad = problem(
      await t.api('PATCH', `/stores/${storeId}`, { invoiceRegistrationNo: '123', maxDiscountRate: '101', roundingDivision: '14', mailAddress: 'nobody' }),
      400,
    ).detail;
    expect(bad).toContain('[invoiceRegistrationNo] must be T followed by 13 digits');
    expect(bad).toContain('[maxDiscountRate] must be at most 100');
    expect(bad).toContain('[roundingDivision] must be one of 00, 11, 12, 13, 21, 22, 23, 31, 32, 33, 41, 42, 43, 99');
    expect(bad).toContain('[mailAddress] must be a mail address');
  });

  it('POST takes pointCondition and receiptPrintInfo and answers them', async () => {
    const res = await t.api('POST', '/stores', {
      storeName: 'Ebisu',
      storeAbbr: 'EBS',
      pointCondition: { pointGivingUnitPrice: '1000', pointGivingUnit: '5', pointUseDivision: '0' },
      receiptPrintInfo: { footer: 'Come again' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().storeId;
    expect(res.json()).toMatchObject({
      storeAbbr: 'EBS',
      pointGivingUnitPrice: '1000',
      pointCondition: { storeId: id, pointGivingUnitPrice: '1000', pointGivingUnit: '5', pointUseDivision: '0' },
      receiptPrintInfo: { storeId: id, footer: 'Come again', header: null },
    });
    expect(problem(await t.api('POST', '/stores', { storeName: 'X', pointCondition: { storeId: '1' } }), 400).detail).toBe(
      '[pointCondition.storeId] is read-only: a store has no id before it is registered',
    );
  });

  it('read-only keys are accepted back unchanged and refused changed', async () => {
    const path = `/stores/${storeId}`;
    expect(problem(await t.api('PATCH', path, { storeId: '999' }), 400).detail).toBe(`[storeId] is read-only: this is store ${storeId}`);
    expect(problem(await t.api('PATCH', path, { pointCondition: { storeId: '999' } }), 400).detail).toBe(`[pointCondition.storeId] is read-only: this is store ${storeId}`);
    expect(problem(await t.api('PATCH', path, { receiptPrintInfo: { storeId: 999 } }), 400).detail).toBe(`[receiptPrintInfo.storeId] is read-only: this is store ${storeId}`);
    expect(problem(await t.api('PATCH', path, { receiptPrintInfo: { giftReceiptImage: 'https://example.com/a.png' } }), 400).detail).toBe(
      '[receiptPrintInfo.giftReceiptImage] is read-only: the platform sets it through its admin screen; send it back as read (null)',
    );
    expect(problem(await t.api('PATCH', path, { discountRoundingDivision: '1' }), 400).detail).toBe(
      "[discountRoundingDivision] is the contract's setting (0), changed with `contract set --discount-rounding`, not per store",
    );
    expect((await t.api('PATCH', path, { discountRoundingDivision: '0', storeId, insDateTime: '2020-01-01T00:00:00+09:00' })).statusCode).toBe(200);
    expect(problem(await t.api('PATCH', path, { pointCondition: { pointGivingUnit: '1', bonus: 1 } }), 400).detail).toBe('[pointCondition.bonus] is not a known field');
  });

  it('refuses a point expiry period without its unit', async () => {
    const detail = problem(await t.api('PATCH', `/stores/${storeId}`, { pointCondition: { expireLimit: '6' } }), 400).detail;
    expect(detail).toBe('[pointCondition.expireDivision] must not be 0 (none) while pointCondition.expireLimit is 6; send 1 days, 2 months or 3 years');
    expect((await t.api('GET', `/stores/${storeId}?with_point_condition=all`)).json().pointCondition.expireLimit).toBeNull();
    const ok = await t.api('PATCH', `/stores/${storeId}`, { pointCondition: { expireLimit: '6', expireDivision: '2' } });
    expect(ok.json().pointCondition).toMatchObject({ expireLimit: '6', expireDivision: '2' });
    expect(problem(await t.api('PATCH', `/stores/${storeId}`, { pointCondition: { expireDivision: '0' } }), 400).detail).toContain(
      '[pointCondition.expireDivision] must not be 0',
    );
  });
});

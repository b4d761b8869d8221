import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { problem } from '../helpers/app.js';
import { line, makeFixture, SALE_TIME, type Fixture } from './transactions-fixtures.js';

let f: Fixture;
beforeAll(async () => {
  f = await makeFixture();
});
afterAll(() => f.t.close());

const NOW = '2026-11-22T10:00:00+09:00'; // the test clock
const UUID_SECONDS = '795309200'; // last 9 digits of the test clock's epoch seconds

describe('POST /transactions: registration', () => {
  it('answers the stored transaction in the 2.13 shape with the header defaults', async () => {
    const changes: Change[] = [];
    f.t.deps.writer.onChange((c) => changes.push(c));
    const res = await f.post({ details: [line(1, '1000'), line(2, '500', { quantity: '2' })] });
    expect(res.statusCode).toBe(200);
    const t = res.json();
    expect(t).toMatchObject({
      transactionHeadDivision: '1',
      transactionDateTime: NOW,
      terminalTranDateTime: SALE_TIME,
      updDateTime: NOW,
      storeId: f.store,
      terminalId: f.terminal,
      cancelDivision: '0',
      sumDivision: '0',
      sumDate: null,
      adjustmentDateTime: null,
      disposeDivision: '0',
      disposeServerTransactionHeadId: null,
      cancelDateTime: null,
      sellDivision: '0',
      taxRate: '10',
      taxRounding: '1',
      discountRoundingDivision: '0',
      pointGivingDivision: '1',
      pointGivingUnitPrice: '100',
      pointGivingUnit: '1',
      pointSpendDivision: '1',
      mileageDivision: '0',
      mileageLabel: 'mile',
      taxFreeSalesDivision: '0',
      returnSales: '0',
      roundingDivision: '00',
      transactionUuid: `${UUID_SECONDS}${f.terminal}`,
      total: '2000',
      cashTotal: '2000',
      creditTotal: '0',
      deposit: '2000',
      depositCash: '2000',
      depositCredit: '0',
      change: '0',
      customerId: null,
      currentMile: null,
      depositOthers: [],
      coupons: [],
    });
    expect(t.details).toHaveLength(2);
    expect(t.details[1]).toMatchObject({
      transactionDetailId: '2',
      transactionDetailDivision: '1',
      productDivision: '0',
      taxDivision: '0',
      salesDivision: '0',
      calcDiscount: '1',
      pointNotApplicable: '0',
      taxRate: '10',
      standardTaxRate: '10',
      modifiedTaxRate: null,
      unitNonDiscountSum: '1000',
      unitDiscountedSum: '1000',
    });
    expect(changes).toEqual([{ contractId: 'test-contract', entity: 'transaction', id: t.transactionHeadId, op: 'insert' }]);
    const got = await f.t.api('GET', `/transactions/${t.transactionHeadId}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(t);
  });

  it('takes the tax rate valid at terminalTranDateTime, and the contract and store settings', async () => {
    const contracts = new ContractRepo(f.t.deps.db, f.t.deps.writer, f.t.clock);
    contracts.setSettings(f.t.contractId, { taxRounding: '0', discountRoundingDivision: '2' });
    const store = (
      await f.create('/stores', {
        storeName: 'Points',
        pointGivingDivision: '3',
        pointGivingUnitPrice: '200',
        pointGivingUnit: '1.5',
        pointSpendDivision: '2',
        mileageDivision: '1',
        mileageLabel: 'Sky',
      })
    ).storeId;
    const terminal = (await f.create('/terminals', { storeId: store, terminalName: 'P1' })).terminalId;
    const t = await f.sale({ storeId: store, terminalId: terminal, terminalTranDateTime: '2019-09-30T23:59:59+09:00', details: [line(1, '108')] });
    expect(t).toMatchObject({
      taxRate: '8',
      taxRounding: '0',
      discountRoundingDivision: '2',
      pointGivingDivision: '3',
      pointGivingUnitPrice: '200',
      pointGivingUnit: '1.5',
      pointSpendDivision: '2',
      mileageDivision: '1',
      mileageLabel: 'Sky',
      taxInclude: '8',
    });
    contracts.setSettings(f.t.contractId, { taxRounding: '1', discountRoundingDivision: '0' });
  });

  it('keeps what the body sends over the defaults', async () => {
    const t = await f.sale({
      details: [line(1, '1000')],
      taxRate: '8',
      taxRounding: '2',
      sellDivision: '1',
      transactionUuid: 'R-42',
      terminalTranId: 'T-9',
      memo: 'm'.repeat(1000),
      receiptMemo: 'r'.repeat(100),
      guestNumbers: '3',
      enterDateTime: '2026-11-22T09:30:00+09:00',
    });
    expect(t).toMatchObject({ taxRate: '8', taxRounding: '2', sellDivision: '1', transactionUuid: 'R-42', terminalTranId: 'T-9', guestNumbers: '3' });
    expect(t.enterDateTime).toBe('2026-11-22T09:30:00+09:00');
    expect(t.taxInclude).toBe('75'); // 1000 × 8 / 108 = 74.07, rounded up
    expect(t.details[0].taxRate).toBe('8');
  });

  it('needs the transactions scopes', async () => {
    const reader = await f.t.tokenFor({ scopes: ['pos.transactions:read'] });
    const res = await f.t.api('POST', '/transactions', { storeId: f.store, transactionHeadDivision: '2', total: '1' }, reader);
    expect(problem(res, 403).detail).toContain('pos.transactions:write');
    const writer = await f.t.tokenFor({ scopes: ['pos.transactions:write'] });
    expect(problem(await f.t.api('GET', '/transactions/1', undefined, writer), 403).detail).toContain('pos.transactions:read');
  });

  it('404 for an unknown transaction, 400 for a malformed id', async () => {
    expect(problem(await f.t.api('GET', '/transactions/999'), 404).detail).toBe('[transaction_id] transaction 999 does not exist');
    expect(problem(await f.t.api('GET', '/transactions/x'), 400).detail).toBe('[transaction_id] must be 1 to 9 digits');
  });
});

describe('POST /transactions: header rules', () => {
  it('transactionHeadDivision: supported, unsupported, hold and invalid', async () => {
    expect(await f.detail400({ transactionHeadDivision: undefined })).toBe('[transactionHeadDivision] is required');
    for (const d of ['8', '9', '11', '15', '16']) {
      expect(await f.detail400({ transactionHeadDivision: d })).toBe(`[transactionHeadDivision] ${d} is not supported by the API`);
    }
    expect(await f.detail400({ transactionHeadDivision: '10' })).toBe(
      '[transactionHeadDivision] layaways (10, 取置き) are registered through POST /transactions/layaways, not POST /transactions',
    );
    expect(await f.detail400({ transactionHeadDivision: '12' })).toBe('[transactionHeadDivision] must be one of 1, 2, 3, 4, 5, 6, 7, 13, 14');
  });

  it('a sale needs lines and terminalTranDateTime', async () => {
    expect(await f.detail400({})).toBe('[details] at least one line is required for a sale (transactionHeadDivision 1)');
    expect(await f.detail400({ details: [] })).toBe('[details] at least one line is required for a sale (transactionHeadDivision 1)');
    expect(await f.detail400({ terminalTranDateTime: undefined, details: [line(1, '1')] })).toBe(
      '[terminalTranDateTime] is required for a sale (transactionHeadDivision 1)',
    );
  });

  it('storeId must exist and not be suspended', async () => {
    expect(await f.detail400({ storeId: '999', details: [line(1, '1')] })).toBe('[storeId] store 999 does not exist');
    const paused = (await f.create('/stores', { storeName: 'Paused', pauseFlag: '1' })).storeId;
    expect(await f.detail400({ storeId: paused, details: [line(1, '1')] })).toBe(`[storeId] store ${paused} is suspended`);
  });

  it('a terminal that does not exist is accepted only on a closed transaction', async () => {
    expect(await f.detail400({ terminalId: '98765', details: [line(1, '1')] })).toBe(
      '[terminalId] terminal 98765 does not exist; a transaction of an unknown terminal must be registered as closed (sumDivision 2 with sumDate)',
    );
    expect(await f.detail400({ terminalId: undefined, details: [line(1, '1')] })).toBe(
      '[terminalId] is required unless the transaction is registered as closed (sumDivision 2 with sumDate): it could never be settled',
    );
    const t = await f.sale({
      terminalId: '98765',
      terminalTranDateTime: '2026-11-21T20:00:00+09:00',
      sumDivision: '2',
      sumDate: '2026-11-21',
      adjustmentDateTime: '2026-11-21T22:00:00+09:00',
      details: [line(1, '1')],
    });
    expect(t).toMatchObject({ terminalId: '98765', sumDivision: '2', sumDate: '2026-11-21', adjustmentDateTime: '2026-11-21T22:00:00+09:00' });
    expect(t.transactionUuid).toBe(`${UUID_SECONDS}8765`); // a terminal id over 4 digits: its last 4
    const none = await f.sale({ terminalId: undefined, sumDivision: '2', sumDate: '2026-11-22', details: [line(1, '1')] });
    expect(none.transactionUuid).toBe(`${UUID_SECONDS}0000`);
  });

  it('a terminal of another store is refused, closed or not', async () => {
    const other = (await f.create('/stores', { storeName: 'Elsewhere' })).storeId;
    const message = `[terminalId] terminal ${f.terminal} belongs to store ${f.store}, not to store ${other}`;
    expect(await f.detail400({ storeId: other, details: [line(1, '1')] })).toBe(message);
    expect(await f.detail400({ storeId: other, sumDivision: '2', sumDate: '2026-11-22', details: [line(1, '1')] })).toBe(message);
  });

  it('a closed transaction\'s sumDate lies between the sale date and today', async () => {
    const closed = { sumDivision: '2', details: [line(1, '1')] };
    expect(await f.detail400({ ...closed, sumDate: '2026-11-23' })).toBe('[sumDate] 2026-11-23 is after today (2026-11-22)');
    expect(await f.detail400({ ...closed, sumDate: '2026-11-21' })).toBe('[sumDate] 2026-11-21 is before the sale date 2026-11-22 (terminalTranDateTime)');
    // the sale date is the date in the contract's zone: 2026-11-21T23:30Z is 2026-11-22 in Tokyo
    expect(await f.detail400({ ...closed, terminalTranDateTime: '2026-11-21T23:30:00Z', sumDate: '2026-11-21' })).toBe(
      '[sumDate] 2026-11-21 is before the sale date 2026-11-22 (terminalTranDateTime)',
    );
    expect((await f.sale({ ...closed, terminalTranDateTime: '2026-11-20T12:00:00+09:00', sumDate: '2026-11-21' })).sumDate).toBe('2026-11-21');
  });

  it('mile fields need a member sale', async () => {
    expect(await f.detail400({ adjustmentMileDivision: '4', adjustmentMileValue: '2', details: [line(1, '1')] })).toBe(
      '[adjustmentMileDivision] can be set only on a member sale (customerId): without a member the mile fields are null',
    );
    expect(await f.detail400({ adjustmentMileValue: '2', details: [line(1, '1')] })).toBe(
      '[adjustmentMileValue] can be set only on a member sale (customerId): without a member the mile fields are null',
    );
    const t = await f.sale({ details: [line(1, '1')] });
    expect(t).toMatchObject({ adjustmentMileDivision: null, adjustmentMileValue: null, currentMile: null, earnMile: null, totalMile: null, adjustmentMile: null });
  });

  it('every detail line and other payment carries the transactionHeadId', async () => {
    const plain = (await f.create('/payment_methods', { paymentMethodCode: 'HID', paymentMethodName: 'QR', paymentDivision: '4' })).paymentMethodId;
    const t = await f.sale({ details: [line(1, '100'), line(2, '50')], depositOthers: [{ paymentMethodId: plain, depositOthers: '150' }] });
    expect(t.details.map((l: any) => l.transactionHeadId)).toEqual([t.transactionHeadId, t.transactionHeadId]);
    expect(t.depositOthers[0].transactionHeadId).toBe(t.transactionHeadId);
    expect((await f.api('GET', `/transactions/${t.transactionHeadId}`)).json()).toEqual(t);
  });

  it('sumDivision: 1 is refused, 2 needs sumDate, sumDate and adjustmentDateTime only when closed', async () => {
    expect(await f.detail400({ sumDivision: '1', details: [line(1, '1')] })).toBe(
      '[sumDivision] cannot be 1: transactions are settled through POST /adjustments',
    );
    expect(await f.detail400({ sumDivision: '3', details: [line(1, '1')] })).toBe('[sumDivision] must be 0 (unprocessed) or 2 (closed)');
    expect(await f.detail400({ sumDivision: '2', details: [line(1, '1')] })).toBe('[sumDate] is required when sumDivision is 2 (a closed transaction)');
    expect(await f.detail400({ sumDate: '2026-11-22', details: [line(1, '1')] })).toBe('[sumDate] can be set only on a closed transaction (sumDivision 2)');
    expect(await f.detail400({ adjustmentDateTime: NOW, details: [line(1, '1')] })).toBe(
      '[adjustmentDateTime] can be set only on a closed transaction (sumDivision 2)',
    );
  });

  it('staffId must exist; staffName comes from the staff master', async () => {
    expect(await f.detail400({ staffId: '999', details: [line(1, '1')] })).toBe('[staffId] staff 999 does not exist');
    const staff = (await f.create('/staffs', { staffName: 'Hanako Sato' })).staffId;
    const t = await f.sale({ staffId: staff, details: [line(1, '1')] });
    expect(t).toMatchObject({ staffId: staff, staffName: 'Hanako Sato' });
    expect(await f.detail400({ staffId: staff, staffName: 'X', details: [line(1, '1')] })).toBe('[staffName] is not a known field');
  });

  it('disposeDivision: 1 refused, 2 needs an existing disposeServerTransactionHeadId', async () => {
    expect(await f.detail400({ disposeDivision: '1', details: [line(1, '1')] })).toBe(
      '[disposeDivision] cannot be 1: a source is marked by POST /transactions/{transaction_id}/dispose',
    );
    expect(await f.detail400({ disposeDivision: '2', details: [line(1, '1')] })).toBe('[disposeServerTransactionHeadId] is required when disposeDivision is 2');
    expect(await f.detail400({ disposeDivision: '2', disposeServerTransactionHeadId: '999', details: [line(1, '1')] })).toBe(
      '[disposeServerTransactionHeadId] transaction 999 does not exist',
    );
    expect(await f.detail400({ disposeServerTransactionHeadId: '999', details: [line(1, '1')] })).toBe(
      '[disposeServerTransactionHeadId] can be set only when disposeDivision is 2',
    );
    const source = await f.sale({ details: [line(1, '100')] });
    const t = await f.sale({
      disposeDivision: '2',
      disposeServerTransactionHeadId: source.transactionHeadId,
      details: [line(1, '100', { transactionDetailDivision: '2' })],
    });
    expect(t).toMatchObject({ disposeDivision: '2', disposeServerTransactionHeadId: source.transactionHeadId, total: '-100', cashTotal: '-100' });
  });

  it('disposeDivision 2 return-cancels its source as 4.7 does; member points move once', async () => {
    const customerId = (await f.create('/customers', { customerCode: 'RC1', lastName: 'Mori', firstName: 'Aki', point: '100' })).customerId;
    const pointsOf = async () => (await f.api('GET', `/customers/${customerId}`)).json().point;
    const source = await f.sale({ customerId, details: [line(1, '1000')] });
    expect(await pointsOf()).toBe('110');
    const changes: Change[] = [];
    f.t.deps.writer.onChange((c) => changes.push(c));
    const cancelOf = (id: string) => ({ customerId, disposeDivision: '2', disposeServerTransactionHeadId: id, details: [line(1, '1000', { transactionDetailDivision: '2' })] });
    const ret = await f.sale(cancelOf(source.transactionHeadId));
    expect(ret).toMatchObject({ newPoint: '-10', point: '110', totalPoint: '100' });
    expect(await pointsOf()).toBe('100');
    expect((await f.api('GET', `/transactions/${source.transactionHeadId}`)).json()).toMatchObject({ disposeDivision: '1', cancelDateTime: NOW, updDateTime: NOW });
    expect(changes).toEqual(
      expect.arrayContaining([
        { contractId: 'test-contract', entity: 'transaction', id: ret.transactionHeadId, op: 'insert' },
        { contractId: 'test-contract', entity: 'transaction', id: source.transactionHeadId, op: 'update' },
      ]),
    );

    const field = '[disposeServerTransactionHeadId]';
    expect(await f.detail400(cancelOf(source.transactionHeadId))).toBe(`${field} transaction ${source.transactionHeadId} has already been return-cancelled`);
    expect(await f.detail400(cancelOf(ret.transactionHeadId))).toBe(
      `${field} transaction ${ret.transactionHeadId} is itself a return-cancel (of transaction ${source.transactionHeadId}) and cannot be return-cancelled`,
    );
    const cancelled = await f.sale({ cancelDivision: '1', details: [line(1, '1000')] });
    expect(await f.detail400(cancelOf(cancelled.transactionHeadId))).toBe(
      `${field} transaction ${cancelled.transactionHeadId} is cancelled (cancelDivision 1): it moved no cash or points and cannot be return-cancelled`,
    );
    // and 4.7 refuses the source now
    expect(problem(await f.api('POST', `/transactions/${source.transactionHeadId}/dispose`), 400).detail).toBe(
      `[transaction_id] transaction ${source.transactionHeadId} has already been return-cancelled`,
    );
    expect(await pointsOf()).toBe('100');
  });

  it('a cancelled transaction gets cancelDateTime', async () => {
    const t = await f.sale({ cancelDivision: '1', details: [line(1, '1')] });
    expect(t).toMatchObject({ cancelDivision: '1', cancelDateTime: NOW });
  });

  it('refuses unknown keys, numbers for strings and over-long memos', async () => {
    expect(await f.detail400({ details: [line(1, '1')], colour: 'red' })).toBe('[colour] is not a known field');
    expect(await f.detail400({ details: [line(1, '1')], total: 100 })).toBe('[total] Invalid input: expected string, received number');
    expect(await f.detail400({ details: [line(1, '1')], memo: 'm'.repeat(1001) })).toBe('[memo] must be at most 1000 characters');
    expect(await f.detail400({ details: [line(1, '1')], receiptMemo: 'r'.repeat(101) })).toBe('[receiptMemo] must be at most 100 characters');
    expect(await f.detail400({ details: [line(1, '1')], pointGivingUnitPrice: '0' })).toBe('[pointGivingUnitPrice] must be from 1 to 99999');
    expect(await f.detail400({ details: [line(1, '1')], pointGivingUnitPrice: '100000' })).toBe(
      '[pointGivingUnitPrice] must be a non-negative decimal string of up to 5 integer digits and no decimals',
    );
    expect(await f.detail400({ details: [line(1, '1')], pointGivingUnit: '0.001' })).toBe(
      '[pointGivingUnit] must be a non-negative decimal string of up to 5 integer digits and up to 2 decimals',
    );
    expect(await f.detail400({ details: [line(1, '1')], taxRate: '100.5' })).toBe('[taxRate] must be at most 100');
    expect(await f.detail400({ details: [line(1, '1')], spendPoint: '1234567890' })).toBe(
      '[spendPoint] must be a signed decimal string of up to 9 integer digits and no decimals',
    );
  });
});

describe('POST /transactions: deposits, withdrawals, points and miles without lines', () => {
  it('stores the sent total of a deposit, withdrawal or custody transaction', async () => {
    for (const division of ['2', '3', '4', '5']) {
      const t = await f.sale({ transactionHeadDivision: division, terminalTranDateTime: undefined, total: '5000', memo: 'float' });
      expect(t).toMatchObject({ transactionHeadDivision: division, total: '5000', cashTotal: '5000', change: '0', subtotal: '0', terminalTranDateTime: NOW, details: [] });
    }
    expect(await f.detail400({ transactionHeadDivision: '2' })).toBe('[total] is required when no details are sent');
    expect(await f.detail400({ transactionHeadDivision: '3', total: '-1' })).toBe(
      '[total] must not be negative: deposits, withdrawals and custody amounts are sent positive',
    );
    expect(await f.detail400({ transactionHeadDivision: '2', total: '100', subtotal: '100' })).toBe('[subtotal] sent 100 but the server computes 0');
  });

  it('point and mile transactions need a member; their points and miles are as sent', async () => {
    expect(await f.detail400({ transactionHeadDivision: '6', total: '0', newPoint: '10' })).toBe(
      '[customerId] is required for transactionHeadDivision 6 (points and miles of a member)',
    );
    const customer = (await f.create('/customers', { customerCode: 'PT1', lastName: 'Yamada', firstName: 'Taro', point: '100', mile: '7' })).customerId;
    const added = await f.sale({ transactionHeadDivision: '6', customerId: customer, total: '0', newPoint: '25' });
    expect(added).toMatchObject({ newPoint: '25', spendPoint: '0', point: '100', totalPoint: '125', currentMile: null });
    const taken = await f.sale({ transactionHeadDivision: '7', customerId: customer, total: '0', spendPoint: '5', totalPoint: '120' });
    expect(taken).toMatchObject({ point: '125', totalPoint: '120' });
    expect(await f.detail400({ transactionHeadDivision: '6', customerId: customer, total: '0', newPoint: '1.5' })).toBe(
      '[newPoint] must be a non-negative decimal string of up to 9 integer digits and no decimals',
    );
    expect(await f.detail400({ transactionHeadDivision: '13', customerId: customer, total: '0', earnMile: '3' })).toBe(
      '[earnMile] miles are kept only for a member (customerId) with mileageDivision 1 or 2',
    );
    const miles = await f.sale({ transactionHeadDivision: '13', customerId: customer, total: '0', mileageDivision: '1', earnMile: '3', adjustmentMile: '-1' });
    expect(miles).toMatchObject({ currentMile: '7', earnMile: '3', adjustmentMile: '-1', totalMile: '9' });
    const member = (await f.t.api('GET', `/customers/${customer}`)).json();
    expect(member).toMatchObject({ point: '120', mile: '9' });
  });
});

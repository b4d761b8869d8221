import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAutoClosing } from '../../server/jobs/auto-closing.js';
import type { DailySummary, DailySummaryWithReport } from '../../server/sales/closing/closing-schema.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { at, cashMove, closeDay, DAY, makeStore, makeTerminal, NO_CASH, ok, returnCancel, sale, settle, startAt } from '../jobs/closing-fixtures.js';

/** The day's report of a closing (issue 10, item 7), through the API as a register and the back office use it. */

let base: TestApp;
let t: TestApp;
let store: string;
let r1: string;
let r2: string;
beforeEach(async () => {
  base = await makeTestApp();
  t = await startAt(base, at('23:00:00'));
  store = await makeStore(t);
  r1 = await makeTerminal(t, store, 'R1');
  r2 = await makeTerminal(t, store, 'R2');
});
afterEach(() => base.close());

const summary = async (storeId = store, date = DAY): Promise<DailySummaryWithReport> => ok(t, 'GET', `/daily_summaries/${storeId}/${date}`);

type Line = Record<string, string>;
/** A line of `salesPrice` × `quantity`; tax-included 10 % unless told. */
const item = (id: number, salesPrice: string, o: Line = {}): Line => ({
  transactionDetailId: String(id),
  transactionDetailDivision: '1',
  productName: `Item ${id}`,
  salesPrice,
  quantity: '1',
  taxDivision: '0',
  taxRate: '10',
  ...o,
});

/** A sale (transactionHeadDivision 1) as a register sends it; the rest of the body (payments, discounts, tips) as given. */
async function sell(terminalId: string, time: string, details: Line[], body: Record<string, unknown> = {}, date = DAY): Promise<string> {
  return (
    await ok(t, 'POST', '/transactions', {
      transactionHeadDivision: '1',
      storeId: store,
      terminalId,
      terminalTranDateTime: at(time, date),
      details,
      ...body,
    })
  ).transactionHeadId;
}

const method = async (body: Record<string, string>): Promise<string> => (await ok(t, 'POST', '/payment_methods', body)).paymentMethodId;

/**
 * The day of the domain tests through the API. R1: A cash 2 × 1,100 with a 100 cash tip; B card,
 * 1,000 at 10 % and 540 at 8 % less a 154 subtotal discount, 50 card tip; C a tax-excluded 1,000
 * less 100 (tax 90) paid 1 voucher of 500, 300 by QR and 190 cash; D 1,100 sold and 550 returned;
 * E a cancelled 3,000; F a 10,000 deposit; G a 2,000 withdrawal. R2: H 1,083 at 8 % rounded down
 * to 1,080; I the return-cancel of X, yesterday's 2 × 1,100 sale closed with yesterday.
 */
async function dayOfSales(): Promise<{ voucher: string; qr: string }> {
  const voucher = await method({ paymentMethodCode: 'V500', paymentMethodName: 'Voucher 500', paymentDivision: '1', paymentUnitPrice: '500' });
  const qr = await method({ paymentMethodCode: 'QR', paymentMethodName: 'QR code', paymentDivision: '4' });
  const x = await sell(r2, '18:00:00', [item(1, '1100', { quantity: '2' })], {}, '2026-11-21');
  await settle(t, { storeId: store, terminalId: r2 });
  await ok(t, 'POST', '/daily_summaries', { sumDate: '2026-11-21', storeId: store, cashInfo: NO_CASH });

  await sell(r1, '09:00:00', [item(1, '1100', { quantity: '2' })], { tipCash: '100' });
  await sell(r1, '09:10:00', [item(1, '1000'), item(2, '540', { taxRate: '8' })], { subtotalDiscountPrice: '154', creditTotal: '1386', tipCredit: '50' });
  await sell(r1, '09:20:00', [item(1, '1000', { unitDiscountPrice: '100', taxDivision: '1' })], {
    depositOthers: [
      { paymentMethodId: voucher, depositOthers: '1' },
      { paymentMethodId: qr, depositOthers: '300' },
    ],
  });
  await sell(r1, '09:30:00', [item(1, '1100'), item(2, '550', { transactionDetailDivision: '2' })]);
  await sell(r1, '09:40:00', [item(1, '3000')], { cancelDivision: '1' });
  await cashMove(t, '2', { storeId: store, terminalId: r1, at: at('09:50:00'), amount: '10000' });
  await cashMove(t, '3', { storeId: store, terminalId: r1, at: at('10:00:00'), amount: '2000' });
  await sell(r2, '10:10:00', [item(1, '1083', { taxRate: '8' })], { roundingDivision: '12' });
  await returnCancel(t, x, at('10:20:00'));
  await settle(t, { storeId: store, terminalId: r1 });
  await settle(t, { storeId: store, terminalId: r2 });
  return { voucher, qr };
}

const ZERO_MOVES = { deposits: '0', withdrawals: '0', custodyMoney: '0', custodyRefunds: '0' };

describe('GET /daily_summaries/{store_id}/{sum_date}: the report', () => {
  it('gives the store\'s and each register\'s sales, discounts, tax per rate, payments, tips, counts and cash moves, hand-computed', async () => {
    const { voucher, qr } = await dayOfSales();
    await ok(t, 'POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: NO_CASH });
    const closed = await summary();
    // the cash count of before stays: cash 1,820 + cash tip 100 + deposit 10,000 − withdrawal 2,000
    expect(closed).toMatchObject({ transactionCount: '9', cashSalesTotal: '9920', terminalIdList: [r1, r2] });
    expect(closed.report.store).toEqual({
      counts: { transactions: '9', sales: '4', returns: '1', returnCancels: '1', cancelled: '1', deposits: '1', withdrawals: '1', custodyMoney: '0', custodyRefunds: '0' },
      sales: {
        grossSales: '4723', // 2200 + 1540 + 1000 + 1100 + 1083 − 2200
        returns: '550',
        discounts: { line: '100', subtotal: '154', point: '0', coupon: '0', rounding: '3', total: '257' },
        netSales: '3916', // 4723 − 550 − 257
        taxExcluded: '90',
        commission: '0',
        carriage: '0',
        taxFree: '0',
        total: '4006', // 2200 + 1386 + 990 + 550 + 1080 − 2200 = 3916 + 90
        nonTaxableSales: '0',
        nonSalesTargetTotal: '0',
        returnCancelTotal: '-2200',
        cancelledTotal: '3000',
        quantity: '5',
        returnQuantity: '1',
      },
      taxes: [
        { taxRate: '8', taxIncludedSales: '1569', taxIncluded: '116', taxExcludedSales: '0', taxExcluded: '0', taxableBase: '1453', tax: '116' },
        { taxRate: '10', taxIncludedSales: '1450', taxIncluded: '131', taxExcludedSales: '900', taxExcluded: '90', taxableBase: '2219', tax: '221' },
      ],
      payments: {
        cash: '1820', // 2200 + 190 + 550 + 1080 − 2200
        credit: '1386',
        others: [
          { paymentMethodId: voucher, paymentMethodCode: 'V500', paymentMethodName: 'Voucher 500', amount: '500' },
          { paymentMethodId: qr, paymentMethodCode: 'QR', paymentMethodName: 'QR code', amount: '300' },
        ],
        tipCash: '100',
        tipCredit: '50',
      },
      cashMoves: { ...ZERO_MOVES, deposits: '10000', withdrawals: '2000' },
    });
    expect(closed.report.terminals.map((r) => r.terminalId)).toEqual([r1, r2]);
    const [first, second] = closed.report.terminals;
    expect(first).toMatchObject({
      counts: { transactions: '7', sales: '3', returns: '1', returnCancels: '0', cancelled: '1', deposits: '1', withdrawals: '1' },
      sales: { grossSales: '5840', returns: '550', netSales: '5036', total: '5126' },
      payments: { cash: '2940', credit: '1386', tipCash: '100', tipCredit: '50' },
      cashMoves: { ...ZERO_MOVES, deposits: '10000', withdrawals: '2000' },
    });
    expect(second).toMatchObject({
      counts: { transactions: '2', sales: '1', returns: '0', returnCancels: '1', cancelled: '0' },
      sales: { grossSales: '-1117', discounts: { rounding: '3', total: '3' }, netSales: '-1120', total: '-1120', returnCancelTotal: '-2200' },
      taxes: [
        { taxRate: '8', taxIncludedSales: '1083', taxIncluded: '80', taxExcludedSales: '0', taxExcluded: '0', taxableBase: '1003', tax: '80' },
        { taxRate: '10', taxIncludedSales: '-2200', taxIncluded: '-200', taxExcludedSales: '0', taxExcluded: '0', taxableBase: '-2000', tax: '-200' },
      ],
      payments: { cash: '-1120', credit: '0', others: [] },
    });
    // yesterday's closing reported X as a sale
    expect((await summary(store, '2026-11-21')).report.store.sales).toMatchObject({ grossSales: '2200', total: '2200' });
  });

  it('sums fractional quantities and prices exactly', async () => {
    // 300.003 × 0.333 = 99.900999 and 1000.5 × 1.001 = 1001.5005, non-taxable, each rounded down to tens
    await sell(r1, '09:00:00', [item(1, '300.003', { quantity: '0.333', taxDivision: '2' })], { roundingDivision: '12' });
    await sell(r1, '09:10:00', [item(1, '1000.5', { quantity: '1.001', taxDivision: '2' })], { roundingDivision: '12' });
    await settle(t, { storeId: store, terminalId: r1 });
    await ok(t, 'POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: NO_CASH });
    expect((await summary()).report.store.sales).toMatchObject({
      grossSales: '1101.401499',
      discounts: { line: '0', subtotal: '0', point: '0', coupon: '0', rounding: '11.401499', total: '11.401499' },
      netSales: '1090',
      total: '1090',
      nonTaxableSales: '1101.401499',
      quantity: '1.334',
    });
  });

  it('an empty day has a report of zeros; the list of closings does not carry reports', async () => {
    await ok(t, 'POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: NO_CASH });
    const { report } = await summary();
    expect(report.terminals).toEqual([]);
    expect(report.store.counts.transactions).toBe('0');
    expect(report.store.sales.total).toBe('0');
    const [listed] = (await ok(t, 'GET', '/daily_summaries')) as DailySummary[];
    expect(listed).not.toHaveProperty('report');
  });
});

describe('the report stays with its closing', () => {
  it('a release and a re-close of the same transactions give the same figures; the released closing keeps its report', async () => {
    await dayOfSales();
    await ok(t, 'POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: NO_CASH });
    const first = await summary();
    t.clock.advance(60_000);
    const released = (await ok(t, 'POST', `/daily_summaries/${store}/${DAY}/release`)) as DailySummaryWithReport;
    expect(released.report).toEqual(first.report);
    await ok(t, 'POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: NO_CASH });
    const again = await summary();
    expect(again.dailySummaryId).not.toBe(first.dailySummaryId);
    expect(again.report).toEqual(first.report);

    // a sale settled after the release is closed with the next closing, and only there
    await ok(t, 'POST', `/daily_summaries/${store}/${DAY}/release`);
    await sell(r1, '22:00:00', [item(1, '500')]);
    await settle(t, { storeId: store, terminalId: r1 });
    await ok(t, 'POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: NO_CASH });
    const third = await summary();
    expect(third.report.store.counts).toMatchObject({ transactions: '10', sales: '5' });
    expect(third.report.store.sales).toMatchObject({ grossSales: '5223', total: '4506' });
  });

  it('the automatic closing stores the report too', async () => {
    const auto = await makeStore(t, { closingMethod: '1', closingTime: '23:30' }, 'Auto');
    const register = await makeTerminal(t, auto);
    await sale(t, { storeId: auto, terminalId: register, at: at('20:00:00'), amount: '3000', creditTotal: '1000' });
    await settle(t, { storeId: auto, terminalId: register });
    t.clock.set(at('23:30:00'));
    expect(runAutoClosing(t.deps, new Date(at('23:30:00')))).toEqual([{ contractId: t.contractId, storeId: auto, sumDate: DAY, result: 'closed' }]);
    const stored = t.deps.db.prepare('SELECT report FROM daily_summaries WHERE contract_id = ? AND store_id = ?').get(t.contractId, Number(auto)) as { report: string };
    const report = JSON.parse(stored.report) as DailySummaryWithReport['report'];
    expect(report.store.counts).toMatchObject({ transactions: '1', sales: '1' });
    expect(report.store.sales).toMatchObject({ grossSales: '3000', nonTaxableSales: '3000', total: '3000' });
    expect(report.store.payments).toMatchObject({ cash: '2000', credit: '1000' });
    expect(report.terminals.map((r) => r.terminalId)).toEqual([register]);
    expect((await summary(auto)).report).toEqual(report);
  });

  it('a closing made before the report existed (migration 0017) answers the report of the transactions it closed', async () => {
    await dayOfSales();
    await ok(t, 'POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: NO_CASH });
    const stored = await summary();
    t.deps.db.prepare('UPDATE daily_summaries SET report = NULL WHERE contract_id = ?').run(t.contractId);
    expect((await summary()).report).toEqual(stored.report);
  });

  it('a decimal finer than the grouped SQL sums keep is still summed exactly', async () => {
    await sell(r1, '09:00:00', [item(1, '1100')]);
    await sell(r1, '09:10:00', [item(1, '550')]);
    await settle(t, { storeId: store, terminalId: r1 });
    await ok(t, 'POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: NO_CASH });
    expect((await summary()).report.store.sales.grossSales).toBe('1650');
    // written by something other than this server's registration (which keeps at most 8 decimals)
    t.deps.db.prepare("UPDATE transaction_details SET unit_non_discount_sum = '1100.0000000000001' WHERE contract_id = ? AND unit_non_discount_sum = '1100'").run(t.contractId);
    t.deps.db.prepare('UPDATE daily_summaries SET report = NULL WHERE contract_id = ?').run(t.contractId);
    expect((await summary()).report.store.sales).toMatchObject({ grossSales: '1650.0000000000001', total: '1650' });
  });
});

describe('OpenAPI', () => {
  it('documents the report on GET /daily_summaries/{store_id}/{sum_date} and the release', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: { $ref?: string } }> }> }>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const path = Object.keys(doc.paths).find((p) => p.endsWith('/daily_summaries/{store_id}/{sum_date}'))!;
    const schema = doc.paths[path]!.get!.responses['200']!.content['application/json']!.schema;
    expect(schema.$ref).toMatch(/DailySummaryWithReport$/);
    expect(doc.components.schemas.DailySummaryWithReport!.properties).toHaveProperty('report');
    expect(Object.keys(doc.components.schemas.DailySummaryReportFigures!.properties)).toEqual(['counts', 'sales', 'taxes', 'payments', 'cashMoves']);
  });
});

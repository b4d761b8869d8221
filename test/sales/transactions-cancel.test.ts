import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { problem } from '../helpers/app.js';
import { line, makeFixture, SALE_TIME, type Fixture } from './transactions-fixtures.js';

/**
 * POST /transactions/{transaction_id}/cancel (取引取消, issue 26): the sale becomes cancelled
 * (cancelDivision 1) with no offsetting record; its stock and member points go back once; the
 * day's closing no longer counts it; a closed day refuses it as every write on a closed day.
 */

const DAY = '2026-11-22';
const LATER = '2026-11-22T10:01:00+09:00';

let f: Fixture;
let product: string;
beforeEach(async () => {
  // Retail Business: the stock routes are served to it, and it is one of the five plans of the cancel.
  f = await makeFixture('retail_business');
  product = (await f.create('/products', { categoryId: f.category, productCode: 'P1', productName: 'Tea', price: '300' })).productId;
});
afterEach(() => f.t.close());

/** The request a platform client sends: POST with the JSON body `{}` (the MCP client's recipe). */
const cancel = (id: string, payload: unknown = {}) =>
  f.t.app.inject({
    method: 'POST',
    url: `/${f.t.contractId}/pos/transactions/${id}/cancel`,
    headers: { authorization: `Bearer ${f.t.token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
const ok = async (method: string, path: string, body?: unknown) => {
  const res = await f.api(method, path, body);
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
  return res.json();
};
const stockChanges = async () =>
  ((await ok('GET', `/stock/changes/${product}/${f.store}`)) as Record<string, string>[]).map((c) => [c.stockDivision, c.amount, c.stockAmount]);
const balance = async (customerId: string) => {
  const c = await ok('GET', `/customers/${customerId}`);
  return { point: c.point, mile: c.mile };
};
const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });

describe('POST /transactions/{transaction_id}/cancel', () => {
  it('cancels the sale: cancelDivision 1 and cancelDateTime, its stock and the member points go back, reported as an update', async () => {
    await ok('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '10' });
    const customerId = (await f.create('/customers', { customerCode: 'M1', lastName: 'Sato', firstName: 'Hanako', point: '50', mile: '3' })).customerId;
    const sale = await f.sale({
      customerId,
      spendPoint: '10',
      pointDiscount: '10',
      mileageDivision: '1',
      adjustmentMileDivision: '3',
      adjustmentMileValue: '4',
      details: [line(1, '300', { productId: product, quantity: '2' }), line(2, '100', { productId: product, transactionDetailDivision: '2' })],
    });
    // 600 − 100 returned = 500, − 10 points: 5 points granted on 500, 10 spent; 4 miles added.
    expect(sale).toMatchObject({ total: '490', newPoint: '5', spendPoint: '10', totalPoint: '45', adjustmentMile: '4', totalMile: '7' });
    expect(await balance(customerId)).toEqual({ point: '45', mile: '7' });
    expect(await stockChanges()).toEqual([
      ['15', '10', '10'],
      ['02', '-2', '8'],
      ['12', '1', '9'],
    ]);

    f.t.clock.advance(60_000);
    const changes: Change[] = [];
    f.t.deps.writer.onChange((c) => changes.push(c));
    const res = await cancel(sale.transactionHeadId);
    expect(res.statusCode).toBe(200);
    const cancelled = res.json();
    // The sale itself, as it was, now cancelled: no new transaction, no negated copy.
    expect(cancelled).toEqual({ ...sale, cancelDivision: '1', cancelDateTime: LATER, updDateTime: LATER });
    expect(await ok('GET', `/transactions/${sale.transactionHeadId}`)).toMatchObject({ cancelDivision: '1', cancelDateTime: LATER, disposeDivision: '0' });
    const list = await ok('GET', `/transactions?terminal_tran_date_time-from=${encodeURIComponent(SALE_TIME)}&terminal_tran_date_time-to=${encodeURIComponent(LATER)}`);
    expect(list.map((t: { transactionHeadId: string }) => t.transactionHeadId)).toEqual([sale.transactionHeadId]);

    // Each stock movement of the sale is taken back under its own division; the quantity is as before the sale.
    expect(await stockChanges()).toEqual([
      ['15', '10', '10'],
      ['02', '-2', '8'],
      ['12', '1', '9'],
      ['02', '2', '11'],
      ['12', '-1', '10'],
    ]);
    // Points given and spent, and the miles added, go back, recorded against the sale.
    expect(await balance(customerId)).toEqual({ point: '50', mile: '3' });
    const movements = f.t.deps.db
      .prepare('SELECT cause, point_delta, mile_delta, transaction_head_id FROM customer_point_movements WHERE customer_id = ? ORDER BY movement_id')
      .all(Number(customerId));
    expect(movements.slice(-1)).toEqual([{ cause: 'sale_cancel', point_delta: '5', mile_delta: '-4', transaction_head_id: Number(sale.transactionHeadId) }]);
    expect(changes.filter((c) => c.entity === 'transaction')).toEqual([{ contractId: f.t.contractId, entity: 'transaction', id: sale.transactionHeadId, op: 'update' }]);

    // A retry finds it cancelled: refused, and nothing moves again.
    f.t.clock.advance(60_000);
    expect(problem(await cancel(sale.transactionHeadId), 400)).toEqual(bad(`[transaction_id] transaction ${sale.transactionHeadId} is already cancelled (cancelDivision 1)`));
    expect((await stockChanges()).length).toBe(5);
    expect(await balance(customerId)).toEqual({ point: '50', mile: '3' });
    expect((await ok('GET', `/transactions/${sale.transactionHeadId}`)).cancelDateTime).toBe(LATER);
    // A cancelled sale cannot be return-cancelled afterwards either (it moved no cash or points).
    expect(problem(await f.api('POST', `/transactions/${sale.transactionHeadId}/dispose`), 400).detail).toMatch(/is cancelled \(cancelDivision 1\)/);
  });

  it('a body may be empty or absent; any field is a 400', async () => {
    const a = await f.sale({ details: [line(1, '100')] });
    const none = await f.t.app.inject({ method: 'POST', url: `/${f.t.contractId}/pos/transactions/${a.transactionHeadId}/cancel`, headers: { authorization: `Bearer ${f.t.token}` } });
    expect(none.json()).toMatchObject({ transactionHeadId: a.transactionHeadId, cancelDivision: '1' });
    const b = await f.sale({ details: [line(1, '100')] });
    expect(problem(await cancel(b.transactionHeadId, { reason: 'typo' }), 400).detail).toMatch(/reason/);
    expect((await ok('GET', `/transactions/${b.transactionHeadId}`)).cancelDivision).toBe('0');
  });

  it('the closing no longer counts a cancelled sale; a sale of a closed day is refused until the closing is released', async () => {
    const kept = await f.sale({ details: [line(1, '1000')], depositCash: '1000' });
    const voided = await f.sale({ details: [line(1, '500')], depositCash: '500' });
    expect((await cancel(voided.transactionHeadId)).statusCode).toBe(200);
    f.t.clock.advance(60_000);
    await ok('POST', '/adjustments', { storeId: f.store, terminalId: f.terminal });
    const close = () => f.api('POST', '/daily_summaries', { sumDate: DAY, storeId: f.store, cashInfo: { preparationCash: '0', saving: '0' } });
    expect((await close()).statusCode).toBe(200);
    const summary = await ok('GET', `/daily_summaries/${f.store}/${DAY}`);
    expect(summary).toMatchObject({ cashSalesTotal: '1000' });
    expect(summary.report.store.counts).toMatchObject({ transactions: '2', sales: '1', cancelled: '1' });
    expect(summary.report.store.sales).toMatchObject({ grossSales: '1000', netSales: '1000', total: '1000', cancelledTotal: '500' });

    // The kept sale is in the closed day now: refused exactly as a member change of a closed sale.
    const closedDay = bad(
      `[transaction_id] transaction ${kept.transactionHeadId} belongs to the closed day ${DAY} of store ${f.store} (sumDivision 2): ` +
        `release the closing first (POST /daily_summaries/${f.store}/${DAY}/release)`,
    );
    expect(problem(await cancel(kept.transactionHeadId), 400)).toEqual(closedDay);
    expect((await ok('GET', `/transactions/${kept.transactionHeadId}`)).cancelDivision).toBe('0');

    // Released, the sale can be cancelled; the next closing of the day counts no sale.
    expect((await f.api('POST', `/daily_summaries/${f.store}/${DAY}/release`)).statusCode).toBe(200);
    expect((await cancel(kept.transactionHeadId)).json()).toMatchObject({ cancelDivision: '1', sumDivision: '1' });
    expect((await close()).statusCode).toBe(200);
    const again = await ok('GET', `/daily_summaries/${f.store}/${DAY}`);
    expect(again.report.store.counts).toMatchObject({ sales: '0', cancelled: '2' });
    expect(again.report.store.sales).toMatchObject({ grossSales: '0', total: '0', cancelledTotal: '1500' });
  });

  it('a sale registered closed (sumDivision 2) is of a closed day', async () => {
    const closed = await f.sale({ terminalId: '999999', sumDivision: '2', sumDate: DAY, details: [line(1, '100')] });
    expect(problem(await cancel(closed.transactionHeadId), 400)).toEqual(
      bad(
        `[transaction_id] transaction ${closed.transactionHeadId} belongs to the closed day ${DAY} of store ${f.store} (sumDivision 2): ` +
          `release the closing first (POST /daily_summaries/${f.store}/${DAY}/release)`,
      ),
    );
  });

  it('refuses what is not a plain sale, naming transaction_id; an unknown id is a 404', async () => {
    const id = (t: { transactionHeadId: string }) => t.transactionHeadId;
    const deposit = await f.sale({ transactionHeadDivision: '2', total: '500' });
    const voided = await f.sale({ cancelDivision: '1', details: [line(1, '100')] });
    const source = await f.sale({ details: [line(1, '100')] });
    const returnCancel = await ok('POST', `/transactions/${id(source)}/dispose`);
    const cases = [
      [id(deposit), `[transaction_id] transaction ${id(deposit)} is not a sale (transactionHeadDivision 2): only a sale can be cancelled`],
      [id(voided), `[transaction_id] transaction ${id(voided)} is already cancelled (cancelDivision 1)`],
      [id(source), `[transaction_id] transaction ${id(source)} has been return-cancelled (disposeDivision 1): its return-cancel already reverses it`],
      [
        id(returnCancel),
        `[transaction_id] transaction ${id(returnCancel)} is a return-cancel (disposeDivision 2, of transaction ${id(source)}) and cannot be cancelled`,
      ],
    ] as const;
    for (const [target, detail] of cases) expect(problem(await cancel(target), 400)).toEqual(bad(detail));
    expect(problem(await cancel('999999'), 404)).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: '[transaction_id] transaction 999999 does not exist' });
  });

  it('a layaway id cancels the layaway: its goods are back on sale, answered as the layaway; once ended, a 409', async () => {
    await ok('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '10' });
    const kept = await ok('POST', '/transactions/layaways', {
      transactionHeadDivision: '10',
      subtotal: '600',
      total: '600',
      storeId: f.store,
      terminalId: f.terminal,
      terminalTranId: 'L1',
      terminalTranDateTime: SALE_TIME,
      details: [{ transactionDetailId: '1', productId: product, salesPrice: '300', quantity: '2' }],
    });
    const stock = async () => ((await ok('GET', `/stock?product_id=${product}&store_id=${f.store}`)) as { stockAmount: string; layawayStockAmount: string }[]).map((s) => [s.stockAmount, s.layawayStockAmount]);
    expect(await stock()).toEqual([['8', '2']]);
    f.t.clock.advance(60_000);
    const res = await cancel(kept.transactionHeadId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...kept, cancelDivision: '1', cancelDateTime: LATER, updDateTime: LATER });
    expect(await stock()).toEqual([['10', '0']]);
    expect(problem(await cancel(kept.transactionHeadId), 409)).toEqual({
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: `[transaction_id] layaway ${kept.transactionHeadId} is cancelled`,
    });
  });

  it('needs pos.transactions:write and one of the five plans', async () => {
    const sale = await f.sale({ details: [line(1, '100')] });
    const readOnly = await f.t.tokenFor({ scopes: ['pos.transactions:read'] });
    expect(problem(await f.t.api('POST', `/transactions/${sale.transactionHeadId}/cancel`, {}, readOnly), 403).detail).toBe(
      '[scope] the token lacks the scope pos.transactions:write',
    );
    const enterprise = await makeFixture('enterprise');
    try {
      const other = await enterprise.sale({ details: [line(1, '100')] });
      expect(problem(await enterprise.api('POST', `/transactions/${other.transactionHeadId}/cancel`, {}), 403).detail).toBe(
        "the contract's plan enterprise cannot use POST /transactions/{transaction_id}/cancel (plans: standard, premium, premium_plus, food_business, retail_business)",
      );
    } finally {
      enterprise.t.close();
    }
  });
});

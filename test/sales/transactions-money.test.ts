import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../helpers/app.js';
import { line, makeFixture, SALE_TIME, type Fixture } from './transactions-fixtures.js';

/** Issue 10, items 1–6: a sale is counted once, paid in full, and never lands in a closed day. */
let f: Fixture;
beforeAll(async () => {
  f = await makeFixture();
});
afterAll(() => f.t.close());

const count = () => (f.t.deps.db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
const post = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  f.t.app.inject({
    method: 'POST',
    url: `/${f.t.contractId}/pos/transactions`,
    headers: { authorization: `Bearer ${f.t.token}`, ...headers },
    payload: { storeId: f.store, terminalId: f.terminal, transactionHeadDivision: '1', terminalTranDateTime: SALE_TIME, ...body },
  });

describe('a retried sale is registered once', () => {
  it('answers the first transaction to a retry with the same store, terminal, terminalTranId and body', async () => {
    const body = { terminalTranId: 'R1-0001', details: [line(1, '1000')], depositCash: '1000' };
    const first = await post(body);
    expect(first.statusCode).toBe(200);
    const before = count();
    // The retry sends the same body, keys in another order.
    const retry = await post({ depositCash: '1000', details: [line(1, '1000')], terminalTranId: 'R1-0001' });
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().transactionHeadId).toBe(first.json().transactionHeadId);
    expect(retry.json()).toEqual(first.json());
    expect(count()).toBe(before);
  });

  it('is a 409 naming terminalTranId when the same key comes with another body; nothing is stored', async () => {
    await post({ terminalTranId: 'R1-0002', details: [line(1, '500')], depositCash: '500' });
    const before = count();
    const other = problem(await post({ terminalTranId: 'R1-0002', details: [line(1, '700')], depositCash: '700' }), 409);
    expect(other).toMatchObject({ title: 'Conflict', status: 409 });
    expect(other.detail).toMatch(/^\[terminalTranId\] transaction \d+ was registered with this store, terminal and terminalTranId and a different body$/);
    expect(count()).toBe(before);
  });

  it('honours an Idempotency-Key header', async () => {
    const body = { details: [line(1, '300')], depositCash: '300' };
    const first = await post(body, { 'idempotency-key': 'sale-abc-1' });
    const again = await post(body, { 'idempotency-key': 'sale-abc-1' });
    expect(again.json().transactionHeadId).toBe(first.json().transactionHeadId);
    const before = count();
    expect(problem(await post({ ...body, depositCash: '500' }, { 'idempotency-key': 'sale-abc-1' }), 409).detail).toMatch(/^\[Idempotency-Key\] transaction/);
    // Another key (or none) is another sale.
    expect((await post(body, { 'idempotency-key': 'sale-abc-2' })).json().transactionHeadId).not.toBe(first.json().transactionHeadId);
    expect(count()).toBe(before + 1);
    expect(problem(await post(body, { 'idempotency-key': 'bad key' }), 400).detail).toBe('[idempotency-key] must be 1 to 255 printable ASCII characters');
  });

  it('keeps the same terminalTranId of two terminals apart', async () => {
    const r2 = (await f.create('/terminals', { storeId: f.store, terminalName: 'R2' })).terminalId;
    const a = await post({ terminalTranId: 'T-9', details: [line(1, '100')], depositCash: '100' });
    const b = await post({ terminalId: r2, terminalTranId: 'T-9', details: [line(1, '100')], depositCash: '100' });
    expect(b.statusCode).toBe(200);
    expect(b.json().transactionHeadId).not.toBe(a.json().transactionHeadId);
  });
});

describe('payments cover the sale', () => {
  it('refuses 500 cash on a 1,000 sale, naming deposit', async () => {
    const before = count();
    expect(problem(await post({ details: [line(1, '1000')], depositCash: '500' }), 400).detail).toBe('[deposit] the payments (500) do not cover the total 1000');
    expect(problem(await post({ details: [line(1, '1000')], deposit: '999' }), 400).detail).toBe('[deposit] the payments (999) do not cover the total 1000');
    expect(count()).toBe(before);
  });

  it('accepts exact and over-payment and gives change', async () => {
    const sale = (await post({ details: [line(1, '1000')], depositCash: '1500' })).json();
    expect(sale).toMatchObject({ total: '1000', cashTotal: '1000', depositCash: '1500', deposit: '1500', change: '500' });
  });

  it('counts tips in the money owed, the change and the drawer', async () => {
    expect(problem(await post({ details: [line(1, '1000')], tipCash: '100', depositCash: '1000' }), 400).detail).toBe(
      '[deposit] the payments (1000) do not cover the total 1000 plus tips 100',
    );
    const sale = (await post({ details: [line(1, '1000')], tipCash: '100', depositCash: '2000' })).json();
    expect(sale).toMatchObject({ total: '1000', tipCash: '100', deposit: '2000', change: '900' });
    const card = (await post({ details: [line(1, '1000')], creditTotal: '1000', tipCredit: '150' })).json();
    expect(card).toMatchObject({ cashTotal: '0', depositCredit: '1150', deposit: '1150', change: '0' });
  });
});

describe('member points', () => {
  it('refuses spending more points than the member holds, and spendPoint without pointDiscount; the balance is unchanged', async () => {
    const member = await f.create('/customers', { customerCode: 'M-POINTS', lastName: 'Sato', firstName: 'Hana', point: '100' });
    const balance = async () => (await f.api('GET', `/customers/${member.customerId}`)).json().point;
    expect(problem(await post({ customerId: member.customerId, details: [line(1, '1000')], spendPoint: '490', pointDiscount: '490', depositCash: '510' }), 400).detail).toBe(
      `[spendPoint] 490 exceeds the 100 points member ${member.customerId} holds`,
    );
    expect(problem(await post({ customerId: member.customerId, details: [line(1, '1000')], spendPoint: '50', depositCash: '1000' }), 400).detail).toMatch(
      /^\[pointDiscount\] is required when spendPoint is set/,
    );
    expect(await balance()).toBe('100');
    const ok = await post({ customerId: member.customerId, details: [line(1, '1000')], spendPoint: '100', pointDiscount: '100', depositCash: '900' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(Number(await balance())).toBeGreaterThanOrEqual(0);
  });
});

describe('dates', () => {
  it('refuses a sale dated more than a day ahead of the server clock', async () => {
    // The test clock is 2026-11-22T10:00:00+09:00.
    expect(problem(await post({ terminalTranDateTime: '2026-11-23T10:00:01+09:00', details: [line(1, '1')], depositCash: '1' }), 400).detail).toBe(
      '[terminalTranDateTime] is more than a day ahead of the server clock; check the terminal clock',
    );
    expect((await post({ terminalTranDateTime: '2026-11-23T09:59:00+09:00', details: [line(1, '1')], depositCash: '1' })).statusCode).toBe(200);
  });

  it('refuses a sale into a closed day, naming the date, until the closing is released', async () => {
    const store = (await f.create('/stores', { storeName: 'Closed shop' })).storeId;
    const terminal = (await f.create('/terminals', { storeId: store, terminalName: 'C1' })).terminalId;
    const sale = { storeId: store, terminalId: terminal, terminalTranDateTime: '2026-11-21T15:00:00+09:00', details: [line(1, '200')], depositCash: '200' };
    expect((await post(sale)).statusCode).toBe(200);
    expect((await f.api('POST', '/adjustments', { storeId: store, terminalId: terminal, adjustmentDateTime: '2026-11-21T20:00:00+09:00' })).statusCode).toBe(200);
    const closed = await f.api('POST', '/daily_summaries', { sumDate: '2026-11-21', storeId: store, cashInfo: { preparationCash: '0', saving: '0' } });
    expect(closed.statusCode, closed.body).toBe(200);
    const before = count();
    expect(problem(await post(sale), 400).detail).toBe(
      `[terminalTranDateTime] store ${store} is already closed for 2026-11-21; release that closing first (POST /daily_summaries/${store}/2026-11-21/release)`,
    );
    expect(problem(await post({ ...sale, terminalId: '999999', sumDivision: '2', sumDate: '2026-11-21' }), 400).detail).toMatch(/^\[sumDate\] store \d+ is already closed/);
    expect(count()).toBe(before);
    expect((await f.api('POST', `/daily_summaries/${store}/2026-11-21/release`)).statusCode).toBe(200);
    expect((await post(sale)).statusCode).toBe(200);
  });
});

describe('lines', () => {
  it('refuses a normal line whose negative price makes the sale negative; a discount line and a return line are fine', async () => {
    expect(problem(await post({ details: [line(1, '-500')] }), 400).detail).toBe(
      '[details[0].salesPrice] makes the sale negative (subtotal -500) without a return line; a returned item is a line with transactionDetailDivision 2',
    );
    expect(problem(await post({ details: [line(1, '100'), line(2, '-300')] }), 400).detail).toMatch(/^\[details\[1\]\.salesPrice\] makes the sale negative \(subtotal -200\)/);
    const discounted = await post({ details: [line(1, '1000'), line(2, '-100')], depositCash: '900' });
    expect(discounted.json().total).toBe('900');
    const ret = await post({ details: [line(1, '500', { transactionDetailDivision: '2' })] });
    expect(ret.statusCode, ret.body).toBe(200);
    expect(ret.json().total).toBe('-500');
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { problem } from '../helpers/app.js';
import { line, makeFixture, type Fixture } from './transactions-fixtures.js';

/**
 * The one open-day rule (server/sales/closing/open-day.ts): every writer of a record dated by
 * business day refuses a day the store has closed, each naming its own field, until the
 * closing is released. The test clock is 2026-11-22T10:00:00+09:00.
 */
describe('the open-day rule', () => {
  let f: Fixture;
  let store: string;
  let terminal: string;
  let member: string;
  const DAY = '2026-11-21';
  beforeEach(async () => {
    f = await makeFixture();
    store = (await f.create('/stores', { storeName: 'Closed shop' })).storeId;
    terminal = (await f.create('/terminals', { storeId: store, terminalName: 'C1' })).terminalId;
    member = (await f.create('/customers', { customerCode: 'M1', lastName: 'Sato', firstName: 'Hanako', sex: '2', mailReceiveFlag: '1' })).customerId;
  });
  afterEach(() => f.t.close());

  const sale = (time: string) => ({ storeId: store, terminalId: terminal, terminalTranDateTime: `${DAY}T${time}+09:00`, details: [line(1, '200')], depositCash: '200' });
  const settle = (time: string) => f.api('POST', '/adjustments', { storeId: store, terminalId: terminal, adjustmentDateTime: `${DAY}T${time}+09:00` });
  const close = () => f.api('POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: { preparationCash: '0', saving: '0' } });
  const attach = (id: string) => f.api('PATCH', `/transactions/${id}/customer`, { customerId: member });

  it('refuses a sale, a settlement, a second closing and a member change of a closed sale, each naming its field, until released', async () => {
    const settled = (await f.post(sale('15:00:00'))).json().transactionHeadId as string;
    expect((await settle('20:00:00')).statusCode).toBe(200);
    // Sold on the day but not settled: the closing leaves it unprocessed, it stays open.
    const unsettled = (await f.post(sale('21:00:00'))).json().transactionHeadId as string;
    expect((await close()).statusCode).toBe(200);

    const refusals = [
      [await f.post(sale('22:00:00')), `[terminalTranDateTime] store ${store} is already closed for ${DAY}; release that closing first (POST /daily_summaries/${store}/${DAY}/release)`],
      [await f.post({ ...sale('22:00:00'), terminalId: '999999', sumDivision: '2', sumDate: DAY }), `[sumDate] store ${store} is already closed for ${DAY}; release that closing first (POST /daily_summaries/${store}/${DAY}/release)`],
      [await settle('22:00:00'), `[adjustmentDateTime] store ${store} is already closed for ${DAY}; release that closing first`],
      [await close(), `[sumDate] store ${store} is already closed for ${DAY}`],
      [
        await attach(settled),
        `[transaction_id] transaction ${settled} belongs to the closed day ${DAY} of store ${store} (sumDivision 2): release the closing first (POST /daily_summaries/${store}/${DAY}/release)`,
      ],
    ] as const;
    for (const [res, detail] of refusals) expect(problem(res, 400)).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail });

    // A record's own closed mark decides, not its sale date: the unsettled sale still takes a member.
    expect((await attach(unsettled)).json()).toMatchObject({ transactionHeadId: unsettled, customerId: member });

    expect((await f.api('POST', `/daily_summaries/${store}/${DAY}/release`)).statusCode).toBe(200);
    expect((await attach(settled)).statusCode).toBe(200);
    // The return-cancel by path is a new record of its terminal time's day: refused while closed.
    const source = (await f.post(sale('15:30:00'))).json().transactionHeadId as string;
    expect((await close()).statusCode).toBe(200);
    const disposed = await f.api('POST', `/transactions/${source}/dispose`, { terminalTranDateTime: `${DAY}T23:00:00+09:00` });
    expect(problem(disposed, 400)).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: `[terminalTranDateTime] store ${store} is already closed for ${DAY}; release that closing first (POST /daily_summaries/${store}/${DAY}/release)`,
    });
    expect((await f.api('GET', `/transactions/${source}`)).json()).toMatchObject({ disposeDivision: '0' });
    // Dated on a day still open (today), it goes through.
    expect((await f.api('POST', `/transactions/${source}/dispose`)).statusCode).toBe(200);
    expect((await f.api('POST', `/daily_summaries/${store}/${DAY}/release`)).statusCode).toBe(200);
    expect((await f.post(sale('22:00:00'))).statusCode).toBe(200);
    expect((await settle('22:30:00')).statusCode).toBe(200);
    expect((await close()).statusCode).toBe(200);
  });
});

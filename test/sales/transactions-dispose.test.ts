import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { problem } from '../helpers/app.js';
import { line, makeFixture, type Fixture } from './transactions-fixtures.js';

let f: Fixture;
beforeAll(async () => {
  f = await makeFixture();
});
afterAll(() => f.t.close());

const member = async (code: string, extra: Record<string, unknown> = {}) =>
  (await f.create('/customers', { customerCode: code, lastName: 'Suzuki', firstName: 'Ichiro', point: '50', ...extra })).customerId as string;
const points = async (customerId: string) => {
  const c = (await f.t.api('GET', `/customers/${customerId}`)).json();
  return { point: c.point, mile: c.mile };
};
const dispose = (id: string, body?: unknown) => f.t.api('POST', `/transactions/${id}/dispose`, body);

describe('member sales', () => {
  it('grant and spend points: the member is updated and its rank and pin code are copied', async () => {
    const customerId = await member('M1', { rank: 'GOLD', pinCode: 'PIN-1' });
    const t = await f.sale({ customerId, pointDiscount: '10', spendPoint: '10', details: [line(1, '1000'), line(2, '500', { quantity: '2' })] });
    // point base (division 1: tax and used points included, points as cash) = 2000 → 2000 × 1 / 100 = 20 points
    expect(t).toMatchObject({ customerId, customerRank: 'GOLD', customerPinCode: 'PIN-1', total: '1990', taxInclude: '181', newPoint: '20', spendPoint: '10', point: '50', totalPoint: '60' });
    expect(await points(customerId)).toEqual({ point: '60', mile: '0' });
    expect(await f.detail400({ customerId, details: [line(1, '1000')], newPoint: '11' })).toBe('[newPoint] sent 11 but the server computes 10');
  });

  it('customer groups default from the member; sent ones win', async () => {
    const group = (await f.create('/customer_groups', { customerGroupSectionId: '1', label: 'VIP' })).customerGroupId;
    const customerId = await member('G1', { customerGroupId: group });
    const t = await f.sale({ customerId, details: [line(1, '100')] });
    expect(t).toMatchObject({ customerGroupId: group, customerGroupId2: null });
    const sent = await f.sale({ customerId, customerGroupId: '77', customerGroupId3: '78', details: [line(1, '100')] });
    expect(sent).toMatchObject({ customerGroupId: '77', customerGroupId3: '78' });
  });

  it('an unknown member id is stored, no member is updated', async () => {
    const t = await f.sale({ customerId: '424242', details: [line(1, '1000')] });
    expect(t).toMatchObject({ customerId: '424242', customerRank: null, newPoint: '10', point: '0', totalPoint: '10' });
  });

  it('miles: adjustment division 3 adds its value', async () => {
    const customerId = await member('M2', { mile: '7' });
    const t = await f.sale({ customerId, mileageDivision: '1', adjustmentMileDivision: '3', adjustmentMileValue: '5', details: [line(1, '1000')] });
    expect(t).toMatchObject({ newPoint: '10', currentMile: '7', earnMile: '0', adjustmentMile: '5', totalMile: '12', adjustmentMileDivision: '3' });
    expect(await points(customerId)).toEqual({ point: '60', mile: '12' });
    expect(
      await f.detail400({ customerId, mileageDivision: '1', adjustmentMileDivision: '3', adjustmentMileValue: '5', adjustmentMile: '4', details: [line(1, '1')] }),
    ).toBe('[adjustmentMile] sent 4 but the server computes 5');
  });
});

describe('POST /transactions/{transaction_id}/dispose', () => {
  it('registers the negated copy, marks the source and gives the member back the points', async () => {
    const customerId = await member('D1');
    const card = (await f.create('/payment_methods/individual_application', { paymentMethodCode: 'CARD', paymentMethodName: 'Card', paymentDivision: '6' }))
      .paymentMethodId;
    const source = await f.sale({
      customerId,
      spendPoint: '10',
      pointDiscount: '10',
      roundingDivision: '12',
      depositCash: '2000',
      depositOthers: [{ paymentMethodId: card, depositOthers: '500', denominationCode: 'CREDIT' }],
      details: [line(1, '1000', { cost: '400' }), line(2, '300', { quantity: '2.5', unitDiscountPrice: '10' })],
    });
    // 1000 + 2.5 × 290 = 1725; − 10 points = 1715 → rounded down to 1710; cash = 1710 − 500.
    // Points as cash (pointSpendDivision 1) leave the taxable 1725: tax 1725 × 10 / 110 = 156.8 → 156.
    expect(source).toMatchObject({ subtotal: '1725', total: '1710', taxInclude: '156', roundingPrice: '-5', cashTotal: '1210', change: '790', newPoint: '17', amount: '3.5' });
    expect(await points(customerId)).toEqual({ point: '57', mile: '0' });

    f.t.clock.advance(60_000);
    const changes: Change[] = [];
    f.t.deps.writer.onChange((c) => changes.push(c));
    const res = await dispose(source.transactionHeadId, { depositOthers: [{ no: '1', cancelSlipNumber: 'C-77' }] });
    expect(res.statusCode).toBe(200);
    const copy = res.json();
    const later = '2026-11-22T10:01:00+09:00';
    expect(copy).toMatchObject({
      disposeDivision: '2',
      disposeServerTransactionHeadId: source.transactionHeadId,
      transactionDateTime: later,
      terminalTranDateTime: later,
      sumDivision: '0',
      cancelDivision: '0',
      subtotal: '-1725',
      unitDiscountsubtotal: '-25',
      pointDiscount: '-10',
      roundingPrice: '5',
      total: '-1710',
      taxInclude: '-156',
      cashTotal: '-1210',
      deposit: '-2500',
      change: '-790',
      amount: '-3.5',
      costTotal: '-400',
      newPoint: '-17',
      spendPoint: '-10',
      point: '57',
      totalPoint: '50',
      taxRate: '10',
    });
    expect(copy.transactionUuid).toBe(`795309260${f.terminal}`);
    expect(copy.transactionHeadId).not.toBe(source.transactionHeadId);
    expect(copy.details[1]).toMatchObject({ salesPrice: '300', unitDiscountPrice: '10', quantity: '-2.5', unitNonDiscountSum: '-750', unitDiscountedSum: '-725' });
    expect(copy.details.map((l: any) => l.taxIncludeProportional)).toEqual(source.details.map((l: any) => String(-Number(l.taxIncludeProportional))));
    expect(copy.depositOthers[0]).toMatchObject({ no: '1', paymentMethodId: card, depositOthers: '-500', cancelSlipNumber: 'C-77', denominationCode: 'CREDIT' });
    expect(await points(customerId)).toEqual({ point: '50', mile: '0' });

    const marked = (await f.t.api('GET', `/transactions/${source.transactionHeadId}`)).json();
    expect(marked).toMatchObject({ disposeDivision: '1', cancelDateTime: later, updDateTime: later, total: '1710' });
    expect(changes).toEqual(
      expect.arrayContaining([
        { contractId: 'test-contract', entity: 'transaction', id: copy.transactionHeadId, op: 'insert' },
        { contractId: 'test-contract', entity: 'transaction', id: source.transactionHeadId, op: 'update' },
        { contractId: 'test-contract', entity: 'customer', id: customerId, op: 'update', balanceOnly: true },
      ]),
    );

    expect(problem(await dispose(source.transactionHeadId), 400).detail).toBe(`[transaction_id] transaction ${source.transactionHeadId} has already been return-cancelled`);
    expect(problem(await dispose(copy.transactionHeadId), 400).detail).toBe(
      `[transaction_id] transaction ${copy.transactionHeadId} is itself a return-cancel (of transaction ${source.transactionHeadId}) and cannot be return-cancelled`,
    );
  });

  it('without a body: terminalTranDateTime is now; with one: as sent', async () => {
    const a = await f.sale({ details: [line(1, '100')] });
    const copy = (await dispose(a.transactionHeadId)).json();
    expect(copy).toMatchObject({ total: '-100', terminalTranDateTime: '2026-11-22T10:01:00+09:00' }); // the clock moved 1 minute above
    const b = await f.sale({ details: [line(1, '100')] });
    const sent = (await dispose(b.transactionHeadId, { terminalTranDateTime: '2026-11-22T09:59:00+09:00' })).json();
    expect(sent.terminalTranDateTime).toBe('2026-11-22T09:59:00+09:00');
  });

  it('404 for an unknown transaction; 400 for bad bodies and other-payment lines', async () => {
    expect(problem(await dispose('999'), 404).detail).toBe('[transaction_id] transaction 999 does not exist');
    const plain = (await f.create('/payment_methods', { paymentMethodCode: 'QR', paymentMethodName: 'QR', paymentDivision: '4' })).paymentMethodId;
    const t = await f.sale({ details: [line(1, '100')], depositOthers: [{ paymentMethodId: plain, depositOthers: '100' }] });
    const id = t.transactionHeadId;
    expect(problem(await dispose(id, { depositOthers: [{ no: '2' }] }), 400).detail).toBe(`[depositOthers[0].no] transaction ${id} has no other-payment line 2`);
    expect(problem(await dispose(id, { depositOthers: [{ no: '1', cancelSlipNumber: 'C' }] }), 400).detail).toBe(
      '[depositOthers[0].no] other-payment line 1 is not paid with a payment method registered by the individual-application registration operation',
    );
    expect(problem(await dispose(id, { depositOthers: [{ no: '1' }, { no: '1' }] }), 400).detail).toBe('[depositOthers] must have at most 1 entry');
    expect(problem(await dispose(id, { reason: 'x' }), 400).detail).toBe('[reason] is not a known field');
    // nothing was written by the refusals
    expect((await f.t.api('GET', `/transactions/${id}`)).json().disposeDivision).toBe('0');
  });

  it('a source of an unknown terminal gives a closed return-cancel', async () => {
    const t = await f.sale({ terminalId: '5555', terminalTranDateTime: '2026-11-21T20:00:00+09:00', sumDivision: '2', sumDate: '2026-11-21', details: [line(1, '100')] });
    const copy = (await dispose(t.transactionHeadId)).json();
    expect(copy).toMatchObject({ terminalId: '5555', sumDivision: '2', sumDate: '2026-11-22', total: '-100' });
  });

  it('a cancelled source is refused: it moved no cash or points', async () => {
    const customerId = await member('X1');
    const t = await f.sale({ customerId, cancelDivision: '1', details: [line(1, '1000')] });
    expect(problem(await dispose(t.transactionHeadId), 400).detail).toBe(
      `[transaction_id] transaction ${t.transactionHeadId} is cancelled (cancelDivision 1): it moved no cash or points and cannot be return-cancelled`,
    );
    expect(await points(customerId)).toEqual({ point: '50', mile: '0' });
    expect((await f.t.api('GET', `/transactions/${t.transactionHeadId}`)).json().disposeDivision).toBe('0');
  });

  it('a source in a suspended store is refused', async () => {
    const store = (await f.create('/stores', { storeName: 'Closing down' })).storeId;
    const terminal = (await f.create('/terminals', { storeId: store, terminalName: 'R9' })).terminalId;
    const t = await f.sale({ storeId: store, terminalId: terminal, details: [line(1, '100')] });
    expect((await f.api('PATCH', `/stores/${store}`, { pauseFlag: '1' })).statusCode).toBe(200);
    expect(problem(await dispose(t.transactionHeadId), 400).detail).toBe(`[storeId] store ${store} is suspended`);
    expect((await f.t.api('GET', `/transactions/${t.transactionHeadId}`)).json().disposeDivision).toBe('0');
  });

  it('the copy records only the cancelSlipNumber sent, never the source\'s', async () => {
    const card = (await f.create('/payment_methods/individual_application', { paymentMethodCode: 'CS', paymentMethodName: 'Card', paymentDivision: '6' }))
      .paymentMethodId;
    const pay = [{ paymentMethodId: card, depositOthers: '100', cancelSlipNumber: 'PRE' }];
    const a = await f.sale({ details: [line(1, '100')], depositOthers: pay });
    expect(a.depositOthers[0].cancelSlipNumber).toBe('PRE');
    expect((await dispose(a.transactionHeadId)).json().depositOthers[0].cancelSlipNumber).toBeNull();
    const b = await f.sale({ details: [line(1, '100')], depositOthers: pay });
    expect((await dispose(b.transactionHeadId, { depositOthers: [{ no: '1', cancelSlipNumber: 'NEW' }] })).json().depositOthers[0].cancelSlipNumber).toBe('NEW');
  });

  it('points are given back only when the source applied them', async () => {
    // The sale names the next member id before that member exists: no points move. The member is created later.
    const early = await member('EARLY'); // ids are <sequence><node, 3 digits>: the next member's id follows
    const next = `${Number(early.slice(0, -3)) + 1}${early.slice(-3)}`;
    const t = await f.sale({ customerId: next, details: [line(1, '1000')] });
    expect(t.newPoint).toBe('10');
    expect(await member('LATE')).toBe(next);
    const copy = (await dispose(t.transactionHeadId)).json();
    expect(copy).toMatchObject({ newPoint: '-10', point: '50' });
    expect(await points(next)).toEqual({ point: '50', mile: '0' });
  });

  it('is refused (403) on enterprise', async () => {
    const g = await makeFixture('enterprise');
    const t = await g.sale({ details: [line(1, '100')] });
    const res = await g.t.api('POST', `/transactions/${t.transactionHeadId}/dispose`);
    expect(problem(res, 403).detail).toBe(
      "the contract's plan enterprise cannot use POST /transactions/{transaction_id}/dispose (plans: standard, premium, premium_plus, food_business, retail_business)",
    );
    await g.t.close();
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { problem } from '../helpers/app.js';
import { line, makeFixture, type Fixture } from './transactions-fixtures.js';

/**
 * A sale's coupon lines against the coupon master (issue 26): a normal coupon (couponDivision 0)
 * must exist and be valid on the sale's day (2026-11-22 in the fixture); the line takes the
 * coupon's name and benefit when it leaves them out. External gift coupons (1) are not looked up.
 */

let f: Fixture;
beforeEach(async () => {
  f = await makeFixture('premium');
});
afterEach(() => f.t.close());

const coupon = async (body: Record<string, unknown>) => (await f.create('/coupons', { couponName: '500円引き', couponDivision: '1', couponValue: '500', ...body })).couponId as string;
const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });

describe('POST /transactions: coupon lines naming the coupon master', () => {
  it("takes the coupon's name and benefit when the line leaves them out; what the register sends wins", async () => {
    const yen = await coupon({ startDate: '2026-11-01', endDate: '2026-11-22' });
    const rate = await coupon({ couponName: '10%OFF', couponDivision: '2', couponValue: '10' });
    const t = await f.sale({
      details: [line(1, '1000')],
      couponDiscount: '500',
      coupons: [
        { couponId: yen, couponDiscountTotal: '500' },
        { couponId: rate, couponName: 'Autumn 10%', serialNumber: 'S-1', couponDiscountTotal: '0' },
        { couponId: rate, benefitType: 'P3', couponDiscountTotal: '0' },
      ],
    });
    expect(t.total).toBe('500');
    expect(t.coupons).toEqual([
      { transactionCouponId: '1', terminalTranCouponId: null, couponId: yen, couponName: '500円引き', couponDivision: '0', serialNumber: null, benefitType: '1', benefitValue: '500', couponDiscountTotal: '500' },
      { transactionCouponId: '2', terminalTranCouponId: null, couponId: rate, couponName: 'Autumn 10%', couponDivision: '0', serialNumber: 'S-1', benefitType: '2', benefitValue: '10', couponDiscountTotal: '0' },
      // Another benefit type sent: the master's value is not its value.
      { transactionCouponId: '3', terminalTranCouponId: null, couponId: rate, couponName: '10%OFF', couponDivision: '0', serialNumber: null, benefitType: 'P3', benefitValue: null, couponDiscountTotal: '0' },
    ]);
    expect((await f.api('GET', `/transactions/${t.transactionHeadId}`)).json().coupons).toEqual(t.coupons);
  });

  it('refuses a coupon the master does not have, or one not valid on the sale day, naming the line', async () => {
    const before = await coupon({ startDate: '2026-04-01', endDate: '2026-04-30' });
    const later = await coupon({ startDate: '2026-11-23' });
    const ended = await coupon({ endDate: '2026-11-21' });
    const valid = await coupon({});
    const lines = (id: string) => ({ details: [line(1, '100')], coupons: [{ couponId: valid, couponDiscountTotal: '0' }, { couponId: id, couponDiscountTotal: '0' }] });
    expect(problem(await f.post(lines('999999')), 400)).toEqual(bad('[coupons[1].couponId] coupon 999999 does not exist'));
    expect(problem(await f.post(lines(before)), 400)).toEqual(bad(`[coupons[1].couponId] coupon ${before} can be used from 2026-04-01 to 2026-04-30, not on the sale's day 2026-11-22`));
    expect(problem(await f.post(lines(later)), 400)).toEqual(bad(`[coupons[1].couponId] coupon ${later} can be used from 2026-11-23, not on the sale's day 2026-11-22`));
    expect(problem(await f.post(lines(ended)), 400)).toEqual(bad(`[coupons[1].couponId] coupon ${ended} can be used until 2026-11-21, not on the sale's day 2026-11-22`));
    // The sale's day is its terminal time in the contract's zone: 23:30 UTC on the 21st is the 22nd in Tokyo.
    const today = await coupon({ startDate: '2026-11-22', endDate: '2026-11-22' });
    const one = (terminalTranDateTime: string) => ({ terminalTranDateTime, details: [line(1, '100')], coupons: [{ couponId: today, couponDiscountTotal: '0' }] });
    expect((await f.sale(one('2026-11-21T23:30:00Z'))).coupons[0]).toMatchObject({ couponId: today, benefitValue: '500' });
    expect(problem(await f.post(one('2026-11-21T14:59:59Z')), 400)).toEqual(
      bad(`[coupons[0].couponId] coupon ${today} can be used from 2026-11-22 to 2026-11-22, not on the sale's day 2026-11-21`),
    );
  });

  it('an external gift coupon (couponDivision 1) is not looked up', async () => {
    const t = await f.sale({ details: [line(1, '100')], coupons: [{ couponId: '424242', couponDivision: '1', benefitType: '1', couponDiscountTotal: '0' }] });
    expect(t.coupons[0]).toMatchObject({ couponId: '424242', couponName: null, couponDivision: '1', benefitType: '1', benefitValue: null });
  });

  it("a return-cancel keeps its source's coupon lines, even after the coupon has ended or is gone", async () => {
    const yen = await coupon({ endDate: '2026-11-22' });
    const sale = await f.sale({ details: [line(1, '1000')], couponDiscount: '500', coupons: [{ couponId: yen, couponDiscountTotal: '500' }] });
    await f.advance(24 * 3600_000);
    expect((await f.api('DELETE', `/coupons/${yen}`)).statusCode).toBe(204);
    const copy = (await f.api('POST', `/transactions/${sale.transactionHeadId}/dispose`)).json();
    expect(copy.coupons).toEqual([{ ...sale.coupons[0], couponDiscountTotal: '-500' }]);
  });
});

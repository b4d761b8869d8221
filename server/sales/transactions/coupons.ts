import { benefitOf, couponValidOn, describePeriod } from '../../domain/coupons.js';
import { InvalidInput } from '../../domain/errors.js';
import type { CouponRow } from '../../masters/coupons/repo.js';
import type { Rec } from './catalog.js';

/**
 * A sale's coupon lines against the coupon master (issue 26). A normal coupon (couponDivision 0)
 * names a coupon of the master, valid on the sale's day (terminalTranDateTime's date in the
 * contract's zone); an external gift coupon (1) is issued outside and is not looked up. A line
 * that leaves out the coupon's name, or its benefit, takes the master's: benefitType is the
 * coupon's division (1 amount off, 2 rate off) and benefitValue its couponValue. A refusal is a
 * 400 naming the line's couponId. `saleDay` null (a return-cancel, whose lines are its source's)
 * checks nothing.
 */
export function applyCouponMaster(lines: Rec[], saleDay: string | null, find: (couponId: string) => CouponRow | undefined): Rec[] {
  if (saleDay === null) return lines;
  lines.forEach((line, i) => {
    if (line.couponDivision !== '0' || line.couponId === null || line.couponId === undefined) return;
    const id = String(line.couponId);
    const field = `coupons[${i}].couponId`;
    const coupon = find(id);
    if (!coupon) throw InvalidInput.field(field, `coupon ${id} does not exist`);
    const period = { startDate: coupon.start_date, endDate: coupon.end_date };
    if (!couponValidOn(period, saleDay)) throw InvalidInput.field(field, `coupon ${id} can be used ${describePeriod(period)}, not on the sale's day ${saleDay}`);
    line.couponName ??= coupon.coupon_name;
    const benefit = benefitOf(coupon.coupon_division, coupon.coupon_value);
    if (line.benefitType === null || line.benefitType === undefined) line.benefitType = benefit.benefitType;
    if (line.benefitType === benefit.benefitType) line.benefitValue ??= benefit.benefitValue;
  });
  return lines;
}

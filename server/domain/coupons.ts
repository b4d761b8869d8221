import { Decimal } from 'decimal.js';

/**
 * Coupons (クーポン, issue 26): what a coupon takes off and when it is valid, as pure rules over
 * the master's values. couponDivision 1 is a discount (couponValue yen off), 2 a rate
 * (couponValue % off); a sale's coupon line states it as benefitType 1 or 2 with benefitValue.
 */
export const COUPON_DIVISIONS = ['1', '2'] as const;
export type CouponDivision = (typeof COUPON_DIVISIONS)[number];

const HUNDRED = new Decimal(100);

/** Why a value does not fit its division (an amount above 0; a rate above 0 and at most 100), or null. */
export function couponValueError(division: CouponDivision, value: string): string | null {
  const v = new Decimal(value);
  if (!v.greaterThan(0)) return division === '1' ? 'must be an amount above 0' : 'must be a rate above 0';
  if (division === '2' && v.greaterThan(HUNDRED)) return `must be a rate of at most 100 (couponDivision 2 takes ${value} % off)`;
  return null;
}

/** A period of whole days, YYYY-MM-DD both ends inclusive; null: unbounded at that end. */
export interface CouponPeriod {
  startDate: string | null;
  endDate: string | null;
}

/** Whether the period holds the day (YYYY-MM-DD strings compare as dates). */
export const couponValidOn = (p: CouponPeriod, day: string): boolean => (p.startDate === null || p.startDate <= day) && (p.endDate === null || day <= p.endDate);

/** The period as words: `from 2026-11-01 to 2026-11-30`, `from 2026-11-01`, `until 2026-11-30`. */
export function describePeriod(p: CouponPeriod): string {
  if (p.startDate !== null && p.endDate !== null) return `from ${p.startDate} to ${p.endDate}`;
  return p.startDate !== null ? `from ${p.startDate}` : `until ${p.endDate}`;
}

/** The benefit a sale's coupon line records for a master coupon: its division is the benefit type (1 amount, 2 rate). */
export const benefitOf = (division: CouponDivision, value: string) => ({ benefitType: division, benefitValue: value });

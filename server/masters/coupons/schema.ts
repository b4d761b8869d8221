import { z } from 'zod';
import { COUPON_DIVISIONS } from '../../domain/coupons.js';
import { PRICE } from '../../domain/money.js';
import { clearable, date, decimalText, name, oneOf } from '../../platform/http/fields.js';
import { fieldSelection, idParams, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { CouponRow } from './repo.js';

const DIVISION_MEANING = '1 discount: couponValue yen off; 2 rate: couponValue % off';

/** A coupon (クーポン) as the platform's /coupons answer it. */
export const coupon = masterRecord('Coupon', {
  couponId: z.string(),
  couponName: z.string(),
  couponDivision: z.enum(COUPON_DIVISIONS).describe(DIVISION_MEANING),
  couponValue: z.string().describe('exact decimal: yen off (division 1) or percent off, at most 100 (division 2)'),
  startDate: z.string().nullable().describe('YYYY-MM-DD, first day it can be used; null: no start'),
  endDate: z.string().nullable().describe('YYYY-MM-DD, last day it can be used; null: no end'),
});

export type Coupon = z.infer<typeof coupon>;

/** Spec 4.3 `fields` of GET and list. */
export const couponFields = fieldSelection(coupon, 'Coupon', 'coupon');

export const couponParams = idParams('coupon_id');

const writable = {
  couponName: name(85),
  couponDivision: oneOf(COUPON_DIVISIONS).describe(DIVISION_MEANING),
  couponValue: decimalText(PRICE),
  startDate: clearable(date).optional(),
  endDate: clearable(date).optional(),
};

export const createCouponBody = z.strictObject(writable);
/** PATCH and PUT alike: only the keys sent change (the platform's client sends PUT with some keys). */
export const updateCouponBody = patchOf(writable);

export const COUPON_SORT = ['couponId', 'couponName', 'startDate', 'endDate', 'updDateTime'] as const;

export const listCouponsQuery = masterQuery({ coupon_division: oneOf(COUPON_DIVISIONS).optional(), fields: couponFields.query }, COUPON_SORT);

export type CreateCoupon = z.infer<typeof createCouponBody>;
export type UpdateCoupon = z.infer<typeof updateCouponBody>;
export type ListCouponsQuery = z.infer<typeof listCouponsQuery>;

export const presentCoupon: Presenter<CouponRow, Coupon> = presenterOf(coupon);

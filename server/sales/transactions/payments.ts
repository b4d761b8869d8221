import type { Decimal } from 'decimal.js';
import type { Plan } from '../../domain/plans.js';
import { exact } from '../../domain/rounding.js';
import { ForbiddenError, InvalidInput } from '../../domain/errors.js';
import type { PaymentMethodRow } from '../../masters/payment-methods/repo.js';
import { COUPON_FIELDS, OTHER_FIELDS, type Rec } from './catalog.js';
import { canon } from './lines.js';
import { CARD_DENOMINATION_CODES, type CouponInput, type DepositOtherInput } from './schema.js';

/** Fields of an other-payment line honoured only for individual-application methods (2.13). */
export const INDIVIDUAL_ONLY = ['denominationCode', 'denominationName', 'cardCompanyName', 'cancelSlipNumber'] as const;

/**
 * Other payments (depositOthers, at most 3, no 1, 2, 3 in order): the method must exist and
 * its code, name, unit price and flags come from the master. Returns the records and the money
 * they bring (the amount, or the whole count × the unit price when the method has one): `money`
 * in all, `changeless` the part of it paid with methods that give no change (paymentChangeFlag 0).
 */
export function resolveDepositOthers(
  input: readonly DepositOtherInput[],
  findMethod: (id: string) => PaymentMethodRow | undefined,
): { recs: Rec[]; money: Decimal; changeless: Decimal } {
  let money = exact(0);
  let changeless = exact(0);
  const recs = input.map((o, i) => {
    const at = (field: string) => `depositOthers[${i}].${field}`;
    const no = String(i + 1);
    if (o.no !== undefined && o.no !== no) throw InvalidInput.field(at('no'), `must be ${no}: the entries are numbered 1, 2, 3 in order`);
    const method = findMethod(o.paymentMethodId);
    if (!method) throw InvalidInput.field(at('paymentMethodId'), `payment method ${o.paymentMethodId} does not exist`);
    if (method.individual_application !== '1') {
      const sent = INDIVIDUAL_ONLY.find((f) => o[f] !== undefined);
      if (sent) {
        throw InvalidInput.field(
          at(sent),
          `is honoured only for payment methods registered by the individual-application registration operation; payment method ${method.payment_method_id} is not one`,
        );
      }
    }
    if (o.cardCompanyName !== undefined && o.denominationCode !== undefined && !(CARD_DENOMINATION_CODES as readonly string[]).includes(o.denominationCode)) {
      throw InvalidInput.field(at('cardCompanyName'), `is not accepted with denominationCode ${o.denominationCode} (only with ${CARD_DENOMINATION_CODES.join(', ')})`);
    }
    const amount = exact(o.depositOthers);
    if (method.payment_unit_price !== null && !amount.isInteger()) {
      throw InvalidInput.field(
        at('depositOthers'),
        `must be a whole number of units: payment method ${method.payment_method_id} has a unit price (${method.payment_unit_price})`,
      );
    }
    const paid = method.payment_unit_price === null ? amount : amount.times(method.payment_unit_price);
    money = money.plus(paid);
    if (method.payment_change_flag !== '1') changeless = changeless.plus(paid);
    const rec = {} as Rec;
    for (const f of OTHER_FIELDS) {
      const v = (o as Record<string, string | undefined>)[f.name];
      if (v !== undefined) rec[f.name] = f.kind === 'text' ? v : canon(v);
    }
    return Object.assign(rec, {
      no: i + 1,
      paymentMethodId: method.payment_method_id,
      paymentMethodCode: method.payment_method_code,
      paymentMethodName: method.payment_method_name,
      paymentUnitPrice: method.payment_unit_price,
      paymentChangeFlag: method.payment_change_flag,
      paymentDivision: method.payment_division,
      paymentSecuritiesFlag: method.payment_securities_flag,
    });
  });
  return { recs, money, changeless };
}

/** Plans whose transactions may carry coupons (2.13 "Coupons"). */
export const COUPON_PLANS: readonly Plan[] = ['premium', 'premium_plus', 'food_business', 'retail_business'];

/** A non-empty coupons array on a plan without coupons is a 403; `coupons` may be the raw (unvalidated) body value. */
export function assertCouponsAllowed(plan: Plan, coupons: unknown): void {
  if (Array.isArray(coupons) && coupons.length && !COUPON_PLANS.includes(plan)) {
    throw new ForbiddenError(`[coupons] the contract's plan ${plan} cannot register coupons (plans: ${COUPON_PLANS.join(', ')})`);
  }
}

/** Coupons in the order sent; transactionCouponId is their position, 1..n. */
export function resolveCoupons(input: readonly CouponInput[]): Rec[] {
  return input.map((c, i) => {
    const rec = {} as Rec;
    for (const f of COUPON_FIELDS) {
      const v = (c as Record<string, string | undefined>)[f.name];
      if (v !== undefined) rec[f.name] = f.kind === 'text' ? v : canon(v);
    }
    return Object.assign(rec, { transactionCouponId: i + 1, couponDivision: c.couponDivision ?? '0' });
  });
}

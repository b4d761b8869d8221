import { Decimal } from 'decimal.js';
import { decimalError, formatDecimal, toUnits } from '../../domain/money.js';
import { exact } from '../../domain/rounding.js';
import type { TotalsMismatch } from '../../domain/sent-totals.js';
import { computeTransactionTotals } from '../../domain/transaction-totals.js';
import { TotalsError, type TotalsInput, type TransactionTotals } from '../../domain/transaction-totals-types.js';
import { InvalidInput } from '../../domain/errors.js';
import { POINT } from '../../masters/customers/schema.js';
import type { Rec } from './catalog.js';
import type { CreateTransaction } from './schema.js';

/** An amount in thousandths for an INTEGER column; more decimals than that is a 400 on `field`. */
export function units(field: string, value: Decimal): number {
  try {
    return toUnits(value, 3);
  } catch {
    throw InvalidInput.field(field, `${formatDecimal(value)} has more than 3 decimals or is too large to store`);
  }
}

/**
 * The totals of the model from the lines. Without lines (deposits, withdrawals, custody, point
 * and mile transactions) the total is the amount sent and points and miles are as sent.
 */
export function totalsOf(header: Rec, lines: TotalsInput['lines'], member: TotalsInput['member'], body: CreateTransaction): TransactionTotals {
  const d = (name: string) => exact(header[name] ?? 0);
  const input: TotalsInput = {
    lines,
    taxRounding: header.taxRounding as TotalsInput['taxRounding'],
    roundingDivision: header.roundingDivision as string,
    manualRoundingPrice: body.roundingPrice === undefined ? null : exact(body.roundingPrice),
    subtotalDiscountPrice: d('subtotalDiscountPrice'),
    pointDiscount: d('pointDiscount'),
    couponDiscount: d('couponDiscount'),
    commission: d('commission'),
    carriage: d('carriage'),
    pointSpendDivision: header.pointSpendDivision as TotalsInput['pointSpendDivision'],
    member,
    pointGivingDivision: header.pointGivingDivision as TotalsInput['pointGivingDivision'],
    pointGivingUnitPrice: d('pointGivingUnitPrice'),
    pointGivingUnit: d('pointGivingUnit'),
    spendPoint: d('spendPoint'),
    mileageDivision: header.mileageDivision as TotalsInput['mileageDivision'],
    adjustmentMileDivision: (body.adjustmentMileDivision ?? null) as TotalsInput['adjustmentMileDivision'],
    adjustmentMileValue: body.adjustmentMileValue === undefined ? null : exact(body.adjustmentMileValue),
  };
  if (lines.length) return computeOrRefuse(input);
  if (body.total === undefined) throw InvalidInput.field('total', 'is required when no details are sent');
  if (exact(body.total).isNegative()) throw InvalidInput.field('total', 'must not be negative: deposits, withdrawals and custody amounts are sent positive');
  for (const name of ['newPoint', 'earnMile'] as const) {
    const v = body[name];
    const error = v === undefined ? null : decimalError(v, POINT);
    if (error) throw InvalidInput.field(name, error);
  }
  const totals = computeOrRefuse({ ...input, member: null, roundingDivision: '00', commission: exact(0), carriage: exact(0) });
  totals.header.total = exact(body.total);
  const newPoint = exact(body.newPoint ?? 0);
  const point = member ? member.point : exact(0);
  Object.assign(totals.header, { newPoint, point, totalPoint: point.plus(newPoint).minus(input.spendPoint) });
  if (member && input.mileageDivision !== '0') {
    const earnMile = exact(body.earnMile ?? 0);
    const adjustmentMile = exact(body.adjustmentMile ?? 0);
    Object.assign(totals.header, { currentMile: member.mile, earnMile, adjustmentMile, totalMile: member.mile.plus(earnMile).plus(adjustmentMile) });
  } else if (body.earnMile !== undefined || body.adjustmentMile !== undefined) {
    throw InvalidInput.field(body.earnMile !== undefined ? 'earnMile' : 'adjustmentMile', 'miles are kept only for a member (customerId) with mileageDivision 1 or 2');
  }
  return totals;
}

/** adjustmentMile is not among the model's sent fields but is computed (adjustmentMileDivision 3): check it alike. */
export function adjustmentMileMismatch(body: CreateTransaction, computed: TransactionTotals): TotalsMismatch | null {
  const c = computed.header.adjustmentMile;
  if (body.adjustmentMile === undefined || (c !== null && c.eq(body.adjustmentMile))) return null;
  return { field: 'adjustmentMile', sent: body.adjustmentMile, computed: c === null ? 'null' : formatDecimal(c) };
}

function computeOrRefuse(input: TotalsInput): TransactionTotals {
  try {
    return computeTransactionTotals(input);
  } catch (e) {
    if (e instanceof TotalsError) throw InvalidInput.field(e.field, e.message);
    throw e;
  }
}

/**
 * Payment breakdown: sent values, else the defaults of issue 4. left = total − creditTotal.
 * Other payments of methods that give no change (`changeless`, paymentChangeFlag 0) count at
 * most up to max(0, left); their excess (`forfeited`) is lost. due = left − what they count.
 * The others give change: cashTotal = due − their money (negative when they overpay: the excess
 * = max(0, their money − max(0, due)) is change paid in cash); depositCash = cashTotal + excess
 * + tipCash; depositCredit = creditTotal + tipCredit; deposit = depositCash + depositCredit +
 * all others. Tips are paid on top of the total, so a sale owes total + tips: the money received
 * must cover it (a 400 naming `deposit`), and change (sales) = max(0, deposit − owed − forfeited).
 */
export function cashOf(
  body: CreateTransaction,
  total: Decimal,
  others: { money: Decimal; changeless: Decimal },
  sale: boolean,
  mustCover: boolean,
): Rec {
  const sent = (v: string | undefined, fallback: Decimal) => (v === undefined ? fallback : exact(v));
  const creditTotal = sent(body.creditTotal, exact(0));
  const tipCash = sent(body.tipCash, exact(0));
  const tipCredit = sent(body.tipCredit, exact(0));
  const left = total.minus(creditTotal);
  const counted = others.changeless.isPositive() ? Decimal.min(others.changeless, Decimal.max(0, left)) : others.changeless;
  const forfeited = others.changeless.minus(counted);
  const due = left.minus(counted);
  const giving = others.money.minus(others.changeless);
  const excess = giving.isPositive() ? Decimal.max(0, giving.minus(Decimal.max(0, due))) : exact(0);
  const cashTotal = sent(body.cashTotal, due.minus(giving));
  const depositCredit = sent(body.depositCredit, creditTotal.plus(tipCredit));
  const depositCash = sent(body.depositCash, cashTotal.plus(excess).plus(tipCash));
  const deposit = sent(body.deposit, depositCash.plus(depositCredit).plus(others.money));
  const owed = total.plus(tipCash).plus(tipCredit);
  if (mustCover && sale && owed.greaterThan(0) && deposit.lessThan(owed)) {
    const tips = tipCash.plus(tipCredit);
    throw InvalidInput.field(
      'deposit',
      `the payments (${formatDecimal(deposit)}) do not cover the total ${formatDecimal(total)}${tips.isZero() ? '' : ` plus tips ${formatDecimal(tips)}`}`,
    );
  }
  const change = sent(body.change, sale ? Decimal.max(0, deposit.minus(owed).minus(forfeited)) : exact(0));
  return {
    cashTotal: units('cashTotal', cashTotal),
    creditTotal: units('creditTotal', creditTotal),
    deposit: units('deposit', deposit),
    depositCash: units('depositCash', depositCash),
    depositCredit: units('depositCredit', depositCredit),
    change: units('change', change),
  };
}

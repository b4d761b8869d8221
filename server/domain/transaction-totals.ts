import type { Decimal } from 'decimal.js';
import { memberTotals, pointBase, type PointLine } from './points.js';
import { add, allocate, AllocationError, exact, mul, roundingModeOfCode, roundQuotient, roundTotal, sub, ZERO } from './rounding.js';
import {
  TotalsError,
  type LineTotals,
  type TaxDivision,
  type TotalsInput,
  type TotalsLine,
  type TransactionTotals,
} from './transaction-totals-types.js';

/**
 * The totals of a transaction (spec 2.13), by the model of issue 4 ("Transaction totals" in
 * docs/decisions.md). Pure and exact. Lines of product division 4, 5, 6 (parents) and 8 (bundle
 * discount) are containers: they count in no header money or quantity; every other line is a
 * goods line. Throws TotalsError for an amount that has no line to be spread over.
 */
export function computeTransactionTotals(input: TotalsInput): TransactionTotals {
  const n = input.lines.length;
  const lines: LineTotals[] = new Array<LineTotals>(n);
  const signs: number[] = new Array<number>(n);
  const qty: Decimal[] = new Array<Decimal>(n);
  const goods: number[] = [];
  for (let i = 0; i < n; i++) {
    const l = input.lines[i]!;
    const q = exact(l.quantity);
    const unitNonDiscountSum = mul(l.salesPrice, q);
    const unitDiscountSum = mul(l.unitDiscountPrice, q);
    qty[i] = q;
    signs[i] = l.transactionDetailDivision === '2' ? -1 : 1;
    lines[i] = {
      unitNonDiscountSum,
      unitDiscountSum,
      unitDiscountedSum: sub(unitNonDiscountSum, unitDiscountSum),
      costSum: mul(l.cost, q),
      discountPriceProportional: ZERO,
      discountPointProportional: ZERO,
      discountCouponProportional: ZERO,
      taxIncludeProportional: ZERO,
      taxExcludeProportional: ZERO,
      productBundleProportional: ZERO,
      staffDiscountProportional: ZERO,
      bargainDiscountProportional: ZERO,
      roundingPriceProportional: ZERO,
    };
    if (!CONTAINERS.has(l.productDivision)) goods.push(i);
  }
  const signed = (i: number, v: Decimal) => (signs[i]! < 0 && !v.isZero() ? v.neg() : v);
  allocateBundleDiscounts(input.lines, lines, signed);

  // Line nets and the line-discount subtotals.
  const net: Decimal[] = new Array<Decimal>(goods.length);
  let unitNonDiscountsubtotal = ZERO;
  let unitDiscountsubtotal = ZERO;
  let unitStaffDiscountsubtotal = ZERO;
  let unitBargainDiscountsubtotal = ZERO;
  let subtotalForDiscount = ZERO;
  for (let g = 0; g < goods.length; g++) {
    const i = goods[g]!;
    const l = input.lines[i]!;
    const t = lines[i]!;
    net[g] = sub(signed(i, t.unitDiscountedSum), t.productBundleProportional);
    unitNonDiscountsubtotal = add(unitNonDiscountsubtotal, signed(i, t.unitNonDiscountSum));
    unitDiscountsubtotal = add(add(unitDiscountsubtotal, signed(i, t.unitDiscountSum)), t.productBundleProportional);
    t.staffDiscountProportional = signed(i, mul(l.applyStaffDiscountPrice, qty[i]!));
    unitStaffDiscountsubtotal = add(unitStaffDiscountsubtotal, t.staffDiscountProportional);
    t.bargainDiscountProportional = signed(i, mul(l.applyBargainDiscountPrice, qty[i]!));
    unitBargainDiscountsubtotal = add(unitBargainDiscountsubtotal, t.bargainDiscountProportional);
    if (l.calcDiscount === '1') subtotalForDiscount = add(subtotalForDiscount, net[g]!);
  }
  const subtotal = sub(unitNonDiscountsubtotal, unitDiscountsubtotal);

  // Subtotal, coupon and point discounts, shared by line net; then the taxable base.
  const discountable = net.map((w, g) => (input.lines[goods[g]!]!.calcDiscount === '1' ? w : ZERO));
  const byNet = (field: string, amount: Decimal, weights: readonly Decimal[], lines: string) =>
    spread(field, amount, weights, () => `${amount.toFixed()} cannot be spread: ${lines} total 0`);
  const subject = 'the lines subject to subtotal discount (calcDiscount 1)';
  const priceShares = byNet('subtotalDiscountPrice', input.subtotalDiscountPrice, discountable, subject);
  const couponShares = byNet('couponDiscount', input.couponDiscount, net, 'the goods lines');
  const pointShares = byNet('pointDiscount', input.pointDiscount, net, 'the goods lines');
  const pointsLowerTax = input.pointSpendDivision === '2';
  const base: Decimal[] = new Array<Decimal>(goods.length);
  for (let g = 0; g < goods.length; g++) {
    const t = lines[goods[g]!]!;
    t.discountPriceProportional = priceShares[g]!;
    t.discountCouponProportional = couponShares[g]!;
    t.discountPointProportional = pointShares[g]!;
    let b = sub(sub(net[g]!, priceShares[g]!), couponShares[g]!);
    if (pointsLowerTax) b = sub(b, pointShares[g]!);
    base[g] = b;
  }

  // Tax per (division, rate), rounded per group, shared over the group by largest remainder.
  const mode = roundingModeOfCode(input.taxRounding);
  const groups = new Map<string, { division: TaxDivision; rate: Decimal; members: number[] }>();
  for (let g = 0; g < goods.length; g++) {
    const l = input.lines[goods[g]!]!;
    if (l.taxDivision === '2') continue;
    const key = `${l.taxDivision}:${l.taxRate.toString()}`;
    const group = groups.get(key);
    if (group) group.members.push(g);
    else groups.set(key, { division: l.taxDivision, rate: l.taxRate, members: [g] });
  }
  let taxInclude = ZERO;
  let taxExclude = ZERO;
  for (const { division, rate, members } of groups.values()) {
    const weights = members.map((g) => base[g]!);
    const sum = weights.reduce(add, ZERO);
    const tax = roundQuotient(mul(sum, rate), division === '0' ? HUNDRED.plus(rate) : HUNDRED, 0, mode);
    const shares = allocate(tax, weights, { scale: 0, adjust: 'largestRemainder' });
    members.forEach((g, k) => {
      const t = lines[goods[g]!]!;
      if (division === '0') t.taxIncludeProportional = shares[k]!;
      else t.taxExcludeProportional = shares[k]!;
    });
    if (division === '0') taxInclude = add(taxInclude, tax);
    else taxExclude = add(taxExclude, tax);
  }

  // Total and its rounding.
  let taxFreeTotal = ZERO;
  for (const i of goods) taxFreeTotal = add(taxFreeTotal, signed(i, exact(input.lines[i]!.taxFree)));
  let preRounding = sub(subtotal, input.subtotalDiscountPrice);
  preRounding = sub(sub(preRounding, input.pointDiscount), input.couponDiscount);
  preRounding = add(add(add(preRounding, taxExclude), input.commission), input.carriage);
  preRounding = sub(preRounding, taxFreeTotal);
  const roundingPrice = roundingOf(input, preRounding);
  const manual = input.roundingDivision === '99';
  const roundingShares = spread(
    manual ? 'roundingPrice' : 'roundingDivision',
    roundingPrice,
    net,
    () => `the rounding amount ${roundingPrice.toFixed()} cannot be spread: the goods lines total 0`,
  );
  goods.forEach((i, g) => (lines[i]!.roundingPriceProportional = roundingShares[g]!));

  // Sales-target and non-target breakdowns, quantities, costs.
  const sales = { '0': ZERO, '1': ZERO, '2': ZERO };
  const nonTarget = { '0': ZERO, '1': ZERO, '2': ZERO };
  let nonSalesTargetCostTotal = ZERO;
  let nonSalesTargetAmount = ZERO;
  let nonSalesTargetReturnAmount = ZERO;
  let amount = ZERO;
  let returnAmount = ZERO;
  let costTotal = ZERO;
  for (let g = 0; g < goods.length; g++) {
    const i = goods[g]!;
    const l = input.lines[i]!;
    const cost = signed(i, lines[i]!.costSum);
    costTotal = add(costTotal, cost);
    if (signs[i]! < 0) returnAmount = add(returnAmount, qty[i]!);
    else amount = add(amount, qty[i]!);
    if (l.salesDivision === '0') {
      sales[l.taxDivision] = add(sales[l.taxDivision], base[g]!);
      continue;
    }
    nonTarget[l.taxDivision] = add(nonTarget[l.taxDivision], base[g]!);
    nonSalesTargetCostTotal = add(nonSalesTargetCostTotal, cost);
    if (signs[i]! < 0) nonSalesTargetReturnAmount = add(nonSalesTargetReturnAmount, qty[i]!);
    else nonSalesTargetAmount = add(nonSalesTargetAmount, qty[i]!);
  }

  const pointLines: PointLine[] = goods.map((i, g) => ({
    pointNotApplicable: input.lines[i]!.pointNotApplicable,
    taxBase: base[g]!,
    taxIncludeProportional: lines[i]!.taxIncludeProportional,
    taxExcludeProportional: lines[i]!.taxExcludeProportional,
    discountPointProportional: lines[i]!.discountPointProportional,
  }));
  const member = memberTotals(input, pointBase(pointLines, input.pointGivingDivision, input.pointSpendDivision));

  return {
    header: {
      unitNonDiscountsubtotal,
      unitDiscountsubtotal,
      unitStaffDiscountsubtotal,
      unitBargainDiscountsubtotal,
      subtotal,
      subtotalForDiscount,
      taxInclude,
      taxExclude,
      roundingPrice,
      total: add(preRounding, roundingPrice),
      amount,
      returnAmount,
      costTotal,
      salesHeadDivision: goods.some((i) => input.lines[i]!.salesDivision === '1') ? '1' : '0',
      inTaxSalesTotal: sales['0'],
      outTaxSalesTotal: sales['1'],
      nonTaxSalesTotal: sales['2'],
      nonSalesTargetTotal: add(add(nonTarget['0'], nonTarget['1']), nonTarget['2']),
      nonSalesTargetInTaxTotal: nonTarget['0'],
      nonSalesTargetOutTaxTotal: nonTarget['1'],
      nonSalesTargetTaxFreeTotal: nonTarget['2'],
      nonSalesTargetCostTotal,
      nonSalesTargetAmount,
      nonSalesTargetReturnAmount,
      ...member,
    },
    lines,
  };
}

const HUNDRED = exact(100);
/** Parents (4 bundle, 5 set sale, 6 simple bundle) and bundle discounts (8). */
const CONTAINERS = new Set(['4', '5', '6', '8']);

/** allocate() at whole yen, error on the last line, "weights sum to 0" a TotalsError on `field`. */
function spread(field: string, amount: Decimal, weights: readonly Decimal[], message: () => string): Decimal[] {
  try {
    return allocate(amount, weights, { scale: 0, adjust: 'last' });
  } catch (e) {
    if (e instanceof AllocationError) throw new TotalsError(field, message());
    throw e;
  }
}

/**
 * Each bundle discount line (8) carries the discount of its bundle: sign × |unitDiscountedSum|
 * (terminals send it positive or negative; a returned bundle gives the discount back). It is
 * spread over the bundle children (7) under the same parent by their signed unitDiscountedSum,
 * error on the last child, into productBundleProportional.
 */
function allocateBundleDiscounts(
  input: readonly TotalsLine[],
  lines: LineTotals[],
  signed: (i: number, v: Decimal) => Decimal,
): void {
  for (let j = 0; j < input.length; j++) {
    if (input[j]!.productDivision !== '8') continue;
    const discount = signed(j, lines[j]!.unitDiscountedSum.abs());
    if (discount.isZero()) continue;
    const parent = input[j]!.parentTransactionDetailId;
    const children: number[] = [];
    input.forEach((l, i) => {
      if (l.productDivision === '7' && l.parentTransactionDetailId === parent) children.push(i);
    });
    const shares = spread(
      `details[${j}].parentTransactionDetailId`,
      discount,
      children.map((i) => signed(i, lines[i]!.unitDiscountedSum)),
      () =>
        `the bundle discount ${discount.abs().toFixed()} cannot be spread: the bundle child lines (productDivision 7) of parent ${String(parent)} total 0`,
    );
    children.forEach((i, k) => {
      lines[i]!.productBundleProportional = add(lines[i]!.productBundleProportional, shares[k]!);
    });
  }
}

/** roundingPrice: '99' the manual amount sent; otherwise computed from the total before it. */
function roundingOf(input: TotalsInput, preRounding: Decimal): Decimal {
  if (input.roundingDivision === '99') {
    if (input.manualRoundingPrice === null) throw new TotalsError('roundingPrice', 'is required when roundingDivision is 99');
    return exact(input.manualRoundingPrice);
  }
  try {
    return roundTotal(preRounding, input.roundingDivision);
  } catch {
    throw new TotalsError('roundingDivision', 'must be 00, 11 to 13, 21 to 23, 31 to 33, 41 to 43 or 99');
  }
}

import type { Decimal } from 'decimal.js';

/**
 * What the totals of a transaction are computed from (spec 2.13; the model is written down in
 * docs/decisions.md, "Transaction totals"). Inputs are validated and defaulted by the caller:
 * every value here is present and exact.
 */
export type TaxDivision = '0' | '1' | '2'; // 0 tax included, 1 tax excluded, 2 non-taxable
export type RoundingCode = '0' | '1' | '2'; // 0 half up, 1 down, 2 up

export interface TotalsLine {
  transactionDetailId: number;
  parentTransactionDetailId: number | null;
  transactionDetailDivision: '1' | '2' | '3'; // 2 = return line
  productDivision: string; // '0'..'8', 'A', 'B'
  taxDivision: TaxDivision;
  salesDivision: '0' | '1'; // 0 sales target, 1 non-target
  calcDiscount: '0' | '1';
  pointNotApplicable: '0' | '1';
  salesPrice: Decimal;
  unitDiscountPrice: Decimal;
  quantity: Decimal;
  cost: Decimal;
  taxRate: Decimal; // effective rate of the line (resolved by the caller)
  taxFree: Decimal;
  applyStaffDiscountPrice: Decimal;
  applyBargainDiscountPrice: Decimal;
}

export interface TotalsInput {
  lines: TotalsLine[];
  taxRounding: RoundingCode;
  roundingDivision: string; // '00', '11'..'43', '99'
  manualRoundingPrice: Decimal | null; // only for '99'
  subtotalDiscountPrice: Decimal;
  pointDiscount: Decimal;
  couponDiscount: Decimal;
  commission: Decimal;
  carriage: Decimal;
  pointSpendDivision: '1' | '2';
  /** Null when not a member sale (no customerId). */
  member: null | {
    known: boolean; // false: unknown id, stored but points not updated
    point: Decimal; // current points (0 when unknown)
    mile: Decimal; // current miles (0 when unknown)
  };
  pointGivingDivision: '1' | '2' | '3' | '4';
  pointGivingUnitPrice: Decimal;
  pointGivingUnit: Decimal;
  spendPoint: Decimal;
  mileageDivision: '0' | '1' | '2';
  adjustmentMileDivision: '1' | '2' | '3' | '4' | null;
  adjustmentMileValue: Decimal | null;
}

export interface LineTotals {
  unitNonDiscountSum: Decimal;
  unitDiscountSum: Decimal;
  unitDiscountedSum: Decimal;
  costSum: Decimal;
  discountPriceProportional: Decimal;
  discountPointProportional: Decimal;
  discountCouponProportional: Decimal;
  taxIncludeProportional: Decimal;
  taxExcludeProportional: Decimal;
  productBundleProportional: Decimal;
  staffDiscountProportional: Decimal;
  bargainDiscountProportional: Decimal;
  roundingPriceProportional: Decimal;
}

export interface HeaderTotals {
  unitNonDiscountsubtotal: Decimal;
  unitDiscountsubtotal: Decimal;
  unitStaffDiscountsubtotal: Decimal;
  unitBargainDiscountsubtotal: Decimal;
  subtotal: Decimal;
  subtotalForDiscount: Decimal;
  taxInclude: Decimal;
  taxExclude: Decimal;
  roundingPrice: Decimal;
  total: Decimal;
  amount: Decimal;
  returnAmount: Decimal;
  costTotal: Decimal;
  salesHeadDivision: '0' | '1';
  inTaxSalesTotal: Decimal;
  outTaxSalesTotal: Decimal;
  nonTaxSalesTotal: Decimal;
  nonSalesTargetTotal: Decimal;
  nonSalesTargetInTaxTotal: Decimal;
  nonSalesTargetOutTaxTotal: Decimal;
  nonSalesTargetTaxFreeTotal: Decimal;
  nonSalesTargetCostTotal: Decimal;
  nonSalesTargetAmount: Decimal;
  nonSalesTargetReturnAmount: Decimal;
  newPoint: Decimal;
  point: Decimal;
  totalPoint: Decimal;
  // Null unless a member sale with mileageDivision 1 or 2.
  currentMile: Decimal | null;
  earnMile: Decimal | null;
  adjustmentMile: Decimal | null;
  totalMile: Decimal | null;
}

export interface TransactionTotals {
  header: HeaderTotals;
  /** In the order of TotalsInput.lines. */
  lines: LineTotals[];
}

/**
 * A rule of the totals cannot be met (e.g. a subtotal discount with no line subject to it).
 * `field` is the request field to name in the 400 (e.g. "subtotalDiscountPrice").
 */
export class TotalsError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'TotalsError';
  }
}

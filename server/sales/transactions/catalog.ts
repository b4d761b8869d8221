import { fromUnits } from '../../domain/money.js';
import { formatDateTime } from '../../domain/time.js';

/**
 * The fields of a transaction (spec 2.13) and how each is stored, in one place: the insert
 * statements, the presenter, the output schema and the return-cancel's negation all read it.
 * Kinds: text (TEXT as is), int (INTEGER id, output as a string), dec (TEXT exact decimal in
 * shortest form), amt (a dec that is an amount: negated by a return-cancel), units (INTEGER
 * thousandths, an amount), time (epoch ms INTEGER, output in the contract's zone), date (TEXT).
 */
export type Kind = 'text' | 'int' | 'dec' | 'amt' | 'units' | 'time' | 'date';

export interface Field {
  name: string;
  kind: Kind;
  column: string;
}

/** Storage values keyed by field name (numbers for int, units and time; strings otherwise); a missing key is NULL. */
export type Rec = Record<string, string | number | null>;

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** "name:kind=column" words; kind defaults to text, column to the snake_case name. */
function fields(spec: string): readonly Field[] {
  return spec
    .trim()
    .split(/\s+/)
    .map((word) => {
      const [head, column] = word.split('=');
      const [name, kind = 'text'] = head!.split(':');
      return { name: name!, kind: kind as Kind, column: column ?? snake(name!) };
    });
}

export const HEADER_FIELDS = fields(`
  transactionHeadId:int transactionDateTime:time=transaction_at transactionHeadDivision cancelDivision
  unitNonDiscountsubtotal:amt unitDiscountsubtotal:amt unitStaffDiscountsubtotal:amt unitBargainDiscountsubtotal:amt
  subtotal:amt subtotalForDiscount:amt subtotalDiscountPrice:amt subtotalDiscountRate:dec subtotalDiscountDivision
  pointDiscount:amt couponDiscount:amt total:units taxInclude:amt taxExclude:amt roundingDivision roundingPrice:amt
  cashTotal:units creditTotal:units deposit:units depositCash:units depositCredit:units change:units
  tipCash:units tipCredit:units amount:amt returnAmount:amt costTotal:amt salesHeadDivision
  inTaxSalesTotal:amt outTaxSalesTotal:amt nonTaxSalesTotal:amt nonSalesTargetTotal:amt nonSalesTargetInTaxTotal:amt
  nonSalesTargetOutTaxTotal:amt nonSalesTargetTaxFreeTotal:amt nonSalesTargetCostTotal:amt nonSalesTargetAmount:amt
  nonSalesTargetReturnAmount:amt newPoint:amt spendPoint:amt point:dec totalPoint:dec
  currentMile:dec earnMile:amt totalMile:dec adjustmentMile:amt adjustmentMileDivision adjustmentMileValue:dec
  storeId:int terminalId:int customerId:int terminalTranId terminalTranDateTime:time=terminal_tran_at sumDivision
  adjustmentDateTime:time=adjustment_at sumDate:date customerRank customerGroupId:int customerGroupId2:int
  customerGroupId3:int customerGroupId4:int customerGroupId5:int staffId:int staffName creditDivision paymentCount
  slipNumber cancelSlipNumber authNumber authDate cardCompany denomination memo receiptMemo carriage:amt commission:amt
  guestNumbers:int guestNumbersMale:int guestNumbersFemale:int guestNumbersUnknown:int enterDateTime:time=enter_at
  taxFreeSalesDivision netTaxFreeGeneralTaxInclude:amt netTaxFreeGeneralTaxExclude:amt
  netTaxFreeConsumableTaxInclude:amt netTaxFreeConsumableTaxExclude:amt tags pointGivingDivision
  pointGivingUnitPrice:dec pointGivingUnit:dec pointSpendDivision mileageDivision mileageLabel customerPinCode
  returnSales disposeDivision disposeServerTransactionHeadId:int cancelDateTime:time=cancel_at sellDivision
  taxRate:dec taxRounding discountRoundingDivision transactionUuid exchangeTicketNo giftReceiptValidDays
  updDateTime:time=upd_at
`);

export const DETAIL_FIELDS = fields(`
  transactionDetailId:int parentTransactionDetailId:int transactionDetailDivision productId:int productCode
  productName printReceiptProductName color size groupCode supplierProductNo taxDivision price:dec salesPrice:dec
  unitDiscountPrice:dec unitDiscountRate:dec unitDiscountDivision cost:dec quantity:amt unitNonDiscountSum:amt
  unitDiscountSum:amt unitDiscountedSum:amt costSum:amt categoryId:int categoryName discriminationNo salesDivision
  productDivision inventoryReservationDivision pointNotApplicable calcDiscount taxFreeDivision
  taxFreeCommodityPrice:dec taxFree:amt productBundleGroupId:int discountPriceProportional:amt
  discountPointProportional:amt discountCouponProportional:amt taxIncludeProportional:amt taxExcludeProportional:amt
  productBundleProportional:amt staffDiscountProportional:amt bargainDiscountProportional:amt
  roundingPriceProportional:amt productStaffDiscountRate:dec staffRank staffRankName staffDiscountRate:dec
  staffDiscountDivision applyStaffDiscountRate:dec applyStaffDiscountPrice:dec bargainId:int bargainName
  bargainDivision bargainValue:dec applyBargainValue:dec applyBargainDiscountPrice:dec taxRate:dec
  standardTaxRate:dec modifiedTaxRate:dec reduceTaxId reduceTaxName reduceTaxRate:dec reduceTaxPrice:dec
  reduceTaxMemberPrice:dec memo
`);

/**
 * The line fields of `with_details=summary` ("一部項目", some fields): what a line is (ids,
 * divisions, product, category) and what it sold (prices, quantity, sums, tax rate); the
 * proportional shares, staff and bargain discounts, tax-free and reduced-tax details and the
 * memo come with `with_details=all` only.
 */
export const SUMMARY_DETAIL_FIELDS = ((names: string) => {
  const wanted = new Set(names.trim().split(/\s+/));
  return DETAIL_FIELDS.filter((f) => wanted.has(f.name));
})(`
  transactionDetailId parentTransactionDetailId transactionDetailDivision productId productCode productName
  printReceiptProductName color size groupCode categoryId categoryName taxDivision price salesPrice
  unitDiscountPrice unitDiscountRate cost quantity unitNonDiscountSum unitDiscountSum unitDiscountedSum costSum
  salesDivision productDivision taxRate
`);

export const OTHER_FIELDS = fields(`
  no:int=line_no paymentMethodId:int paymentMethodCode paymentMethodName depositOthers:amt paymentUnitPrice:dec
  paymentChangeFlag paymentDivision paymentSecuritiesFlag denomination denominationCode denominationName
  cardCompanyName slipNumber cancelSlipNumber pointGivingUnitPrice:dec pointGivingUnit:dec
`);

export const COUPON_FIELDS = fields(`
  transactionCouponId:int=coupon_no terminalTranCouponId couponId couponName couponDivision serialNumber
  benefitType benefitValue:dec couponDiscountTotal:amt
`);

/** A stored row (snake_case columns) as a record keyed by field name. */
export function recOfRow(list: readonly Field[], row: Record<string, unknown>): Rec {
  const rec: Rec = {};
  for (const f of list) rec[f.name] = row[f.column] as string | number | null;
  return rec;
}

/** The wire form of a record: every field a string or null (spec §1). */
export function presentRec(list: readonly Field[], rec: Rec, zone: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const f of list) {
    const v = rec[f.name];
    if (v === null || v === undefined) out[f.name] = null;
    else if (f.kind === 'units') out[f.name] = fromUnits(v as number, 3);
    else if (f.kind === 'time') out[f.name] = formatDateTime(v as number, zone);
    else out[f.name] = String(v);
  }
  return out;
}

/** INSERT of one row of `table`: the `fixed` columns, then every field (values by `valuesOf`). */
export function insertSql(table: string, fixed: readonly string[], list: readonly Field[]): string {
  const columns = [...fixed, ...list.map((f) => f.column)];
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
}

/** The positional values of `insertSql` for a record (a field not set is NULL). */
export function valuesOf(list: readonly Field[], rec: Rec, fixed: readonly (string | number)[]): (string | number | null)[] {
  const values: (string | number | null)[] = fixed.slice();
  for (const f of list) values.push(rec[f.name] ?? null);
  return values;
}

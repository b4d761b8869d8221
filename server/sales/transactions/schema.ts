import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { COST, decimalError, PRICE, type DecimalFormat } from '../../domain/money.js';
import { date, dateTime, decimalText, digits, halfWidthCode, id, oneOf, text } from '../../platform/http/fields.js';
import { REDUCE_TAX_IDS } from '../../masters/categories/schema.js';
import { POINT } from '../../masters/customers/schema.js';

// --- formats (spec 2.13, §8) ------------------------------------------------------------------

const SIGNED_PRICE: DecimalFormat = { ...PRICE, signed: true };
const QUANTITY: DecimalFormat = { integerDigits: 9, fractionDigits: 3 };
/** Any plain decimal: a computed field the terminal may send; it is compared with ours. */
export const COMPUTED: DecimalFormat = { integerDigits: 15, fractionDigits: 8, signed: true };
const SIGNED_POINT: DecimalFormat = { ...POINT, signed: true };
const MILE_VALUE: DecimalFormat = { integerDigits: 9, fractionDigits: 2, signed: true };
const GIVING_UNIT_PRICE: DecimalFormat = { integerDigits: 5, fractionDigits: 0 };
const GIVING_UNIT: DecimalFormat = { integerDigits: 5, fractionDigits: 2 };

const dec = (format: DecimalFormat) => decimalText(format).optional();
const price = dec(PRICE);
const signedPrice = dec(SIGNED_PRICE);
const computed = dec(COMPUTED);
/** A percentage from 0 to 100 with up to 3 decimals. */
const rate = decimalText({ integerDigits: 3, fractionDigits: 3 })
  .refine((s) => decimalError(s, { integerDigits: 3, fractionDigits: 3 }) !== null || new Decimal(s).lte(100), { message: 'must be at most 100' })
  .optional();
const pointGivingUnitPrice = decimalText(GIVING_UNIT_PRICE)
  .refine((s) => decimalError(s, GIVING_UNIT_PRICE) !== null || new Decimal(s).gte(1), { message: 'must be from 1 to 99999' })
  .optional();
const flag = oneOf(['0', '1']).optional();
const opt = <T extends z.ZodType>(schema: T) => schema.optional();
const refused = (message: string) => z.never({ error: message }).optional();

export const SUPPORTED_HEAD_DIVISIONS = ['1', '2', '3', '4', '5', '6', '7', '13', '14'] as const;
const UNSUPPORTED_HEAD_DIVISIONS = ['8', '9', '11', '15', '16'];
/** A division of `allowed` values; `refusals` explain known values the API refuses (each a 400). */
const division = (allowed: readonly string[], refusals: Record<string, string>, otherwise: string) =>
  z.string().superRefine((s, ctx) => {
    if (!allowed.includes(s)) ctx.addIssue({ code: 'custom', message: refusals[s] ?? otherwise });
  });
const headDivision = division(
  SUPPORTED_HEAD_DIVISIONS,
  {
    ...Object.fromEntries(UNSUPPORTED_HEAD_DIVISIONS.map((d) => [d, `${d} is not supported by the API`])),
    10: 'layaways (10, 取置き) are registered through POST /transactions/layaways, not POST /transactions',
  },
  `must be one of ${SUPPORTED_HEAD_DIVISIONS.join(', ')}`,
);

export const ROUNDING_DIVISIONS = ['00', '11', '12', '13', '21', '22', '23', '31', '32', '33', '41', '42', '43', '99'] as const;
export const CREDIT_DIVISIONS = ['11', '12', '13', '14', '15', '21', '22', '23', '24', '31', '41', '51', '61', '62', '71', '72', '73', '81', '82', '83', '91', 'A1', 'B1', 'C1'] as const;
export const DENOMINATIONS = ['11', '12', '13', '21', '41'] as const;
/** denominationCode values that accept a card company name, and those that do not (2.13). */
export const CARD_DENOMINATION_CODES = ['CREDIT', 'DEBIT', 'PREPAID', 'STORE', 'UNIONPAY', 'CONTACTLESS'] as const;
export const OTHER_DENOMINATION_CODES = (
  'JDEBIT SUICA PITAPA SAPICA QUICPAY ID WAON RAKUTENEDY NANACO AEONPAY ALIPAY AMAZONPAY ATONEPAY AUPAY BANKIT BANKPAY ' +
  'DPAY EGIFTEE FAMIPAY GINKOPAY GLNPAY GOTOEAT JCOINPAY JKOPAY LINEPAY MBBANK MERPAY MICROPAY NISSENREN ORIGAMIPAY ' +
  'PAYPAY PROMPTPAY QUOPAY RAKUTENPAY SGTDASH SGTGLB SMARTCODE UPICPM ATOKARA TOTTEIPAY WESMO'
).split(' ');
const denominationCode = z
  .string()
  .refine((s) => (CARD_DENOMINATION_CODES as readonly string[]).includes(s) || OTHER_DENOMINATION_CODES.includes(s), {
    message: 'must be one of the denomination codes of spec 2.13 (CREDIT, DEBIT, PREPAID, STORE, UNIONPAY, CONTACTLESS, JDEBIT, SUICA, ...)',
  })
  .optional();
export const BENEFIT_TYPES = ['1', '2', '3', 'P1', 'P2', 'P3', 'P4', 'M1', 'M2', 'M3', 'M4'] as const;

// --- input ------------------------------------------------------------------------------------

const detailInput = z.strictObject({
  transactionDetailId: z.string().regex(/^\d{1,3}$/, 'must be 1 to 999').refine((s) => Number(s) >= 1, { message: 'must be 1 to 999' }),
  parentTransactionDetailId: opt(z.string().regex(/^\d{1,3}$/, 'must be 1 to 999')),
  transactionDetailDivision: opt(oneOf(['1', '2', '3'])),
  productId: opt(id()),
  productCode: opt(halfWidthCode(20)),
  productName: opt(text(85)),
  printReceiptProductName: opt(text(85)),
  color: opt(text(85)),
  size: opt(text(85)),
  groupCode: opt(text(85)),
  supplierProductNo: opt(text(85)),
  taxDivision: opt(oneOf(['0', '1', '2'])),
  price: signedPrice,
  salesPrice: decimalText(SIGNED_PRICE),
  unitDiscountPrice: signedPrice,
  unitDiscountRate: rate,
  unitDiscountDivision: opt(id()),
  cost: dec(COST),
  quantity: decimalText(QUANTITY),
  unitNonDiscountSum: computed,
  unitDiscountSum: computed,
  unitDiscountedSum: computed,
  costSum: computed,
  categoryId: opt(id()),
  categoryName: opt(text(85)),
  discriminationNo: opt(text(40)),
  salesDivision: flag,
  productDivision: opt(
    division(
      ['0', '1', '2', '3', '4', '5', '6', '7', '8'],
      { A: 'A is set only by restaurant-ordering transactions', B: 'B is set only by restaurant-ordering transactions' },
      'must be one of 0 to 8',
    ),
  ),
  inventoryReservationDivision: flag,
  pointNotApplicable: flag,
  calcDiscount: flag,
  taxFreeDivision: opt(oneOf(['0', '1', '2'])),
  taxFreeCommodityPrice: price,
  taxFree: signedPrice,
  productBundleGroupId: opt(id()),
  discountPriceProportional: computed,
  discountPointProportional: computed,
  discountCouponProportional: computed,
  taxIncludeProportional: computed,
  taxExcludeProportional: computed,
  productBundleProportional: computed,
  staffDiscountProportional: computed,
  bargainDiscountProportional: computed,
  roundingPriceProportional: computed,
  productStaffDiscountRate: rate,
  staffRank: opt(halfWidthCode(20)),
  staffRankName: opt(text(85)),
  staffDiscountRate: rate,
  staffDiscountDivision: opt(digits(3)),
  applyStaffDiscountRate: rate,
  applyStaffDiscountPrice: price,
  bargainId: opt(id()),
  bargainName: opt(text(85)),
  bargainDivision: opt(oneOf(['1', '2', '3'])),
  bargainValue: price,
  applyBargainValue: price,
  applyBargainDiscountPrice: price,
  taxRate: rate,
  standardTaxRate: rate,
  modifiedTaxRate: refused('cannot be set'),
  reduceTaxId: opt(oneOf(REDUCE_TAX_IDS)),
  reduceTaxName: opt(text(85)),
  reduceTaxRate: rate,
  reduceTaxPrice: signedPrice,
  reduceTaxMemberPrice: signedPrice,
  memo: opt(text(1000)),
});

const depositOtherInput = z.strictObject({
  no: opt(oneOf(['1', '2', '3'])),
  paymentMethodId: id(),
  depositOthers: decimalText(SIGNED_PRICE),
  denomination: opt(oneOf(DENOMINATIONS)),
  denominationCode,
  denominationName: opt(text(85)),
  cardCompanyName: opt(text(85)),
  slipNumber: opt(text(40)),
  cancelSlipNumber: opt(text(40)),
  pointGivingUnitPrice,
  pointGivingUnit: dec(GIVING_UNIT),
});

const couponInput = z.strictObject({
  terminalTranCouponId: opt(text(40)),
  couponId: id(),
  couponName: opt(text(85)),
  couponDivision: flag,
  serialNumber: opt(text(40)),
  benefitType: opt(oneOf(BENEFIT_TYPES)),
  benefitValue: dec({ integerDigits: 9, fractionDigits: 3 }),
  couponDiscountTotal: price,
});

export const createTransactionBody = z.strictObject({
  transactionHeadDivision: headDivision,
  cancelDivision: flag,
  unitNonDiscountsubtotal: computed,
  unitDiscountsubtotal: computed,
  unitStaffDiscountsubtotal: computed,
  unitBargainDiscountsubtotal: computed,
  subtotal: computed,
  subtotalForDiscount: computed,
  subtotalDiscountPrice: price,
  subtotalDiscountRate: rate,
  subtotalDiscountDivision: opt(id()),
  pointDiscount: price,
  couponDiscount: price,
  total: dec(SIGNED_PRICE),
  taxInclude: computed,
  taxExclude: computed,
  roundingDivision: opt(oneOf(ROUNDING_DIVISIONS)),
  roundingPrice: signedPrice,
  cashTotal: signedPrice,
  creditTotal: signedPrice,
  deposit: signedPrice,
  depositCash: signedPrice,
  depositCredit: signedPrice,
  change: price,
  tipCash: price,
  tipCredit: price,
  amount: computed,
  returnAmount: computed,
  costTotal: computed,
  salesHeadDivision: flag,
  inTaxSalesTotal: computed,
  outTaxSalesTotal: computed,
  nonTaxSalesTotal: computed,
  nonSalesTargetTotal: computed,
  nonSalesTargetInTaxTotal: computed,
  nonSalesTargetOutTaxTotal: computed,
  nonSalesTargetTaxFreeTotal: computed,
  nonSalesTargetCostTotal: computed,
  nonSalesTargetAmount: computed,
  nonSalesTargetReturnAmount: computed,
  newPoint: computed,
  spendPoint: dec(SIGNED_POINT),
  point: computed,
  totalPoint: computed,
  currentMile: computed,
  earnMile: computed,
  totalMile: computed,
  adjustmentMile: dec(SIGNED_POINT),
  adjustmentMileDivision: opt(oneOf(['1', '2', '3', '4'])),
  adjustmentMileValue: dec(MILE_VALUE),
  storeId: id(),
  terminalId: opt(id()),
  customerId: opt(id()),
  terminalTranId: opt(halfWidthCode(40)),
  terminalTranDateTime: opt(dateTime),
  sumDivision: opt(
    division(['0', '2'], { 1: 'cannot be 1: transactions are settled through POST /adjustments' }, 'must be 0 (unprocessed) or 2 (closed)'),
  ),
  adjustmentDateTime: opt(dateTime),
  sumDate: opt(date),
  customerRank: opt(halfWidthCode(20)),
  customerGroupId: opt(id()),
  customerGroupId2: opt(id()),
  customerGroupId3: opt(id()),
  customerGroupId4: opt(id()),
  customerGroupId5: opt(id()),
  staffId: opt(id()),
  creditDivision: opt(oneOf(CREDIT_DIVISIONS)),
  paymentCount: opt(digits(3)),
  slipNumber: opt(text(40)),
  cancelSlipNumber: opt(text(40)),
  authNumber: opt(text(40)),
  authDate: opt(text(40)),
  cardCompany: opt(text(85)),
  denomination: opt(oneOf(DENOMINATIONS)),
  memo: opt(text(1000)),
  receiptMemo: opt(text(100)),
  carriage: price,
  commission: price,
  guestNumbers: opt(digits(9)),
  guestNumbersMale: opt(digits(9)),
  guestNumbersFemale: opt(digits(9)),
  guestNumbersUnknown: opt(digits(9)),
  enterDateTime: opt(dateTime),
  taxFreeSalesDivision: opt(oneOf(['0', '1', '2', '3', '4', '5'])),
  netTaxFreeGeneralTaxInclude: signedPrice,
  netTaxFreeGeneralTaxExclude: signedPrice,
  netTaxFreeConsumableTaxInclude: signedPrice,
  netTaxFreeConsumableTaxExclude: signedPrice,
  tags: opt(text(1000)),
  pointGivingDivision: opt(oneOf(['1', '2', '3', '4'])),
  pointGivingUnitPrice,
  pointGivingUnit: dec(GIVING_UNIT),
  pointSpendDivision: opt(oneOf(['1', '2'])),
  mileageDivision: opt(oneOf(['0', '1', '2'])),
  mileageLabel: opt(text(85)),
  customerPinCode: opt(text(20)),
  returnSales: flag,
  disposeDivision: opt(
    division(['0', '2'], { 1: 'cannot be 1: a source is marked by POST /transactions/{transaction_id}/dispose' }, 'must be 0 or 2'),
  ),
  disposeServerTransactionHeadId: opt(id()),
  layawayServerTransactionHeadId: opt(id()).describe('the layaway (取置き, POST /transactions/layaways) this sale picks up: its goods, already out of the available stock, leave the laid-away stock'),
  sellDivision: flag,
  taxRate: rate,
  taxRounding: opt(oneOf(['0', '1', '2'])),
  discountRoundingDivision: opt(oneOf(['0', '1', '2'])),
  transactionUuid: opt(halfWidthCode(40)),
  exchangeTicketNo: opt(text(40)),
  giftReceiptValidDays: opt(digits(4)),
  details: z.array(detailInput).max(999, 'must have at most 999 lines').optional(),
  depositOthers: z.array(depositOtherInput).max(3, 'must have at most 3 entries').optional(),
  coupons: z.array(couponInput).max(999, 'must have at most 999 entries').optional(),
});

export type CreateTransaction = z.infer<typeof createTransactionBody>;
export type DetailInput = z.infer<typeof detailInput>;
export type DepositOtherInput = z.infer<typeof depositOtherInput>;
export type CouponInput = z.infer<typeof couponInput>;

export const disposeBody = z
  .strictObject({
    terminalTranDateTime: opt(dateTime),
    depositOthers: z
      .array(z.strictObject({ no: oneOf(['1', '2', '3']), cancelSlipNumber: opt(text(40)) }))
      .max(1, 'must have at most 1 entry')
      .optional(),
  })
  .nullable()
  .optional();
export type DisposeTransaction = z.infer<typeof disposeBody>;

export const transactionParams = z.object({ transaction_id: id() });

/** `Idempotency-Key`: the client's own key for one registration (printable ASCII, as the IETF draft suggests). */
export const registrationHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 printable ASCII characters')
    .optional()
    .describe('a retry with the same key and body answers the first transaction'),
});

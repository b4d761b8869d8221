import { z } from 'zod';
import { formatDecimal, PRICE } from '../../domain/money.js';
import { clearable, dateTime, decimalText, halfWidthCode, id, name, oneOf, patchBody, text } from '../../platform/http/fields.js';
import { idParams, intText, masterQuery, stampsOf } from '../../platform/http/list-schemas.js';
import type { StoreRow } from './repo.js';

/** The platform's storeDivision: 1 normal store, 2 warehouse. Fixed at registration. */
export const DIVISIONS = ['1', '2'] as const;
export const PAUSE_FLAGS = ['0', '1'] as const; // 0 open, 1 suspended
const FLAGS = ['0', '1'] as const;
const POINT_GIVING_DIVISIONS = ['1', '2', '3', '4'] as const;
const POINT_SPEND_DIVISIONS = ['1', '2'] as const;
const MILEAGE_DIVISIONS = ['0', '1', '2'] as const;
const ROUNDING_CODES = ['0', '1', '2'] as const;
const TAX_FREE_DIVISIONS = ['0', '1', '2'] as const;
const CANCEL_SETTING_DIVISIONS = ['1', '2', '3'] as const;
const POINT_SPEND_LIMIT_DIVISIONS = ['0', '1', '2'] as const;
const EXPIRE_DIVISIONS = ['0', '1', '2', '3'] as const;
/** Rounding of a sale's total (spec 2.13 roundingDivision). */
const ROUNDING_DIVISIONS = ['00', '11', '12', '13', '21', '22', '23', '31', '32', '33', '41', '42', '43', '99'] as const;
const WITH = ['all', 'none'] as const;

/** Yen part of the point grant rate, 1 to 99999 (spec §8). */
const pointGivingUnitPrice = z.string().regex(/^0*[1-9]\d{0,4}$/, 'must be an integer from 1 to 99999');
/** Point part of the grant rate, 0.00 to 99999.99 (spec §8). */
const pointGivingUnit = decimalText({ integerDigits: 5, fractionDigits: 2 });
const closingTime = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM from 00:00 to 23:59');

/**
 * Settings of the store that sales and closing read (2.13 defaults "from the store master",
 * 4.15 store settings), under the names this server gave them first. The platform's names of
 * the same settings (pointCondition, sumProcDivision, …) write the same columns.
 */
const settingsShape = {
  pointGivingDivision: oneOf(POINT_GIVING_DIVISIONS).describe('2.13 pointGivingDivision default'),
  pointGivingUnitPrice: pointGivingUnitPrice.describe('yen part of the point grant rate, 1-99999'),
  pointGivingUnit: pointGivingUnit.describe('points granted per pointGivingUnitPrice yen, 0.00-99999.99'),
  pointSpendDivision: oneOf(POINT_SPEND_DIVISIONS).describe('1 points used as cash, 2 as a discount'),
  mileageDivision: oneOf(MILEAGE_DIVISIONS).describe('0 no miles, 1 miles, 2 miles instead of points'),
  mileageLabel: clearable(text(20)),
  closingMethod: oneOf(FLAGS).describe('0 manual closing, 1 automatic closing at closingTime (the platform\'s sumProcDivision)'),
  closingTime: closingTime.describe('HH:MM in the contract time zone; used when closingMethod is 1 (the platform\'s sumDateChangeTime)'),
  bankDepositAutoInput: oneOf(FLAGS).describe('4.15 bank deposit auto-input: 0 off, 1 on (the platform\'s savingAutoDivision)'),
  bankDepositAutoInputAmount: decimalText(PRICE).describe('preparation cash and carry-over reserve when auto-input is on (savingAutoPrice)'),
  cashInputAtSettlement: oneOf(FLAGS).describe('4.15 cash input at terminal settlement: 0 off, 1 on (terminalAdjustmentCashFlag)'),
  cashDrawerDivision: oneOf(FLAGS).describe('1 store with cash drawer management: closed from the admin screen only'),
};

// --- What platform clients send back -------------------------------------------------------
// A read-modify-write client sends a store back as it decoded it: the Python SDK and the Go
// module hold divisions as numbers (the Go module the pointCondition ones), the Python SDK
// flags as booleans. Each is read as the code it stands for; the answer is always the string.

/** A division or flag: its string code, or the same code as a JSON integer; a 0/1 flag also as a boolean. */
function code<const T extends readonly [string, ...string[]]>(values: T) {
  const message = `must be one of ${values.join(', ')}`;
  const isFlag = values.length === 2 && values[0] === '0' && values[1] === '1';
  return z
    .union([z.enum(values), z.int(), z.boolean()], { error: (issue) => (issue.input === undefined ? undefined : message) })
    .transform((v) => (typeof v === 'boolean' ? (isFlag ? (v ? '1' : '0') : String(v)) : String(v)))
    .pipe(z.enum(values, { error: () => message }))
    .meta({ description: `one of ${values.join(', ')}` });
}

/** A number carried as a string (the answer's form) or as a JSON number. */
const numeric = <S extends z.ZodType<string, string>>(schema: S) =>
  z
    .union([z.string(), z.number()], { error: (issue) => (issue.input === undefined ? undefined : 'must be a number carried as a string') })
    .transform((v) => String(v))
    .pipe(schema);

/** An integer from `min` to `max`, as digits. */
const intRange = (min: number, max: number) =>
  z.string().refine((s) => /^\d{1,10}$/.test(s) && Number(s) >= min && Number(s) <= max, { message: `must be an integer from ${min} to ${max}` });

/** HHMM, as the platform carries sumDateChangeTime, or HH:MM as closingTime; read as HH:MM. */
const sumDateChangeTime = z
  .string()
  .regex(/^(?:[01]\d|2[0-3]):?[0-5]\d$/, 'must be a time HHMM (or HH:MM) from 0000 to 2359')
  .transform((s) => (s.includes(':') ? s : `${s.slice(0, 2)}:${s.slice(2)}`));

const mailAddress = z.string().regex(/^[!-~]+@[!-~]+$/, 'must be a mail address').refine((s) => s.length <= 255, { message: 'must be at most 255 characters' });
const mailAddressList = z
  .string()
  .refine((s) => s.length <= 1000, { message: 'must be at most 1000 characters' })
  .refine((s) => s.split(',').every((a) => /^[!-~]+@[!-~]+$/.test(a.trim())), { message: 'must be mail addresses separated by commas' });

/** Sent back by a client that read it; null (or "") is all this server ever has for it. */
const readOnly = z
  .union([z.null(), z.literal('')], { error: 'is read-only: the platform sets it through its admin screen; send it back as read (null)' })
  .optional();

/** The platform's store fields this server stores as they are (no rule reads them yet). */
const platformShape = {
  storeAbbr: clearable(text(85)),
  printReceiptStoreName: clearable(text(64)),
  printStockReceiptStoreName: clearable(text(64)),
  postCode: clearable(halfWidthCode(10)),
  address: clearable(text(85)),
  phoneNumber: clearable(halfWidthCode(20)),
  faxNumber: clearable(halfWidthCode(20)),
  mailAddress: clearable(mailAddress),
  homepage: clearable(text(255)),
  tempTranMailAddress: clearable(mailAddressList),
  priceChangeFlag: code(FLAGS).describe('0 the price cannot be changed at the terminal, 1 it can'),
  sellDivision: code(FLAGS).describe('0 tax-included sale, 1 tax-excluded sale'),
  sumRefColumn: code(FLAGS).describe('time the closing refers to: 0 terminal time, 1 server time'),
  pointNotApplicable: code(FLAGS).describe('0 points are given, 1 they are not'),
  taxFreeDivision: code(TAX_FREE_DIVISIONS).describe('0 not applicable, 1 general goods, 2 consumables'),
  maxBundleProductCount: numeric(intRange(1, 999)).describe('most products on the simple-bundle screen, 1-999 (default 9)'),
  maxDiscountRate: clearable(numeric(decimalText({ integerDigits: 3, fractionDigits: 2 }).refine((s) => Number(s) <= 100, { message: 'must be at most 100' }))).describe(
    'highest discount rate at the terminal in %; null for no limit',
  ),
  carriageDisplayFlag: code(FLAGS).describe('show shipping and fees in the daily and monthly reports: 0 no, 1 yes'),
  terminalCheckCashFlag: code(FLAGS).describe('cash input at terminal check: 0 off, 1 on'),
  waiterAdjustmentDivision: code(FLAGS).describe('check that the restaurant orders are settled before settlement: 0 no, 1 yes'),
  cancelSettingDivision: code(CANCEL_SETTING_DIVISIONS).describe('cancel setting: 1 automatic, 2 clearing only, 3 choose'),
  roundingDivision: code(ROUNDING_DIVISIONS).describe('rounding of a sale total, as a transaction\'s roundingDivision'),
  cardCompanySelectDivision: code(FLAGS).describe('choose the card company at the terminal: 0 no, 1 yes'),
  giftReceiptValidDays: clearable(numeric(intRange(0, 9999))),
  taxLabelNormal: clearable(text(20)),
  taxLabelReduce: clearable(text(20)),
  displaySequence: clearable(numeric(intRange(0, 999_999_999))),
  facePaymentUseDivision: code(FLAGS).describe('face payment: 0 not used, 1 used'),
  invoiceRegistrationNo: clearable(z.string().regex(/^T\d{13}$/, 'must be T followed by 13 digits')),
};

/** The platform's names of settings this server had first (settingsShape), as the platform spells them. */
const aliasShape = {
  sumProcDivision: code(FLAGS).describe('closingMethod: 0 manual, 1 automatic closing'),
  sumDateChangeTime: sumDateChangeTime.describe('closingTime as HHMM'),
  terminalAdjustmentCashFlag: code(FLAGS).describe('cashInputAtSettlement'),
  savingAutoDivision: code(FLAGS).describe('bankDepositAutoInput'),
  savingAutoPrice: numeric(decimalText(PRICE)).describe('bankDepositAutoInputAmount'),
};

const pointConditionInput = z
  .strictObject({
    storeId: numeric(id()).optional().describe('read-only: the store itself'),
    pointUseDivision: code(FLAGS).optional().describe('0 the store does not use points, 1 it does'),
    spendRate: numeric(decimalText({ integerDigits: 5, fractionDigits: 2 })).optional().describe('yen a spent point is worth'),
    pointGivingUnitPrice: numeric(pointGivingUnitPrice).optional(),
    pointGivingUnit: numeric(pointGivingUnit).optional(),
    pointGivingDivision: code(POINT_GIVING_DIVISIONS).optional(),
    pointUseUnit: clearable(numeric(intRange(1, 999_999_999))).optional().describe('points are spent in multiples of this; null for 1'),
    pointSpendDivision: code(POINT_SPEND_DIVISIONS).optional(),
    pointSpendLimitDivision: code(POINT_SPEND_LIMIT_DIVISIONS).optional().describe('0 up to the points held, 1 below the discountable amount, 2 above it'),
    expireDivision: code(EXPIRE_DIVISIONS).optional().describe('unit of the point expiry: 0 none, 1 days, 2 months, 3 years'),
    expireLimit: clearable(numeric(intRange(1, 9999))).optional().describe('points expire after this many expireDivision units'),
    mileageDivision: code(MILEAGE_DIVISIONS).optional(),
    mileageLimit: clearable(numeric(intRange(1, 9999))).optional(),
  })
  .describe('the point settings; pointGivingUnitPrice, pointGivingUnit, pointGivingDivision, pointSpendDivision and mileageDivision are the flat settings of the same names');

const receiptPrintInfoInput = z.strictObject({
  storeId: numeric(id()).optional().describe('read-only: the store itself'),
  header: clearable(text(1000)).optional(),
  footer: clearable(text(1000)).optional(),
  receiptTaxOfficeStampComment: clearable(text(255)).optional(),
  taxOfficeName: clearable(text(85)).optional(),
  airPrintLogo: readOnly,
  advertisementImage: readOnly,
  giftReceiptImage: readOnly,
  giftReceiptNote: readOnly,
  discountReceiptHeader: clearable(text(1000)).optional(),
  discountReceiptFooter: clearable(text(1000)).optional(),
});

const optional = <S extends Record<string, z.ZodType>>(shape: S) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as { [K in keyof S]: z.ZodOptional<S[K]> };

/** Keys a client may send back as it read them: checked against the store, never written. */
const echoShape = {
  storeId: numeric(id()).optional().describe('read-only: must be the store of the path'),
  discountRoundingDivision: code(ROUNDING_CODES).optional().describe('read-only here: the contract\'s discount rounding (contract set --discount-rounding)'),
  insDateTime: dateTime.optional().describe('read-only, ignored'),
  updDateTime: dateTime.optional().describe('read-only, ignored'),
};

const bodyShape = {
  storeCode: clearable(halfWidthCode(20)).optional(),
  division: code(DIVISIONS).optional().describe('1 normal store (default), 2 warehouse; cannot be changed after registration'),
  pauseFlag: code(PAUSE_FLAGS).optional(),
  ...optional(settingsShape),
  ...optional(platformShape),
  ...optional(aliasShape),
  pointCondition: pointConditionInput.optional(),
  receiptPrintInfo: receiptPrintInfoInput.optional(),
};

type BodyIn = z.infer<z.ZodObject<typeof bodyShape>> & { storeName?: string } & Partial<z.infer<z.ZodObject<typeof echoShape>>>;

/**
 * Each platform name and the store setting it writes — [where it is in the body, the setting] —
 * in the order they are applied: the flat names, then pointCondition's and receiptPrintInfo's
 * fields (most keep their name).
 */
const PLATFORM_NAMES: readonly [path: string, setting: string][] = [
  ['sumProcDivision', 'closingMethod'],
  ['sumDateChangeTime', 'closingTime'],
  ['terminalAdjustmentCashFlag', 'cashInputAtSettlement'],
  ['savingAutoDivision', 'bankDepositAutoInput'],
  ['savingAutoPrice', 'bankDepositAutoInputAmount'],
  ...[
    'pointUseDivision',
    'spendRate',
    'pointGivingUnitPrice',
    'pointGivingUnit',
    'pointGivingDivision',
    'pointUseUnit',
    'pointSpendDivision',
    'pointSpendLimitDivision',
    'expireDivision',
    'expireLimit',
    'mileageDivision',
    'mileageLimit',
  ].map((field): [string, string] => [`pointCondition.${field}`, field]),
  ...Object.entries({
    header: 'receiptHeader',
    footer: 'receiptFooter',
    receiptTaxOfficeStampComment: 'receiptTaxOfficeStampComment',
    taxOfficeName: 'taxOfficeName',
    discountReceiptHeader: 'discountReceiptHeader',
    discountReceiptFooter: 'discountReceiptFooter',
  }).map(([field, setting]): [string, string] => [`receiptPrintInfo.${field}`, setting]),
];

/** The platform names of settings this server also takes under its own name (settingsShape): both may be sent, but not with two values. */
const ALIASES = PLATFORM_NAMES.filter((alias): alias is [string, keyof typeof settingsShape] => alias[1] in settingsShape);
const DECIMAL_SETTINGS = new Set(['pointGivingUnitPrice', 'pointGivingUnit', 'bankDepositAutoInputAmount']);

const at = (body: BodyIn, path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), body);
const sameSetting = (setting: string, a: unknown, b: unknown) =>
  DECIMAL_SETTINGS.has(setting) ? formatDecimal(a as string) === formatDecimal(b as string) : a === b;

/** The same setting sent under both its names with two values: which one is meant? */
function refuseContradictions(body: BodyIn, ctx: z.RefinementCtx): void {
  for (const [path, setting] of ALIASES) {
    const platform = at(body, path);
    const own = body[setting];
    if (platform !== undefined && own !== undefined && !sameSetting(setting, platform, own)) {
      ctx.addIssue({ code: 'custom', path: path.split('.'), message: `contradicts ${setting} (${String(own)}): they are one setting; send one of them` });
    }
  }
}

/** A store body as the repo writes it: column values by field key, and the read-only keys sent back. */
export interface StoreWrite {
  values: Record<string, string | number | null>;
  echo: { storeId?: string; division?: string; discountRoundingDivision?: string; pointConditionStoreId?: string; receiptPrintInfoStoreId?: string };
}

const intOrNull = (v: string | null) => (v === null ? null : Number(v));

function toStoreWrite(body: BodyIn): StoreWrite {
  const { pointCondition: pc, receiptPrintInfo: rp, storeId, division, discountRoundingDivision, insDateTime, updDateTime, ...flat } = body;
  const values: Record<string, unknown> = { ...flat };
  for (const key of Object.keys(aliasShape)) delete values[key];
  for (const [path, setting] of PLATFORM_NAMES) {
    const value = at(body, path);
    if (value !== undefined) values[setting] = value;
  }
  // Stored forms: decimals in their shortest exact form ("0100.50" → "100.5"), counts as integers.
  for (const key of ['pointGivingUnitPrice', 'pointGivingUnit', 'bankDepositAutoInputAmount', 'spendRate', 'maxDiscountRate']) {
    if (typeof values[key] === 'string') values[key] = formatDecimal(values[key]);
  }
  for (const key of ['maxBundleProductCount', 'giftReceiptValidDays', 'displaySequence', 'pointUseUnit', 'expireLimit', 'mileageLimit']) {
    if (values[key] !== undefined) values[key] = intOrNull(values[key] as string | null);
  }
  const echo: StoreWrite['echo'] = {};
  if (storeId !== undefined) echo.storeId = storeId;
  if (division !== undefined) echo.division = division;
  if (discountRoundingDivision !== undefined) echo.discountRoundingDivision = discountRoundingDivision;
  if (pc?.storeId !== undefined) echo.pointConditionStoreId = pc.storeId;
  if (rp?.storeId !== undefined) echo.receiptPrintInfoStoreId = rp.storeId;
  return { values: values as StoreWrite['values'], echo };
}

// --- Answers --------------------------------------------------------------------------------

const pointCondition = z
  .object({
    storeId: z.string(),
    pointUseDivision: z.enum(FLAGS),
    spendRate: z.string(),
    pointGivingUnitPrice: z.string(),
    pointGivingUnit: z.string(),
    pointGivingDivision: z.enum(POINT_GIVING_DIVISIONS),
    pointUseUnit: z.string().nullable(),
    pointSpendDivision: z.enum(POINT_SPEND_DIVISIONS),
    pointSpendLimitDivision: z.enum(POINT_SPEND_LIMIT_DIVISIONS),
    expireDivision: z.enum(EXPIRE_DIVISIONS),
    expireLimit: z.string().nullable(),
    mileageDivision: z.enum(MILEAGE_DIVISIONS),
    mileageLimit: z.string().nullable(),
  })
  .meta({ id: 'StorePointCondition' });

const receiptPrintInfo = z
  .object({
    storeId: z.string(),
    header: z.string().nullable(),
    footer: z.string().nullable(),
    receiptTaxOfficeStampComment: z.string().nullable(),
    taxOfficeName: z.string().nullable(),
    airPrintLogo: z.string().nullable(),
    advertisementImage: z.string().nullable(),
    giftReceiptImage: z.string().nullable(),
    giftReceiptNote: z.string().nullable(),
    discountReceiptHeader: z.string().nullable(),
    discountReceiptFooter: z.string().nullable(),
  })
  .meta({ id: 'StoreReceiptPrintInfo' });

export const store = z
  .object({
    storeId: z.string(),
    storeCode: z.string().nullable(),
    storeName: z.string(),
    storeAbbr: z.string().nullable(),
    printReceiptStoreName: z.string().nullable(),
    printStockReceiptStoreName: z.string().nullable(),
    division: z.enum(DIVISIONS).describe('1 normal store, 2 warehouse'),
    postCode: z.string().nullable(),
    address: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    faxNumber: z.string().nullable(),
    mailAddress: z.string().nullable(),
    homepage: z.string().nullable(),
    tempTranMailAddress: z.string().nullable(),
    priceChangeFlag: z.enum(FLAGS),
    sellDivision: z.enum(FLAGS),
    sumProcDivision: z.enum(FLAGS).describe('closingMethod'),
    sumDateChangeTime: z.string().describe('closingTime as HHMM'),
    sumRefColumn: z.enum(FLAGS),
    pointNotApplicable: z.enum(FLAGS),
    taxFreeDivision: z.enum(TAX_FREE_DIVISIONS),
    maxBundleProductCount: z.string(),
    maxDiscountRate: z.string().nullable(),
    carriageDisplayFlag: z.enum(FLAGS),
    terminalAdjustmentCashFlag: z.enum(FLAGS).describe('cashInputAtSettlement'),
    terminalCheckCashFlag: z.enum(FLAGS),
    waiterAdjustmentDivision: z.enum(FLAGS),
    savingAutoDivision: z.enum(FLAGS).describe('bankDepositAutoInput'),
    savingAutoPrice: z.string().describe('bankDepositAutoInputAmount'),
    cancelSettingDivision: z.enum(CANCEL_SETTING_DIVISIONS),
    roundingDivision: z.enum(ROUNDING_DIVISIONS),
    discountRoundingDivision: z.enum(ROUNDING_CODES).describe('the contract\'s discount rounding: 0 half up, 1 down, 2 up'),
    cardCompanySelectDivision: z.enum(FLAGS),
    giftReceiptValidDays: z.string().nullable(),
    taxLabelNormal: z.string().nullable(),
    taxLabelReduce: z.string().nullable(),
    pauseFlag: z.enum(PAUSE_FLAGS).describe('0 open, 1 suspended'),
    displaySequence: z.string().nullable(),
    facePaymentUseDivision: z.enum(FLAGS),
    invoiceRegistrationNo: z.string().nullable(),
    pointGivingDivision: z.enum(POINT_GIVING_DIVISIONS),
    pointGivingUnitPrice: z.string(),
    pointGivingUnit: z.string(),
    pointSpendDivision: z.enum(POINT_SPEND_DIVISIONS),
    mileageDivision: z.enum(MILEAGE_DIVISIONS),
    mileageLabel: z.string().nullable(),
    closingMethod: z.enum(FLAGS),
    closingTime: z.string(),
    bankDepositAutoInput: z.enum(FLAGS),
    bankDepositAutoInputAmount: z.string(),
    cashInputAtSettlement: z.enum(FLAGS),
    cashDrawerDivision: z.enum(FLAGS),
    insDateTime: z.string(),
    updDateTime: z.string(),
    pointCondition: pointCondition.optional().describe('with with_point_condition=all, and on POST and PATCH'),
    receiptPrintInfo: receiptPrintInfo.optional().describe('with with_receipt_print_info=all, and on POST and PATCH'),
  })
  .meta({ id: 'Store' });

export type Store = z.infer<typeof store>;

export const storeParams = idParams('store_id');

export const createStoreBody = z
  .strictObject({ storeName: name(85), ...bodyShape })
  .superRefine(refuseContradictions)
  .transform((body) => ({ storeName: body.storeName, ...toStoreWrite(body) }));

export const updateStoreBody = patchBody({ ...bodyShape, storeName: name(85).optional(), ...echoShape })
  .superRefine(refuseContradictions)
  .transform(toStoreWrite);

export const STORE_SORT = ['storeId', 'storeCode', 'storeName', 'division'] as const;

const withQuery = {
  with_point_condition: oneOf(WITH).optional().describe('all adds pointCondition; default none'),
  with_receipt_print_info: oneOf(WITH).optional().describe('all adds receiptPrintInfo; default none'),
};

export const getStoreQuery = z.strictObject(withQuery);

export const listStoresQuery = masterQuery(
  { store_code: z.string().optional(), division: oneOf(DIVISIONS).optional(), pause_flag: oneOf(PAUSE_FLAGS).optional(), ...withQuery },
  STORE_SORT,
);

export type CreateStore = z.infer<typeof createStoreBody>;
/** A POST /stores body as a client sends it. */
export type StoreInput = z.input<typeof createStoreBody>;
export type UpdateStore = z.infer<typeof updateStoreBody>;
export type ListStoresQuery = z.infer<typeof listStoresQuery>;
export type GetStoreQuery = z.infer<typeof getStoreQuery>;

/** Which objects an answer carries: GET names them with with_*, POST and PATCH carry both. */
export interface StoreParts {
  pointCondition?: boolean;
  receiptPrintInfo?: boolean;
}

export const partsOf = (q: GetStoreQuery): StoreParts => ({
  pointCondition: q.with_point_condition === 'all',
  receiptPrintInfo: q.with_receipt_print_info === 'all',
});

/** POST and PATCH answer the whole store, pointCondition and receiptPrintInfo included. */
export const ALL_PARTS: StoreParts = { pointCondition: true, receiptPrintInfo: true };

export function presentStore(row: StoreRow, zone: string, parts: StoreParts = {}): Store {
  const storeId = String(row.store_id);
  return {
    storeId,
    storeCode: row.store_code,
    storeName: row.store_name,
    storeAbbr: row.store_abbr,
    printReceiptStoreName: row.print_receipt_store_name,
    printStockReceiptStoreName: row.print_stock_receipt_store_name,
    division: row.division,
    postCode: row.post_code,
    address: row.address,
    phoneNumber: row.phone_number,
    faxNumber: row.fax_number,
    mailAddress: row.mail_address,
    homepage: row.homepage,
    tempTranMailAddress: row.temp_tran_mail_address,
    priceChangeFlag: row.price_change_flag,
    sellDivision: row.sell_division,
    sumProcDivision: row.closing_method,
    sumDateChangeTime: row.closing_time.replace(':', ''),
    sumRefColumn: row.sum_ref_column,
    pointNotApplicable: row.point_not_applicable,
    taxFreeDivision: row.tax_free_division,
    maxBundleProductCount: String(row.max_bundle_product_count),
    maxDiscountRate: row.max_discount_rate,
    carriageDisplayFlag: row.carriage_display_flag,
    terminalAdjustmentCashFlag: row.cash_input_at_settlement,
    terminalCheckCashFlag: row.terminal_check_cash_flag,
    waiterAdjustmentDivision: row.waiter_adjustment_division,
    savingAutoDivision: row.bank_deposit_auto_input,
    savingAutoPrice: row.bank_deposit_auto_input_amount,
    cancelSettingDivision: row.cancel_setting_division,
    roundingDivision: row.rounding_division,
    discountRoundingDivision: row.contract_discount_rounding_division,
    cardCompanySelectDivision: row.card_company_select_division,
    giftReceiptValidDays: intText(row.gift_receipt_valid_days),
    taxLabelNormal: row.tax_label_normal,
    taxLabelReduce: row.tax_label_reduce,
    pauseFlag: row.pause_flag,
    displaySequence: intText(row.display_sequence),
    facePaymentUseDivision: row.face_payment_use_division,
    invoiceRegistrationNo: row.invoice_registration_no,
    pointGivingDivision: row.point_giving_division,
    pointGivingUnitPrice: row.point_giving_unit_price,
    pointGivingUnit: row.point_giving_unit,
    pointSpendDivision: row.point_spend_division,
    mileageDivision: row.mileage_division,
    mileageLabel: row.mileage_label,
    closingMethod: row.closing_method,
    closingTime: row.closing_time,
    bankDepositAutoInput: row.bank_deposit_auto_input,
    bankDepositAutoInputAmount: row.bank_deposit_auto_input_amount,
    cashInputAtSettlement: row.cash_input_at_settlement,
    cashDrawerDivision: row.cash_drawer_division,
    ...stampsOf(row, zone),
    ...(parts.pointCondition
      ? {
          pointCondition: {
            storeId,
            pointUseDivision: row.point_use_division,
            spendRate: row.spend_rate,
            pointGivingUnitPrice: row.point_giving_unit_price,
            pointGivingUnit: row.point_giving_unit,
            pointGivingDivision: row.point_giving_division,
            pointUseUnit: intText(row.point_use_unit),
            pointSpendDivision: row.point_spend_division,
            pointSpendLimitDivision: row.point_spend_limit_division,
            expireDivision: row.expire_division,
            expireLimit: intText(row.expire_limit),
            mileageDivision: row.mileage_division,
            mileageLimit: intText(row.mileage_limit),
          },
        }
      : {}),
    ...(parts.receiptPrintInfo
      ? {
          receiptPrintInfo: {
            storeId,
            header: row.receipt_header,
            footer: row.receipt_footer,
            receiptTaxOfficeStampComment: row.receipt_tax_office_stamp_comment,
            taxOfficeName: row.tax_office_name,
            airPrintLogo: null,
            advertisementImage: null,
            giftReceiptImage: null,
            giftReceiptNote: null,
            discountReceiptHeader: row.discount_receipt_header,
            discountReceiptFooter: row.discount_receipt_footer,
          },
        }
      : {}),
  };
}

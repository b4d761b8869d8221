import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { PRICE } from '../../domain/money.js';
import { clearable, decimalText, halfWidthCode, id, name, oneOf, patchBody, text } from '../../http/fields.js';
import { pageQuery, POS_PAGE } from '../../http/paging.js';
import type { StoreRow } from './repo.js';

export const DIVISIONS = ['0', '1', '2'] as const; // 0 store, 1 warehouse, 2 order-receiving
export const PAUSE_FLAGS = ['0', '1'] as const; // 0 open, 1 suspended
const FLAGS = ['0', '1'] as const;
const POINT_GIVING_DIVISIONS = ['1', '2', '3', '4'] as const;
const POINT_SPEND_DIVISIONS = ['1', '2'] as const;
const MILEAGE_DIVISIONS = ['0', '1', '2'] as const;

/** Yen part of the point grant rate, 1 to 99999 (spec §8). */
const pointGivingUnitPrice = z.string().regex(/^0*[1-9]\d{0,4}$/, 'must be an integer from 1 to 99999');
/** Point part of the grant rate, 0.00 to 99999.99 (spec §8). */
const pointGivingUnit = decimalText({ integerDigits: 5, fractionDigits: 2 });
const closingTime = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM from 00:00 to 23:59');

/**
 * Settings of the store that sales and closing read (2.13 defaults "from the store master",
 * 4.15 store settings). Shared by the create and update bodies; all optional there.
 */
const settingsShape = {
  pointGivingDivision: oneOf(POINT_GIVING_DIVISIONS).describe('2.13 pointGivingDivision default'),
  pointGivingUnitPrice: pointGivingUnitPrice.describe('yen part of the point grant rate, 1-99999'),
  pointGivingUnit: pointGivingUnit.describe('points granted per pointGivingUnitPrice yen, 0.00-99999.99'),
  pointSpendDivision: oneOf(POINT_SPEND_DIVISIONS).describe('1 points used as cash, 2 as a discount'),
  mileageDivision: oneOf(MILEAGE_DIVISIONS).describe('0 no miles, 1 miles, 2 miles instead of points'),
  mileageLabel: clearable(text(20)),
  closingMethod: oneOf(FLAGS).describe('0 manual closing, 1 automatic closing at closingTime'),
  closingTime: closingTime.describe('HH:MM in the contract time zone; used when closingMethod is 1'),
  bankDepositAutoInput: oneOf(FLAGS).describe('4.15 bank deposit auto-input: 0 off, 1 on'),
  bankDepositAutoInputAmount: decimalText(PRICE).describe('preparation cash and carry-over reserve when auto-input is on'),
  cashInputAtSettlement: oneOf(FLAGS).describe('4.15 cash input at terminal settlement: 0 off, 1 on'),
  cashDrawerDivision: oneOf(FLAGS).describe('1 store with cash drawer management: closed from the admin screen only'),
};

const optionalSettings = Object.fromEntries(Object.entries(settingsShape).map(([k, v]) => [k, v.optional()])) as {
  [K in keyof typeof settingsShape]: z.ZodOptional<(typeof settingsShape)[K]>;
};

export const store = z
  .object({
    storeId: z.string(),
    storeName: z.string(),
    storeCode: z.string().nullable(),
    division: z.enum(DIVISIONS).describe('0 store, 1 warehouse, 2 order-receiving store'),
    pauseFlag: z.enum(PAUSE_FLAGS).describe('0 open, 1 suspended'),
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
  })
  .meta({ id: 'Store' });

export type Store = z.infer<typeof store>;

export const storeParams = z.object({ store_id: id() });

export const createStoreBody = z.strictObject({
  storeName: name(85),
  storeCode: clearable(halfWidthCode(20)).optional(),
  division: oneOf(DIVISIONS).optional(),
  pauseFlag: oneOf(PAUSE_FLAGS).optional(),
  ...optionalSettings,
});

export const updateStoreBody = patchBody({
  ...optionalSettings,
  storeName: name(85).optional(),
  storeCode: clearable(halfWidthCode(20)).optional(),
  division: oneOf(DIVISIONS).optional(),
  pauseFlag: oneOf(PAUSE_FLAGS).optional(),
});

export const STORE_SORT = ['storeId', 'storeCode', 'storeName', 'division'] as const;

export const listStoresQuery = z.strictObject({
  store_code: z.string().optional(),
  division: oneOf(DIVISIONS).optional(),
  pause_flag: oneOf(PAUSE_FLAGS).optional(),
  ...pageQuery(STORE_SORT, POS_PAGE),
});

export type CreateStore = z.infer<typeof createStoreBody>;
export type UpdateStore = z.infer<typeof updateStoreBody>;
export type ListStoresQuery = z.infer<typeof listStoresQuery>;

export function presentStore(row: StoreRow, zone: string): Store {
  return {
    storeId: String(row.store_id),
    storeName: row.store_name,
    storeCode: row.store_code,
    division: row.division,
    pauseFlag: row.pause_flag,
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
    insDateTime: formatDateTime(row.ins_at, zone),
    updDateTime: formatDateTime(row.upd_at, zone),
  };
}

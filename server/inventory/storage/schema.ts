import { z } from 'zod';
import { formatCost, formatTaxRate } from '../../domain/inventory-prices.js';
import { COMPULSORY_FLAGS, MAX_STORAGE_DETAILS, STORAGE_DETAIL_STATUSES, STORAGE_STATUSES, storageDetailStatus } from '../../domain/storage.js';
import { clearable, date, id, oneOf, patchBody, text } from '../../platform/http/fields.js';
import { idParams, intText, masterQuery, masterRecord, pagedQuery, presenterOf } from '../../platform/http/list-schemas.js';
import { costText, quantityText, ROUNDING_DIVISIONS, taxRateText } from '../shipments/schema.js';
import { productId, withDetails } from '../shipping/schema.js';
import { STORAGE_SORT, type StorageDetailRow, type StorageRow } from './repo.js';

/** The platform's 数字メモ: a signed whole number of up to 12 digits. */
const numberMemo = z.string().regex(/^-?\d{1,12}$/, 'must be a whole number from -999999999999 to 999999999999');

const detailInput = z.strictObject({
  productId: productId.describe('once per storage'),
  taxRate: taxRateText.optional().describe('default: the tax rate in force for the product at registration'),
  cost: costText.optional().describe("tax excluded; default: the product master's cost (0 when it has none)"),
  scheduledQuantity: quantityText.optional().describe('default: the counted plus the missing quantity'),
  inspectionQuantity: quantityText.optional().describe('counted (arrived)'),
  stockoutQuantity: quantityText.optional().describe('missing'),
  stockoutReason: text(255).optional(),
  inspectionDate: date.optional().describe('required with inspectionQuantity or stockoutQuantity'),
  numberMemo: numberMemo.optional(),
  dateMemo: date.optional(),
  compulsoryCompleteFlag: oneOf(COMPULSORY_FLAGS).optional().describe('0 normal (default), 1 closed by force'),
});
export type StorageDetailInput = z.infer<typeof detailInput>;

export const createStorageBody = z
  .strictObject({
    supplierId: id(10).describe('the supplier the goods come from'),
    storageStoreId: id().describe('the store the goods arrive at'),
    storageExpectedDateFrom: date.optional().describe('default: storageDate'),
    storageExpectedDateTo: date.optional().describe('default: storageDate'),
    storageDate: date,
    memo: text(1000).optional(),
    staffId: id().optional(),
    identificationNo: text(32).optional(),
    roundingDivision: oneOf(ROUNDING_DIVISIONS).optional().describe('0 half up, 1 down (default), 2 up'),
    details: z
      .array(detailInput)
      .min(1, 'must have at least one entry')
      .max(MAX_STORAGE_DETAILS, `must have at most ${MAX_STORAGE_DETAILS} entries`),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.details.forEach((d, i) => {
      const key = String(Number(d.productId));
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['details', i, 'productId'], message: `product ${d.productId} is given twice` });
      seen.add(key);
    });
  });
export type CreateStorage = z.infer<typeof createStorageBody>;

const updateDetailInput = z.strictObject({
  storageDetailId: id().describe('the detail to update (details cannot be added)'),
  inspectionQuantity: quantityText.optional(),
  stockoutQuantity: quantityText.optional(),
  stockoutReason: clearable(text(255)).optional(),
  inspectionDate: date.optional().describe('required while the detail has no inspection date and a count or shortage is given'),
  numberMemo: clearable(numberMemo).optional(),
  dateMemo: clearable(date).optional(),
  compulsoryCompleteFlag: oneOf(COMPULSORY_FLAGS).optional(),
});
export type StorageDetailUpdate = z.infer<typeof updateDetailInput>;

export const updateStorageBody = patchBody({
  storageDate: date.optional().describe('required while the storage has none (a storage made by a purchase order starts without one)'),
  identificationNo: clearable(text(32)).optional(),
  details: z
    .array(updateDetailInput)
    .min(1, 'must have at least one entry')
    .max(MAX_STORAGE_DETAILS, `must have at most ${MAX_STORAGE_DETAILS} entries`)
    .optional(),
});
export type UpdateStorage = z.infer<typeof updateStorageBody>;

export const storageParams = idParams('storage_id');

export const listStorageQuery = masterQuery(
  {
    storage_info_id: id().optional().describe('storages made by this purchase order'),
    supplier_id: id(10).optional(),
    storage_store_id: id().optional(),
    storage_date: date.optional(),
    status: oneOf(STORAGE_STATUSES).optional().describe('0 not stored, 1 inspecting, 2 complete'),
    identification_no: text(32).optional(),
    with_details: withDetails.describe('all: add the details; none (default): the header only'),
  },
  STORAGE_SORT,
);
export type ListStorageQuery = z.infer<typeof listStorageQuery>;

export const getStorageQuery = z.strictObject({ with_details: withDetails.describe('all: add the details; none (default): the header only') });

export const STORAGE_DETAIL_SORT = ['storageDetailId', 'productId', 'updDateTime'] as const;
export const listStorageDetailsQuery = pagedQuery(
  {
    product_id: productId.optional(),
    status: oneOf(STORAGE_DETAIL_STATUSES).optional().describe('0 not inspected, 1 inspected'),
  },
  STORAGE_DETAIL_SORT,
);

export const storageDetail = masterRecord('StorageDetail', {
  storageDetailId: z.string(),
  storageId: z.string(),
  storageInfoId: z.string().nullable().describe('the purchase order, for a storage it made'),
  productId: z.string(),
  taxRate: z.string().describe('3 decimals'),
  cost: z.string().describe('tax excluded, 5 decimals'),
  scheduledQuantity: z.string(),
  inspectionQuantity: z.string().nullable(),
  stockoutQuantity: z.string().nullable(),
  stockoutReason: z.string().nullable(),
  inspectionDate: z.string().nullable(),
  numberMemo: z.string().nullable(),
  dateMemo: z.string().nullable(),
  status: z.enum(STORAGE_DETAIL_STATUSES).describe('0 not inspected, 1 inspected (counted plus missing cover the scheduled quantity, or closed by force)'),
  compulsoryCompleteFlag: z.enum(COMPULSORY_FLAGS),
});
export type StorageDetail = z.infer<typeof storageDetail>;

export const storage = z
  .object({
    storageId: z.string(),
    storageInfoId: z.string().nullable().describe('the purchase order that made it; null for a storage registered on its own'),
    supplierId: z.string().nullable(),
    storageStoreId: z.string(),
    storageExpectedDateFrom: z.string(),
    storageExpectedDateTo: z.string(),
    storageDate: z.string().nullable().describe('null for a storage made by a purchase order until the store sets it'),
    memo: z.string().nullable(),
    staffId: z.string().nullable(),
    identificationNo: z.string().nullable(),
    roundingDivision: z.enum(ROUNDING_DIVISIONS),
    status: z.enum(STORAGE_STATUSES).describe('0 not stored, 1 inspecting, 2 complete (the counted quantities entered the store\'s stock)'),
    insDateTime: z.string(),
    updDateTime: z.string(),
    details: z.array(storageDetail).optional().describe('in write answers, and with with_details=all'),
  })
  .meta({ id: 'Storage' });
export type Storage = z.infer<typeof storage>;

const quantities = (d: StorageDetailRow) => ({
  scheduledQuantity: d.scheduled_quantity,
  inspectionQuantity: d.inspection_quantity,
  stockoutQuantity: d.stockout_quantity,
  compulsoryCompleteFlag: d.compulsory_complete_flag,
});

export const presentStorageDetail = presenterOf(storageDetail, {
  storageInfoId: (d: StorageDetailRow) => intText(d.storage_info_id),
  taxRate: (d) => formatTaxRate(d.tax_rate),
  cost: (d) => formatCost(d.cost),
  status: (d) => storageDetailStatus(quantities(d)),
});

const presentHead = presenterOf(storage.omit({ details: true }), {
  storageInfoId: (row: StorageRow) => intText(row.storage_info_id),
  supplierId: (row) => intText(row.supplier_id),
  staffId: (row) => intText(row.staff_id),
});

/** A storage, with its details when they are given. */
export function presentStorage(row: StorageRow, zone: string, details?: readonly StorageDetailRow[]): Storage {
  return { ...presentHead(row, zone), ...(details ? { details: details.map((d) => presentStorageDetail(d, zone)) } : {}) };
}

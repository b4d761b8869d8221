import { z } from 'zod';
import { formatCost, formatTaxRate } from '../../domain/inventory-prices.js';
import { MAX_LOSS_DETAILS } from '../../domain/losses.js';
import { formatDateTime } from '../../domain/time.js';
import { clearable, dateTime, id, patchBody, text } from '../../platform/http/fields.js';
import { fieldSelection, idParams, masterQuery, presenterOf } from '../../platform/http/list-schemas.js';
import { divisionCode } from '../loss-divisions/schema.js';
import { quantityText, taxRateText } from '../shipments/schema.js';

/** A product id of a loss line: the platform's "15 digits at most". */
const productId = id(15);
const memo = text(1000);
const identificationNo = text(32);
const details = (what: string) =>
  z
    .array(
      z.strictObject({
        productId,
        taxRate: taxRateText.optional().describe("default: the product's tax rate in force at lossDateTime"),
        quantity: quantityText,
      }),
    )
    .min(1, 'must have at least one entry')
    .max(MAX_LOSS_DETAILS, `must have at most ${MAX_LOSS_DETAILS} entries`)
    .describe(what);

/** POST /losses: a store's loss of the products of its details, named by a loss division. */
export const createLossBody = z.strictObject({
  storeId: id().describe('the store whose stock the loss takes'),
  division: divisionCode.describe('a loss division code (/loss_divisions)'),
  lossDateTime: dateTime.describe('when the loss happened; the stock movements carry it as their targetDateTime'),
  memo: memo.optional(),
  identificationNo: identificationNo.optional(),
  staffId: id().optional(),
  details: details(`the lost products, at most ${MAX_LOSS_DETAILS}; each quantity leaves the store's stock`),
});
export type CreateLoss = z.infer<typeof createLossBody>;

/** A PATCH detail: an existing one by lossDetailId, or a new one (productId and quantity required). */
const updateDetail = z.strictObject({
  lossDetailId: id().optional().describe('an existing detail of this loss; leave out to add a detail'),
  productId: productId.optional().describe('required for a new detail'),
  taxRate: taxRateText.optional(),
  quantity: quantityText.optional().describe('required for a new detail; a change moves the difference'),
});
export type UpdateLossDetail = z.infer<typeof updateDetail>;

/** PATCH /losses/{loss_id}: the platform's keys (the store and lossDateTime do not change). */
export const updateLossBody = patchBody({
  division: divisionCode.optional(),
  memo: clearable(memo).optional(),
  identificationNo: clearable(identificationNo).optional(),
  staffId: clearable(id()).optional(),
  details: z
    .array(updateDetail)
    .max(MAX_LOSS_DETAILS, `must have at most ${MAX_LOSS_DETAILS} entries`)
    .optional()
    .describe(`details to change (by lossDetailId) or add; existing plus added at most ${MAX_LOSS_DETAILS}; details not sent stay`),
});
export type UpdateLoss = z.infer<typeof updateLossBody>;

export const lossParams = idParams('loss_id');

export const lossDetail = z
  .object({
    lossDetailId: z.string(),
    productId: z.string(),
    taxRate: z.string().describe('3 decimals'),
    cost: z.string().describe("the product's cost (tax excluded) when the line was made, 5 decimals"),
    quantity: z.string(),
  })
  .meta({ id: 'LossDetail' });
export type LossDetail = z.infer<typeof lossDetail>;

const head = {
  lossId: z.string(),
  storeId: z.string(),
  division: z.string().describe('the loss division code'),
  lossDateTime: z.string(),
  memo: z.string().nullable(),
  identificationNo: z.string().nullable(),
  staffId: z.string().nullable(),
  staffName: z.string().nullable().describe("the staff master's name"),
  insDateTime: z.string(),
  updDateTime: z.string(),
};
export const lossHead = z.object(head).meta({ id: 'LossHead' });
export const loss = z.object({ ...head, details: z.array(lossDetail) }).meta({ id: 'Loss' });
export type Loss = z.infer<typeof loss>;
export type LossHead = z.infer<typeof lossHead>;

/** `fields` of the list (its records are heads, without details). */
export const lossFields = fieldSelection(lossHead, 'LossHead', 'loss');

export const LOSS_SORT = ['lossId', 'storeId', 'division', 'lossDateTime', 'updDateTime'] as const;
export const listLossesQuery = masterQuery(
  { store_id: id().optional(), division: divisionCode.optional(), fields: lossFields.query },
  LOSS_SORT,
);
export type ListLossesQuery = z.infer<typeof listLossesQuery>;

export interface LossRow {
  contract_id: string;
  loss_id: number;
  store_id: number;
  division: string;
  loss_at: number;
  memo: string | null;
  identification_no: string | null;
  staff_id: number | null;
  ins_at: number;
  upd_at: number;
}

/** A loss head with the staff member's name from the staff master (null: none or deleted). */
export type LossRowNamed = LossRow & { staff_name: string | null };

export interface LossDetailRow {
  contract_id: string;
  loss_detail_id: number;
  loss_id: number;
  product_id: number;
  tax_rate: string;
  cost: string;
  quantity: number;
  ins_at: number;
  upd_at: number;
}

export const presentLossDetail = presenterOf(lossDetail, {
  taxRate: (d: LossDetailRow) => formatTaxRate(d.tax_rate),
  cost: (d) => formatCost(d.cost),
});

export const presentLossHead = presenterOf(lossHead, {
  lossDateTime: (row: LossRowNamed, zone) => formatDateTime(row.loss_at, zone),
});

/** A loss with its details. */
export const presentLoss = (row: LossRowNamed, details: readonly LossDetailRow[], zone: string): Loss => ({
  ...presentLossHead(row, zone),
  details: details.map((d) => presentLossDetail(d, zone)),
});

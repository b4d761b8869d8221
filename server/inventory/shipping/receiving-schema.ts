import { z } from 'zod';
import { MAX_SHIPPING_DETAILS, receivingDetailInspected, receivingStatusOf } from '../../domain/shipping.js';
import { formatDateTime } from '../../domain/time.js';
import { clearable, date, id, oneOf, patchBody, text } from '../../platform/http/fields.js';
import { idParams, intText, masterQuery, masterRecord, pagedQuery, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import { RECEIVING_SORT, type ReceivingDetailRow, type ShippingRow } from './repo.js';
import { productId, quantityText, withDetails } from './schema.js';

/**
 * The platform's receiving (入庫) of a store-to-store shipping: the same record seen from the
 * receiving store (spec 2.8, "receiving side shares the record"), so receivingId is the
 * shippingId. It exists once the shipping is sent out (status 1).
 */
export const RECEIVING_STATUSES = ['0', '1', '2'] as const;
export const RECEIVING_DETAIL_STATUSES = ['0', '1'] as const;

export const receivingDetailInput = z.strictObject({
  receivingDetailId: id().optional().describe('the detail to inspect; omit to add a product the shipping does not list'),
  productId: productId.optional().describe('required to add a detail; with receivingDetailId it must be that detail\'s product'),
  inspectionQuantity: quantityText.describe('counted (received)'),
  stockoutQuantity: quantityText.describe('missing'),
  stockoutReason: clearable(text(255)).optional(),
  inspectionDate: date,
});
export type ReceivingDetailInput = z.infer<typeof receivingDetailInput>;

export const updateReceivingBody = patchBody({
  receivingDate: date.optional().describe('required until the receiving has one'),
  memo: clearable(text(1000)).optional().describe('shared with the shipping side'),
  staffId: clearable(id()).optional().describe('the receiving store\'s staff member'),
  details: z
    .array(receivingDetailInput)
    .min(1, 'must have at least 1 detail')
    .max(MAX_SHIPPING_DETAILS, `must have at most ${MAX_SHIPPING_DETAILS} details`)
    .optional()
    .describe('inspection results; existing plus added at most 1000'),
});
export type UpdateReceiving = z.infer<typeof updateReceivingBody>;

export const receivingParams = idParams('receiving_id');

export const listReceivingQuery = masterQuery(
  {
    receiving_store_id: id().optional(),
    shipping_store_id: id().optional(),
    shipping_id: id().optional(),
    status: oneOf(RECEIVING_STATUSES).optional().describe('0 not received, 1 inspecting, 2 complete'),
    receiving_date: date.optional(),
    identification_no: text(32).optional(),
    with_details: withDetails,
  },
  RECEIVING_SORT,
);
export type ListReceivingQuery = z.infer<typeof listReceivingQuery>;

export const getReceivingQuery = z.strictObject({ with_details: withDetails });

export const RECEIVING_DETAIL_SORT = ['receivingDetailId', 'productId', 'updDateTime'] as const;
export const listReceivingDetailsQuery = pagedQuery(
  {
    product_id: productId.optional(),
    status: oneOf(RECEIVING_DETAIL_STATUSES).optional().describe('0 not inspected, 1 inspected'),
  },
  RECEIVING_DETAIL_SORT,
);
export type ListReceivingDetailsQuery = z.infer<typeof listReceivingDetailsQuery>;

export const receivingDetail = masterRecord('ReceivingDetail', {
  receivingDetailId: z.string(),
  receivingId: z.string(),
  productId: z.string(),
  scheduledQuantity: z.string().describe('what the shipping side sent'),
  inspectionQuantity: z.string().nullable(),
  stockoutQuantity: z.string().nullable(),
  stockoutReason: z.string().nullable(),
  inspectionDate: z.string().nullable(),
  status: z.enum(RECEIVING_DETAIL_STATUSES).describe('0 not inspected, 1 inspected (counted plus missing equals scheduled)'),
});
export type ReceivingDetail = z.infer<typeof receivingDetail>;

export const receiving = z
  .object({
    receivingId: z.string().describe('the shipping id: both sides share the record'),
    shippingId: z.string(),
    receivingStoreId: z.string(),
    shippingStoreId: z.string(),
    receivingExpectedDateFrom: z.string(),
    receivingExpectedDateTo: z.string(),
    receivingDate: z.string().nullable(),
    memo: z.string().nullable().describe('shared with the shipping side'),
    staffId: z.string().nullable().describe('the receiving store\'s staff member'),
    identificationNo: z.string().nullable().describe('the shipping side\'s'),
    status: z.enum(RECEIVING_STATUSES).describe('0 not received, 1 inspecting, 2 complete (shipping status 1, 2, 3)'),
    insDateTime: z.string().describe('when the shipping was sent out'),
    updDateTime: z.string(),
    details: z.array(receivingDetail).optional().describe('in write answers, and with with_details=all'),
  })
  .meta({ id: 'Receiving' });
export type Receiving = z.infer<typeof receiving>;


export const presentReceivingDetail: Presenter<ReceivingDetailRow, ReceivingDetail> = presenterOf(receivingDetail, {
  receivingId: (d) => String(d.shipping_id),
  status: (d) =>
    receivingDetailInspected({ scheduledQuantity: d.scheduled_quantity, inspectionQuantity: d.inspection_quantity, stockoutQuantity: d.stockout_quantity })
      ? '1'
      : '0',
});

const presentHead = presenterOf(receiving.omit({ details: true }), {
  receivingId: (row: ShippingRow) => String(row.shipping_id),
  staffId: (row) => intText(row.receiving_staff_id),
  status: (row) => receivingStatusOf(row.status),
  insDateTime: (row, zone) => formatDateTime(row.shipped_at ?? row.ins_at, zone),
});

/** The receiving side of a shipping, with its details when they are given. */
export function presentReceiving(row: ShippingRow, zone: string, details?: ReceivingDetailRow[]): Receiving {
  return { ...presentHead(row, zone), ...(details ? { details: details.map((d) => presentReceivingDetail(d, zone)) } : {}) };
}

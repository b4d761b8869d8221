import { z } from 'zod';
import {
  APPROVAL_DECISIONS,
  APPROVAL_INPUTS,
  APPROVAL_STATUSES,
  CREATE_STATUSES,
  MAX_QUANTITY,
  MAX_SHIPPING_DETAILS,
  MODIFICATION_STATUSES,
  SHIPPING_STATUSES,
} from '../../domain/shipping.js';
import { clearable, date, id, oneOf, patchBody, text } from '../../platform/http/fields.js';
import { idParams, masterQuery, masterRecord, type Presenter, presenterOf, timeOrNull } from '../../platform/http/list-schemas.js';
import { SHIPPING_SORT, type ShippingDetailRow, type ShippingRow } from './repo.js';

/** A quantity as the platform carries it: an integer string up to 99999. */
export const quantityText = z.string().regex(/^\d{1,5}$/, `must be a whole number from 0 to ${MAX_QUANTITY}`);
/** Product ids are up to 15 digits on the platform. */
export const productId = id(15);

const detailsArray = <T extends z.ZodType>(item: T) =>
  z.array(item).max(MAX_SHIPPING_DETAILS, `must have at most ${MAX_SHIPPING_DETAILS} details`);

export const createShippingBody = z.strictObject({
  receivingStoreId: id().describe('the store that receives'),
  shippingStoreId: id().describe('the store that sends; its stock leaves when the shipping is sent out (status 1)'),
  receivingExpectedDateFrom: date,
  receivingExpectedDateTo: date,
  shippingDate: date,
  staffId: id().optional(),
  memo: text(1000).nullable().optional(),
  identificationNo: text(32).nullable().optional().describe('any string the shop manages the record by'),
  status: oneOf(CREATE_STATUSES).describe('0 not shipped, 1 not received (sent out now); only these on registration'),
  approvalStatus: oneOf(APPROVAL_INPUTS)
    .optional()
    .describe("0 unapproved, 1 approved, 2 rejected; default 1, or 0 for a shipping not sent out when the contract's inventory settings use the approval function"),
  receivingDesiredDate: date.nullable().optional().describe('the date the receiving store asked for (the platform fills it from a shipping request)'),
  requestStaffId: id().optional().describe('the staff member who asked for the goods'),
  details: detailsArray(z.strictObject({ productId, quantity: quantityText }))
    .min(1, 'must have at least 1 detail')
    .describe('products and quantities sent; a product at most once'),
});
export type CreateShipping = z.infer<typeof createShippingBody>;

export const shippingDetailInput = z.strictObject({
  shippingDetailId: id().optional().describe('the detail to change; omit to add a product'),
  productId: productId.optional().describe('required to add a detail; with shippingDetailId it must be that detail\'s product'),
  quantity: quantityText,
});
export type ShippingDetailInput = z.infer<typeof shippingDetailInput>;

export const updateShippingBody = patchBody({
  receivingExpectedDateFrom: date.optional(),
  receivingExpectedDateTo: date.optional(),
  shippingDate: date.optional(),
  staffId: clearable(id()).optional(),
  memo: clearable(text(1000)).optional().describe('shared with the receiving side'),
  identificationNo: clearable(text(32)).optional(),
  receivingDesiredDate: clearable(date).optional(),
  requestStaffId: clearable(id()).optional(),
  status: oneOf(SHIPPING_STATUSES)
    .optional()
    .describe('one step forward: 0 → 1 sends it out (stock leaves the shipping store), 1 → 2 starts receiving inspection, 2 → 3 completes the receiving (stock enters the receiving store)'),
  approvalStatus: oneOf(APPROVAL_INPUTS).optional().describe('from 0 (unapproved) to 1 or 2, which stamps approvalDateTime; 1 and 2 are final'),
  details: detailsArray(shippingDetailInput)
    .min(1, 'must have at least 1 detail')
    .optional()
    .describe('details to change (by shippingDetailId) or add (by productId); existing plus added at most 1000'),
});
export type UpdateShipping = z.infer<typeof updateShippingBody>;

/** The approval operation's body (出庫承認): the decision, and the dates and memo it may change with it. */
export const approvalBody = z.strictObject({
  approvalStatus: oneOf(APPROVAL_DECISIONS).describe('1 approve (sends the shipping out: status 1, the stock leaves the shipping store), 2 reject'),
  receivingExpectedDateFrom: date.optional(),
  receivingExpectedDateTo: date.optional(),
  shippingDate: date.optional(),
  memo: clearable(text(1000)).optional().describe('shared with the receiving side'),
});
export type Approval = z.infer<typeof approvalBody>;

export const modificationRequestBody = z
  .strictObject({ memo: clearable(text(1000)).optional().describe('when given, replaces the shipping\'s (and receiving\'s) memo') })
  .nullable()
  .optional();
export type ModificationRequest = z.infer<typeof modificationRequestBody>;

export const shippingParams = idParams('shipping_id');

export const withDetails = oneOf(['all', 'none']).optional().describe('all: add the shipping details; none (default): the header only');

export const listShippingsQuery = masterQuery(
  {
    receiving_store_id: id().optional(),
    shipping_store_id: id().optional(),
    status: oneOf(SHIPPING_STATUSES).optional(),
    approval_status: oneOf(APPROVAL_STATUSES).optional(),
    modification_request_status: oneOf(MODIFICATION_STATUSES).optional(),
    receiving_desired_date: date.optional(),
    receiving_expected_date_from: date.optional().describe('receivingExpectedDateFrom equal to this date'),
    receiving_expected_date_to: date.optional().describe('receivingExpectedDateTo equal to this date'),
    shipping_date: date.optional(),
    identification_no: text(32).optional(),
    with_details: withDetails,
  },
  SHIPPING_SORT,
);
export type ListShippingsQuery = z.infer<typeof listShippingsQuery>;

export const getShippingQuery = z.strictObject({ with_details: withDetails });

export const shippingDetail = masterRecord('ShippingDetail', {
  shippingDetailId: z.string(),
  shippingId: z.string(),
  productId: z.string(),
  quantity: z.string(),
});
export type ShippingDetail = z.infer<typeof shippingDetail>;

export const shipping = z
  .object({
    shippingId: z.string(),
    receivingStoreId: z.string(),
    shippingStoreId: z.string(),
    receivingDesiredDate: z.string().nullable(),
    receivingExpectedDateFrom: z.string(),
    receivingExpectedDateTo: z.string(),
    shippingDate: z.string(),
    staffId: z.string().nullable(),
    requestStaffId: z.string().nullable(),
    memo: z.string().nullable(),
    identificationNo: z.string().nullable(),
    status: z.enum(SHIPPING_STATUSES).describe('0 not shipped, 1 not received, 2 receiving inspection, 3 receiving complete'),
    approvalStatus: z.enum(APPROVAL_STATUSES).describe('0 unapproved, 1 approved, 2 rejected, 3 request unapproved'),
    approvalDateTime: z.string().nullable(),
    modificationRequestStatus: z.enum(MODIFICATION_STATUSES).describe('0 no request, 1 requested, 2 modification completed'),
    modificationRequestDateTime: z.string().nullable(),
    modificationRequestCheckedDateTime: z.string().nullable(),
    insDateTime: z.string(),
    updDateTime: z.string(),
    details: z.array(shippingDetail).optional().describe('the shipping side\'s details: in write answers, and with with_details=all'),
  })
  .meta({ id: 'Shipping' });
export type Shipping = z.infer<typeof shipping>;


export const presentShippingDetail: Presenter<ShippingDetailRow, ShippingDetail> = presenterOf(shippingDetail);

const presentHead = presenterOf(shipping.omit({ details: true }), {
  approvalDateTime: (row: ShippingRow, zone) => timeOrNull(row.approved_at, zone),
  modificationRequestDateTime: (row, zone) => timeOrNull(row.modification_requested_at, zone),
  modificationRequestCheckedDateTime: (row, zone) => timeOrNull(row.modification_checked_at, zone),
});

/** A shipping, with the shipping side's details when they are given. */
export function presentShipping(row: ShippingRow, zone: string, details?: ShippingDetailRow[]): Shipping {
  return { ...presentHead(row, zone), ...(details ? { details: details.map((d) => presentShippingDetail(d, zone)) } : {}) };
}

import { z } from 'zod';
import { formatDecimal } from '../../domain/money.js';
import { formatCost, formatTaxRate, INVENTORY_COST, MAX_TAX_RATE, TAX_RATE } from '../../domain/inventory-prices.js';
import { APPROVAL_STATUSES, MAX_SHIPMENT_DETAILS, RECIPIENT_TYPES, SHIPMENT_STATUSES } from '../../domain/shipments.js';
import { clearable, date, decimalText, id, name, oneOf, patchBody, text } from '../../platform/http/fields.js';
import { idParams, masterQuery, masterRecord, type Presenter, presenterOf, timeOrNull } from '../../platform/http/list-schemas.js';

/** 0 shipment, 1 return, 2 promotional goods. */
export const SHIPMENT_DIVISIONS = ['0', '1', '2'] as const;
/** 0 round half up, 1 round down, 2 round up. */
export const ROUNDING_DIVISIONS = ['0', '1', '2'] as const;

/** A tax rate string of up to 3 decimals, at most 100. */
export const taxRateText = decimalText(TAX_RATE)
  .refine((s) => Number(s) <= MAX_TAX_RATE, { message: `must be at most ${MAX_TAX_RATE}` })
  .transform((s) => formatDecimal(s));
/** A cost (tax excluded) of up to 10 integer digits and 5 decimals, may be negative; kept in its shortest form. */
export const costText = decimalText(INVENTORY_COST).transform((s) => formatDecimal(s));
/** A quantity: a whole number string from 0 to 99999 (the platform's bound). */
export const quantityText = z.string().regex(/^\d{1,5}$/, 'must be a whole number from 0 to 99999');

const memo = text(1000);
const recipientName = name(100);

const detailFields = {
  productId: id(),
  taxRate: taxRateText.optional().describe('default: the tax rate in force for the product when the detail is added'),
  cost: costText.optional().describe("default: the product master's cost (0 when it has none)"),
  quantity: quantityText,
  memo: memo.optional(),
};

export const createShipmentBody = z.strictObject({
  shipmentStoreId: id().describe('the store (or warehouse) the goods leave'),
  recipientType: oneOf(RECIPIENT_TYPES).describe('1 supplier, 3 other'),
  recipientId: id(10).optional().describe('the supplier; required for recipientType 1, refused for 3'),
  recipientName: recipientName.optional().describe("required for recipientType 3; refused for 1 (the supplier's name is filled in)"),
  shipmentDivision: oneOf(SHIPMENT_DIVISIONS).optional().describe('0 shipment (default), 1 return, 2 promotional goods'),
  shipmentDate: date.optional().describe("default: the registration date in the contract's time zone"),
  memo: memo.optional(),
  staffId: id().optional(),
  taxRate: taxRateText.optional().describe('default: the standard rate in force at registration'),
  identificationNo: text(32).optional(),
  roundingDivision: oneOf(ROUNDING_DIVISIONS).optional().describe('0 half up, 1 down (default), 2 up'),
  status: oneOf(SHIPMENT_STATUSES).describe('0 not shipped, 2 shipped (stock leaves the shipment store), 3 shipment inspection'),
  approvalStatus: oneOf(APPROVAL_STATUSES)
    .optional()
    .describe('0 unapproved, 1 approved, 2 rejected; default 1 without the approval function, with it 0 for status 0 and 1 for 2 or 3'),
  details: z
    .array(z.strictObject(detailFields))
    .min(1, 'must have at least one entry')
    .max(MAX_SHIPMENT_DETAILS, `must have at most ${MAX_SHIPMENT_DETAILS} entries`),
});
export type CreateShipment = z.infer<typeof createShipmentBody>;

/** A PATCH detail: an existing one by shipmentDetailId, or a new one (productId and quantity required). */
const updateDetail = z.strictObject({
  shipmentDetailId: id().optional().describe('an existing detail of this shipment; leave out to add a detail'),
  productId: detailFields.productId.optional().describe('required for a new detail; cannot change on a shipped shipment'),
  taxRate: detailFields.taxRate,
  cost: detailFields.cost,
  quantity: quantityText.optional().describe('required for a new detail'),
  memo: clearable(memo).optional(),
});
export type UpdateShipmentDetail = z.infer<typeof updateDetail>;

export const updateShipmentBody = patchBody({
  shipmentStoreId: id().optional(),
  recipientType: oneOf(RECIPIENT_TYPES).optional(),
  recipientId: id(10).nullable().optional(),
  recipientName: recipientName.nullable().optional(),
  shipmentDivision: oneOf(SHIPMENT_DIVISIONS).optional(),
  shipmentDate: date.optional(),
  memo: clearable(memo).optional(),
  staffId: clearable(id()).optional(),
  taxRate: taxRateText.optional(),
  identificationNo: clearable(text(32)).optional(),
  roundingDivision: oneOf(ROUNDING_DIVISIONS).optional(),
  status: oneOf(SHIPMENT_STATUSES).optional().describe('a shipped shipment (2) takes only 2'),
  approvalStatus: oneOf(APPROVAL_STATUSES).optional().describe('only an unapproved (0) shipment changes: to 1 or 2'),
  details: z
    .array(updateDetail)
    .max(MAX_SHIPMENT_DETAILS, `must have at most ${MAX_SHIPMENT_DETAILS} entries`)
    .optional()
    .describe(`details to change (by shipmentDetailId) or add; existing plus added at most ${MAX_SHIPMENT_DETAILS}; details not sent stay`),
});
export type UpdateShipment = z.infer<typeof updateShipmentBody>;

export const shipmentParams = idParams('shipment_id');

const WITH = ['all', 'none'] as const;

export const getShipmentQuery = z.strictObject({
  with_details: oneOf(WITH).optional().describe('all (default): with the details; none: the header only'),
});

export const SHIPMENT_SORT = ['shipmentId', 'shipmentDate', 'shipmentStoreId', 'updDateTime'] as const;

export const listShipmentsQuery = masterQuery(
  {
    shipment_store_id: id().optional(),
    recipient_type: oneOf(RECIPIENT_TYPES).optional(),
    recipient_id: id(10).optional(),
    shipment_division: oneOf(SHIPMENT_DIVISIONS).optional(),
    status: oneOf(SHIPMENT_STATUSES).optional(),
    approval_status: oneOf(APPROVAL_STATUSES).optional(),
    identification_no: text(32).optional(),
    'shipment_date-from': date.optional(),
    'shipment_date-to': date.optional(),
    with_details: oneOf(WITH).optional().describe('none (default): headers only; all: with the details'),
  },
  SHIPMENT_SORT,
)
  .refine((q) => !q['shipment_date-from'] || !q['shipment_date-to'] || q['shipment_date-from'] <= q['shipment_date-to'], {
    message: 'must not be earlier than shipment_date-from',
    path: ['shipment_date-to'],
  });
export type ListShipmentsQuery = z.infer<typeof listShipmentsQuery>;

export const shipmentDetail = masterRecord('ShipmentDetail', {
  shipmentDetailId: z.string(),
  shipmentId: z.string(),
  productId: z.string(),
  taxRate: z.string().describe('3 decimals'),
  cost: z.string().describe('tax excluded, 5 decimals'),
  price: z.string().describe("tax-included unit price, from the product master"),
  quantity: z.string(),
  memo: z.string().nullable(),
});
export type ShipmentDetail = z.infer<typeof shipmentDetail>;

export const shipment = z
  .object({
    shipmentId: z.string(),
    shipmentStoreId: z.string(),
    recipientType: z.enum(RECIPIENT_TYPES).describe('1 supplier, 3 other'),
    recipientId: z.string().nullable(),
    recipientName: z.string().nullable(),
    shipmentDivision: z.enum(SHIPMENT_DIVISIONS).describe('0 shipment, 1 return, 2 promotional goods'),
    shipmentDate: z.string(),
    memo: z.string().nullable(),
    staffId: z.string().nullable(),
    taxRate: z.string().describe('3 decimals'),
    identificationNo: z.string().nullable(),
    roundingDivision: z.enum(ROUNDING_DIVISIONS),
    status: z.enum(SHIPMENT_STATUSES).describe('0 not shipped, 2 shipped, 3 shipment inspection'),
    approvalStatus: z.enum(APPROVAL_STATUSES).describe('0 unapproved, 1 approved, 2 rejected'),
    approvalDateTime: z.string().nullable().describe('when approvalStatus became 1 or 2'),
    insDateTime: z.string(),
    updDateTime: z.string(),
    details: z.array(shipmentDetail).optional().describe('with with_details=all'),
  })
  .meta({ id: 'Shipment' });
export type Shipment = z.infer<typeof shipment>;

export interface ShipmentRow {
  contract_id: string;
  shipment_id: number;
  shipment_store_id: number;
  recipient_type: (typeof RECIPIENT_TYPES)[number];
  recipient_id: number | null;
  recipient_name: string | null;
  shipment_division: (typeof SHIPMENT_DIVISIONS)[number];
  shipment_date: string;
  memo: string | null;
  staff_id: number | null;
  tax_rate: string;
  identification_no: string | null;
  rounding_division: (typeof ROUNDING_DIVISIONS)[number];
  status: (typeof SHIPMENT_STATUSES)[number];
  approval_status: (typeof APPROVAL_STATUSES)[number];
  approval_at: number | null;
  ins_at: number;
  upd_at: number;
}

export interface ShipmentDetailRow {
  contract_id: string;
  shipment_detail_id: number;
  shipment_id: number;
  product_id: number;
  tax_rate: string;
  cost: string;
  price: string;
  quantity: number;
  shipped_quantity: number;
  memo: string | null;
  ins_at: number;
  upd_at: number;
}

export const presentShipmentDetail: Presenter<ShipmentDetailRow, ShipmentDetail> = presenterOf(shipmentDetail, {
  taxRate: (d) => formatTaxRate(d.tax_rate),
  cost: (d) => formatCost(d.cost),
  price: (d) => formatDecimal(d.price),
});

const presentHead = presenterOf(shipment.omit({ details: true }), {
  taxRate: (row: ShipmentRow) => formatTaxRate(row.tax_rate),
  approvalDateTime: (row, zone) => timeOrNull(row.approval_at, zone),
});

/** A shipment, with its details when they are given (null: the header only). */
export function presentShipment(row: ShipmentRow, details: readonly ShipmentDetailRow[] | null, zone: string): Shipment {
  return { ...presentHead(row, zone), ...(details ? { details: details.map((d) => presentShipmentDetail(d, zone)) } : {}) };
}

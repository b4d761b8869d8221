import { z } from 'zod';
import { formatCost, formatTaxRate } from '../../domain/inventory-prices.js';
import { MAX_ORDER_PRODUCTS, PURCHASE_ORDER_STATUSES, REGISTRABLE_STATUSES } from '../../domain/purchase-orders.js';
import { formatDateTime } from '../../domain/time.js';
import { date, id, oneOf, text } from '../../platform/http/fields.js';
import { idParams, masterQuery } from '../../platform/http/list-schemas.js';
import { costText, quantityText, ROUNDING_DIVISIONS, taxRateText } from '../shipments/schema.js';

export const DIVISION_UNITS = ['0', '1', '2'] as const;
export const TAX_DIVISIONS = ['0', '1', '2'] as const;

const deliveryStoreInput = z.strictObject({
  storeId: id().describe('one of the stores of `stores`'),
  quantity: quantityText,
});

const productInput = z.strictObject({
  productId: id(),
  taxRate: taxRateText.optional().describe('default: the tax rate in force for the product at registration'),
  cost: costText.optional().describe("tax excluded; default: the product master's cost (0 when it has none)"),
  deliveryStore: z.array(deliveryStoreInput).min(1, 'must have at least one entry').describe('the quantity for each delivery store'),
});

const storeInput = z.strictObject({
  storageStoreId: id(),
  storageExpectedDateFrom: date.optional().describe("default: the registration date in the contract's time zone"),
  storageExpectedDateTo: date.optional().describe("default: the registration date in the contract's time zone"),
});

export const createPurchaseOrderBody = z
  .strictObject({
    recipientOrderId: id(10).optional().describe('the supplier ordered from; required when the contract splits orders by supplier'),
    orderSourceStoreId: id().optional().describe('the store that places the order'),
    orderStaffName: text(100).optional(),
    orderedDate: date.optional().describe("default: the registration date in the contract's time zone"),
    memo: text(1000).optional(),
    identificationNo: text(32).optional(),
    roundingDivision: oneOf(ROUNDING_DIVISIONS).optional().describe('0 half up, 1 down (default), 2 up'),
    status: oneOf(REGISTRABLE_STATUSES).describe('2 ordered, 5 provisional order'),
    staffId: id().optional(),
    products: z
      .array(productInput)
      .min(1, 'must have at least one entry')
      .max(MAX_ORDER_PRODUCTS, `must have at most ${MAX_ORDER_PRODUCTS} entries`),
    stores: z.array(storeInput).min(1, 'must have at least one entry').describe('the delivery stores and their expected dates'),
  })
  .superRefine((body, ctx) => {
    const stores = new Set<string>();
    body.stores.forEach((s, i) => {
      const key = String(Number(s.storageStoreId));
      if (stores.has(key)) ctx.addIssue({ code: 'custom', path: ['stores', i, 'storageStoreId'], message: `store ${s.storageStoreId} is given twice` });
      stores.add(key);
    });
    const products = new Set<string>();
    body.products.forEach((p, i) => {
      const key = String(Number(p.productId));
      if (products.has(key)) ctx.addIssue({ code: 'custom', path: ['products', i, 'productId'], message: `product ${p.productId} is given twice` });
      products.add(key);
      const delivered = new Set<string>();
      p.deliveryStore.forEach((d, j) => {
        const store = String(Number(d.storeId));
        const path = ['products', i, 'deliveryStore', j, 'storeId'];
        if (!stores.has(store)) ctx.addIssue({ code: 'custom', path, message: `store ${d.storeId} is not among the order's stores` });
        else if (delivered.has(store)) ctx.addIssue({ code: 'custom', path, message: `store ${d.storeId} is given twice for product ${p.productId}` });
        delivered.add(store);
      });
    });
  });
export type CreatePurchaseOrder = z.infer<typeof createPurchaseOrderBody>;

export const purchaseOrderParams = idParams('purchase_order_id');

const WITH = ['all', 'none'] as const;
const withProducts = oneOf(WITH).optional();

export const getPurchaseOrderQuery = z.strictObject({
  with_products: withProducts.describe('all (default): with the products and their delivery stores; none: without'),
  with_stores: withProducts.describe('all (default): with the stores; none: without'),
});

export const PURCHASE_ORDER_SORT = ['storageInfoId', 'orderedDate', 'updDateTime'] as const;

export const listPurchaseOrdersQuery = masterQuery(
  {
    recipient_order_id: id(10).optional(),
    order_source_store_id: id().optional(),
    storage_store_id: id().optional().describe('orders delivering to this store'),
    status: oneOf(PURCHASE_ORDER_STATUSES).optional(),
    division_unit: oneOf(DIVISION_UNITS).optional(),
    staff_id: id().optional(),
    identification_no: text(32).optional(),
    'ordered_date-from': date.optional(),
    'ordered_date-to': date.optional(),
    with_products: withProducts.describe('none (default) or all'),
    with_stores: withProducts.describe('none (default) or all'),
  },
  PURCHASE_ORDER_SORT,
)
  .refine((q) => !q['ordered_date-from'] || !q['ordered_date-to'] || q['ordered_date-from'] <= q['ordered_date-to'], {
    message: 'must not be earlier than ordered_date-from',
    path: ['ordered_date-to'],
  });
export type ListPurchaseOrdersQuery = z.infer<typeof listPurchaseOrdersQuery>;

const deliveryStore = z.object({ storageInfoDeliveryProductId: z.string(), storeId: z.string(), quantity: z.string() });

export const purchaseOrderProduct = z
  .object({
    storageInfoProductId: z.string(),
    storageInfoId: z.string(),
    productId: z.string(),
    taxRate: z.string().describe('3 decimals'),
    cost: z.string().describe('tax excluded, 5 decimals'),
    taxDivision: z.enum(TAX_DIVISIONS).describe("the product's: 0 included, 1 excluded, 2 non-taxable"),
    quantity: z.string().describe('the sum of the deliveryStore quantities'),
    insDateTime: z.string(),
    updDateTime: z.string(),
    deliveryStore: z.array(deliveryStore),
  })
  .meta({ id: 'PurchaseOrderProduct' });

export const purchaseOrderStore = z
  .object({
    storageInfoDeliveryId: z.string(),
    storageInfoId: z.string(),
    storageStoreId: z.string(),
    storageExpectedDateFrom: z.string(),
    storageExpectedDateTo: z.string(),
    insDateTime: z.string(),
    updDateTime: z.string(),
  })
  .meta({ id: 'PurchaseOrderStore' });

export const purchaseOrder = z
  .object({
    storageInfoId: z.string(),
    recipientOrderId: z.string().nullable(),
    orderSourceStoreId: z.string().nullable(),
    orderStaffName: z.string().nullable(),
    divisionUnit: z.enum(DIVISION_UNITS).describe("the contract's split unit at registration: 0 none, 1 category group, 2 supplier"),
    categoryGroupId: z.string().nullable().describe('null: every category group'),
    orderedDate: z.string(),
    memo: z.string().nullable(),
    identificationNo: z.string().nullable(),
    roundingDivision: z.enum(ROUNDING_DIVISIONS),
    status: z.enum(PURCHASE_ORDER_STATUSES).describe('2 ordered, 3 receiving inspection, 4 receiving complete, 5 provisional order'),
    staffId: z.string().nullable(),
    insDateTime: z.string(),
    updDateTime: z.string(),
    products: z.array(purchaseOrderProduct).optional(),
    stores: z.array(purchaseOrderStore).optional(),
  })
  .meta({ id: 'PurchaseOrder' });
export type PurchaseOrder = z.infer<typeof purchaseOrder>;

export interface PurchaseOrderRow {
  contract_id: string;
  storage_info_id: number;
  recipient_order_id: number | null;
  order_source_store_id: number | null;
  order_staff_name: string | null;
  division_unit: (typeof DIVISION_UNITS)[number];
  category_group_id: number | null;
  ordered_date: string;
  memo: string | null;
  identification_no: string | null;
  rounding_division: (typeof ROUNDING_DIVISIONS)[number];
  status: (typeof PURCHASE_ORDER_STATUSES)[number];
  staff_id: number | null;
  ins_at: number;
  upd_at: number;
}

export interface OrderProductRow {
  storage_info_product_id: number;
  storage_info_id: number;
  product_id: number;
  tax_rate: string;
  cost: string;
  tax_division: (typeof TAX_DIVISIONS)[number];
  quantity: number;
  ins_at: number;
  upd_at: number;
}

export interface OrderDeliveryRow {
  storage_info_delivery_product_id: number;
  storage_info_product_id: number;
  store_id: number;
  quantity: number;
}

export interface OrderStoreRow {
  storage_info_delivery_id: number;
  storage_info_id: number;
  storage_store_id: number;
  storage_expected_date_from: string;
  storage_expected_date_to: string;
  ins_at: number;
  upd_at: number;
}

/** An order with the children asked for (null: not asked). */
export interface PurchaseOrderRecord {
  row: PurchaseOrderRow;
  products: { row: OrderProductRow; deliveries: OrderDeliveryRow[] }[] | null;
  stores: OrderStoreRow[] | null;
}

const str = (v: number | null) => (v === null ? null : String(v));

export function presentPurchaseOrder(record: PurchaseOrderRecord, zone: string): PurchaseOrder {
  const { row } = record;
  // Every child of a registration shares its time: format each instant once.
  const formatted = new Map<number, string>();
  const at = (ms: number) => formatted.get(ms) ?? formatted.set(ms, formatDateTime(ms, zone)).get(ms)!;
  // Lines share few rates and costs: format each distinct one once.
  const rates = new Map<string, string>();
  const costs = new Map<string, string>();
  const rate = (r: string) => rates.get(r) ?? rates.set(r, formatTaxRate(r)).get(r)!;
  const cost = (c: string) => costs.get(c) ?? costs.set(c, formatCost(c)).get(c)!;
  return {
    storageInfoId: String(row.storage_info_id),
    recipientOrderId: str(row.recipient_order_id),
    orderSourceStoreId: str(row.order_source_store_id),
    orderStaffName: row.order_staff_name,
    divisionUnit: row.division_unit,
    categoryGroupId: str(row.category_group_id),
    orderedDate: row.ordered_date,
    memo: row.memo,
    identificationNo: row.identification_no,
    roundingDivision: row.rounding_division,
    status: row.status,
    staffId: str(row.staff_id),
    insDateTime: at(row.ins_at),
    updDateTime: at(row.upd_at),
    ...(record.products
      ? {
          products: record.products.map(({ row: p, deliveries }) => ({
            storageInfoProductId: String(p.storage_info_product_id),
            storageInfoId: String(p.storage_info_id),
            productId: String(p.product_id),
            taxRate: rate(p.tax_rate),
            cost: cost(p.cost),
            taxDivision: p.tax_division,
            quantity: String(p.quantity),
            insDateTime: at(p.ins_at),
            updDateTime: at(p.upd_at),
            deliveryStore: deliveries.map((d) => ({
              storageInfoDeliveryProductId: String(d.storage_info_delivery_product_id),
              storeId: String(d.store_id),
              quantity: String(d.quantity),
            })),
          })),
        }
      : {}),
    ...(record.stores
      ? {
          stores: record.stores.map((s) => ({
            storageInfoDeliveryId: String(s.storage_info_delivery_id),
            storageInfoId: String(s.storage_info_id),
            storageStoreId: String(s.storage_store_id),
            storageExpectedDateFrom: s.storage_expected_date_from,
            storageExpectedDateTo: s.storage_expected_date_to,
            insDateTime: at(s.ins_at),
            updDateTime: at(s.upd_at),
          })),
        }
      : {}),
  };
}

import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { halfWidthCode, id } from '../../platform/http/fields.js';
import { idParams, masterRecord, stampsOf } from '../../platform/http/list-schemas.js';
import { pageQuery, POS_PAGE } from '../../platform/http/paging.js';
import type { OrderShipmentOrderRow } from './repo.js';

/** Order statuses of this supporting resource (ours: the platform's order has many more). */
export const ORDER_STATUSES = ['received', 'shipped', 'canceled'] as const;

export const orderShipmentOrder = masterRecord('OrderShipmentOrder', {
  orderHeadId: z.string(),
  storeId: z.string().describe('the order store'),
  orderCode: z.string().nullable(),
  status: z.enum(ORDER_STATUSES),
  shippedDateTime: z.string().nullable(),
  canceledDateTime: z.string().nullable(),
});

export type OrderShipmentOrder = z.infer<typeof orderShipmentOrder>;

export const orderHeadParams = idParams('order_head_id');

export const createOrderBody = z.strictObject({
  storeId: id(),
  orderCode: halfWidthCode(50).optional(),
});

export const ORDER_SORT = ['orderHeadId', 'storeId', 'updDateTime'] as const;

export const listOrdersQuery = z.strictObject({
  ...pageQuery(ORDER_SORT, POS_PAGE),
  store_id: id().optional(),
  status: z.enum(ORDER_STATUSES).optional(),
});

export type CreateOrder = z.infer<typeof createOrderBody>;

const at = (ms: number | null, zone: string) => (ms === null ? null : formatDateTime(ms, zone));

export function presentOrder(row: OrderShipmentOrderRow, zone: string): OrderShipmentOrder {
  return {
    orderHeadId: String(row.order_head_id),
    storeId: String(row.store_id),
    orderCode: row.order_code,
    status: row.status,
    shippedDateTime: at(row.shipped_at, zone),
    canceledDateTime: at(row.canceled_at, zone),
    ...stampsOf(row, zone),
  };
}

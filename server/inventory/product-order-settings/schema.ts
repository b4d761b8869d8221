import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { clearable, digits, id, oneOf, patchBody } from '../../platform/http/fields.js';
import { idParams, pagedQuery } from '../../platform/http/list-schemas.js';
import type { OrderSettingRow } from './repo.js';

export const FLAGS = ['0', '1'] as const;

/**
 * A product's ordering settings at a store (ours: the platform publishes no route for them).
 * Without settings a product is orderable, shown for ordering, without limit.
 */
export const orderSetting = z
  .object({
    productId: z.string(),
    storeId: z.string(),
    orderable: z.enum(FLAGS).describe('1 the store may order the product, 0 it may not (purchase orders refuse it)'),
    orderHidden: z.enum(FLAGS).describe('1 hidden from ordering (purchase orders refuse it), 0 shown'),
    orderLimit: z.string().nullable().describe('the most that may be on order (ordered, not yet received) at once; null no limit, 0 none'),
    insDateTime: z.string().nullable().describe('null while the store keeps the defaults'),
    updDateTime: z.string().nullable(),
  })
  .meta({ id: 'ProductOrderSetting' });

export type OrderSetting = z.infer<typeof orderSetting>;

export const orderSettingsParams = idParams('product_id');
export const orderSettingParams = z.object({ product_id: id(), store_id: id() });

export const updateOrderSettingBody = patchBody({
  orderable: oneOf(FLAGS).optional(),
  orderHidden: oneOf(FLAGS).optional(),
  orderLimit: clearable(digits(9)).optional(),
});

export const ORDER_SETTING_SORT = ['storeId'] as const;
export const listOrderSettingsQuery = pagedQuery({ store_id: id().optional() }, ORDER_SETTING_SORT);

export type UpdateOrderSetting = z.infer<typeof updateOrderSettingBody>;
export type ListOrderSettingsQuery = z.infer<typeof listOrderSettingsQuery>;

export function presentOrderSetting(row: OrderSettingRow, zone: string): OrderSetting {
  return {
    productId: String(row.product_id),
    storeId: String(row.store_id),
    orderable: row.orderable,
    orderHidden: row.order_hidden,
    orderLimit: row.order_limit === null ? null : String(row.order_limit),
    insDateTime: row.ins_at === null ? null : formatDateTime(row.ins_at, zone),
    updDateTime: row.upd_at === null ? null : formatDateTime(row.upd_at, zone),
  };
}

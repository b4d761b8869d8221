import { formatDateTime } from '../../domain/time.js';
import type { OrderItemRow, OrderRow } from './repo.js';
import type { Order, OrderItem, TableUse } from './schema.js';

type Topping = OrderItem['toppings'][number];
type SubItem = OrderItem['courseItems'][number];

function presentDiscount(row: OrderItemRow): OrderItem['discount'] {
  if (row.discount_type === null) return null;
  const amount = row.discount_amount ?? '0';
  if (row.discount_type === 'couponRate') return { type: 'couponRate', rateCoupon: row.discount_rate ?? '0', amount };
  if (row.discount_type === 'rate') return { type: 'rate', rate: row.discount_rate ?? '0', amount };
  // The platform's variants carry their own key beside `type` (amountCoupon, freeCoupon).
  if (row.discount_type === 'couponAmount') return { type: 'couponAmount', amountCoupon: amount, amount };
  if (row.discount_type === 'freeCoupon') return { type: 'freeCoupon', freeCoupon: true, amount };
  return { type: 'amount', amount };
}

export function presentOrderItem(row: OrderItemRow, zone: string): OrderItem {
  return {
    id: String(row.item_id),
    name: row.name,
    status: row.status,
    servedAt: row.served_at === null ? null : formatDateTime(row.served_at, zone),
    memo: row.memo,
    menuId: row.menu_id === null ? null : String(row.menu_id),
    quantity: row.quantity,
    menuType: row.menu_type,
    customContentId: row.custom_content_id,
    customContentName: row.custom_content_name,
    categoryId: row.category_id === null ? null : String(row.category_id),
    sellingPrice: { taxRate: Number(row.tax_rate), taxType: row.tax_type, amount: row.amount, tax: row.taxation, taxation: row.taxation },
    discount: presentDiscount(row),
    timeLimit: row.time_limit,
    preTimeLimitMinutesLeft: row.pre_time_limit_minutes_left,
    // Toppings stored before toppings had ids read toppingId null.
    toppings: (JSON.parse(row.toppings) as Topping[]).map((t) => ({ ...t, toppingId: t.toppingId ?? null })),
    courseItems: JSON.parse(row.course_items) as SubItem[],
  };
}

export function presentOrder(row: OrderRow, items: OrderItemRow[], tableUse: TableUse, zone: string): Order {
  return {
    orderId: String(row.order_id),
    ordered: formatDateTime(row.ordered_at, zone),
    items: items.map((i) => presentOrderItem(i, zone)),
    tableUseId: String(row.table_use_id),
    tableUse,
  };
}

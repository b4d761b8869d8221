import { Decimal } from 'decimal.js';
import type { Order } from './useDayData';

export type OrderItem = Order['items'][number];

/**
 * The amount of one order item, exact (decimal.js, as the server counts): unit price × quantity,
 * plus its toppings and course items (each amount × its quantity, once per unit of the item),
 * minus the item's discount. A canceled item counts 0. Prices are shown as sent: a tax-excluded
 * item's amount is without its tax (the order API carries no tax amounts).
 */
export function itemAmount(item: OrderItem): Decimal {
  if (item.status === 'canceled') return new Decimal(0);
  const extras = [...item.toppings, ...item.courseItems].reduce((sum, s) => sum.plus(new Decimal(s.amount).times(s.quantity)), new Decimal(0));
  const gross = new Decimal(item.sellingPrice.amount).plus(extras).times(item.quantity);
  return gross.minus(item.discount ? new Decimal(item.discount.amount) : 0);
}

export const orderTotal = (order: Order): Decimal => order.items.reduce((sum, item) => sum.plus(itemAmount(item)), new Decimal(0));

export const ordersTotal = (orders: readonly Order[]): Decimal => orders.reduce((sum, o) => sum.plus(orderTotal(o)), new Decimal(0));

/** Units of the items that are not canceled. */
export const itemCount = (orders: readonly Order[]): number =>
  orders.reduce((n, o) => n + o.items.filter((i) => i.status !== 'canceled').reduce((m, i) => m + i.quantity, 0), 0);

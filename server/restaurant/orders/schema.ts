import { z } from 'zod';
import { DISCOUNT_TYPES, ITEM_STATUSES, TABLE_USE_STATUSES, TAX_TYPES } from '../../domain/order-items.js';
import { parseDateTime } from '../../domain/time.js';
import { dateTime, id, name, oneOf, text } from '../../platform/http/fields.js';
import { idParams, pagedQuery } from '../../platform/http/list-schemas.js';
import { RESTAURANT_PAGE } from '../../platform/http/paging.js';

export const MENU_TYPES = ['normal', 'plan', 'inPlan', 'course'] as const;
/** How the amount carries tax: included, excluded, none (spec 2.12 "tax included, excluded, none"). */
export const TAXATIONS = ['included', 'excluded', 'none'] as const;

const money = z
  .string()
  .regex(/^(?:0|[1-9]\d{0,9})(?:\.\d{1,4})?$/, 'must be a decimal string like 1200 or 1200.5 (at most 4 decimals)');
const percent = z
  .string()
  .regex(/^(?:0|[1-9]\d{0,2})(?:\.\d{1,3})?$/, 'must be a percentage string like 10 or 12.5')
  .refine((s) => Number(s) > 0 && Number(s) <= 100, { message: 'must be more than 0 and at most 100' });
const minutes = z.int({ error: () => 'must be an integer (minutes)' }).min(0, 'must be at least 0').max(1440, 'must be at most 1440');
const quantity = z.int({ error: () => 'must be an integer' }).min(1, 'must be at least 1').max(999, 'must be at most 999');

// --- input ---------------------------------------------------------------------------------

/** `tax` is the platform's name of how the amount carries tax; `taxation` the name earlier clients send. */
const sellingPriceInput = z
  .strictObject({
    taxRate: z.number({ error: () => 'must be a number (percent)' }).min(0, 'must be at least 0').max(100, 'must be at most 100').optional(),
    taxType: oneOf(TAX_TYPES).optional(),
    amount: money,
    tax: oneOf(TAXATIONS).optional(),
    taxation: oneOf(TAXATIONS).optional(),
  })
  .superRefine((price, ctx) => {
    if (price.tax !== undefined && price.taxation !== undefined) ctx.addIssue({ code: 'custom', path: ['taxation'], message: 'send tax or taxation, not both' });
  });

const discountInput = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('couponRate'), rateCoupon: percent, amount: money.optional() }),
    z.strictObject({ type: z.literal('couponAmount'), amount: money }),
    z.strictObject({ type: z.literal('freeCoupon'), amount: money.optional() }),
    z.strictObject({ type: z.literal('rate'), rate: percent, amount: money.optional() }),
    z.strictObject({ type: z.literal('amount'), amount: money }),
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? `type must be one of ${DISCOUNT_TYPES.join(', ')}` : undefined) },
);
export type DiscountBody = z.infer<typeof discountInput>;

/**
 * The platform sends a discount as one of its untagged variants, told apart by their keys:
 * `{rateCoupon, amount?}`, `{amountCoupon, amount?}`, `{freeCoupon: true, amount?}`,
 * `{rate, amount?}`, `{amount}`. Such a body gets its `type` here; a tagged one is ours.
 */
function tagPlatformDiscount(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || 'type' in value) return value;
  const d = value as Record<string, unknown>;
  if ('rateCoupon' in d) return { ...d, type: 'couponRate' };
  if ('amountCoupon' in d) {
    const { amountCoupon, ...rest } = d;
    return { ...rest, type: 'couponAmount', amount: rest.amount ?? amountCoupon };
  }
  if (d.freeCoupon === true) {
    const { freeCoupon: _true, ...rest } = d;
    return { ...rest, type: 'freeCoupon' };
  }
  if ('rate' in d) return { ...d, type: 'rate' };
  if ('amount' in d && Object.keys(d).length === 1) return { ...d, type: 'amount' };
  return value;
}

const subItemInput = z.strictObject({
  menuId: id().optional(),
  name: name(100),
  quantity: quantity.optional(),
  amount: money.optional(),
});

/**
 * A topping of an item: a topping (`toppingId`, whose name and price are the defaults and whose
 * condition at the order's store is taken), a menu, or only a name and an amount.
 */
const toppingInput = z
  .strictObject({
    toppingId: id().optional(),
    menuId: id().optional(),
    name: name(100).optional().describe("default: the topping's name; required without toppingId"),
    quantity: quantity.optional().describe('per one of the item'),
    amount: money.optional().describe("default: the topping's price, else 0"),
  })
  .superRefine((t, ctx) => {
    if (t.name === undefined && t.toppingId === undefined) ctx.addIssue({ code: 'custom', path: ['name'], message: 'is required without toppingId' });
  });

export const itemInput = z.strictObject({
  name: name(100).optional().describe("defaults to the menu's name; required without menuId"),
  menuId: id().optional(),
  quantity: quantity.optional(),
  status: oneOf(['waiting', 'provided'] as const).optional().describe('default waiting; provided sets servedAt'),
  memo: text(1000).optional(),
  menuType: oneOf(MENU_TYPES).optional(),
  customContentId: text(50).optional(),
  customContentName: text(100).optional(),
  categoryId: id().optional(),
  sellingPrice: sellingPriceInput,
  discount: z.preprocess(tagPlatformDiscount, discountInput).optional(),
  timeLimit: minutes.optional(),
  preTimeLimitMinutesLeft: minutes.optional(),
  toppings: z.array(toppingInput).max(50, 'must have at most 50 entries').optional(),
  courseItems: z.array(subItemInput).max(50, 'must have at most 50 entries').optional(),
});
export type ItemInput = z.infer<typeof itemInput>;

export const createOrderBody = z.strictObject({
  storeId: id().optional().describe('required when no tableUseId is given'),
  tableUseId: id().optional().describe('an open (started) table use; without it a new table use is started'),
  tableIds: z.array(id()).min(1, 'must name at least one table').max(20, 'must have at most 20 tables').optional(),
  reservationId: id().optional().describe('binds the reservation to the table use'),
  ordered: dateTime.optional().describe('default: now'),
  items: z.array(itemInput).min(1, 'must have at least one item').max(100, 'must have at most 100 items'),
});
export type CreateOrder = z.infer<typeof createOrderBody>;

/**
 * The platform's `POST /table_uses/{table_use_id}/orders`: the table use is the path. Its
 * `orderPrints` (which slips the ordering terminal prints) is accepted for compatibility; this
 * server prints nothing.
 */
export const createTableUseOrderBody = z.strictObject({
  ordered: dateTime.optional().describe('default: now'),
  items: z.array(itemInput).min(1, 'must have at least one item').max(100, 'must have at most 100 items'),
  orderPrints: z
    .strictObject({ kitchenTicket: z.boolean().optional(), orderSlip: z.boolean().optional() })
    .optional()
    .describe('accepted and ignored: printing belongs to the ordering terminal'),
});

export const orderParams = idParams('order_id');
export const itemParams = z.object({ order_id: id(), item_id: id() });
export const tableUseParams = idParams('table_use_id');

/** Sort keys of `GET /orders`; without `sort` the list is in `ordered` order (then orderId). */
export const ORDER_SORT = ['orderId', 'ordered'] as const;
export type OrderSort = (typeof ORDER_SORT)[number];

export const listOrdersQuery = pagedQuery(
  {
    store_id: id().optional().describe("the table use's store"),
    table_use_id: id().optional(),
    ordered_from: dateTime.optional().describe('ordered at or after (any offset)'),
    ordered_to: dateTime.optional().describe('ordered at or before (any offset)'),
  },
  ORDER_SORT, RESTAURANT_PAGE,
)
  .refine((q) => !q.ordered_from || !q.ordered_to || parseDateTime(q.ordered_from)! <= parseDateTime(q.ordered_to)!, {
    message: 'must not be earlier than ordered_from',
    path: ['ordered_to'],
  });
export type ListOrdersQuery = z.infer<typeof listOrdersQuery>;

/**
 * PATCH /orders/{order_id}/items/{order_item_id}: the status, or (the platform's other form) a
 * lower quantity with the slips the ordering terminal prints (`orderPrints`, accepted and
 * ignored: this server prints nothing). Exactly one of status and quantity.
 */
export const updateItemBody = z
  .strictObject({
    status: oneOf(ITEM_STATUSES).optional(),
    quantity: quantity.optional().describe('at most the quantity ordered'),
    orderPrints: z
      .strictObject({ kitchenTicket: z.boolean().optional(), orderSlip: z.boolean().optional() })
      .optional()
      .describe('with quantity; accepted and ignored'),
  })
  .superRefine((body, ctx) => {
    if (body.status === undefined && body.quantity === undefined) ctx.addIssue({ code: 'custom', path: ['status'], message: 'is required' });
    else if (body.status !== undefined && body.quantity !== undefined) ctx.addIssue({ code: 'custom', path: ['status'], message: 'send either status or quantity, not both' });
    else if (body.orderPrints !== undefined && body.quantity === undefined) ctx.addIssue({ code: 'custom', path: ['orderPrints'], message: 'is sent with quantity only' });
  });
export type UpdateItem = z.infer<typeof updateItemBody>;
export const updateTableUseBody = z.strictObject({ status: oneOf(TABLE_USE_STATUSES) });

// --- output (spec 2.12) ----------------------------------------------------------------------

const subItem = z.object({ menuId: z.string().nullable(), name: z.string(), quantity: z.int(), amount: z.string() });
/** A topping as answered: the sub-item and the topping it names (null: none). */
const toppingOut = subItem.extend({ toppingId: z.string().nullable() });

export const discount = z
  .union([
    z.object({ type: z.literal('couponRate'), rateCoupon: z.string(), amount: z.string() }),
    z.object({ type: z.literal('rate'), rate: z.string(), amount: z.string() }),
    z.object({ type: z.literal('couponAmount'), amountCoupon: z.string().describe('the platform’s name'), amount: z.string() }),
    z.object({ type: z.literal('freeCoupon'), freeCoupon: z.literal(true).describe('the platform’s name'), amount: z.string() }),
    z.object({ type: z.literal('amount'), amount: z.string() }),
  ])
  .nullable();

export const orderItem = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(ITEM_STATUSES),
  servedAt: z.string().nullable(),
  memo: z.string().nullable(),
  menuId: z.string().nullable(),
  quantity: z.int(),
  menuType: z.enum(MENU_TYPES),
  customContentId: z.string().nullable(),
  customContentName: z.string().nullable(),
  categoryId: z.string().nullable(),
  sellingPrice: z.object({
    taxRate: z.number(),
    taxType: z.enum(TAX_TYPES),
    amount: z.string().describe('unit selling price, exact decimal'),
    tax: z.enum(TAXATIONS).describe('amount is tax included, excluded, or none (the platform’s name)'),
    taxation: z.enum(TAXATIONS).describe('the same as tax (the name earlier clients read)'),
  }),
  discount,
  timeLimit: z.int().describe('minutes; 0 excluded from the time-limit notice'),
  preTimeLimitMinutesLeft: z.int().describe('minutes; 0 excluded from the advance notice'),
  toppings: z.array(toppingOut),
  courseItems: z.array(subItem),
});
export type OrderItem = z.infer<typeof orderItem>;

export const tableUse = z
  .object({
    id: z.string(),
    status: z.enum(TABLE_USE_STATUSES),
    storeId: z.string(),
    tables: z.array(z.object({ id: z.string(), name: z.string() })),
  })
  .meta({ id: 'TableUse' });
export type TableUse = z.infer<typeof tableUse>;

/** A table use and the ids of its orders (oldest first); an order embeds the plain `tableUse` (2.12). */
export type TableUseWithOrders = TableUse & { orderIds: string[] };

export const order = z
  .object({
    orderId: z.string(),
    ordered: z.string(),
    items: z.array(orderItem),
    tableUseId: z.string(),
    tableUse,
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof order>;

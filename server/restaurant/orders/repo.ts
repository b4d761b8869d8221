import type { Clock } from '../../clock.js';
import { dialectOf } from '../../db/engine.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import {
  canonicalDecimal,
  defaultTaxRate,
  discountAmount,
  itemQuantityChange,
  itemStatusChange,
  type DiscountType,
  type ItemStatus,
  type TaxType,
} from '../../domain/order-items.js';
import { orderBy } from '../../db/sql.js';
import { parseDateTime } from '../../domain/time.js';
import { fetchSize, offsetOf, type Page } from '../../platform/http/paging.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { MenuRepo, type MenuUse } from '../menus/repo.js';
import { ReservationRepo } from '../reservations/repo.js';
import { FloorLookups } from '../tables/lookups.js';
import { ToppingConditions, type ToppingUse } from '../toppings/conditions.js';
import { MENU_TYPES, type CreateOrder, type ItemInput, type ListOrdersQuery, type OrderSort } from './schema.js';
import { TableUseRepo, type TableUseRow } from './table-uses.js';

export interface OrderRow {
  contract_id: string;
  order_id: number;
  table_use_id: number;
  ordered_at: number;
  ins_at: number;
  upd_at: number;
}

export interface OrderItemRow {
  contract_id: string;
  order_id: number;
  item_id: number;
  position: number;
  name: string;
  status: ItemStatus;
  served_at: number | null;
  memo: string | null;
  menu_id: number | null;
  quantity: number;
  menu_type: (typeof MENU_TYPES)[number];
  custom_content_id: string | null;
  custom_content_name: string | null;
  category_id: number | null;
  tax_rate: string;
  tax_type: TaxType;
  amount: string;
  taxation: 'included' | 'excluded' | 'none';
  discount_type: DiscountType | null;
  discount_rate: string | null;
  discount_amount: string | null;
  time_limit: number;
  pre_time_limit_minutes_left: number;
  toppings: string;
  course_items: string;
  ins_at: number;
  upd_at: number;
}

const SORT_COLUMNS: Record<OrderSort, string> = { orderId: 'o.order_id', ordered: 'o.ordered_at' };

/** Restaurant orders (spec 2.12) and the status of their items. */
export class OrderRepo {
  private readonly byId;
  private readonly itemsOf;
  private readonly itemsOfMany;
  private readonly itemById;
  private readonly insertOrder;
  private readonly insertItem;
  private readonly setItemStatus;
  private readonly setItemQuantity;
  readonly tableUses: TableUseRepo;
  readonly reservations: ReservationRepo;
  private readonly menus: MenuRepo;
  private readonly toppings: ToppingConditions;
  private readonly lookups: FloorLookups;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.tableUses = new TableUseRepo(db, writer, ids, clock);
    this.reservations = new ReservationRepo(db, writer, ids, clock);
    this.menus = new MenuRepo(db, writer, ids, clock);
    this.toppings = new ToppingConditions(db, writer, ids, clock);
    this.lookups = new FloorLookups(db);
    this.byId = db.prepare('SELECT * FROM orders WHERE contract_id = ? AND order_id = ?');
    this.itemsOf = db.prepare('SELECT * FROM order_items WHERE contract_id = ? AND order_id = ? ORDER BY position');
    this.itemsOfMany = db.prepare(
      `SELECT * FROM order_items WHERE contract_id = ? AND order_id ${dialectOf(db).inJsonList('integer')}
       ORDER BY order_id, position`,
    );
    this.itemById = db.prepare('SELECT * FROM order_items WHERE contract_id = ? AND order_id = ? AND item_id = ?');
    this.insertOrder = db.prepare(
      'INSERT INTO orders (contract_id, order_id, table_use_id, ordered_at, ins_at, upd_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.insertItem = db.prepare(
      `INSERT INTO order_items (contract_id, order_id, item_id, position, name, status, served_at, memo, menu_id, quantity,
         menu_type, custom_content_id, custom_content_name, category_id, tax_rate, tax_type, amount, taxation,
         discount_type, discount_rate, discount_amount, time_limit, pre_time_limit_minutes_left, toppings, course_items, ins_at, upd_at)
       VALUES (@contractId, @orderId, @itemId, @position, @name, @status, @servedAt, @memo, @menuId, @quantity,
         @menuType, @customContentId, @customContentName, @categoryId, @taxRate, @taxType, @amount, @taxation,
         @discountType, @discountRate, @discountAmount, @timeLimit, @preTimeLimit, @toppings, @courseItems, @now, @now)`,
    );
    this.setItemQuantity = db.prepare(
      'UPDATE order_items SET quantity = ?, discount_amount = ?, upd_at = ? WHERE contract_id = ? AND item_id = ?',
    );
    this.setItemStatus = db.prepare(
      'UPDATE order_items SET status = ?, served_at = ?, upd_at = ? WHERE contract_id = ? AND item_id = ?',
    );
  }

  find(contractId: string, orderId: string | number): OrderRow | undefined {
    return this.byId.get(contractId, orderId) as OrderRow | undefined;
  }

  get(contractId: string, orderId: string): OrderRow {
    const row = this.find(contractId, orderId);
    if (!row) throw NotFoundError.field('order_id', `order ${orderId} does not exist`);
    return row;
  }

  items(contractId: string, orderId: number): OrderItemRow[] {
    return this.itemsOf.all(contractId, orderId) as OrderItemRow[];
  }

  /** The items of several orders in one query, keyed by order_id (each list in position order). */
  itemsOfOrders(contractId: string, orderIds: readonly number[]): Map<number, OrderItemRow[]> {
    const byOrder = new Map<number, OrderItemRow[]>(orderIds.map((o) => [o, []]));
    for (const item of this.itemsOfMany.all(contractId, JSON.stringify(orderIds)) as OrderItemRow[]) {
      byOrder.get(item.order_id)?.push(item);
    }
    return byOrder;
  }

  /**
   * One page of orders (filters of `GET /orders`), with the paging look-ahead row. Without a
   * sort they come in `ordered` order, then by id.
   */
  list(contractId: string, query: ListOrdersQuery, page: Page<OrderSort>): OrderRow[] {
    const where = ['o.contract_id = ?'];
    const params: (string | number)[] = [contractId];
    let from = 'orders o';
    if (query.store_id !== undefined) {
      from += ' JOIN table_uses u ON u.contract_id = o.contract_id AND u.table_use_id = o.table_use_id';
      where.push('u.store_id = ?');
      params.push(Number(query.store_id));
    }
    if (query.table_use_id !== undefined) (where.push('o.table_use_id = ?'), params.push(Number(query.table_use_id)));
    if (query.ordered_from !== undefined) (where.push('o.ordered_at >= ?'), params.push(parseDateTime(query.ordered_from)!));
    if (query.ordered_to !== undefined) (where.push('o.ordered_at <= ?'), params.push(parseDateTime(query.ordered_to)!));
    const sort = page.sort.length ? page.sort : [{ field: 'ordered' as const, desc: false }];
    const sql = `SELECT o.* FROM ${from} WHERE ${where.join(' AND ')} ${orderBy(sort, SORT_COLUMNS, 'o.order_id')} LIMIT ? OFFSET ?`;
    return this.db.prepare(sql).all(...params, fetchSize(page), offsetOf(page)) as OrderRow[];
  }

  /**
   * Takes an order at a started table use, or seats the party first (a new table use on
   * `tableIds`) when none is given. `reservationId` binds that reservation to the table use.
   */
  create(contractId: string, input: CreateOrder): OrderRow {
    return this.writer.write(() => {
      const use = this.tableUseFor(contractId, input);
      if (input.reservationId !== undefined) {
        this.reservations.bindToTableUse(contractId, input.reservationId, String(use.table_use_id), use.store_id, 'reservationId');
      }
      const orderId = this.ids.next('orders');
      const now = this.clock.now().getTime();
      const orderedAt = input.ordered === undefined ? now : parseDateTime(input.ordered)!;
      this.insertOrder.run(contractId, orderId, use.table_use_id, orderedAt, now, now);
      const menuUses: MenuUse[] = [];
      const toppingUses: ToppingUse[] = [];
      input.items.forEach((item, i) => {
        const { toppingUses: taken, ...values } = this.itemValues(contractId, use.store_id, item, `items.${i}`, now);
        if (values.menuId !== null) menuUses.push({ menuId: values.menuId, quantity: values.quantity, at: `items.${i}` });
        toppingUses.push(...taken);
        this.insertItem.run({ contractId, orderId, itemId: this.ids.next('order_items'), position: i + 1, now, ...values });
      });
      // Sold-out menus are refused and remaining quantities go down with the order (issue 10); toppings alike (issue 26).
      this.menus.takeForOrder(contractId, menuUses);
      this.toppings.takeForOrder(contractId, use.store_id, toppingUses);
      this.writer.changed({ contractId, entity: 'order', id: orderId, op: 'insert' });
      return this.get(contractId, orderId);
    });
  }

  /**
   * Item status (spec 3.4 "not shown"; rules in domain/order-items.ts) while its table use is
   * started. Canceling an item of a counted menu gives its quantity back in the same transaction.
   */
  changeItemStatus(contractId: string, orderId: string, itemId: string, status: ItemStatus): OrderRow {
    return this.writer.write(() => {
      const order = this.get(contractId, orderId);
      const item = this.itemById.get(contractId, order.order_id, itemId) as OrderItemRow | undefined;
      if (!item) throw NotFoundError.field('item_id', `order ${orderId} has no item ${itemId}`);
      const use = this.tableUses.find(contractId, order.table_use_id)!;
      if (use.status !== 'started' && item.status !== status) {
        throw InvalidInput.field('status', `table use ${use.table_use_id} is ${use.status}; its items can no longer change`);
      }
      const change = itemStatusChange(item.status, status);
      if ('refused' in change) throw InvalidInput.field('status', change.refused);
      if (item.status === status) return order;
      const now = this.clock.now().getTime();
      const servedAt = change.servedAt === 'set' ? now : change.servedAt === 'clear' ? null : item.served_at;
      this.setItemStatus.run(status, servedAt, now, contractId, item.item_id);
      // A canceled item gives its menu's quantity back (issue 10); canceled is final, so only once.
      if (status === 'canceled' && item.menu_id !== null) this.menus.giveBack(contractId, item.menu_id, item.quantity);
      if (status === 'canceled') this.toppings.giveBack(contractId, use.store_id, toppingsTaken(item, item.quantity));
      this.writer.changed({ contractId, entity: 'order', id: String(order.order_id), op: 'update' });
      return order;
    });
  }

  /**
   * The platform's quantity change: lower only, while the table use is started; the discount
   * follows (domain/order-items.ts) and a counted menu gets the difference back.
   */
  changeItemQuantity(contractId: string, orderId: string, itemId: string, quantity: number): OrderRow {
    return this.writer.write(() => {
      const order = this.get(contractId, orderId);
      const item = this.itemById.get(contractId, order.order_id, itemId) as OrderItemRow | undefined;
      if (!item) throw NotFoundError.field('item_id', `order ${orderId} has no item ${itemId}`);
      const use = this.tableUses.find(contractId, order.table_use_id)!;
      if (use.status !== 'started') throw InvalidInput.field('quantity', `table use ${use.table_use_id} is ${use.status}; its items can no longer change`);
      const change = itemQuantityChange(
        { status: item.status, quantity: item.quantity, amount: item.amount, discountType: item.discount_type, discountRate: item.discount_rate, discountAmount: item.discount_amount },
        quantity,
      );
      if ('refused' in change) throw InvalidInput.field(change.field, change.refused);
      if (quantity === item.quantity) return order;
      this.setItemQuantity.run(quantity, change.discountAmount, this.clock.now().getTime(), contractId, item.item_id);
      if (item.menu_id !== null) this.menus.giveBack(contractId, item.menu_id, item.quantity - quantity);
      this.toppings.giveBack(contractId, use.store_id, toppingsTaken(item, item.quantity - quantity));
      this.writer.changed({ contractId, entity: 'order', id: String(order.order_id), op: 'update' });
      return order;
    });
  }

  private tableUseFor(contractId: string, input: CreateOrder): TableUseRow {
    if (input.tableUseId !== undefined) {
      if (input.tableIds !== undefined) throw InvalidInput.field('tableIds', 'must not be sent with tableUseId (the table use has its tables)');
      const use = this.tableUses.open(contractId, input.tableUseId, 'tableUseId');
      if (input.storeId !== undefined && Number(input.storeId) !== use.store_id) {
        throw InvalidInput.field('storeId', `table use ${input.tableUseId} belongs to store ${use.store_id}`);
      }
      this.reservations.tables.stores.referenced(contractId, String(use.store_id), { open: true });
      return use;
    }
    if (input.storeId === undefined) throw InvalidInput.field('storeId', 'is required without tableUseId');
    const store = this.reservations.tables.stores.referenced(contractId, input.storeId, { open: true });
    if (input.tableIds === undefined) throw InvalidInput.field('tableIds', 'is required without tableUseId');
    return this.tableUses.start(contractId, store.store_id, input.tableIds, this.reservations.tables);
  }

  /** One item's columns: menu defaults, tax defaults, discount amount, sub-items; 400s name `at`. */
  private itemValues(contractId: string, storeId: number, item: ItemInput, at: string, now: number) {
    const menu = item.menuId === undefined ? undefined : this.menuOf(contractId, storeId, item.menuId, `${at}.menuId`);
    const name = item.name ?? menu?.menu_name;
    if (name === undefined) throw InvalidInput.field(`${at}.name`, 'is required without menuId');
    if (item.categoryId !== undefined && !this.lookups.categoryExists(contractId, item.categoryId)) {
      throw InvalidInput.field(`${at}.categoryId`, `category ${item.categoryId} does not exist`);
    }
    const menuType = item.menuType ?? ((MENU_TYPES as readonly string[]).includes(menu?.menu_type ?? '') ? menu!.menu_type : 'normal');
    const quantity = item.quantity ?? 1;
    const price = item.sellingPrice;
    const taxType = price.taxType ?? 'normal';
    const amount = canonicalDecimal(price.amount);
    let discountType = null;
    let discountRate = null;
    let discountValue = null;
    if (item.discount) {
      const rate = item.discount.type === 'couponRate' ? item.discount.rateCoupon : item.discount.type === 'rate' ? item.discount.rate : undefined;
      const result = discountAmount({ type: item.discount.type, rate, amount: item.discount.amount }, amount, quantity);
      if ('refused' in result) throw InvalidInput.field(`${at}.discount.amount`, result.refused);
      discountType = item.discount.type;
      discountRate = rate === undefined ? null : canonicalDecimal(rate);
      discountValue = result.amount;
    }
    const subItems = (list: ItemInput['courseItems'], field: string) =>
      JSON.stringify(
        (list ?? []).map((s, j) => {
          if (s.menuId !== undefined) this.menuOf(contractId, storeId, s.menuId, `${at}.${field}.${j}.menuId`);
          return { menuId: s.menuId === undefined ? null : String(Number(s.menuId)), name: s.name, quantity: s.quantity ?? 1, amount: canonicalDecimal(s.amount ?? '0') };
        }),
      );
    const toppingUses: ToppingUse[] = [];
    const toppings = JSON.stringify(
      (item.toppings ?? []).map((s, j) => {
        const field = `${at}.toppings.${j}`;
        if (s.menuId !== undefined) this.menuOf(contractId, storeId, s.menuId, `${field}.menuId`);
        const topping = s.toppingId === undefined ? undefined : this.toppings.findTopping(contractId, s.toppingId);
        if (s.toppingId !== undefined && !topping) throw InvalidInput.field(`${field}.toppingId`, `topping ${s.toppingId} does not exist`);
        const perItem = s.quantity ?? 1;
        if (topping) toppingUses.push({ toppingId: topping.topping_id, quantity: perItem * quantity, at: field });
        return {
          menuId: s.menuId === undefined ? null : String(Number(s.menuId)),
          toppingId: topping ? String(topping.topping_id) : null,
          name: s.name ?? topping!.name,
          quantity: perItem,
          amount: canonicalDecimal(s.amount ?? topping?.amount ?? '0'),
        };
      }),
    );
    return {
      name,
      status: item.status ?? 'waiting',
      servedAt: item.status === 'provided' ? now : null,
      memo: item.memo ?? null,
      menuId: menu?.menu_id ?? null,
      quantity,
      menuType,
      customContentId: item.customContentId ?? null,
      customContentName: item.customContentName ?? null,
      categoryId: item.categoryId === undefined ? (menu?.category_id ?? null) : Number(item.categoryId),
      taxRate: price.taxRate === undefined ? defaultTaxRate(taxType) : canonicalDecimal(price.taxRate),
      taxType,
      amount,
      taxation: price.tax ?? price.taxation ?? (taxType === 'none' ? 'none' : 'included'),
      discountType,
      discountRate,
      discountAmount: discountValue,
      timeLimit: item.timeLimit ?? 0,
      preTimeLimit: item.preTimeLimitMinutesLeft ?? 0,
      toppings,
      toppingUses,
      courseItems: subItems(item.courseItems, 'courseItems'),
    };
  }

  /** A menu given on an order must be one of the order's store (spec 4.17's menuId). */
  private menuOf(contractId: string, storeId: number, menuId: string, field: string) {
    const menu = this.lookups.findMenu(contractId, menuId);
    if (!menu || (menu.store_id !== null && menu.store_id !== storeId)) {
      throw InvalidInput.field(field, `menu ${menuId} is not a menu of store ${storeId}`);
    }
    return menu;
  }
}

/** The toppings with ids an item took for `count` of its units (each topping's quantity is per unit). */
function toppingsTaken(item: OrderItemRow, count: number): { toppingId: number; quantity: number }[] {
  const toppings = JSON.parse(item.toppings) as { toppingId?: string | null; quantity: number }[];
  return toppings.flatMap((t) => (t.toppingId ? [{ toppingId: Number(t.toppingId), quantity: t.quantity * count }] : []));
}

import { dialectOf } from '../../db/engine.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import type { CheckoutItem, CheckoutSubItem } from '../../domain/checkout.js';
import { InvalidInput } from '../../domain/errors.js';
import { dayStart, nextDate } from '../../domain/time.js';
import type { OrderItemRow } from '../orders/repo.js';
import type { TableUseRow } from '../orders/table-uses.js';
import type { ListTableUsesQuery, SeatBody } from './schema.js';

/** A table use row with the columns of migration 0038. */
export interface TableUseHistoryRow extends TableUseRow {
  number: number;
  customer_group_ids: string;
  memo: string | null;
  ended_at: number | null;
  transaction_head_id: number | null;
}

/** What the platform's TableUse shows besides the row: read for a page of table uses at once. */
export interface TableUseExtras {
  items: Map<number, CheckoutItem[]>;
  reservations: Map<number, number>;
  groupNames: Map<number, string>;
}

/** An order item as the checkout reads it (orders' columns; toppings and course items parsed). */
export function checkoutItemOf(row: OrderItemRow & { product_id: number | null }): CheckoutItem {
  return {
    status: row.status,
    name: row.name,
    quantity: row.quantity,
    amount: row.amount,
    taxRate: row.tax_rate,
    taxation: row.taxation,
    discountAmount: row.discount_amount,
    categoryId: row.category_id,
    productId: row.product_id,
    toppings: JSON.parse(row.toppings) as CheckoutSubItem[],
    courseItems: JSON.parse(row.course_items) as CheckoutSubItem[],
  };
}

/** The table-use history (GET /table_uses) and the columns seating and checkout set. */
export class TableUseBook {
  private readonly byId;
  private readonly itemsOfUses;
  private readonly reservationsOfUses;
  private readonly groupNames;
  private readonly groupExists;
  private readonly setParty;
  private readonly setCheckout;
  private readonly usesOfSale;
  private readonly productOfMenu;
  private readonly payReservations;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
  ) {
    this.byId = db.prepare('SELECT * FROM table_uses WHERE contract_id = ? AND table_use_id = ?');
    this.itemsOfUses = db.prepare(
      `SELECT o.table_use_id, i.*, m.product_id FROM orders o
       JOIN order_items i ON i.contract_id = o.contract_id AND i.order_id = o.order_id
       LEFT JOIN menus m ON m.contract_id = i.contract_id AND m.menu_id = i.menu_id
       WHERE o.contract_id = ? AND o.table_use_id ${dialectOf(db).inJsonList('integer')}
       ORDER BY o.ordered_at, o.order_id, i.position`,
    );
    this.reservationsOfUses = db.prepare(
      `SELECT table_use_id, reservation_id FROM reservations
       WHERE contract_id = ? AND table_use_id ${dialectOf(db).inJsonList('integer')} ORDER BY reservation_id`,
    );
    this.groupNames = db.prepare(
      `SELECT customer_group_id, label FROM customer_groups WHERE contract_id = ? AND customer_group_id ${dialectOf(db).inJsonList('integer')}`,
    );
    this.groupExists = db.prepare('SELECT 1 FROM customer_groups WHERE contract_id = ? AND customer_group_id = ?');
    this.setParty = db.prepare(
      'UPDATE table_uses SET number = ?, customer_group_ids = ?, memo = ? WHERE contract_id = ? AND table_use_id = ?',
    );
    this.setCheckout = db.prepare(
      `UPDATE table_uses SET status = 'ended', ended_at = ?, transaction_head_id = ?, upd_at = ?
       WHERE contract_id = ? AND table_use_id = ?`,
    );
    this.usesOfSale = db.prepare('SELECT table_use_id FROM table_uses WHERE contract_id = ? AND transaction_head_id = ?');
    this.productOfMenu = db.prepare('SELECT product_id FROM menus WHERE contract_id = ? AND menu_id = ?');
    // The payment side sets `paid` (decisions: reservations): the checkout is that payment.
    this.payReservations = db.prepare(
      `UPDATE reservations SET status = 'paid', upd_at = ?
       WHERE contract_id = ? AND table_use_id = ? AND status IN ('waiting', 'coming', 'finished') RETURNING reservation_id`,
    );
  }

  find(contractId: string, tableUseId: string | number): TableUseHistoryRow | undefined {
    return this.byId.get(contractId, tableUseId) as TableUseHistoryRow | undefined;
  }

  /**
   * One page of the history and its look-ahead row. `cursor` is the table use the page starts
   * at: the rows at and after it in the page's order (seated time, then id).
   */
  list(contractId: string, query: ListTableUsesQuery, zone: string): TableUseHistoryRow[] {
    const where = ['contract_id = ?'];
    const params: (string | number)[] = [contractId];
    if (query.store_id !== undefined) (where.push('store_id = ?'), params.push(Number(query.store_id)));
    if (query.status !== 'all') (where.push('status = ?'), params.push(query.status));
    if (query.started !== undefined) {
      where.push('ins_at >= ? AND ins_at < ?');
      params.push(dayStart(query.started, zone), dayStart(nextDate(query.started), zone));
    }
    if (query.ended !== undefined) {
      where.push('ended_at >= ? AND ended_at < ?');
      params.push(dayStart(query.ended, zone), dayStart(nextDate(query.ended), zone));
    }
    const sort = query.sort.length ? query.sort : [{ field: 'started' as const, desc: true }];
    const desc = sort[0]!.desc;
    if (query.cursor !== undefined && query.cursor !== '-1') {
      const head = this.find(contractId, query.cursor);
      if (!head) throw InvalidInput.field('cursor', `table use ${query.cursor} does not exist`);
      where.push(desc ? '(ins_at < ? OR (ins_at = ? AND table_use_id <= ?))' : '(ins_at > ? OR (ins_at = ? AND table_use_id >= ?))');
      params.push(head.ins_at, head.ins_at, head.table_use_id);
    }
    // The only sort key is the seating time; the id breaks ties in its direction, so a cursor page continues where the last stopped.
    const dir = desc ? 'DESC' : 'ASC';
    const sql = `SELECT * FROM table_uses WHERE ${where.join(' AND ')} ORDER BY ins_at ${dir}, table_use_id ${dir} LIMIT ?`;
    return this.db.prepare(sql).all(...params, query.limit + 1) as TableUseHistoryRow[];
  }

  /** The items, bound reservations and customer-group names of several table uses, three queries in all. */
  extras(contractId: string, rows: readonly TableUseHistoryRow[]): TableUseExtras {
    const ids = JSON.stringify(rows.map((r) => r.table_use_id));
    const items = new Map<number, CheckoutItem[]>(rows.map((r) => [r.table_use_id, []]));
    for (const row of this.itemsOfUses.all(contractId, ids) as (OrderItemRow & { table_use_id: number; product_id: number | null })[]) {
      items.get(row.table_use_id)?.push(checkoutItemOf(row));
    }
    const reservations = new Map<number, number>();
    for (const r of this.reservationsOfUses.all(contractId, ids) as { table_use_id: number; reservation_id: number }[]) {
      if (!reservations.has(r.table_use_id)) reservations.set(r.table_use_id, r.reservation_id);
    }
    const groupIds = [...new Set(rows.flatMap((r) => JSON.parse(r.customer_group_ids) as number[]))];
    const groupNames = new Map<number, string>();
    for (const g of this.groupNames.all(contractId, JSON.stringify(groupIds)) as { customer_group_id: number; label: string }[]) {
      groupNames.set(g.customer_group_id, g.label);
    }
    return { items, reservations, groupNames };
  }

  /** The party's size, customer groups and memo on a table use just seated (inside the seating's write). */
  setPartyOf(contractId: string, tableUseId: number, body: SeatBody): void {
    const groups = [...(body.customerDivisionId === undefined ? [] : [body.customerDivisionId]), ...(body.customerGroupIds ?? [])];
    const field = (i: number) => (body.customerDivisionId === undefined ? `customerGroupIds.${i}` : i === 0 ? 'customerDivisionId' : `customerGroupIds.${i - 1}`);
    if (groups.length > 5) throw InvalidInput.field('customerGroupIds', 'a table use has at most 5 customer groups, customerDivisionId included');
    groups.forEach((g, i) => {
      if (!this.groupExists.get(contractId, g)) throw InvalidInput.field(field(i), `customer group ${g} does not exist`);
      if (groups.indexOf(g) !== i) throw InvalidInput.field(field(i), `customer group ${g} is given more than once`);
    });
    this.setParty.run(body.guestCount ?? 0, JSON.stringify(groups.map(Number)), body.memo ?? null, contractId, tableUseId);
  }

  /** Ends a table use at checkout on its sale and marks its reservation paid (inside the checkout's write). */
  checkedOut(contractId: string, tableUseId: number, transactionHeadId: number, now: number): void {
    this.setCheckout.run(now, transactionHeadId, now, contractId, tableUseId);
    this.writer.changed({ contractId, entity: 'table_use', id: String(tableUseId), op: 'update' });
    for (const r of this.payReservations.all(now, contractId, tableUseId) as { reservation_id: number }[]) {
      this.writer.changed({ contractId, entity: 'reservation', id: String(r.reservation_id), op: 'update' });
    }
  }

  /** The table use a sale already closed, if any. */
  useOfSale(contractId: string, transactionHeadId: number): number | undefined {
    return (this.usesOfSale.get(contractId, transactionHeadId) as { table_use_id: number } | undefined)?.table_use_id;
  }

  productIdOfMenu(contractId: string, menuId: string): number | null {
    return (this.productOfMenu.get(contractId, menuId) as { product_id: number | null } | undefined)?.product_id ?? null;
  }
}

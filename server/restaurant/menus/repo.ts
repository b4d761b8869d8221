import type { Statement } from 'better-sqlite3';
import type { Clock } from '../../clock.js';
import { dialectOf } from '../../db/engine.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import { orderBy } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { PRICE_SCALE, toUnits } from '../../domain/money.js';
import { fetchSize, offsetOf, type Page } from '../../platform/http/paging.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import type { ListConditionsQuery, PutCondition } from './condition-schema.js';
import {
  afterCancel,
  afterOrder,
  applyConditionChange,
  courseDivisionError,
  stockRefusal,
  type Condition,
  type CourseDivision,
  type MenuType,
  type SaleCondition,
} from '../../domain/menus.js';
import type { CreateMenu, ListMenusQuery, UpdateMenu } from './schema.js';

export interface MenuRow {
  contract_id: string;
  menu_id: number;
  store_id: number;
  menu_name: string;
  menu_type: MenuType;
  course_division: CourseDivision | null;
  category_id: number | null;
  price_units: number;
  condition: Condition;
  quantity: number | null;
  condition_at: number;
  product_id: number | null;
  ins_at: number;
  upd_at: number;
}

/** One order item that names a menu: `at` is the item's field path (`items.1`). */
export interface MenuUse {
  menuId: number;
  quantity: number;
  at: string;
}

/** The columns of spec 2.5 that GET /menu_conditions reads. */
export type ConditionRow = Pick<MenuRow, 'menu_id' | 'condition' | 'quantity'>;

const COLUMNS = {
  menuName: 'menu_name',
  menuType: 'menu_type',
  courseDivision: 'course_division',
  categoryId: 'category_id',
  price: 'price_units',
  productId: 'product_id',
};
const SORT_COLUMNS = { menuId: 'menu_id', categoryId: 'category_id', menuName: 'menu_name' };
const CONDITION_SORT_COLUMNS = { menu_id: 'menu_id', category_id: 'category_id' };

/** Spec 4.6: simple courses are never listed, whatever the filters. */
const LISTED = "(course_division IS NULL OR course_division = 'standard')";

/** Distinct SQL texts of the condition list are few (filters × sort); bounded anyway. */
const STATEMENT_CACHE_MAX = 64;

export class MenuRepo extends MasterRepo<MenuRow, keyof typeof SORT_COLUMNS> {
  private readonly storeOf;
  private readonly categoryExists;
  private readonly productExists;
  private readonly orderedIn;
  private readonly setConditionStmt;
  private readonly conditionStatements = new Map<string, Statement<unknown[], ConditionRow>>();

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'menu', columns: COLUMNS, sort: SORT_COLUMNS });
    this.storeOf = db.prepare('SELECT store_id, pause_flag FROM stores WHERE contract_id = ? AND store_id = ?');
    this.categoryExists = db.prepare('SELECT 1 FROM categories WHERE contract_id = ? AND category_id = ?');
    this.productExists = db.prepare('SELECT 1 FROM products WHERE contract_id = ? AND product_id = ?');
    // Toppings and course items are JSON arrays of the item; menu deletes are rare, so scanning them is fine.
    const dialect = dialectOf(db);
    this.orderedIn = db.prepare(
      `SELECT order_id FROM order_items WHERE contract_id = @contractId AND menu_id = @menuId
       UNION ALL
       SELECT i.order_id FROM order_items i, ${dialect.jsonEach('i.toppings', 't')}
        WHERE i.contract_id = @contractId AND ${dialect.jsonField('t.value', '$.menuId', 'text')} = @menuKey
       UNION ALL
       SELECT i.order_id FROM order_items i, ${dialect.jsonEach('i.course_items', 'c')}
        WHERE i.contract_id = @contractId AND ${dialect.jsonField('c.value', '$.menuId', 'text')} = @menuKey
       LIMIT 1`,
    );
    this.setConditionStmt = db.prepare(
      `UPDATE menus SET condition = @condition, quantity = @quantity, condition_at = @now
       WHERE contract_id = @contractId AND menu_id = @menuId`,
    );
  }

  create(contractId: string, input: CreateMenu): MenuRow {
    return this.writer.write(() => {
      const courseDivision = input.courseDivision ?? null;
      this.assertDivision(input.menuType, courseDivision);
      if (!this.storeOf.get(contractId, input.storeId)) throw InvalidInput.field('storeId', `store ${input.storeId} does not exist`);
      if (input.categoryId !== undefined) this.assertCategory(contractId, input.categoryId);
      if (input.productId !== undefined) this.assertProduct(contractId, input.productId);
      const id = this.insertRow(contractId, {
        menu_id: this.ids.next('menus'),
        store_id: Number(input.storeId),
        menu_name: input.menuName,
        menu_type: input.menuType,
        course_division: courseDivision,
        category_id: input.categoryId === undefined ? null : Number(input.categoryId),
        price_units: toUnits(input.price ?? '0', PRICE_SCALE),
        condition: 'orderable',
        quantity: null,
        condition_at: this.now(),
        product_id: input.productId === undefined ? null : Number(input.productId),
      });
      return this.get(contractId, id);
    });
  }

  /** Only the keys sent change; a menu that stops being a course loses its course division. */
  update(contractId: string, menuId: string, patch: UpdateMenu): MenuRow {
    return this.writer.write(() => {
      const current = this.get(contractId, menuId);
      const values: Record<string, unknown> = { ...patch };
      if (patch.menuType !== undefined || patch.courseDivision !== undefined) {
        const menuType = patch.menuType ?? current.menu_type;
        let division = patch.courseDivision === undefined ? current.course_division : patch.courseDivision;
        if (patch.menuType !== undefined && patch.menuType !== 'course' && patch.courseDivision === undefined) division = null;
        this.assertDivision(menuType, division);
        values.courseDivision = division;
      }
      if (patch.categoryId !== undefined && patch.categoryId !== null) this.assertCategory(contractId, patch.categoryId);
      if (patch.categoryId !== undefined) values.categoryId = patch.categoryId === null ? null : Number(patch.categoryId);
      if (patch.price !== undefined) values.price = toUnits(patch.price, PRICE_SCALE);
      if (patch.productId !== undefined && patch.productId !== null) this.assertProduct(contractId, patch.productId);
      if (patch.productId !== undefined) values.productId = patch.productId === null ? null : Number(patch.productId);
      this.updateFields(contractId, current, values);
      return this.get(contractId, menuId);
    });
  }

  /**
   * Refused (400, nothing deleted) while an order item, or a topping or course item of one,
   * names the menu: an order must keep showing what was ordered.
   */
  delete(contractId: string, menuId: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, menuId);
      const user = this.orderedIn.get({ contractId, menuId: current.menu_id, menuKey: String(current.menu_id) }) as { order_id: number } | undefined;
      if (user) throw InvalidInput.field('menu_id', `menu ${menuId} is used by order ${user.order_id} and cannot be deleted`);
      this.deleteRow(contractId, current);
    });
  }

  list(contractId: string, query: ListMenusQuery, page: Page<keyof typeof SORT_COLUMNS>): MenuRow[] {
    const filters = {
      store_id: query.store_id === undefined ? undefined : Number(query.store_id),
      menu_type: query.type === 'all' ? undefined : query.type,
      category_id: query.category_id === undefined ? undefined : Number(query.category_id),
    };
    return this.select(contractId, filters, page);
  }

  /** 404 for a store that does not exist, 400 for a suspended one (pause_flag '1'). */
  assertStoreOpen(contractId: string, storeId: string): void {
    const store = this.storeOf.get(contractId, storeId) as { pause_flag: string } | undefined;
    if (!store) throw NotFoundError.field('store_id', `store ${storeId} does not exist`);
    if (store.pause_flag === '1') throw InvalidInput.field('store_id', `store ${storeId} is suspended`);
  }

  /** Changes the sale condition of a menu of the store; the change time moves only on a real change. */
  setCondition(contractId: string, storeId: string, menuId: string, change: PutCondition): MenuRow {
    return this.writer.write(() => {
      if (!this.storeOf.get(contractId, storeId)) throw NotFoundError.field('store_id', `store ${storeId} does not exist`);
      const current = this.find(contractId, menuId);
      if (!current || String(current.store_id) !== String(Number(storeId))) {
        throw NotFoundError.field('menu_id', `menu ${menuId} does not exist in store ${storeId}`);
      }
      const outcome = applyConditionChange(current, change);
      if (!outcome.ok) throw InvalidInput.field(outcome.field, outcome.message);
      if (outcome.changed) {
        this.setConditionStmt.run({ ...outcome.next, now: this.clock.now().getTime(), contractId, menuId: current.menu_id });
        this.writer.changed({ contractId, entity: 'menu', id: String(current.menu_id), op: 'update' });
      }
      return this.get(contractId, menuId);
    });
  }

  /**
   * Issue 10: an order takes its items' menus in the caller's transaction. Every item is checked
   * against the menu's condition before the order, with the order's running total per menu (two
   * items of the same menu count together); the first item that cannot be had is refused (400
   * naming it, nothing changes). Then each counted menu goes down once, soldout at 0, and its
   * change time moves (GET /menu_conditions' updated_from lists it).
   */
  takeForOrder(contractId: string, uses: readonly MenuUse[]): void {
    this.writer.write(() => {
      const taken = new Map<number, { menu: MenuRow; count: number }>();
      for (const use of uses) {
        const entry = taken.get(use.menuId) ?? { menu: this.get(contractId, use.menuId), count: 0 };
        entry.count += use.quantity;
        const refusal = stockRefusal(String(use.menuId), entry.menu, entry.count);
        if (refusal) throw InvalidInput.field(`${use.at}.${refusal.field}`, refusal.message);
        taken.set(use.menuId, entry);
      }
      for (const { menu, count } of taken.values()) this.storeCondition(contractId, menu, afterOrder(menu, count));
    });
  }

  /**
   * Issue 10: a canceled item gives its quantity back to a counted menu; a menu that had run out
   * is orderable again. A menu that no longer exists gets nothing (deletes are refused while ordered).
   */
  giveBack(contractId: string, menuId: number, quantity: number): void {
    this.writer.write(() => {
      const menu = this.find(contractId, menuId);
      if (menu) this.storeCondition(contractId, menu, afterCancel(menu, quantity));
    });
  }

  private storeCondition(contractId: string, menu: MenuRow, outcome: { next: SaleCondition; changed: boolean }): void {
    if (!outcome.changed) return;
    this.setConditionStmt.run({ ...outcome.next, now: this.clock.now().getTime(), contractId, menuId: menu.menu_id });
    this.writer.changed({ contractId, entity: 'menu', id: String(menu.menu_id), op: 'update' });
  }

  /** Spec 4.6: one page of a store's sale conditions; the store is checked by the caller. */
  listConditions(contractId: string, storeId: string, query: ListConditionsQuery): ConditionRow[] {
    const where = ['contract_id = ?', 'store_id = ?', LISTED];
    const params: (string | number)[] = [contractId, Number(storeId)];
    if (query.type !== undefined && query.type !== 'all') {
      where.push('menu_type = ?');
      params.push(query.type);
    }
    if (query.category_id !== undefined) {
      where.push('category_id = ?');
      params.push(Number(query.category_id));
    }
    if (query.updated_from !== undefined) {
      where.push('condition_at >= ?');
      params.push(query.updated_from);
    }
    if (query.menu_ids !== undefined) {
      // One parameter whatever the count, so the statement text (and its cache entry) stays the same.
      where.push(`menu_id ${dialectOf(this.db).inJsonList('integer')}`);
      params.push(JSON.stringify(query.menu_ids));
    }
    const sql =
      `SELECT menu_id, condition, quantity FROM menus WHERE ${where.join(' AND ')} ` +
      `${orderBy(query.sort, CONDITION_SORT_COLUMNS, 'menu_id')} LIMIT ? OFFSET ?`;
    return this.conditionStatement(sql).all(...params, fetchSize(query), offsetOf(query));
  }

  private conditionStatement(sql: string) {
    let statement = this.conditionStatements.get(sql);
    if (!statement) {
      if (this.conditionStatements.size >= STATEMENT_CACHE_MAX) this.conditionStatements.clear();
      statement = this.db.prepare<unknown[], ConditionRow>(sql);
      this.conditionStatements.set(sql, statement);
    }
    return statement;
  }

  private assertDivision(menuType: MenuType, courseDivision: CourseDivision | null): void {
    const message = courseDivisionError(menuType, courseDivision);
    if (message) throw InvalidInput.field('courseDivision', message);
  }

  private assertCategory(contractId: string, categoryId: string): void {
    if (!this.categoryExists.get(contractId, categoryId)) throw InvalidInput.field('categoryId', `category ${categoryId} does not exist`);
  }

  private assertProduct(contractId: string, productId: string): void {
    if (!this.productExists.get(contractId, productId)) throw InvalidInput.field('productId', `product ${productId} does not exist`);
  }
}

import type { Clock } from '../../clock.js';
import { dialectOf } from '../../db/engine.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { orderBy } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { afterCancel, afterOrder, applyConditionChange, stockRefusal, type SaleCondition } from '../../domain/menus.js';
import { raiseEvent, TOPPING_CONDITIONS_EVENT } from '../../events/webhook-events.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { fetchSize, offsetOf } from '../../platform/http/paging.js';
import type { PutCondition } from '../conditions/schema.js';
import type { ListToppingConditionsQuery, TOPPING_CONDITION_SORT } from './condition-schema.js';

export interface ToppingConditionRow extends SaleCondition {
  topping_id: number;
}

/** A topping an order names: its name and price, the defaults of the order's topping entry. */
export interface ToppingMaster {
  topping_id: number;
  name: string;
  amount: string;
}

/** One order topping naming a topping: `at` is its field path (`items.0.toppings.1`). */
export interface ToppingUse {
  toppingId: number;
  quantity: number;
  at: string;
}

const SORT_COLUMNS: Record<(typeof TOPPING_CONDITION_SORT)[number], string> = { topping_id: 't.topping_id', category_id: 't.category_id' };

/**
 * Toppings' sale condition and remaining quantity at a store (トッピングの販売状態・残数), by the
 * rules of a menu's (domain/menus.ts): a topping without a row is orderable and not counted.
 * An order naming a topping takes from it, a canceled item or a lower quantity gives back, and
 * every change raises `waiter:topping-conditions` (action updated, the store and the toppings),
 * the platform's event, in the same write. The changed topping is reported for sync (its
 * conditions travel with it).
 */
export class ToppingConditions {
  private readonly stores: StoreRepo;
  private readonly topping;
  private readonly row;
  private readonly upsert;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.topping = db.prepare('SELECT topping_id, name, amount FROM toppings WHERE contract_id = ? AND topping_id = ?');
    this.row = db.prepare('SELECT condition, quantity FROM topping_conditions WHERE contract_id = ? AND topping_id = ? AND store_id = ?');
    this.upsert = db.prepare(
      `INSERT INTO topping_conditions (contract_id, topping_id, store_id, condition, quantity, condition_at)
       VALUES (@contractId, @toppingId, @storeId, @condition, @quantity, @now)
       ON CONFLICT (contract_id, topping_id, store_id) DO UPDATE SET condition = @condition, quantity = @quantity, condition_at = @now`,
    );
  }

  findTopping(contractId: string, toppingId: string | number): ToppingMaster | undefined {
    return this.topping.get(contractId, toppingId) as ToppingMaster | undefined;
  }

  /** 404 for a store that does not exist, 400 for a suspended one (as the menus' conditions, 4.6). */
  assertStoreOpen(contractId: string, storeId: string): void {
    const store = this.stores.find(contractId, storeId);
    if (!store) throw NotFoundError.field('store_id', `store ${storeId} does not exist`);
    if (store.pause_flag === '1') throw InvalidInput.field('store_id', `store ${storeId} is suspended`);
  }

  /** One page of the store's topping conditions (every topping of the contract), with its look-ahead row. */
  list(contractId: string, storeId: string, query: ListToppingConditionsQuery): ToppingConditionRow[] {
    const where = ['t.contract_id = @contractId'];
    if (query.topping_ids !== undefined) where.push(`t.topping_id ${dialectOf(this.db).inJsonList('integer', '@ids')}`);
    if (query.category_id !== undefined) where.push('t.category_id = @categoryId');
    if (query.updated_from !== undefined) where.push('coalesce(c.condition_at, t.ins_at) >= @from');
    const sql = `SELECT t.topping_id, coalesce(c.condition, 'orderable') AS condition, c.quantity
      FROM toppings t LEFT JOIN topping_conditions c ON c.contract_id = t.contract_id AND c.topping_id = t.topping_id AND c.store_id = @storeId
      WHERE ${where.join(' AND ')} ${orderBy(query.sort, SORT_COLUMNS, 't.topping_id')} LIMIT @limit OFFSET @offset`;
    return this.db.prepare(sql).all({
      contractId,
      storeId: Number(storeId),
      ids: JSON.stringify(query.topping_ids ?? []),
      categoryId: query.category_id === undefined ? null : Number(query.category_id),
      from: query.updated_from ?? null,
      limit: fetchSize(query),
      offset: offsetOf(query),
    }) as ToppingConditionRow[];
  }

  /** The supporting write: keys not sent are kept (domain/menus.ts applyConditionChange). */
  set(contractId: string, storeId: string, toppingId: string, change: PutCondition): ToppingConditionRow {
    return this.writer.write(() => {
      if (!this.stores.find(contractId, storeId)) throw NotFoundError.field('store_id', `store ${storeId} does not exist`);
      const topping = this.findTopping(contractId, toppingId);
      if (!topping) throw NotFoundError.field('topping_id', `topping ${toppingId} does not exist`);
      const outcome = applyConditionChange(this.current(contractId, Number(storeId), topping.topping_id), change, 'topping');
      if (!outcome.ok) throw InvalidInput.field(outcome.field, outcome.message);
      if (outcome.changed) this.store(contractId, Number(storeId), [[topping.topping_id, outcome.next]]);
      return { topping_id: topping.topping_id, ...outcome.next };
    });
  }

  /** An order takes its toppings at the order's store: refused (400 naming the entry) when one cannot be had. */
  takeForOrder(contractId: string, storeId: number, uses: readonly ToppingUse[]): void {
    const taken = new Map<number, { current: SaleCondition; count: number }>();
    for (const use of uses) {
      const entry = taken.get(use.toppingId) ?? { current: this.current(contractId, storeId, use.toppingId), count: 0 };
      entry.count += use.quantity;
      const refusal = stockRefusal(String(use.toppingId), entry.current, entry.count, 'topping');
      if (refusal) throw InvalidInput.field(`${use.at}.${refusal.field === 'menuId' ? 'toppingId' : 'quantity'}`, refusal.message);
      taken.set(use.toppingId, entry);
    }
    const changes: [number, SaleCondition][] = [];
    for (const [toppingId, { current, count }] of taken) {
      const outcome = afterOrder(current, count);
      if (outcome.changed) changes.push([toppingId, outcome.next]);
    }
    this.store(contractId, storeId, changes);
  }

  /** A canceled item (or a lower quantity) gives its toppings back. */
  giveBack(contractId: string, storeId: number, given: readonly { toppingId: number; quantity: number }[]): void {
    const changes: [number, SaleCondition][] = [];
    for (const { toppingId, quantity } of given) {
      if (!this.findTopping(contractId, toppingId)) continue;
      const outcome = afterCancel(this.current(contractId, storeId, toppingId), quantity);
      if (outcome.changed) changes.push([toppingId, outcome.next]);
    }
    this.store(contractId, storeId, changes);
  }

  private current(contractId: string, storeId: number, toppingId: number): SaleCondition {
    return (this.row.get(contractId, toppingId, storeId) as SaleCondition | undefined) ?? { condition: 'orderable', quantity: null };
  }

  private store(contractId: string, storeId: number, changes: readonly [number, SaleCondition][]): void {
    if (!changes.length) return;
    const now = this.clock.now().getTime();
    for (const [toppingId, next] of changes) {
      this.upsert.run({ contractId, toppingId, storeId, ...next, now });
      this.writer.changed({ contractId, entity: 'topping', id: String(toppingId), op: 'update' });
    }
    const toppingIds = changes.map(([id]) => String(id));
    raiseEvent(
      { db: this.db, ids: this.ids, clock: this.clock },
      { contractId, event: TOPPING_CONDITIONS_EVENT, action: 'updated', payload: { storeId: String(storeId), toppingIds }, cause: { entity: 'topping', ids: toppingIds } },
    );
  }
}

import { formatDecimal, sumDecimals } from '../server/domain/money.js';
import type { SyncContext } from './context.js';
import { entityNamed, type SyncRecord } from './entities.js';
import { ChangeLog } from './change-log.js';
import { dialectOf } from '../server/db/engine.js';

/** The member columns that follow the member's point movements instead of the last writer. */
type Balances = Record<'point' | 'mile', string>;

export const MEMBER_ENTITY = 'customer';
export const MOVEMENT_ENTITY = 'customer_point_movement';
/** Stock rows a statement upserts at most (7 values each). */
const UPSERT_ROWS = 100;

/** A store's quantity of a product, and its movements (server/inventory/stock/movements.ts). */
export const STOCK_ENTITY = 'stock';
export const STOCK_MOVEMENT_ENTITY = 'stock_movement';

/**
 * A master whose balance columns merge by movements, never by last writer wins: two stores (or a
 * store and head office) that both move the balance while apart must add up, not lose one side.
 * Every balance change is a recorded movement (a sales record, written once, pushed by the store
 * that made it), and the record's balance change is reported balance-only, so:
 * - central keeps its own balance when the record's row is pushed (a new record starts at zero),
 *   and adds each pushed movement's deltas to it, logging a `balance` entry for the stores;
 * - a store takes central's balance when it pulls the record, plus its own movements still in the
 *   outbox (central has not counted them yet), whatever the row's HLC says about other fields.
 */
interface BalanceMerge {
  /** The balanced master's registry name, and its movements'. */
  readonly entity: string;
  readonly movement: string;
  /** Central: a pushed row of the record with central's balances (zero for a new record). */
  atCentral(contractId: string, id: string, record: SyncRecord): SyncRecord;
  /** Central: a pushed movement was just written; the record's balance takes its deltas. Answers the record's id. */
  movementArrived(contractId: string, movement: Record<string, unknown>): string;
  /** Central: movementArrived for each, in order, with fewer statements when it can. Answers the records' ids. */
  movementsArrived?(contractId: string, movements: readonly Record<string, unknown>[]): string[];
  /** Central: a `balance` entry of the record, which every store applies to the balance only. */
  logBalance(contractId: string, id: string): void;
  /** Central: logBalance for each, in order, with fewer statements when it can. */
  logBalances?(contractId: string, ids: readonly string[]): void;
  /** A store: a pulled row, its balances central's plus the store's movements not yet counted. */
  atStore(contractId: string, id: string, record: SyncRecord): SyncRecord;
  /** A store: a pulled balance entry (or a row whose other fields lost) sets the balance. */
  refreshAtStore(contractId: string, id: string, record: SyncRecord): void;
}

/** A member's point and mile balances (customers.point, customers.mile) and customer_point_movements. */
export class PointBalances implements BalanceMerge {
  readonly entity = MEMBER_ENTITY;
  readonly movement = MOVEMENT_ENTITY;
  private readonly log;
  private readonly balanceOf;
  private readonly setBalance;
  private readonly pending;
  private readonly member = entityNamed(MEMBER_ENTITY)!;

  constructor(private readonly ctx: SyncContext) {
    const { db } = ctx.deps;
    this.log = new ChangeLog(ctx);
    this.balanceOf = db.prepare('SELECT point, mile FROM customers WHERE contract_id = ? AND customer_id = ?');
    this.setBalance = db.prepare('UPDATE customers SET point = ?, mile = ? WHERE contract_id = ? AND customer_id = ?');
    this.pending = db.prepare(
      `SELECT m.point_delta, m.mile_delta FROM outbox o
         JOIN customer_point_movements m ON m.contract_id = o.contract_id AND m.movement_id = ${dialectOf(db).integerOf('o.entity_id')}
        WHERE o.contract_id = ? AND o.entity = '${MOVEMENT_ENTITY}' AND m.customer_id = ?`,
    );
  }

  atCentral(contractId: string, id: string, record: SyncRecord): SyncRecord {
    const current = this.balanceOf.get(contractId, id) as Balances | undefined;
    return withBalances(record, current ?? { point: '0', mile: '0' });
  }

  movementArrived(contractId: string, movement: Record<string, unknown>): string {
    const customerId = String(movement.customer_id);
    const current = this.balanceOf.get(contractId, customerId) as Balances | undefined;
    if (!current) throw new RangeError(`member ${customerId} does not exist here`);
    const next = {
      point: sumDecimals([current.point, String(movement.point_delta ?? '0')]),
      mile: sumDecimals([current.mile, String(movement.mile_delta ?? '0')]),
    };
    this.setBalance.run(next.point, next.mile, contractId, customerId);
    return customerId;
  }

  /**
   * Every store pulls a balance entry (origin 0), the one whose movement it counts included: the
   * balance it pulled before may predate the movement.
   */
  logBalance(contractId: string, customerId: string): void {
    this.log.append(contractId, MEMBER_ENTITY, customerId, 'balance', this.ctx.hlc.now(), 0, this.ctx.records.read(this.member, contractId, customerId));
  }

  atStore(contractId: string, id: string, record: SyncRecord): SyncRecord {
    const rows = this.pending.all(contractId, id) as { point_delta: string; mile_delta: string }[];
    const pulled = record.row as Partial<Balances>;
    return withBalances(record, {
      point: sumDecimals([pulled.point ?? '0', ...rows.map((r) => r.point_delta)]),
      mile: sumDecimals([pulled.mile ?? '0', ...rows.map((r) => r.mile_delta)]),
    });
  }

  refreshAtStore(contractId: string, id: string, record: SyncRecord): void {
    const { row } = this.atStore(contractId, id, record);
    this.setBalance.run(row.point, row.mile, contractId, id);
  }
}

function withBalances(record: SyncRecord, balances: Balances): SyncRecord {
  return { ...record, row: { ...record.row, point: formatDecimal(balances.point), mile: formatDecimal(balances.mile) } };
}

/**
 * A store's quantity of a product (stock.stock_amount, id `store/product`) and stock_movements;
 * the laid-away quantity (stock.layaway_stock_amount, layaways) merges the same way by each
 * movement's layaway_delta.
 * Unlike a member, the quantity row has no other field to edit and is created by its first
 * movement, at whichever instance makes it: central creates it when a pushed movement arrives
 * first, and a store creates it when it pulls central's quantity first.
 */
export class StockBalances implements BalanceMerge {
  readonly entity = STOCK_ENTITY;
  readonly movement = STOCK_MOVEMENT_ENTITY;
  private readonly log;
  private readonly amountOf;
  private readonly amountsOf;
  private readonly rowsOf;
  private readonly upserts = new Map<number, ReturnType<SyncContext['deps']['db']['prepare']>>();
  private readonly upsert;
  private readonly pending;
  private readonly stock = entityNamed(STOCK_ENTITY)!;

  constructor(private readonly ctx: SyncContext) {
    const { db } = ctx.deps;
    this.log = new ChangeLog(ctx);
    this.amountOf = db.prepare('SELECT stock_amount, layaway_stock_amount FROM stock WHERE contract_id = ? AND store_id = ? AND product_id = ?');
    this.rowsOf = db.prepare(`SELECT * FROM stock WHERE contract_id = ? AND store_id = ? AND product_id ${dialectOf(db).inJsonKeys('integer')}`);
    this.amountsOf = db.prepare(
      `SELECT product_id, stock_amount, layaway_stock_amount FROM stock WHERE contract_id = ? AND store_id = ? AND product_id ${dialectOf(db).inJsonKeys('integer')}`,
    );
    this.upsert = db.prepare(
      `INSERT INTO stock (contract_id, store_id, product_id, stock_amount, layaway_stock_amount, ins_at, upd_at)
       VALUES (@contractId, @storeId, @productId, @amount, @layaway, @now, @now)
       ON CONFLICT (contract_id, store_id, product_id) DO UPDATE SET stock_amount = excluded.stock_amount,
         layaway_stock_amount = excluded.layaway_stock_amount, upd_at = excluded.upd_at`,
    );
    this.pending = db.prepare(
      `SELECT m.delta, m.layaway_delta FROM outbox o
         JOIN stock_movements m ON m.contract_id = o.contract_id AND m.movement_id = ${dialectOf(db).integerOf('o.entity_id')}
        WHERE o.contract_id = ? AND o.entity = '${STOCK_MOVEMENT_ENTITY}' AND m.store_id = ? AND m.product_id = ?`,
    );
  }

  /** The quantity and the laid-away quantity (layaways, issue 26) of a row; both 0 when it never moved. */
  private amounts(contractId: string, storeId: number, productId: number): { amount: string; layaway: string } {
    const row = this.amountOf.get(contractId, storeId, productId) as { stock_amount: string; layaway_stock_amount: string } | undefined;
    return { amount: row?.stock_amount ?? '0', layaway: row?.layaway_stock_amount ?? '0' };
  }

  private key(id: string): [number, number] {
    const [storeId, productId] = id.split('/').map(Number);
    return [storeId!, productId!];
  }

  atCentral(contractId: string, id: string, record: SyncRecord): SyncRecord {
    const current = this.amounts(contractId, ...this.key(id));
    return { ...record, row: { ...record.row, stock_amount: current.amount, layaway_stock_amount: current.layaway } };
  }

  movementArrived(contractId: string, movement: Record<string, unknown>): string {
    const storeId = Number(movement.store_id);
    const productId = Number(movement.product_id);
    const current = this.amounts(contractId, storeId, productId);
    const amount = sumDecimals([current.amount, String(movement.delta ?? '0')]);
    const layaway = sumDecimals([current.layaway, String(movement.layaway_delta ?? '0')]);
    this.upsert.run({ contractId, storeId, productId, amount, layaway, now: this.ctx.deps.clock.now().getTime() });
    return `${storeId}/${productId}`;
  }

  /**
   * A push's movements together: each store's rows read in one statement, each row's deltas summed
   * (in order, exactly as one at a time would), then the rows moved upserted in one statement.
   */
  movementsArrived(contractId: string, movements: readonly Record<string, unknown>[]): string[] {
    if (movements.length < 2) return movements.map((m) => this.movementArrived(contractId, m));
    const moved = new Map<string, { storeId: number; productId: number; amount: string[]; layaway: string[] }>();
    for (const m of movements) {
      const storeId = Number(m.store_id);
      const productId = Number(m.product_id);
      const key = `${storeId}/${productId}`;
      let entry = moved.get(key);
      if (!entry) moved.set(key, (entry = { storeId, productId, amount: [], layaway: [] }));
      entry.amount.push(String(m.delta ?? '0'));
      entry.layaway.push(String(m.layaway_delta ?? '0'));
    }
    const current = new Map<string, { stock_amount: string; layaway_stock_amount: string }>();
    const byStore = new Map<number, number[]>();
    for (const e of moved.values()) byStore.set(e.storeId, [...(byStore.get(e.storeId) ?? []), e.productId]);
    for (const [storeId, productIds] of byStore) {
      for (const row of this.amountsOf.all(contractId, storeId, JSON.stringify(productIds)) as { product_id: number; stock_amount: string; layaway_stock_amount: string }[]) {
        current.set(`${storeId}/${Number(row.product_id)}`, row);
      }
    }
    const now = this.ctx.deps.clock.now().getTime();
    const values = [...moved].map(([key, e]) => {
      const was = current.get(key);
      return [contractId, e.storeId, e.productId, sumDecimals([was?.stock_amount ?? '0', ...e.amount]), sumDecimals([was?.layaway_stock_amount ?? '0', ...e.layaway]), now, now];
    });
    for (let i = 0; i < values.length; i += UPSERT_ROWS) {
      const part = values.slice(i, i + UPSERT_ROWS);
      this.upsertRows(part.length).run(part.flat());
    }
    return [...moved.keys()];
  }

  /** The upsert of `n` stock rows in one statement (keys all different), cached per count. */
  private upsertRows(n: number) {
    let statement = this.upserts.get(n);
    if (!statement) {
      statement = this.ctx.deps.db.prepare(
        `INSERT INTO stock (contract_id, store_id, product_id, stock_amount, layaway_stock_amount, ins_at, upd_at)
         VALUES ${Array.from({ length: n }, () => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}
         ON CONFLICT (contract_id, store_id, product_id) DO UPDATE SET stock_amount = excluded.stock_amount,
           layaway_stock_amount = excluded.layaway_stock_amount, upd_at = excluded.upd_at`,
      );
      this.upserts.set(n, statement);
    }
    return statement;
  }

  /** The balance entries of several rows: each store's rows read in one statement, then one entry each, in order. */
  logBalances(contractId: string, ids: readonly string[]): void {
    if (ids.length < 2) return ids.forEach((id) => this.logBalance(contractId, id));
    const byStore = new Map<number, number[]>();
    for (const id of ids) {
      const [storeId, productId] = this.key(id);
      byStore.set(storeId, [...(byStore.get(storeId) ?? []), productId]);
    }
    const rows = new Map<string, Record<string, unknown>>();
    for (const [storeId, productIds] of byStore) {
      for (const row of this.rowsOf.all(contractId, storeId, JSON.stringify(productIds)) as Record<string, unknown>[]) rows.set(`${storeId}/${Number(row.product_id)}`, row);
    }
    // One clock run and one insert for all of them (each entry's value still its own, in order).
    const hlcs = this.ctx.hlc.nowMany(ids.length);
    this.log.appendMany(
      ids.map((id, k) => {
        const row = rows.get(id);
        return { contractId, entity: STOCK_ENTITY, id, op: 'balance', hlc: hlcs[k]!, originNode: 0, record: row ? { row } : null };
      }),
    );
  }

  logBalance(contractId: string, id: string): void {
    this.log.append(contractId, STOCK_ENTITY, id, 'balance', this.ctx.hlc.now(), 0, this.ctx.records.read(this.stock, contractId, id));
  }

  atStore(contractId: string, id: string, record: SyncRecord): SyncRecord {
    const pending = this.pending.all(contractId, ...this.key(id)) as { delta: string; layaway_delta: string }[];
    const pulled = record.row as { stock_amount?: unknown; layaway_stock_amount?: unknown };
    return {
      ...record,
      row: {
        ...record.row,
        stock_amount: sumDecimals([String(pulled.stock_amount ?? '0'), ...pending.map((m) => m.delta)]),
        layaway_stock_amount: sumDecimals([String(pulled.layaway_stock_amount ?? '0'), ...pending.map((m) => m.layaway_delta)]),
      },
    };
  }

  refreshAtStore(contractId: string, id: string, record: SyncRecord): void {
    const [storeId, productId] = this.key(id);
    const { row } = this.atStore(contractId, id, record);
    this.upsert.run({ contractId, storeId, productId, amount: row.stock_amount, layaway: row.layaway_stock_amount, now: this.ctx.deps.clock.now().getTime() });
  }
}

/**
 * Every balance that merges by movements, by registry name: the outbox, the applier and central's
 * change log ask here instead of naming each kind. Entities without balances pass through.
 */
export class MergedBalances {
  private readonly byEntity = new Map<string, BalanceMerge>();
  private readonly byMovement = new Map<string, BalanceMerge>();
  private readonly moved = new Set<string>();

  constructor(ctx: SyncContext) {
    for (const merge of [new PointBalances(ctx), new StockBalances(ctx)]) {
      this.byEntity.set(merge.entity, merge);
      this.byMovement.set(merge.movement, merge);
    }
  }

  /** Whether `entity` is a movement of a balance (its arrival at central moves the balance). */
  movesBalance(entity: string): boolean {
    return this.byMovement.has(entity);
  }

  /** Whether the master `entity` has balances that merge by movements. */
  has(entity: string): boolean {
    return this.byEntity.has(entity);
  }

  /** Central: a pushed master row keeps central's balances (others unchanged). */
  atCentral(contractId: string, entity: string, id: string, record: SyncRecord): SyncRecord {
    return this.byEntity.get(entity)?.atCentral(contractId, id, record) ?? record;
  }

  /**
   * Central: a pushed sales record was inserted; a movement moves its balance (others: nothing).
   * The balance entry waits for flush(): a batch of 500 sales of the same five products logs five
   * entries, not 2,500, so the stores pull (and count their pending movements against) far less.
   */
  movementArrived(contractId: string, entity: string, row: Record<string, unknown>): void {
    const merge = this.byMovement.get(entity);
    if (merge) this.moved.add(`${contractId}\u0000${merge.entity}\u0000${merge.movementArrived(contractId, row)}`);
  }

  /** Central: movementArrived for several inserted records of `entity`, in order (together where the balance can). */
  movementsArrived(contractId: string, entity: string, rows: readonly Record<string, unknown>[]): void {
    const merge = this.byMovement.get(entity);
    if (!merge || !rows.length) return;
    const ids = merge.movementsArrived ? merge.movementsArrived(contractId, rows) : rows.map((row) => merge.movementArrived(contractId, row));
    for (const id of ids) this.moved.add(`${contractId}\u0000${merge.entity}\u0000${id}`);
  }

  /** Central: one `balance` entry per record whose balance the movements since the last flush moved. Call in the same transaction. */
  flush(): void {
    // In the order moved, each contract's and entity's records together where the balance can.
    const groups = new Map<string, { contractId: string; entity: string; ids: string[] }>();
    for (const key of this.moved) {
      const [contractId, entity, id] = key.split('\u0000') as [string, string, string];
      const at = `${contractId}\u0000${entity}`;
      const group = groups.get(at);
      if (group) group.ids.push(id);
      else groups.set(at, { contractId, entity, ids: [id] });
    }
    this.moved.clear();
    for (const { contractId, entity, ids } of groups.values()) {
      const merge = this.byEntity.get(entity);
      if (merge?.logBalances) merge.logBalances(contractId, ids);
      else for (const id of ids) this.logBalance(contractId, entity, id);
    }
  }

  /** Central: a balance-only change of `entity` becomes a `balance` entry of the change log. */
  logBalance(contractId: string, entity: string, id: string): void {
    const merge = this.byEntity.get(entity);
    if (!merge) throw new RangeError(`${entity} has no balances`);
    merge.logBalance(contractId, id);
  }

  atStore(contractId: string, entity: string, id: string, record: SyncRecord): SyncRecord {
    return this.byEntity.get(entity)?.atStore(contractId, id, record) ?? record;
  }

  refreshAtStore(contractId: string, entity: string, id: string, record: SyncRecord): void {
    this.byEntity.get(entity)?.refreshAtStore(contractId, id, record);
  }
}

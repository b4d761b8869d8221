import { formatDecimal, sumDecimals } from '../server/domain/money.js';
import type { SyncContext } from './context.js';
import { entityNamed, type SyncRecord } from './entities.js';
import { ChangeLog } from './outbox.js';

/** The member columns that follow the member's point movements instead of the last writer. */
type Balances = Record<'point' | 'mile', string>;

export const MEMBER_ENTITY = 'customer';
export const MOVEMENT_ENTITY = 'customer_point_movement';

/**
 * A member's point and mile balances merge by movements, never by last writer wins: two stores
 * (or a store and head office) that both give or take points while apart must add up, not lose
 * one side. Every balance change is a recorded movement (customer_point_movements, a sales
 * record pushed by the store that made it), so:
 * - central keeps its own balance when a member's row is pushed (a new member starts at zero),
 *   and adds each pushed movement's deltas to it, logging the member for the other stores;
 * - a store takes central's balance when it pulls a member, plus its own movements still in the
 *   outbox (central has not counted them yet), whatever the row's HLC says about the other fields.
 */
export class PointBalances {
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
         JOIN customer_point_movements m ON m.contract_id = o.contract_id AND m.movement_id = CAST(o.entity_id AS INTEGER)
        WHERE o.contract_id = ? AND o.entity = '${MOVEMENT_ENTITY}' AND m.customer_id = ?`,
    );
  }

  /** Central: a pushed member row, its balances replaced by central's own (zero for a new member). */
  atCentral(contractId: string, id: string, record: SyncRecord): SyncRecord {
    const current = this.balanceOf.get(contractId, id) as Balances | undefined;
    return withBalances(record, current ?? { point: '0', mile: '0' });
  }

  /** Central: a pushed movement was just written; the member's balance takes its deltas. */
  movementArrived(contractId: string, movement: Record<string, unknown>): void {
    const customerId = String(movement.customer_id);
    const current = this.balanceOf.get(contractId, customerId) as Balances | undefined;
    if (!current) throw new RangeError(`member ${customerId} does not exist here`);
    const next = {
      point: sumDecimals([current.point, String(movement.point_delta ?? '0')]),
      mile: sumDecimals([current.mile, String(movement.mile_delta ?? '0')]),
    };
    this.setBalance.run(next.point, next.mile, contractId, customerId);
    this.logBalance(contractId, customerId);
  }

  /**
   * Central: a `balance` entry in the change log, which the stores apply to the member's balances
   * only, whatever its other fields and their version: a balance change never wins (or loses)
   * against an edit of the member. Every store pulls it (origin 0), the one whose movement it
   * counts included: the balance it pulled before may predate the movement.
   */
  logBalance(contractId: string, customerId: string): void {
    this.log.append(contractId, MEMBER_ENTITY, customerId, 'balance', this.ctx.hlc.now(), 0, this.ctx.records.read(this.member, contractId, customerId));
  }

  /** A store: a pulled member row, its balances central's plus the store's movements central has not counted yet. */
  atStore(contractId: string, id: string, record: SyncRecord): SyncRecord {
    const rows = this.pending.all(contractId, id) as { point_delta: string; mile_delta: string }[];
    const pulled = record.row as Partial<Balances>;
    return withBalances(record, {
      point: sumDecimals([pulled.point ?? '0', ...rows.map((r) => r.point_delta)]),
      mile: sumDecimals([pulled.mile ?? '0', ...rows.map((r) => r.mile_delta)]),
    });
  }

  /** A store: a pulled balance entry, or a member whose other fields lost to a local edit, still sets the balances. */
  refreshAtStore(contractId: string, id: string, record: SyncRecord): void {
    const { row } = this.atStore(contractId, id, record);
    this.setBalance.run(row.point, row.mile, contractId, id);
  }
}

function withBalances(record: SyncRecord, balances: Balances): SyncRecord {
  return { ...record, row: { ...record.row, point: formatDecimal(balances.point), mile: formatDecimal(balances.mile) } };
}

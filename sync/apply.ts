import { MergedBalances } from './balances.js';
import type { SyncContext } from './context.js';
import { belongsToNode, entityNamed, type EntityDef, type SyncRecord } from './entities.js';
import { compareHlc, isHlc } from './hlc.js';
import { ChangeLog } from './change-log.js';
import { Versions } from './versions.js';
import { CSV_COMPLETION_EVENT, WEBHOOK_EVENTS } from '../server/events/webhook-events.js';
import { PgQueryError } from '../server/db/pg/errors.js';

/** One synced change as it travels in a push batch or a pull page. */
export interface SyncItem {
  seq: number;
  entity: string;
  id: string;
  /** `balance`: only from central's pull, a record's new balances (a member's points, a stock quantity: sync/balances.ts). */
  op: 'insert' | 'update' | 'delete' | 'balance';
  hlc: string;
  row: SyncRecord | null;
}

/** An item the receiving side refuses: it becomes a dead letter with this reason. */
export class ItemRejected extends Error {}

export type Outcome = 'applied' | 'stale';

/** The latest valid HLC of a batch or page, which the receiver merges into its clock once. */
export const latestHlc = (items: readonly Pick<SyncItem, 'hlc'>[]): string | undefined =>
  items.reduce<string | undefined>((top, i) => (isHlc(i.hlc) && (top === undefined || i.hlc > top) ? i.hlc : top), undefined);

/**
 * Central's checks of pushed records beyond their key and node: the reason to refuse one. A
 * store's webhook event must be a subscription event of the pushing contract; callbacks (6.3)
 * go out from the instance that made the file and never travel.
 */
const PUSH_CHECKS: Record<string, (contractId: string, item: SyncItem) => string | undefined> = {
  webhook_event(contractId, item) {
    const row = item.row?.row ?? {};
    if (row.target_url !== null && row.target_url !== undefined) return 'a callback (6.3) is sent by the instance that made the file, not by central';
    if (typeof row.event !== 'string' || !SUBSCRIPTION_EVENTS.includes(row.event)) return `"${String(row.event)}" is not an event central delivers to subscriptions`;
    if (row.contract_id !== undefined && row.contract_id !== contractId) return `it belongs to contract ${String(row.contract_id)}`;
    let body: unknown;
    try {
      body = JSON.parse(String(row.body));
    } catch {
      return 'its body is not JSON';
    }
    if ((body as { contractId?: unknown } | null)?.contractId !== contractId) return `its body is not of contract ${contractId}`;
    return undefined;
  },
};

const SUBSCRIPTION_EVENTS: readonly string[] = WEBHOOK_EVENTS.filter((e) => e !== CSV_COMPLETION_EVENT);

/**
 * Masters whose versions are ordered by a rank of the row before their HLC: a version of lower
 * rank loses whatever its HLC (a conflict, logged like any other), equal ranks go by last writer
 * wins. A store-to-store shipping ranks by its status (0 → 1 sent, 2 inspecting, 3 received): a
 * step forward is a hand-off that moved stock (sent, received) or that the other store acts on,
 * and a concurrent edit made at an earlier status must not undo it (the shipping would be sent or
 * received a second time, moving its stock twice). Every instance applies the same order, so all
 * converge on the same version.
 */
const RANKS: Record<string, (row: Record<string, unknown>) => number> = {
  shipping: (row) => Number(row.status),
  storage: (row) => Number(row.status), // a completed storage (2) is not inspected or completed again
};

/**
 * Applies synced items on the receiving side, by the entity registry. Each call runs inside the
 * caller's transaction; a throw leaves the caller to roll back its savepoint and record a dead letter.
 */
export class Applier {
  private readonly versions;
  private readonly log;
  private readonly conflict;
  private readonly pendingLocal;
  private readonly balances;

  constructor(private readonly ctx: SyncContext) {
    this.balances = new MergedBalances(ctx);
    this.versions = new Versions(ctx);
    this.log = new ChangeLog(ctx);
    const db = ctx.deps.db;
    this.conflict = db.prepare(
      `INSERT INTO sync_conflicts (contract_id, entity, entity_id, winner_hlc, loser_hlc, loser_row, at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.pendingLocal = db.prepare('SELECT 1 FROM outbox WHERE contract_id = ? AND entity = ? AND entity_id = ? LIMIT 1').pluck();
  }

  /** Central: logs the balance entries of the movements applied since the last call (sync/balances.ts). */
  flushBalances(): void {
    this.balances.flush();
  }

  /** Central: an item pushed by `node`. Sales must be the node's own; masters: last writer wins (after RANKS). */
  applyPushed(contractId: string, node: number, item: SyncItem): Outcome {
    const def = this.checkPushed(contractId, node, item);
    if (def.kind === 'sales') {
      if (def.insertOnce) {
        if (item.op !== 'insert') throw new ItemRejected(`${def.name} ${item.id} is written once: ${item.op} is refused`);
        // Already here (a dead letter retried after it came again): the first copy stands.
        if (this.ctx.records.read(def, contractId, item.id)) return 'stale';
      }
      this.write(def, contractId, item);
      if (item.op === 'insert') this.balances.movementArrived(contractId, def.name, item.row!.row);
      return 'applied';
    }
    const local = this.versions.get(contractId, def.name, item.id);
    const verdict = this.verdict(contractId, def, local, item);
    if (verdict === 'local') {
      this.recordLoser(contractId, def, item.id, local!, item.hlc, item.row);
      return 'stale';
    }
    if (verdict === 'overruled') this.recordLoser(contractId, def, item.id, item.hlc, local!, this.ctx.records.read(def, contractId, item.id));
    const applied = item.row ? { ...item, row: this.balances.atCentral(contractId, def.name, item.id, item.row) } : item;
    this.write(def, contractId, applied);
    this.versions.set(contractId, def.name, item.id, item.hlc);
    this.log.append(contractId, def.name, item.id, item.op, item.hlc, node, applied.row);
    return 'applied';
  }

  /** Central: why a pushed item is refused before it is written (ItemRejected), else its entity. */
  private checkPushed(contractId: string, node: number, item: SyncItem): EntityDef {
    const def = this.check(item);
    if (item.op === 'balance') throw new ItemRejected('balances are not pushed: their movements are');
    if (def.kind === 'sales' && !belongsToNode(item.id, node)) {
      throw new ItemRejected(`${def.name} ${item.id} was not made by node ${node}: its id must end in ${String(node).padStart(3, '0')}`);
    }
    if (def.kind === 'sales') {
      const refusal = PUSH_CHECKS[def.name]?.(contractId, item);
      if (refusal) throw new ItemRejected(`${def.name} ${item.id}: ${refusal}`);
    }
    return def;
  }

  /**
   * Central: the entity when a pushed item may be applied with others of its entity by
   * applyPushedMany: an insert or update of a single-key sales record, or the insert of one
   * written once (a movement, a webhook event: what is here already stays, as applyPushed keeps
   * it). Anything else goes through applyPushed alone.
   */
  manyEntity(item: Pick<SyncItem, 'entity' | 'op'>): EntityDef | undefined {
    const def = entityNamed(item.entity);
    if (!def || def.kind !== 'sales' || def.keys.length !== 1) return undefined;
    if (def.insertOnce) return item.op === 'insert' ? def : undefined;
    if (this.balances.movesBalance(def.name)) return undefined;
    return item.op === 'insert' || item.op === 'update' ? def : undefined;
  }

  /**
   * Central: pushed items of one manyEntity, each id once, as applyPushed would apply them one
   * after the other, with the records written together (RecordStore.writeMany) and a movement's
   * balances moved together (MergedBalances.movementsArrived). Answers, per item, the reason
   * applyPushed would have refused it with (not written) or undefined (applied, or a record
   * written once that is here already). A write that fails throws: the caller rolls back and
   * applies the items one by one, so that only the item at fault becomes a dead letter.
   */
  applyPushedMany(contractId: string, node: number, def: EntityDef, items: readonly SyncItem[]): (string | undefined)[] {
    const reasons = items.map((item) => {
      if (item.entity !== def.name || this.manyEntity(item) !== def) throw new RangeError(`${item.entity} ${item.op} is applied alone`);
      try {
        this.checkPushed(contractId, node, item);
        return undefined;
      } catch (error) {
        if (error instanceof ItemRejected) return error.message;
        throw error;
      }
    });
    let fresh = items.filter((_, k) => reasons[k] === undefined);
    if (def.insertOnce && fresh.length) {
      // Already here (a dead letter retried after it came again): the first copy stands.
      const here = this.ctx.records.readCompactMany(def, contractId, fresh.map((item) => item.id));
      fresh = fresh.filter((item) => !here.has(item.id));
    }
    this.ctx.records.writeMany(
      def,
      contractId,
      fresh.map((item) => ({ id: item.id, record: item.row! })),
    );
    this.balances.movementsArrived(
      contractId,
      def.name,
      fresh.map((item) => item.row!.row),
    );
    return reasons;
  }

  /**
   * A store: a master pulled from central. A local version at least as new (an edit still in the
   * outbox; by RANKS first) is kept; central will take it when it is pushed. A pending local edit
   * that loses is logged, and so is a later local version overruled by rank.
   */
  applyPulled(contractId: string, item: SyncItem): Outcome {
    const def = this.check(item);
    if (def.kind !== 'master') throw new ItemRejected(`${def.name} is not a master record; central does not send those`);
    if (item.op === 'balance') {
      // Balances follow central whatever the record's other fields do: no version, no conflict.
      if (!this.balances.has(def.name)) throw new ItemRejected(`${def.name} has no balances`);
      this.balances.refreshAtStore(contractId, def.name, item.id, item.row!);
      return 'applied';
    }
    const local = this.versions.get(contractId, def.name, item.id);
    const balanced = this.balances.has(def.name) && item.row !== null;
    const verdict = this.verdict(contractId, def, local, item);
    if (verdict === 'local') {
      if (balanced) this.balances.refreshAtStore(contractId, def.name, item.id, item.row!);
      this.recordLoser(contractId, def, item.id, local!, item.hlc, item.row);
      return 'stale';
    }
    if (verdict === 'overruled' || (local !== undefined && this.pendingLocal.get(contractId, def.name, item.id))) {
      this.recordLoser(contractId, def, item.id, item.hlc, local!, this.ctx.records.read(def, contractId, item.id));
    }
    this.write(def, contractId, balanced ? { ...item, row: this.balances.atStore(contractId, def.name, item.id, item.row!) } : item);
    this.versions.set(contractId, def.name, item.id, item.hlc);
    return 'applied';
  }

  /**
   * Which version stands: `local` (HLC `local`) or the incoming one. For the masters RANKS lists
   * the higher rank wins first (a delete, or a record gone here, has no rank): `overruled` when
   * the incoming one wins so over a later local HLC, whose edit is then lost (a conflict). Then by
   * HLC: a later one wins; the same one is already here.
   */
  private verdict(contractId: string, def: EntityDef, local: string | undefined, item: SyncItem): 'local' | 'incoming' | 'overruled' {
    if (local === undefined) return 'incoming';
    const later = compareHlc(local, item.hlc) >= 0 ? 'local' : 'incoming';
    const rank = RANKS[def.name];
    const here = rank && item.row ? this.ctx.records.read(def, contractId, item.id) : null;
    if (!rank || !here || !item.row) return later;
    const diff = rank(here.row) - rank(item.row.row);
    if (diff === 0 || Number.isNaN(diff)) return later;
    if (diff > 0) return 'local';
    return later === 'local' ? 'overruled' : 'incoming';
  }

  private check(item: SyncItem): EntityDef {
    const def = entityNamed(item.entity);
    if (!def) throw new ItemRejected(`unknown entity "${item.entity}"`);
    if (!isHlc(item.hlc)) throw new ItemRejected(`"${item.hlc}" is not an HLC value`);
    if (item.op !== 'delete' && (item.row === null || typeof item.row !== 'object' || typeof item.row.row !== 'object' || item.row.row === null)) {
      throw new ItemRejected(`${item.op} of ${def.name} ${item.id} carries no row`);
    }
    return def;
  }

  private write(def: EntityDef, contractId: string, item: SyncItem): void {
    try {
      if (item.op === 'delete') this.ctx.records.remove(def, contractId, item.id);
      else this.ctx.records.write(def, contractId, item.id, item.row!);
    } catch (error) {
      throw new ItemRejected(`${def.name} ${item.id} cannot be written: ${writeFailure(error)}`);
    }
  }

  private recordLoser(contractId: string, def: EntityDef, id: string, winner: string, loser: string, row: SyncRecord | null): void {
    this.conflict.run(contractId, def.name, id, winner, loser, row && JSON.stringify(row), this.ctx.deps.clock.now().getTime());
  }
}

/** PostgreSQL's integrity violations (SQLSTATE class 23), named as SQLite names them. */
const CONSTRAINT_KINDS: Readonly<Record<string, string>> = { '23503': 'FOREIGN KEY', '23505': 'UNIQUE', '23502': 'NOT NULL', '23514': 'CHECK' };

/**
 * Why a record could not be written, in the same words on both engines, so a dead letter reads
 * alike whichever database central runs on: SQLite's own message, or for PostgreSQL's constraint
 * violations SQLite's words with the constraint's name (its message repeats the statement).
 */
function writeFailure(error: unknown): string {
  const kind = error instanceof PgQueryError && error.code ? CONSTRAINT_KINDS[error.code] : undefined;
  if (!kind) return (error as Error).message;
  // SQLite names no foreign key; the others it names by table.column or constraint.
  return kind === 'FOREIGN KEY' || !(error as PgQueryError).constraint ? `${kind} constraint failed` : `${kind} constraint failed: ${(error as PgQueryError).constraint}`;
}

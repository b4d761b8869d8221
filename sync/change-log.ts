import type { SyncContext } from './context.js';
import type { SyncRecord } from './entities.js';

/** Rows a change-log insert carries at most (8 parameters each). */
const APPEND_ROWS = 100;

export interface ChangeLogEntry {
  contractId: string;
  entity: string;
  id: string;
  op: string;
  hlc: string;
  originNode: number;
  record: SyncRecord | null;
}

/**
 * Central's log of master changes, pulled by the stores in commit order (CentralSync.pull). On
 * PostgreSQL each row's txid and txid_floor come from the columns' defaults (migration 0043).
 */
export class ChangeLog {
  private readonly insert;
  private readonly inserts = new Map<number, ReturnType<SyncContext['deps']['db']['prepare']>>();

  constructor(private readonly ctx: SyncContext) {
    this.insert = ctx.deps.db.prepare(
      `INSERT INTO change_log (contract_id, entity, entity_id, op, hlc, origin_node, row, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  append(contractId: string, entity: string, id: string, op: string, hlc: string, originNode: number, record: SyncRecord | null): void {
    this.insert.run(contractId, entity, id, op, hlc, originNode, record && JSON.stringify(record), this.ctx.deps.clock.now().getTime());
  }

  /** Several entries in the order given (their seq in that order), in one statement per APPEND_ROWS: one round trip on PostgreSQL rather than one each. */
  appendMany(entries: readonly ChangeLogEntry[]): void {
    if (entries.length === 1) {
      const e = entries[0]!;
      return this.append(e.contractId, e.entity, e.id, e.op, e.hlc, e.originNode, e.record);
    }
    const now = this.ctx.deps.clock.now().getTime();
    for (let i = 0; i < entries.length; i += APPEND_ROWS) {
      const part = entries.slice(i, i + APPEND_ROWS);
      this.insertRows(part.length).run(part.flatMap((e) => [e.contractId, e.entity, e.id, e.op, e.hlc, e.originNode, e.record && JSON.stringify(e.record), now]));
    }
  }

  /** The insert of `n` entries in one statement, cached per count. */
  private insertRows(n: number) {
    let statement = this.inserts.get(n);
    if (!statement) {
      statement = this.ctx.deps.db.prepare(
        `INSERT INTO change_log (contract_id, entity, entity_id, op, hlc, origin_node, row, created_at) VALUES ${Array.from({ length: n }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      );
      this.inserts.set(n, statement);
    }
    return statement;
  }
}

import type { SyncContext } from './context.js';
import type { SyncRecord } from './entities.js';

/**
 * Central's log of master changes, pulled by the stores in commit order (CentralSync.pull). On
 * PostgreSQL each row's txid and txid_floor come from the columns' defaults (migration 0043).
 */
export class ChangeLog {
  private readonly insert;

  constructor(private readonly ctx: SyncContext) {
    this.insert = ctx.deps.db.prepare(
      `INSERT INTO change_log (contract_id, entity, entity_id, op, hlc, origin_node, row, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  append(contractId: string, entity: string, id: string, op: string, hlc: string, originNode: number, record: SyncRecord | null): void {
    this.insert.run(contractId, entity, id, op, hlc, originNode, record && JSON.stringify(record), this.ctx.deps.clock.now().getTime());
  }
}

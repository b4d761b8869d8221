import type { SyncContext } from './context.js';

/** Each master record's current HLC version on this instance. */
export class Versions {
  private readonly getStmt;
  private readonly setStmt;

  constructor(ctx: SyncContext) {
    this.getStmt = ctx.deps.db.prepare('SELECT hlc FROM sync_versions WHERE contract_id = ? AND entity = ? AND entity_id = ?').pluck();
    this.setStmt = ctx.deps.db.prepare(
      `INSERT INTO sync_versions (contract_id, entity, entity_id, hlc) VALUES (?, ?, ?, ?)
       ON CONFLICT (contract_id, entity, entity_id) DO UPDATE SET hlc = excluded.hlc`,
    );
  }

  get(contractId: string, entity: string, id: string): string | undefined {
    return this.getStmt.get(contractId, entity, id) as string | undefined;
  }

  set(contractId: string, entity: string, id: string, hlc: string): void {
    this.setStmt.run(contractId, entity, id, hlc);
  }
}

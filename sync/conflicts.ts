import type { SyncContext } from './context.js';
import type { SyncRecord } from './entities.js';

export interface Conflict {
  conflictId: number;
  entity: string;
  id: string;
  winnerHlc: string;
  loserHlc: string;
  /** The version that lost, as it was (null: it was a delete, or the local side had none). */
  loser: SyncRecord | null;
  at: number;
}

interface ConflictRow {
  conflict_id: number;
  entity: string;
  entity_id: string;
  winner_hlc: string;
  loser_hlc: string;
  loser_row: string | null;
  at: number;
}

/**
 * The conflict log (DESIGN §5): a master version that lost to a later HLC, on either side. Read
 * newest first, optionally for one record (its history of lost edits).
 */
export class ConflictLog {
  constructor(private readonly ctx: SyncContext) {}

  list(contractId: string, filter: { entity?: string; id?: string; limit: number; page: number }): Conflict[] {
    const rows = this.ctx.deps.db
      .prepare(
        `SELECT * FROM sync_conflicts
          WHERE contract_id = @contractId AND (CAST(@entity AS TEXT) IS NULL OR entity = @entity) AND (CAST(@id AS TEXT) IS NULL OR entity_id = @id)
          ORDER BY conflict_id DESC LIMIT @limit OFFSET @offset`,
      )
      .all({ contractId, entity: filter.entity ?? null, id: filter.id ?? null, limit: filter.limit, offset: (filter.page - 1) * filter.limit }) as ConflictRow[];
    return rows.map((r) => ({
      conflictId: r.conflict_id,
      entity: r.entity,
      id: r.entity_id,
      winnerHlc: r.winner_hlc,
      loserHlc: r.loser_hlc,
      loser: r.loser_row === null ? null : (JSON.parse(r.loser_row) as SyncRecord),
      at: r.at,
    }));
  }
}

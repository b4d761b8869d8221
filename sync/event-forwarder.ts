import { WEBHOOK_EVENT_ENTITY } from '../server/events/webhook-events.js';
import type { SyncContext } from './context.js';
import { entityNamed } from './entities.js';
import { dialectOf } from '../server/db/engine.js';

/**
 * DESIGN §5: a linked store's webhook events ride the push and central delivers them (one sender
 * for the receivers to trust); an unlinked store delivers its own. The subscription events (6.1,
 * 6.2) of a contract linked to central that this store has not yet fanned out are put in the outbox
 * (entity `webhook_event`, insert) and marked fanned out, so this store's worker never sends them;
 * the worker's fan-out also leaves linked contracts' subscription events alone (webhooks/deliveries.ts).
 * Callbacks (6.3) always go out from here. Runs in the change hook, i.e. in the transaction that
 * raised the events, and before each push for events raised without a reported change or before
 * the link. Call it inside Writer.write.
 */
export class EventForwarder {
  private readonly pending;
  private readonly mark;
  private readonly insert;
  private readonly def = entityNamed(WEBHOOK_EVENT_ENTITY)!;

  constructor(private readonly ctx: SyncContext) {
    const { db } = ctx.deps;
    const sql = dialectOf(db);
    // Through the partial index of events not fanned out (`+` keeps the planner off the key index,
    // which would read every event of a linked contract on every change).
    this.pending = db.prepare(
      `SELECT contract_id, event_id FROM webhook_events
       WHERE fanned_out = 0 AND target_url IS NULL AND ${sql.unindexed('contract_id')} IN (SELECT contract_id FROM sync_links)
       ORDER BY created_at, ${sql.integerOf('event_id')}`,
    );
    this.mark = db.prepare('UPDATE webhook_events SET fanned_out = 1 WHERE contract_id = ? AND event_id = ?');
    this.insert = db.prepare(
      `INSERT INTO outbox (node, contract_id, entity, entity_id, op, hlc, row, created_at) VALUES (?, ?, ?, ?, 'insert', ?, ?, ?)`,
    );
  }

  /** Whether any event waits to be forwarded (looked at before taking the write lock). */
  waiting(): boolean {
    return this.pending.get() !== undefined;
  }

  /** Forwards every waiting event; returns how many. */
  forward(): number {
    const rows = this.pending.all() as { contract_id: string; event_id: string }[];
    const now = this.ctx.deps.clock.now().getTime();
    for (const r of rows) {
      const record = this.ctx.records.read(this.def, r.contract_id, r.event_id);
      this.insert.run(this.ctx.node, r.contract_id, this.def.name, r.event_id, this.ctx.hlc.now(), JSON.stringify(record), now);
      this.mark.run(r.contract_id, r.event_id);
    }
    return rows.length;
  }
}

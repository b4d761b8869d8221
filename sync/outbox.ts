import type { AppDeps } from '../server/deps.js';
import type { Change } from '../server/db/write.js';
import { MergedBalances } from './balances.js';
import { syncContext, type SyncContext } from './context.js';
import { entityNamed, type EntityDef, type SyncRecord } from './entities.js';
import { WEBHOOK_EVENT_ENTITY } from '../server/events/webhook-events.js';

/**
 * The outbox seam (DESIGN §5). `writer.onChange` hooks run inside the write's transaction, so a
 * change and its sync row commit together or not at all.
 *
 * - A store records every synced change (sales and masters) in `outbox`, linked or not: sales
 *   made before the link are pushed when it comes. seq (AUTOINCREMENT, never reused) is the
 *   node's push sequence.
 * - Central records its own master edits in `change_log`, which the stores pull.
 * Both keep each master's current HLC version in `sync_versions` (last writer wins).
 */
const installed = new WeakSet<AppDeps>();

export function installSyncHooks(deps: AppDeps, options: { recordRole?: boolean } = {}): SyncContext {
  const ctx = syncContext(deps);
  if (installed.has(deps)) return ctx;
  installed.add(deps);
  const { db } = deps;
  const versions = new Versions(ctx);
  // One-shot commands on this data dir write their sync rows as the server does (cli: sync-cli.ts).
  if (options.recordRole !== false) deps.writer.write(() => {
    const before = db.prepare('SELECT role FROM sync_instance WHERE id = 1').pluck().get();
    // One-shot commands on a never-served data dir write as a store (cli.ts prepareCliDeps). Served
    // first as central instead, it has no outbox to push: its records join the change log through
    // central's seeding, which takes every master without a version.
    if (before === undefined && deps.config.role === 'central') {
      db.prepare('DELETE FROM outbox').run();
      db.prepare('DELETE FROM sync_versions').run();
    }
    db.prepare('INSERT INTO sync_instance (id, role) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET role = excluded.role').run(deps.config.role);
  });
  if (deps.config.role === 'store') {
    const insert = db.prepare(
      `INSERT INTO outbox (node, contract_id, entity, entity_id, op, hlc, row, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const events = new EventForwarder(ctx);
    deps.writer.onChange((change) => {
      const def = entityNamed(change.entity);
      // A balance-only change travels as its movement (sync/balances.ts), not as the row.
      if (def && def.name !== WEBHOOK_EVENT_ENTITY && !change.balanceOnly) {
        const hlc = ctx.hlc.now();
        if (def.kind === 'sales' && change.op !== 'delete') {
          // A sales record travels as it stands when it is pushed (its latest state: settled,
          // closed...), read by the agent then: a closing of 20,000 sales then adds 20,000 small
          // rows to its transaction instead of reading and serialising each sale again.
          insert.run(ctx.node, change.contractId, def.name, change.id, change.op, hlc, null, deps.clock.now().getTime());
        } else {
          const record = readForSync(ctx, def, change);
          insert.run(ctx.node, change.contractId, def.name, change.id, opOf(change, record), hlc, record && JSON.stringify(record), deps.clock.now().getTime());
        }
        if (def.kind === 'master') versions.set(change.contractId, def.name, change.id, hlc);
      }
      // The transaction's webhook events (raised before its hooks run) follow their cause when linked.
      events.forward();
    });
  } else {
    const log = new ChangeLog(ctx);
    const balances = new MergedBalances(ctx);
    deps.writer.onChange((change) => {
      const def = entityNamed(change.entity);
      if (!def || def.kind !== 'master') return;
      // A balance-only change is a balance entry: it neither wins nor loses against an edit of
      // the record's other fields (sync/balances.ts).
      if (change.balanceOnly) return balances.logBalance(change.contractId, def.name, change.id);
      const hlc = ctx.hlc.now();
      const record = readForSync(ctx, def, change);
      log.append(change.contractId, def.name, change.id, opOf(change, record), hlc, 0, record);
      versions.set(change.contractId, def.name, change.id, hlc);
    });
  }
  return ctx;
}

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
    // Through the partial index of events not fanned out (`+` keeps the planner off the key index,
    // which would read every event of a linked contract on every change).
    this.pending = db.prepare(
      `SELECT contract_id, event_id FROM webhook_events
       WHERE fanned_out = 0 AND target_url IS NULL AND +contract_id IN (SELECT contract_id FROM sync_links)
       ORDER BY created_at, CAST(event_id AS INTEGER)`,
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

/** The record as committed; a record gone by the end of the transaction travels as a delete. */
function readForSync(ctx: SyncContext, def: EntityDef, change: Change): SyncRecord | null {
  return change.op === 'delete' ? null : ctx.records.read(def, change.contractId, change.id);
}

const opOf = (change: Change, record: SyncRecord | null): Change['op'] => (record === null ? 'delete' : change.op);

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

/** Central's log of master changes, pulled by the stores by seq. */
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

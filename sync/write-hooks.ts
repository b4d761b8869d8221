import type { AppDeps } from '../server/deps.js';
import type { Change } from '../server/db/write.js';
import { WEBHOOK_EVENT_ENTITY } from '../server/events/webhook-events.js';
import { MergedBalances } from './balances.js';
import { ChangeLog } from './change-log.js';
import { syncContext, type SyncContext } from './context.js';
import { entityNamed, type EntityDef, type SyncRecord } from './entities.js';
import { EventForwarder } from './event-forwarder.js';
import { Versions } from './versions.js';

/** The deps whose writer has the hooks: installing twice installs once. */
const installed = new WeakSet<AppDeps>();

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
export function installSyncHooks(deps: AppDeps, options: { recordRole?: boolean } = {}): SyncContext {
  const ctx = syncContext(deps);
  if (installed.has(deps)) return ctx;
  installed.add(deps);
  const { db } = deps;
  const versions = new Versions(ctx);
  // One-shot commands on this data dir write their sync rows as the server does (cli.ts prepareCliDeps).
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

/** The record as committed; a record gone by the end of the transaction travels as a delete. */
function readForSync(ctx: SyncContext, def: EntityDef, change: Change): SyncRecord | null {
  return change.op === 'delete' ? null : ctx.records.read(def, change.contractId, change.id);
}

const opOf = (change: Change, record: SyncRecord | null): Change['op'] => (record === null ? 'delete' : change.op);

import type { AppDeps } from '../deps.js';
import { deleteExpiredExportFiles } from './csv-export/downloads.js';
import { claimJobSlot, daySlot, JOB_RUNS_KEPT_MS, type SlotClaim } from './job-runs.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long finished housekeeping records are kept (issue 11 item 8). What is still open is never
 * removed: pending or dead webhook deliveries inside their window stay replayable, open dead
 * letters stay until someone retries or discards them, and the idempotency keys of sales and point
 * additions are kept for good (a retried request must never count twice, however late it comes).
 * Expired access tokens are purged whenever a token is issued (platform/auth/repo.ts).
 */
export interface Retention {
  /** Delivered webhook deliveries (and events with no delivery left), after delivery. */
  deliveredWebhooksMs: number;
  /** Dead webhook deliveries: replayable (API + CLI) for this long. */
  deadWebhooksMs: number;
  /** Dead letters that were retried or discarded, after that. */
  resolvedDeadLettersMs: number;
  /** Lost master versions (last writer wins), kept for the record. */
  conflictsMs: number;
}

export const DEFAULT_RETENTION: Retention = {
  deliveredWebhooksMs: 30 * DAY_MS,
  deadWebhooksMs: 90 * DAY_MS,
  resolvedDeadLettersMs: 90 * DAY_MS,
  conflictsMs: 180 * DAY_MS,
};

export type CleanupCounts = Record<'webhookDeliveries' | 'webhookEvents' | 'deadLetters' | 'syncConflicts' | 'exportFiles', number>;

/**
 * One pass of the clean-up, in one transaction: how many rows of each kind went; then the CSV
 * export files whose download URL expired (files, outside the transaction: jobs/csv-export).
 */
export function runCleanup(deps: Pick<AppDeps, 'db' | 'writer'>, now: Date, retention: Retention = DEFAULT_RETENTION): CleanupCounts {
  const at = now.getTime();
  const rows = deps.writer.write(() => removeRows(deps, at, retention));
  return { ...rows, exportFiles: deleteExpiredExportFiles(deps, at) };
}

/**
 * The nightly clean-up (jobs/schedules.ts): runCleanup once for the night of `now` across the
 * processes sharing the database (several central processes each fire it): the night's slot is
 * claimed in the clean-up's transaction (jobs/job-runs.ts). Answers the counts when this process
 * ran it, else whether another one has ('done') or is running it right now ('running': look again
 * later, it may fail).
 */
export function runNightlyCleanup(
  deps: Pick<AppDeps, 'db' | 'writer'>,
  now: Date,
  retention: Retention = DEFAULT_RETENTION,
): { ran: CleanupCounts } | { skipped: Exclude<SlotClaim, 'run'> } {
  const at = now.getTime();
  const rows = deps.writer.write(() => {
    const claim = claimJobSlot(deps, 'cleanup', daySlot(now), at);
    return claim === 'run' ? removeRows(deps, at, retention) : claim;
  });
  if (typeof rows === 'string') return { skipped: rows };
  return { ran: { ...rows, exportFiles: deleteExpiredExportFiles(deps, at) } };
}

function removeRows({ db }: Pick<AppDeps, 'db'>, at: number, retention: Retention): Omit<CleanupCounts, 'exportFiles'> {
  // The scheduled jobs' past slots (job-runs.ts): bookkeeping, not counted.
  db.prepare('DELETE FROM job_runs WHERE started_at < ?').run(at - JOB_RUNS_KEPT_MS);
  return {
    webhookDeliveries:
      db.prepare("DELETE FROM webhook_deliveries WHERE status = 'delivered' AND delivered_at < ?").run(at - retention.deliveredWebhooksMs).changes +
      db.prepare("DELETE FROM webhook_deliveries WHERE status = 'dead' AND updated_at < ?").run(at - retention.deadWebhooksMs).changes,
    // An event goes once it was handed on (fanned out), none of its deliveries is left and, on a
    // linked store, the outbox no longer holds it for central (a store may be offline for long).
    webhookEvents: db
      .prepare(
        `DELETE FROM webhook_events WHERE fanned_out = 1 AND created_at < ?
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.contract_id = webhook_events.contract_id AND d.event_id = webhook_events.event_id)
           AND event_id NOT IN (SELECT entity_id FROM outbox WHERE entity = 'webhook_event')`,
      )
      .run(at - retention.deliveredWebhooksMs).changes,
    deadLetters: db.prepare("DELETE FROM dead_letters WHERE status <> 'open' AND resolved_at < ?").run(at - retention.resolvedDeadLettersMs).changes,
    syncConflicts: db.prepare('DELETE FROM sync_conflicts WHERE at < ?').run(at - retention.conflictsMs).changes,
  };
}

import type { AppDeps } from '../deps.js';
import { dialectOf } from '../db/engine.js';

/**
 * Scheduled jobs once across processes (issue 24): several central processes on one database
 * each fire the same schedule, and the job's slot (its night: 'cleanup', '2026-11-27') in
 * job_runs says who runs it. Inside the job's own write transaction, before its work:
 * - 'run': this transaction holds the job's lock and has inserted the slot; the job runs, and its
 *   commit marks the slot done (a rollback frees it again);
 * - 'done': the slot's row is there, another process (or an earlier fire) ran the job;
 * - 'running': another process's transaction holds the job's lock right now (it fired in the same
 *   second): skip for now and look again later, when it has either committed ('done') or failed.
 * The lock is taken without waiting (dialect tryLockOf), so a process never stands still behind
 * another's long job, and the insert never waits either: whoever inserted the slot held the lock,
 * so its transaction has ended. On SQLite the write transaction is the lock (one writer).
 */
export type SlotClaim = 'run' | 'done' | 'running';

type Deps = Pick<AppDeps, 'db'>;

export function claimJobSlot(deps: Deps, job: string, slot: string, at: number): SlotClaim {
  const { db } = deps;
  if (!db.inTransaction) throw new Error(`job ${job}: claimJobSlot() must be called inside Writer.write`);
  const dialect = dialectOf(db);
  const { locked } = db.prepare(dialect.tryLockOf(`job_${job}`)).get() as { locked: number };
  if (locked !== 1) return 'running';
  return db.prepare(dialect.insertOrIgnore('job_runs', ['job', 'slot', 'started_at'])).run(job, slot, at).changes > 0 ? 'run' : 'done';
}

/** A daily job's slot: the date of `now` in UTC (every process of one head office fires the same night). */
export const daySlot = (now: Date): string => now.toISOString().slice(0, 10);

/** Slots are kept this long (the clean-up removes older ones): a slot is only ever asked about on its own day. */
export const JOB_RUNS_KEPT_MS = 30 * 24 * 3600_000;

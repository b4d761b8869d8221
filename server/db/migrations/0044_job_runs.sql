-- Scheduled jobs run once across central processes (issue 24): several `serve --role central`
-- processes on one database each fire the same schedule (the nightly clean-up at 03:17); the
-- first to insert the job's slot (its day: 'cleanup', '2026-11-27') in the job's own transaction
-- runs it, the others find the slot taken and skip. A second insert of the same key waits for the
-- first transaction: committed, it is taken; rolled back, the waiting one runs the job instead.
-- Bookkeeping, not business data: not synced, never in the outbox; the clean-up removes old slots.
CREATE TABLE job_runs (
  job TEXT NOT NULL,
  slot TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  PRIMARY KEY (job, slot)
) STRICT;

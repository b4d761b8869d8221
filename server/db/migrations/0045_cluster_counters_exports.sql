-- Several central processes on one database (issue 24).
--
-- The login throttle's counters (platform/auth/login-attempts.ts) when they are shared
-- (serve --rate-limit-shared): one row per key (a username in its contract, a client address),
-- the start of its window (epoch ms) and the attempts counted in it. A process alone counts in
-- memory and leaves this empty. Bookkeeping, not business data: not synced, never in the outbox.
CREATE TABLE login_attempt_counters (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  attempts INTEGER NOT NULL
) STRICT;
CREATE INDEX login_attempt_counters_window ON login_attempt_counters (window_start);

-- Who runs an export (jobs/csv-export/runner.ts): the runner that claimed it and when it last
-- said it still does. Another process takes over a running export only once its heartbeat is
-- stale (or cleared: a runner that stops gracefully clears it). A finished export keeps the owner
-- that finished it: its file's chunks below are that owner's.
ALTER TABLE transaction_exports ADD COLUMN owner TEXT;
ALTER TABLE transaction_exports ADD COLUMN heartbeat_at INTEGER;

-- A finished export's file in the database, for central on PostgreSQL behind a load balancer:
-- whichever process answers the download URL streams it from here when the file is not in its
-- own data dir. Base64 text in chunks of the file (CHUNK_BYTES, jobs/csv-export/worker.ts), in
-- order (seq from 0), written by the export's worker in one transaction before the export is
-- recorded as succeeded; deleted with the file by the clean-up. Empty on SQLite (one process: the file in the data dir is enough).
CREATE TABLE transaction_export_chunks (
  export_id TEXT NOT NULL,
  owner TEXT NOT NULL,
  seq INTEGER NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (export_id, owner, seq)
) STRICT;

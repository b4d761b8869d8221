-- Transaction detail CSV exports (spec 4.11, 6.3; issue 13). One row per request, known by its
-- inquiry code (the Request-Code header, or one the server minted): the same code never starts a
-- second export. export_id (minted, <seq><node>) names the file on disk. body is the validated
-- request as JSON; body_hash tells a resent request from another one under the same code.
-- status: queued -> running -> succeeded | failed (message '' | 'no data' | '500 internal error').
-- attempts counts starts: an export left running by a crash is started once more, then failed.
-- The file lives in <data dir>/exports until expires_at (finished + 1 hour); the clean-up job
-- deletes it after that and sets file_deleted_at. Not a synced table: a file and its notice
-- belong to the instance that made them (DESIGN §5).
CREATE TABLE transaction_exports (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  request_code TEXT NOT NULL,
  export_id TEXT NOT NULL UNIQUE,
  body TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  callback_url TEXT,
  state TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  rows_written INTEGER NOT NULL DEFAULT 0,
  total_rows INTEGER,
  file_name TEXT,
  file_bytes INTEGER,
  message TEXT NOT NULL DEFAULT '',
  error TEXT, -- what went wrong, for the operator's log; the client only sees '500 internal error'
  requested_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  expires_at INTEGER,
  file_deleted_at INTEGER,
  PRIMARY KEY (contract_id, request_code)
) STRICT;
CREATE INDEX transaction_exports_queue ON transaction_exports (requested_at, export_id) WHERE status IN ('queued', 'running');
CREATE INDEX transaction_exports_files ON transaction_exports (expires_at) WHERE file_name IS NOT NULL AND file_deleted_at IS NULL;

-- The per-installation key that signs download URLs (HMAC-SHA256 over path and expiry). Made
-- here, once, from SQLite's random source; it never leaves this database (0600, DATA_FILE_MODE).
CREATE TABLE transaction_export_key (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  signing_key TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
INSERT INTO transaction_export_key (singleton, signing_key, created_at)
  VALUES (1, lower(hex(randomblob(32))), CAST(strftime('%s', 'now') AS INTEGER) * 1000);

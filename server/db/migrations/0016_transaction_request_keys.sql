-- Idempotent sale registration (issue 10): a register that times out posts the same sale again.
-- Each registration records its keys: the terminal's own (store, terminal, terminalTranId) and,
-- when sent, the Idempotency-Key header. A retry with the same key and body answers the first
-- transaction; the same key with another body is a 409. Kept in their own table so that old
-- databases with duplicate terminal ids (from before this rule) still migrate.
CREATE TABLE transaction_request_keys (
  contract_id TEXT NOT NULL,
  key_kind TEXT NOT NULL CHECK (key_kind IN ('terminal', 'header')),
  request_key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  transaction_head_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, key_kind, request_key)
) WITHOUT ROWID;

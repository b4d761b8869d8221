-- A relative point add (POST /customers/{id}/point/add) retried after a lost answer would add
-- twice; with an Idempotency-Key the retry answers without adding again (the same key with
-- another body is a 409), as sale registration does.
CREATE TABLE point_request_keys (
  contract_id TEXT NOT NULL,
  request_key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  customer_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, request_key)
) WITHOUT ROWID;

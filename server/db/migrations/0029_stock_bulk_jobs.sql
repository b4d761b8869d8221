-- POST /stock/add/bulk answers before it applies its entries (issue 14 item 2). The accepted
-- request is kept here, in the same write that mints its requestId, so an answer is never given
-- for a request a stop or crash could lose. The apply deletes the row in the write that moves
-- the stock and raises the completion notice: a request is applied once, and one left here by
-- a stop is applied when the server starts again, in request order (seq).
-- body is the validated request (stock entries and callbackUrl) as JSON; client_id and staff_id
-- are who asked, kept on the movements. Not a synced table: the movements the apply makes sync.
CREATE TABLE stock_bulk_jobs (
  seq INTEGER PRIMARY KEY,
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  request_id INTEGER NOT NULL,
  body TEXT NOT NULL,
  client_id TEXT,
  staff_id INTEGER,
  accepted_at INTEGER NOT NULL,
  UNIQUE (contract_id, request_id)
) STRICT;

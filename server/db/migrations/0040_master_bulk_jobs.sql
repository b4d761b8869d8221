-- The platform's bulk registrations and updates of products and members (POST and PATCH
-- /products/bulk, /customers/bulk, issue 26) answer before they apply their rows, as POST
-- /stock/add/bulk does (0029). The accepted request is kept here, in the write that mints its
-- requestId, so an answer is never given for a request a stop or crash could lose. The apply
-- deletes the row in the write that writes the records and raises the completion notice: a
-- request is applied once, and one left here by a stop is applied when the server starts again,
-- in request order (seq). operation names the route (`POST /products/bulk`); body is the
-- validated request as JSON; client_id and staff_id are who asked. Not a synced table: the
-- records the apply writes sync.
CREATE TABLE master_bulk_jobs (
  seq INTEGER PRIMARY KEY,
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  request_id INTEGER NOT NULL,
  operation TEXT NOT NULL,
  body TEXT NOT NULL,
  client_id TEXT,
  staff_id INTEGER,
  accepted_at INTEGER NOT NULL,
  UNIQUE (contract_id, request_id)
) STRICT;

-- The product attributes (商品属性, issue 26): three named slots per contract, created or renamed
-- by PUT /products/attributes/{no}. A synced master.
CREATE TABLE product_attributes (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  no INTEGER NOT NULL CHECK (no BETWEEN 1 AND 3),
  name TEXT NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, no)
) STRICT;

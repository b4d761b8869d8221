-- Store-to-store shipping and its receiving (spec 2.8, 3.1, 3.4, 4.2, 4.19): one record that the
-- shipping store sends and the receiving store receives ("receiving shares the record"). A
-- store-made record (registry kind 'sales'): the shipping store's node mints the id and pushes it,
-- with both detail tables, to head office. The platform's receiving (入庫, /receiving) is this same
-- record seen from the receiving store: receivingId = shippingId.
--
-- status: 0 not shipped, 1 not received (shipped: the stock left the shipping store), 2 receiving
-- inspection, 3 receiving complete (the stock entered the receiving store).
-- approval_status: 0 unapproved, 1 approved, 2 rejected, 3 request unapproved (the platform's
-- shipping requests; never set here); approved_at when it became 1 or 2.
-- modification_request_status: 0 no request, 1 requested, 2 modification completed, with the
-- times of the request and of its completion (3.1).
-- receiving_date and receiving_staff_id are the receiving side's own (PATCH /receiving); memo and
-- identification_no are shared by both sides. shipped_at: when the receiving was generated
-- (status 1, the receiving's insDateTime); received_at: when it completed.
CREATE TABLE shippings (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  shipping_id INTEGER NOT NULL,
  shipping_store_id INTEGER NOT NULL,
  receiving_store_id INTEGER NOT NULL,
  receiving_desired_date TEXT,
  receiving_expected_date_from TEXT NOT NULL,
  receiving_expected_date_to TEXT NOT NULL,
  shipping_date TEXT NOT NULL,
  staff_id INTEGER,
  request_staff_id INTEGER,
  memo TEXT,
  identification_no TEXT,
  status TEXT NOT NULL CHECK (status IN ('0', '1', '2', '3')),
  approval_status TEXT NOT NULL CHECK (approval_status IN ('0', '1', '2', '3')),
  approved_at INTEGER,
  modification_request_status TEXT NOT NULL DEFAULT '0' CHECK (modification_request_status IN ('0', '1', '2')),
  modification_requested_at INTEGER,
  modification_checked_at INTEGER,
  receiving_date TEXT,
  receiving_staff_id INTEGER,
  shipped_at INTEGER,
  received_at INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, shipping_id),
  CHECK (shipping_store_id <> receiving_store_id)
) STRICT;
CREATE INDEX shippings_shipping_store ON shippings (contract_id, shipping_store_id, shipping_id);
CREATE INDEX shippings_receiving_store ON shippings (contract_id, receiving_store_id, shipping_id);
CREATE INDEX shippings_upd ON shippings (contract_id, upd_at);

-- The shipping side's details: what the shipping store sends (the platform's 出庫明細). quantity is
-- the current quantity; stocked_quantity is how much of it has left the shipping store's stock so
-- far (0 until the shipping goes out; kept equal to quantity after it), so every stock movement is
-- the difference, made once. During a modification request these are the pending edits that its
-- completion reflects into the receiving details.
CREATE TABLE shipping_details (
  contract_id TEXT NOT NULL,
  shipping_id INTEGER NOT NULL,
  shipping_detail_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity >= 0),
  stocked_quantity INTEGER NOT NULL DEFAULT 0,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, shipping_id, shipping_detail_id),
  UNIQUE (contract_id, shipping_id, product_id)
) STRICT;

-- The receiving side's details (the platform's 入庫明細): generated from the shipping details when
-- the shipping goes out, inspected by the receiving store (inspection and stockout quantities),
-- and updated from the shipping details when a modification request completes (scheduled
-- quantities). A product the receiving store adds has scheduled_quantity 0 until the shipping
-- side lists it.
CREATE TABLE shipping_receiving_details (
  contract_id TEXT NOT NULL,
  shipping_id INTEGER NOT NULL,
  receiving_detail_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  scheduled_quantity INTEGER NOT NULL CHECK (scheduled_quantity >= 0),
  inspection_quantity INTEGER CHECK (inspection_quantity >= 0),
  stockout_quantity INTEGER CHECK (stockout_quantity >= 0),
  stockout_reason TEXT,
  inspection_date TEXT,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, shipping_id, receiving_detail_id),
  UNIQUE (contract_id, shipping_id, product_id)
) STRICT;

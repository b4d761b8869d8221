-- Shipments to suppliers and others (spec 2.9, 3.2, 3.3, 4.12) and purchase orders (spec 2.10,
-- 4.14): store-made records (registry kind 'sales'), each with its child rows, which travel with
-- it to head office. Ids come from the allocator (DESIGN §4); child ids too, so a PATCH addresses
-- a detail by its own id. Decimals (tax rates, costs, prices) are TEXT exact decimals in their
-- shortest form; quantities are whole numbers (the platform's quantities are integer strings).

-- status: 0 not shipped, 2 shipped, 3 shipment inspection. approval_status: 0 unapproved,
-- 1 approved, 2 rejected; approval_at is set when it becomes 1 or 2. recipient_type 1 is a
-- supplier (recipient_id, recipient_name copied from the supplier), 3 anyone else (a name only).
CREATE TABLE shipments (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  shipment_id INTEGER NOT NULL,
  shipment_store_id INTEGER NOT NULL,
  recipient_type TEXT NOT NULL CHECK (recipient_type IN ('1', '3')),
  recipient_id INTEGER,
  recipient_name TEXT,
  shipment_division TEXT NOT NULL CHECK (shipment_division IN ('0', '1', '2')),
  shipment_date TEXT NOT NULL,
  memo TEXT,
  staff_id INTEGER,
  tax_rate TEXT NOT NULL,
  identification_no TEXT,
  rounding_division TEXT NOT NULL CHECK (rounding_division IN ('0', '1', '2')),
  status TEXT NOT NULL CHECK (status IN ('0', '2', '3')),
  approval_status TEXT NOT NULL CHECK (approval_status IN ('0', '1', '2')),
  approval_at INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, shipment_id),
  CHECK ((recipient_type = '1') = (recipient_id IS NOT NULL))
) STRICT;
CREATE INDEX shipments_store_date ON shipments (contract_id, shipment_store_id, shipment_date);
CREATE INDEX shipments_upd ON shipments (contract_id, upd_at);

-- shipped_quantity: how much of this detail has left the shipment store's stock (a 'shipment'
-- stock movement). A shipped shipment moves quantity - shipped_quantity and sets it equal, so
-- stock leaves exactly once whatever is sent again, and a later quantity edit moves only the
-- difference.
CREATE TABLE shipment_details (
  contract_id TEXT NOT NULL,
  shipment_detail_id INTEGER NOT NULL,
  shipment_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  tax_rate TEXT NOT NULL,
  cost TEXT NOT NULL,
  price TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  shipped_quantity INTEGER NOT NULL DEFAULT 0,
  memo TEXT,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, shipment_detail_id),
  FOREIGN KEY (contract_id, shipment_id) REFERENCES shipments (contract_id, shipment_id)
) STRICT;
CREATE INDEX shipment_details_shipment ON shipment_details (contract_id, shipment_id, shipment_detail_id);

-- status: 2 ordered, 3 receiving inspection, 4 receiving complete, 5 provisional order (a
-- registration takes 2 or 5). division_unit: the contract's order split unit when it was
-- registered (0 none, 1 category group, 2 supplier); category_group_id: the products' group
-- under split 1 (null: every group).
CREATE TABLE purchase_orders (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  storage_info_id INTEGER NOT NULL,
  recipient_order_id INTEGER,
  order_source_store_id INTEGER,
  order_staff_name TEXT,
  division_unit TEXT NOT NULL CHECK (division_unit IN ('0', '1', '2')),
  category_group_id INTEGER,
  ordered_date TEXT NOT NULL,
  memo TEXT,
  identification_no TEXT,
  rounding_division TEXT NOT NULL CHECK (rounding_division IN ('0', '1', '2')),
  status TEXT NOT NULL CHECK (status IN ('2', '3', '4', '5')),
  staff_id INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, storage_info_id)
) STRICT;
CREATE INDEX purchase_orders_date ON purchase_orders (contract_id, ordered_date);
CREATE INDEX purchase_orders_upd ON purchase_orders (contract_id, upd_at);

-- quantity: the sum of the product's delivery quantities.
CREATE TABLE purchase_order_products (
  contract_id TEXT NOT NULL,
  storage_info_product_id INTEGER NOT NULL,
  storage_info_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  tax_rate TEXT NOT NULL,
  cost TEXT NOT NULL,
  tax_division TEXT NOT NULL CHECK (tax_division IN ('0', '1', '2')),
  quantity INTEGER NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, storage_info_product_id),
  FOREIGN KEY (contract_id, storage_info_id) REFERENCES purchase_orders (contract_id, storage_info_id)
) STRICT;
CREATE INDEX purchase_order_products_order ON purchase_order_products (contract_id, storage_info_id, storage_info_product_id);

-- One delivery store's quantity of one ordered product. product_id and storage_info_id are
-- copies of the parent's. on_order is 1 while the order is open (status 2 ordered or 5
-- provisional: its quantity is still expected to arrive), kept by the trigger below whatever
-- changes the order's status; the expected arrivals an order limit counts (4.14) are then one
-- covering index range per store and product, however long the order history grows.
CREATE TABLE purchase_order_delivery_products (
  contract_id TEXT NOT NULL,
  storage_info_delivery_product_id INTEGER NOT NULL,
  storage_info_product_id INTEGER NOT NULL,
  storage_info_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  quantity INTEGER NOT NULL,
  on_order INTEGER NOT NULL DEFAULT 1 CHECK (on_order IN (0, 1)),
  PRIMARY KEY (contract_id, storage_info_delivery_product_id),
  -- Bound to the order, not to the product row: sync replaces each child table as a whole, one
  -- after the other, so no child may reference another child.
  FOREIGN KEY (contract_id, storage_info_id) REFERENCES purchase_orders (contract_id, storage_info_id)
) STRICT;
CREATE INDEX purchase_order_delivery_products_order ON purchase_order_delivery_products (contract_id, storage_info_id, storage_info_delivery_product_id);
CREATE INDEX purchase_order_delivery_products_on_order ON purchase_order_delivery_products (contract_id, product_id, store_id, quantity)
  WHERE on_order = 1;
CREATE TRIGGER purchase_orders_on_order AFTER UPDATE OF status ON purchase_orders
  WHEN (OLD.status IN ('2', '5')) <> (NEW.status IN ('2', '5'))
BEGIN
  UPDATE purchase_order_delivery_products SET on_order = (NEW.status IN ('2', '5'))
  WHERE contract_id = NEW.contract_id AND storage_info_id = NEW.storage_info_id;
END;

CREATE TABLE purchase_order_stores (
  contract_id TEXT NOT NULL,
  storage_info_delivery_id INTEGER NOT NULL,
  storage_info_id INTEGER NOT NULL,
  storage_store_id INTEGER NOT NULL,
  storage_expected_date_from TEXT NOT NULL,
  storage_expected_date_to TEXT NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, storage_info_delivery_id),
  FOREIGN KEY (contract_id, storage_info_id) REFERENCES purchase_orders (contract_id, storage_info_id)
) STRICT;
CREATE INDEX purchase_order_stores_order ON purchase_order_stores (contract_id, storage_info_id, storage_info_delivery_id);
CREATE INDEX purchase_order_stores_store ON purchase_order_stores (contract_id, storage_store_id);

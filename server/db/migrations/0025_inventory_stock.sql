-- Stock (issue 14 item 2): the quantity of each product at each store, and every movement of it.
-- Quantities and deltas are TEXT decimals in their shortest form (the platform's stockAmount is
-- an integer string; a decimal-quantity sale still moves it exactly). A quantity changes only
-- through a movement (server/resources/stock/movements.ts), in the same transaction.
--
-- stock: one row per store and product once its quantity first moved (GET /stock lists only
-- those, as the platform does). layaway_stock_amount is the platform's layawayStockAmount,
-- kept at 0 (no layaway here). Sync: a balance that merges by its movements (sync/balances.ts),
-- never last writer wins.
CREATE TABLE stock (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  store_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  stock_amount TEXT NOT NULL DEFAULT '0',
  layaway_stock_amount TEXT NOT NULL DEFAULT '0',
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, store_id, product_id)
) STRICT;
CREATE INDEX stock_product ON stock (contract_id, product_id, store_id);
CREATE INDEX stock_upd ON stock (contract_id, upd_at);

-- Every change of a stock quantity with its cause: sale, return (sales and returns of
-- transactions), shipping_out (store-to-store shipping sent), receiving (shipping received),
-- shipment (shipments to suppliers shipped), manual_set (PATCH /stock/{id}), manual_add
-- (POST /stock/{id}/add), bulk_add (POST /stock/add/bulk). amount_after is the quantity at the
-- store that made it right after it (informative: merged movements from elsewhere may land
-- between). The references say which record moved it. Written once, never changed (a sales
-- record pushed by the node that minted it).
CREATE TABLE stock_movements (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  movement_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  cause TEXT NOT NULL CHECK (cause IN ('sale', 'return', 'shipping_out', 'receiving', 'shipment', 'manual_set', 'manual_add', 'bulk_add')),
  delta TEXT NOT NULL,
  amount_after TEXT NOT NULL,
  memo TEXT,
  transaction_head_id INTEGER,
  shipping_id INTEGER,
  shipment_id INTEGER,
  storage_info_id INTEGER,
  client_id TEXT,
  staff_id INTEGER,
  moved_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, movement_id)
) STRICT;
CREATE INDEX stock_movements_item ON stock_movements (contract_id, product_id, store_id, movement_id);
CREATE INDEX stock_movements_transaction ON stock_movements (contract_id, transaction_head_id)
  WHERE transaction_head_id IS NOT NULL;

-- Contract inventory settings (issue 14 item 1), set by the operator (`contract set`):
-- inventory_approval: shipments go through approval (spec 3.2's default approvalStatus);
-- shipped_shipment_edit_forbidden: a shipped shipment (status 2) may not be edited (3.3);
-- order_split_unit: purchase orders are split by '0' nothing, '1' category group, '2' supplier (4.14).
ALTER TABLE contracts ADD COLUMN inventory_approval INTEGER NOT NULL DEFAULT 0 CHECK (inventory_approval IN (0, 1));
ALTER TABLE contracts ADD COLUMN shipped_shipment_edit_forbidden INTEGER NOT NULL DEFAULT 0 CHECK (shipped_shipment_edit_forbidden IN (0, 1));
ALTER TABLE contracts ADD COLUMN order_split_unit TEXT NOT NULL DEFAULT '0' CHECK (order_split_unit IN ('0', '1', '2'));

-- Supporting masters of inventory (issue 14 item 1), edited anywhere (last writer wins).
-- Category groups: categories.category_group_id (spec 2.1 categoryGroupId) names one; purchase
-- orders split by them (order_split_unit 1). A group in use by a category cannot be deleted.
CREATE TABLE category_groups (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  category_group_id INTEGER NOT NULL,
  category_group_code TEXT,
  category_group_name TEXT NOT NULL,
  display_sequence INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, category_group_id)
) STRICT;
CREATE UNIQUE INDEX category_groups_code ON category_groups (contract_id, category_group_code) WHERE category_group_code IS NOT NULL;
CREATE INDEX categories_group ON categories (contract_id, category_group_id) WHERE category_group_id IS NOT NULL;

-- Suppliers (仕入先): the recipients of purchase orders (recipientOrderId) and shipments
-- (recipientType 1, recipientId).
CREATE TABLE suppliers (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  supplier_id INTEGER NOT NULL,
  supplier_code TEXT,
  supplier_name TEXT NOT NULL,
  supplier_abbr TEXT,
  post_code TEXT,
  address TEXT,
  phone_number TEXT,
  fax_number TEXT,
  mail_address TEXT,
  display_sequence INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, supplier_id)
) STRICT;
CREATE UNIQUE INDEX suppliers_code ON suppliers (contract_id, supplier_code) WHERE supplier_code IS NOT NULL;

-- What a supplier handles (the platform's supplier products): a whole category (division '1',
-- target_id a category id) or one product (division '2', target_id a product id). A product's
-- suppliers are those naming it, else those naming its category.
CREATE TABLE supplier_products (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  supplier_id INTEGER NOT NULL,
  division TEXT NOT NULL CHECK (division IN ('1', '2')),
  target_id INTEGER NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, supplier_id, division, target_id)
) STRICT;
CREATE INDEX supplier_products_target ON supplier_products (contract_id, division, target_id);

-- A product's ordering settings at a store: orderable ('0' may not be ordered, '1' may),
-- order_hidden ('1' hidden from ordering screens and refused by purchase orders), order_limit
-- (the most that may be on order at once; null: no limit, 0: none may be ordered). A product
-- and store without a row: orderable, shown, no limit.
CREATE TABLE product_order_settings (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  product_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  orderable TEXT NOT NULL DEFAULT '1' CHECK (orderable IN ('0', '1')),
  order_hidden TEXT NOT NULL DEFAULT '0' CHECK (order_hidden IN ('0', '1')),
  order_limit INTEGER CHECK (order_limit >= 0),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, product_id, store_id)
) STRICT;

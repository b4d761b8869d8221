-- Stocktaking (棚卸, issue 26): a store counts its goods on a date and the counts become its
-- stock. Store-made records (registry kind 'sales', ids with the minting node's suffix) that
-- travel to head office with their child rows each time they change. Quantities are TEXT
-- decimals in their shortest form, like stock.
--
-- stocktakings.target_division: what is counted: 0 every product, 1 the products of the target
--   categories (stocktaking_categories, their child categories included), 2 the target products
--   (stocktaking_products rows made at registration).
-- status: 0 counting (棚卸中), 2 complete (完了: the counts became the store's stock).
-- stocktaking_date: the day counted (棚卸日). adjustment_at: when the counts moved the stock;
--   complete_at: when it was completed (the same instant here: completing adjusts in one
--   transaction).
CREATE TABLE stocktakings (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  stocktaking_info_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  target_division TEXT NOT NULL CHECK (target_division IN ('0', '1', '2')),
  stocktaking_date TEXT NOT NULL,
  memo TEXT,
  status TEXT NOT NULL CHECK (status IN ('0', '2')),
  adjustment_at INTEGER,
  complete_at INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, stocktaking_info_id)
) STRICT;
CREATE INDEX stocktakings_store_date ON stocktakings (contract_id, store_id, stocktaking_date);
CREATE INDEX stocktakings_upd ON stocktakings (contract_id, upd_at);

-- The target categories of a stocktaking by category (target_division 1).
CREATE TABLE stocktaking_categories (
  contract_id TEXT NOT NULL,
  stocktaking_info_id INTEGER NOT NULL,
  category_id INTEGER NOT NULL,
  PRIMARY KEY (contract_id, stocktaking_info_id, category_id),
  FOREIGN KEY (contract_id, stocktaking_info_id) REFERENCES stocktakings (contract_id, stocktaking_info_id)
) STRICT;

-- A product's line of a stocktaking: made when it is counted (or at registration for a
-- stocktaking of target products). input_quantity: the count entered (null: not counted yet);
-- a new entry replaces it. The rest is set on completion, for counted products: the count
-- that became the stock (stocktaking_quantity), the store's quantity just before
-- (stock_before), its layaway and in-transit quantities then, and the product's cost then.
CREATE TABLE stocktaking_products (
  contract_id TEXT NOT NULL,
  stocktaking_info_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  input_quantity TEXT,
  memo TEXT,
  quantity_modified_at INTEGER,
  stocktaking_quantity TEXT,
  stock_before TEXT,
  layaway_stock TEXT,
  transportation_stock TEXT,
  cost TEXT,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, stocktaking_info_id, product_id),
  FOREIGN KEY (contract_id, stocktaking_info_id) REFERENCES stocktakings (contract_id, stocktaking_info_id)
) STRICT;

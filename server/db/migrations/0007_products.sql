-- Products, their free-item labels and values, and the daily budgets of stores (spec 4.9, 4.18).
-- Money is stored as INTEGER counts of small units so it stays exact, sorts and sums as a
-- number: price and sales targets in thousandths (3 decimals), cost in hundred-thousandths
-- (5 decimals, the cost scale of transactions and purchase orders, spec 2.10, 2.13).

-- Free-item labels: fixed slots 1..50 per contract, like customer group sections.
CREATE TABLE product_reserve_item_labels (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  no INTEGER NOT NULL CHECK (no BETWEEN 1 AND 50),
  label TEXT NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, no)
) STRICT;

-- category_id has no foreign key on purpose: with foreign keys on, deleting a category that a
-- product uses would fail inside SQLite (a 500); the repos check it instead.
CREATE TABLE products (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  product_id INTEGER NOT NULL,
  product_code TEXT NOT NULL,
  product_name TEXT NOT NULL,
  category_id INTEGER NOT NULL,
  price_units INTEGER NOT NULL CHECK (price_units >= 0),
  cost_units INTEGER CHECK (cost_units >= 0),
  tax_division TEXT NOT NULL DEFAULT '0',
  reduce_tax_id TEXT,
  point_not_applicable TEXT NOT NULL DEFAULT '0',
  tax_free_division TEXT NOT NULL DEFAULT '0',
  product_division TEXT NOT NULL DEFAULT '0',
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, product_id)
) STRICT;
CREATE UNIQUE INDEX products_code ON products (contract_id, product_code);
CREATE INDEX products_category ON products (contract_id, category_id);

-- The value of free item `no` on a product; a product has at most one value per label.
CREATE TABLE product_reserve_items (
  contract_id TEXT NOT NULL,
  product_id INTEGER NOT NULL,
  no INTEGER NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (contract_id, product_id, no),
  FOREIGN KEY (contract_id, product_id) REFERENCES products (contract_id, product_id) ON DELETE CASCADE,
  FOREIGN KEY (contract_id, no) REFERENCES product_reserve_item_labels (contract_id, no)
) STRICT;
CREATE INDEX product_reserve_items_label ON product_reserve_items (contract_id, no);

-- One row per store and day; a month's budget is the rows of that month.
CREATE TABLE daily_budgets (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  store_id INTEGER NOT NULL,
  budget_date TEXT NOT NULL,
  sales_target_units INTEGER NOT NULL CHECK (sales_target_units >= 0),
  customer_count_target INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, store_id, budget_date),
  FOREIGN KEY (contract_id, store_id) REFERENCES stores (contract_id, store_id)
) STRICT;
CREATE INDEX daily_budgets_date ON daily_budgets (contract_id, budget_date);

-- The waiter operations a platform client calls beside orders (issue 26): seating a party
-- (POST /table_uses), the table-use history (GET /table_uses), checkout
-- (PUT /table_uses/{id}/checkout), toppings and their conditions, staff calls and the store dashboard.

-- A table use as the platform's TableUse answers it: the party's size (number), its customer
-- groups (客層, a JSON array of customer group ids, at most five: the sale's customerGroupId..5),
-- a memo, when it ended (ended, 精算日時) and the sale its checkout made or linked.
ALTER TABLE table_uses ADD COLUMN number INTEGER NOT NULL DEFAULT 0 CHECK (number >= 0);
ALTER TABLE table_uses ADD COLUMN customer_group_ids TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(customer_group_ids));
ALTER TABLE table_uses ADD COLUMN memo TEXT;
ALTER TABLE table_uses ADD COLUMN ended_at INTEGER;
ALTER TABLE table_uses ADD COLUMN transaction_head_id INTEGER;
-- GET /table_uses: a store's table uses of one status, newest seated first (ins_at is the seating time).
CREATE INDEX table_uses_store_status ON table_uses (contract_id, store_id, status, ins_at, table_use_id);
-- A sale is the checkout of at most one table use.
CREATE UNIQUE INDEX table_uses_transaction ON table_uses (contract_id, transaction_head_id) WHERE transaction_head_id IS NOT NULL;

-- The POS product a menu sells: its checkout line carries the product, so the sale counts in the
-- product's reports and moves its stock. Null: the line is sold by name (no stock).
ALTER TABLE menus ADD COLUMN product_id INTEGER;

-- Toppings (トッピング), each a member of one topping group, with the platform's fields. The
-- price is one PriceSetting (prices[0], primary): tax rate, tax type, amount, and whether the
-- amount is tax included ('include'), excluded ('exclude') or untaxed ('none'), spelled as the
-- platform's topping answers spell it.
CREATE TABLE toppings (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  topping_id INTEGER NOT NULL,
  topping_group_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  kana TEXT,
  category_id INTEGER,
  note TEXT,
  sort_no INTEGER NOT NULL DEFAULT 0,
  apply_at INTEGER,
  is_open_price INTEGER NOT NULL DEFAULT 0 CHECK (is_open_price IN (0, 1)),
  created_in TEXT NOT NULL,
  tax_rate TEXT NOT NULL,
  tax_type TEXT NOT NULL CHECK (tax_type IN ('normal', 'reduced', 'none')),
  amount TEXT NOT NULL,
  tax TEXT NOT NULL CHECK (tax IN ('include', 'exclude', 'none')),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, topping_id)
) STRICT;
-- GET /toppings?group_id= in sort_no order (the default sort); a group's delete check.
CREATE INDEX toppings_group ON toppings (contract_id, topping_group_id, sort_no, topping_id);
CREATE INDEX toppings_sort ON toppings (contract_id, sort_no, topping_id);

-- A topping's sale condition and remaining quantity at a store (トッピングの販売状態・残数), as a
-- menu's (2.5): no row is orderable and not counted. They travel with their topping (a child of
-- the topping record for sync) and go with it.
CREATE TABLE topping_conditions (
  contract_id TEXT NOT NULL,
  topping_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  condition TEXT NOT NULL DEFAULT 'orderable' CHECK (condition IN ('orderable', 'soldout')),
  quantity INTEGER CHECK (quantity >= 0),
  condition_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, topping_id, store_id),
  FOREIGN KEY (contract_id, topping_id) REFERENCES toppings (contract_id, topping_id) ON DELETE CASCADE
) STRICT;
-- GET /topping_conditions/stores/{store_id}?updated_from=: what changed at a store since.
CREATE INDEX topping_conditions_store ON topping_conditions (contract_id, store_id, condition_at);

-- Staff calls (スタッフ呼び出し): a table asks for staff. Open until a staff member answers it.
CREATE TABLE staff_calls (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  staff_call_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  table_id INTEGER,
  table_name TEXT,
  table_use_id INTEGER,
  message TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'calling' CHECK (status IN ('calling', 'answered')),
  sent_at INTEGER NOT NULL,
  answered_at INTEGER,
  answered_by INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, staff_call_id)
) STRICT;
-- GET /staff_calls?store_id=&status=calling, newest first.
CREATE INDEX staff_calls_store ON staff_calls (contract_id, store_id, status, sent_at, staff_call_id);

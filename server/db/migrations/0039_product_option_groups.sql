-- Product option groups (the platform's /product_option_groups, issue 26): the same record as
-- the restaurant API's topping groups (spec 2.7, table topping_groups): a name, a condition
-- (none, over the whole group, per category) with its max and min, and the service that made it
-- (createdIn, which the POS side answers as syncDivision). The POS side adds what the restaurant
-- side does not show: the option products (productDivision 2) the group offers, and the group a
-- normal product offers when it is sold.

-- The option products of a group, listed in product id order. They go with their group (a
-- child of the topping_group record for sync). product_id has no foreign key on purpose (as
-- products.category_id): the repos refuse to delete a product a group holds instead of SQLite
-- failing inside the delete.
CREATE TABLE product_option_group_products (
  contract_id TEXT NOT NULL,
  product_option_group_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  PRIMARY KEY (contract_id, product_option_group_id, product_id),
  FOREIGN KEY (contract_id, product_option_group_id) REFERENCES topping_groups (contract_id, topping_group_id) ON DELETE CASCADE
) STRICT;
-- A product's groups (refusing its deletion or a change of its division while a group holds it).
CREATE INDEX product_option_group_products_product ON product_option_group_products (contract_id, product_id);

-- The option group a normal product (productDivision 0) offers; NULL: none. No foreign key, as
-- above: deleting a group a product names is refused by the repo.
ALTER TABLE products ADD COLUMN product_option_group_id INTEGER;
CREATE INDEX products_option_group ON products (contract_id, product_option_group_id);

-- Discount divisions (値引・割引区分, /discount_divisions): the reasons a register offers for a
-- line or subtotal discount, named by a sale's unitDiscountDivision / subtotalDiscountDivision.
-- award_type 1 an amount off (値引), 2 a rate off (割引); display_sequence NULL: unset.
CREATE TABLE discount_divisions (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  discount_division INTEGER NOT NULL,
  award_type TEXT NOT NULL CHECK (award_type IN ('1', '2')),
  discount_division_name TEXT NOT NULL,
  display_sequence INTEGER CHECK (display_sequence BETWEEN 1 AND 999),
  display_flag TEXT NOT NULL DEFAULT '1' CHECK (display_flag IN ('0', '1')),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, discount_division)
) STRICT;

-- Bargains (セール, /bargains): a named sale period (both days included), the stores it runs in
-- and its targets. Stores and targets are children of their bargain (they travel with it).
CREATE TABLE bargains (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  bargain_id INTEGER NOT NULL,
  bargain_name TEXT NOT NULL,
  term_start TEXT NOT NULL,
  term_end TEXT NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, bargain_id),
  CHECK (term_end >= term_start)
) STRICT;

-- A store a bargain runs in, once per bargain. store_id has no foreign key (the repo checks it).
CREATE TABLE bargain_stores (
  contract_id TEXT NOT NULL,
  bargain_store_id INTEGER NOT NULL,
  bargain_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, bargain_store_id),
  UNIQUE (contract_id, bargain_id, store_id),
  FOREIGN KEY (contract_id, bargain_id) REFERENCES bargains (contract_id, bargain_id) ON DELETE CASCADE
) STRICT;

-- A target of a bargain: a category (target_division 1), a product (2) or a product group code
-- (3), once per bargain, and what the sale does to it: division 1 a rate off (value in percent),
-- 2 an amount off, 3 a price; value_units in thousandths (PRICE scale, like product prices).
CREATE TABLE bargain_products (
  contract_id TEXT NOT NULL,
  bargain_product_id INTEGER NOT NULL,
  bargain_id INTEGER NOT NULL,
  target_division TEXT NOT NULL CHECK (target_division IN ('1', '2', '3')),
  target_id TEXT NOT NULL,
  division TEXT NOT NULL CHECK (division IN ('1', '2', '3')),
  value_units INTEGER NOT NULL CHECK (value_units >= 0),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, bargain_product_id),
  UNIQUE (contract_id, bargain_id, target_division, target_id),
  FOREIGN KEY (contract_id, bargain_id) REFERENCES bargains (contract_id, bargain_id) ON DELETE CASCADE
) STRICT;

-- Restaurant menus of a store with their sale condition and remaining quantity (spec 2.5,
-- 4.6), and topping groups (spec 2.7). Price is in thousandths (3 decimals), as products.

-- The sale condition lives on the menu row: a menu has exactly one, and the list of 4.6 reads
-- it with the menu's type and category in one index walk. condition_at is when condition or
-- quantity last changed (4.6 updated_from); upd_at is when the menu master last changed.
-- quantity NULL means the remaining quantity is not counted (no limit).
-- category_id has no foreign key on purpose (like products): with foreign keys on, deleting a
-- category a menu uses would fail inside SQLite (a 500); the repos check it instead.
CREATE TABLE menus (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  menu_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  menu_name TEXT NOT NULL,
  menu_type TEXT NOT NULL CHECK (menu_type IN ('normal', 'plan', 'course')),
  course_division TEXT CHECK (course_division IN ('standard', 'simple')),
  category_id INTEGER,
  price_units INTEGER NOT NULL DEFAULT 0 CHECK (price_units >= 0),
  condition TEXT NOT NULL DEFAULT 'orderable' CHECK (condition IN ('orderable', 'soldout')),
  quantity INTEGER CHECK (quantity >= 0),
  condition_at INTEGER NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, menu_id),
  FOREIGN KEY (contract_id, store_id) REFERENCES stores (contract_id, store_id),
  -- Only a course has a course division, and every course has one.
  CHECK ((menu_type = 'course') = (course_division IS NOT NULL))
) STRICT;
-- 4.6 and GET /menus page a store's menus in menu_id order (the default sort).
CREATE INDEX menus_store ON menus (contract_id, store_id, menu_id);
-- 4.6 sort=category_id and the category_id filter.
CREATE INDEX menus_store_category ON menus (contract_id, store_id, category_id, menu_id);
-- Category delete checks (and GET /menus?category_id without a store) find menus by category.
CREATE INDEX menus_category ON menus (contract_id, category_id);

CREATE TABLE topping_groups (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  topping_group_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  created_in TEXT NOT NULL,
  -- rule: all three NULL (no condition) or all three set with 0 <= min <= max.
  rule_condition TEXT CHECK (rule_condition IN ('all', 'category')),
  rule_min INTEGER,
  rule_max INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, topping_group_id),
  CHECK ((rule_condition IS NULL AND rule_min IS NULL AND rule_max IS NULL)
      OR (rule_condition IS NOT NULL AND rule_min >= 0 AND rule_max >= rule_min))
) STRICT;
CREATE INDEX topping_groups_name ON topping_groups (contract_id, name, topping_group_id);

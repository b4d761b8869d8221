-- Floor (issue 3, engineer C): restaurant tables, reservations (spec 2.4), table uses and
-- restaurant orders (spec 2.12). Staff and menus live in other migrations that may land in
-- any order, so references to them are checked by the repos, not declared here. Stores are
-- not declared either: a reservation whose store is gone must still be readable (4.13 says
-- such a reservation refuses updates with a 400, so it has to be able to exist).

CREATE TABLE dining_tables (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  table_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  table_name TEXT NOT NULL,
  seats INTEGER,
  display_sequence INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, table_id)
) STRICT;
CREATE UNIQUE INDEX dining_tables_name ON dining_tables (contract_id, store_id, table_name);

CREATE TABLE reservations (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  reservation_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  -- Set only on reservations imported from an external system; such a row is read-only to PATCH (405).
  reservation_code TEXT,
  start_at INTEGER NOT NULL,
  end_at INTEGER NOT NULL,
  adults INTEGER NOT NULL DEFAULT 0,
  children INTEGER NOT NULL DEFAULT 0,
  person_name TEXT,
  person_name_kana TEXT,
  status TEXT NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting','coming','finished','paid','canceled')),
  phone_number TEXT,
  staff_id INTEGER,
  staff_name TEXT,
  note TEXT,
  reserved_at INTEGER NOT NULL,
  reserved_from TEXT NOT NULL,
  table_use_id INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, reservation_id),
  CHECK (start_at < end_at)
) STRICT;
CREATE INDEX reservations_start ON reservations (contract_id, store_id, start_at);
CREATE UNIQUE INDEX reservations_code ON reservations (contract_id, store_id, reservation_code) WHERE reservation_code IS NOT NULL;

CREATE TABLE reservation_tables (
  contract_id TEXT NOT NULL,
  reservation_id INTEGER NOT NULL,
  table_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (contract_id, reservation_id, table_id),
  FOREIGN KEY (contract_id, reservation_id) REFERENCES reservations (contract_id, reservation_id) ON DELETE CASCADE,
  FOREIGN KEY (contract_id, table_id) REFERENCES dining_tables (contract_id, table_id)
) STRICT;
CREATE INDEX reservation_tables_table ON reservation_tables (contract_id, table_id);

CREATE TABLE table_uses (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  table_use_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'started' CHECK (status IN ('started','ended','canceled','merged')),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, table_use_id)
) STRICT;

-- The table's name is kept so a finished table use still reads {id, name} after the table is deleted.
CREATE TABLE table_use_tables (
  contract_id TEXT NOT NULL,
  table_use_id INTEGER NOT NULL,
  table_id INTEGER NOT NULL,
  table_name TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (contract_id, table_use_id, table_id),
  FOREIGN KEY (contract_id, table_use_id) REFERENCES table_uses (contract_id, table_use_id)
) STRICT;
CREATE INDEX table_use_tables_table ON table_use_tables (contract_id, table_id);

CREATE TABLE orders (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  order_id INTEGER NOT NULL,
  table_use_id INTEGER NOT NULL,
  ordered_at INTEGER NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, order_id),
  FOREIGN KEY (contract_id, table_use_id) REFERENCES table_uses (contract_id, table_use_id)
) STRICT;
CREATE INDEX orders_table_use ON orders (contract_id, table_use_id);
-- GET /orders pages by order time (its default sort) without scanning every order.
CREATE INDEX orders_ordered ON orders (contract_id, ordered_at, order_id);

-- Money and rates are exact decimal strings (TEXT); toppings and course items are JSON arrays.
CREATE TABLE order_items (
  contract_id TEXT NOT NULL,
  order_id INTEGER NOT NULL,
  item_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting','provided','canceled')),
  served_at INTEGER,
  memo TEXT,
  menu_id INTEGER,
  quantity INTEGER NOT NULL,
  menu_type TEXT NOT NULL CHECK (menu_type IN ('normal','plan','inPlan','course')),
  custom_content_id TEXT,
  custom_content_name TEXT,
  category_id INTEGER,
  tax_rate TEXT NOT NULL,
  tax_type TEXT NOT NULL CHECK (tax_type IN ('normal','reduced','none')),
  amount TEXT NOT NULL,
  taxation TEXT NOT NULL CHECK (taxation IN ('included','excluded','none')),
  discount_type TEXT CHECK (discount_type IN ('couponRate','couponAmount','freeCoupon','rate','amount')),
  discount_rate TEXT,
  discount_amount TEXT,
  time_limit INTEGER NOT NULL DEFAULT 0,
  pre_time_limit_minutes_left INTEGER NOT NULL DEFAULT 0,
  toppings TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(toppings)),
  course_items TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(course_items)),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, item_id),
  FOREIGN KEY (contract_id, order_id) REFERENCES orders (contract_id, order_id)
) STRICT;
CREATE INDEX order_items_order ON order_items (contract_id, order_id, position);
-- A menu named by an order item cannot be deleted; the check finds it by menu.
CREATE INDEX order_items_menu ON order_items (contract_id, menu_id);

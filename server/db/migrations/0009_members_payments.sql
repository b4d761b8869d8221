-- Supporting masters of the sales endpoints (spec 2.13): members (customers), payment methods
-- and their groups (6.2), product bundle groups. Flags and divisions are TEXT '0'/'1' so they
-- round-trip exactly. References (customer groups, payment method groups) carry no foreign
-- keys: the repos check them and answer 400, and a refused delete is a 400, never a 500.

-- point and mile are TEXT decimals: direct entry is up to 9 digits, but sales add to them
-- without a ceiling (spec 2.13 newPoint/totalPoint), so they may outgrow any fixed scale.
CREATE TABLE customers (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  customer_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  last_name TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_kana TEXT,
  first_kana TEXT,
  rank TEXT,
  point TEXT NOT NULL DEFAULT '0',
  mile TEXT NOT NULL DEFAULT '0',
  customer_group_id INTEGER,
  customer_group_id2 INTEGER,
  customer_group_id3 INTEGER,
  customer_group_id4 INTEGER,
  customer_group_id5 INTEGER,
  pin_code TEXT,
  status TEXT NOT NULL DEFAULT '0' CHECK (status IN ('0', '1')),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, customer_id)
) STRICT;
CREATE UNIQUE INDEX customers_code ON customers (contract_id, customer_code);
CREATE INDEX customers_pin_code ON customers (contract_id, pin_code) WHERE pin_code IS NOT NULL;
CREATE INDEX customers_rank ON customers (contract_id, rank) WHERE rank IS NOT NULL;

CREATE TABLE payment_method_groups (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  payment_method_group_id INTEGER NOT NULL,
  payment_method_group_name TEXT NOT NULL,
  display_sequence INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, payment_method_group_id)
) STRICT;

-- payment_unit_price is a TEXT decimal (NULL: no unit price, the amount received is money);
-- individual_application '1' marks a method registered by the individual-application
-- registration operation (POST /payment_methods/individual_application); it never changes.
CREATE TABLE payment_methods (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  payment_method_id INTEGER NOT NULL,
  payment_method_code TEXT NOT NULL,
  payment_method_name TEXT NOT NULL,
  payment_division TEXT NOT NULL,
  payment_unit_price TEXT,
  payment_change_flag TEXT NOT NULL DEFAULT '0' CHECK (payment_change_flag IN ('0', '1')),
  payment_securities_flag TEXT NOT NULL DEFAULT '0' CHECK (payment_securities_flag IN ('0', '1')),
  individual_application TEXT NOT NULL DEFAULT '0' CHECK (individual_application IN ('0', '1')),
  payment_method_group_id INTEGER,
  display_sequence INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, payment_method_id)
) STRICT;
CREATE UNIQUE INDEX payment_methods_code ON payment_methods (contract_id, payment_method_code);
CREATE INDEX payment_methods_group ON payment_methods (contract_id, payment_method_group_id) WHERE payment_method_group_id IS NOT NULL;

-- value in thousandths (PRICE scale, like product prices).
CREATE TABLE product_bundle_groups (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  product_bundle_group_id INTEGER NOT NULL,
  product_bundle_group_name TEXT NOT NULL,
  division TEXT NOT NULL CHECK (division IN ('1', '2')),
  quantity INTEGER NOT NULL CHECK (quantity >= 1),
  value_units INTEGER NOT NULL CHECK (value_units >= 0),
  start_date TEXT,
  end_date TEXT,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, product_bundle_group_id)
) STRICT;

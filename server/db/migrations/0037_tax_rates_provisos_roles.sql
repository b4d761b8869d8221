-- Issue 26: tax rates as dated masters, receipt provisos (領収書但し書き) and staff roles (役割・役職).
-- Every table is a synced master (server/db/entities.ts).

-- The standard consumption tax rate by period (GET /consumption_tax_rates). A period is in force
-- from midnight Japan time of apply_start_date (YYYY-MM-DD) until the next period starts; the
-- rate is an exact decimal percentage kept as TEXT. The tax rounding the platform answers with
-- each period is the contract's one setting (contracts.tax_rounding), the one the totals use.
CREATE TABLE consumption_tax_rates (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  apply_start_date TEXT NOT NULL,
  tax_rate TEXT NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, apply_start_date)
) STRICT;

-- The fixed reduced-tax-rate settings (GET /reduce_tax_rates) by period: the four ids products
-- and categories name (10000001 specific products, 10000002..4 switched by state), one row per
-- id and period. term_start / term_end are the first and last day (Japan time) of the period;
-- term_end is null while the period is open. condition_names are a division-2 setting's button
-- names (comma separated), advanced_condition its initial choice (null: choose each time).
CREATE TABLE reduce_tax_rates (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  reduce_tax_id INTEGER NOT NULL,
  term_start TEXT NOT NULL,
  term_end TEXT,
  name TEXT NOT NULL,
  division TEXT NOT NULL CHECK (division IN ('1', '2')),
  rate TEXT NOT NULL,
  condition_names TEXT,
  advanced_condition TEXT CHECK (advanced_condition IN ('0', '1')),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, reduce_tax_id, term_start)
) STRICT;

-- Japan's history, the seed of every contract's tables (not synced: each instance holds the
-- same copy and seeds the same rows, so a store and head office agree before any sync).
CREATE TABLE japan_consumption_tax_history (
  apply_start_date TEXT PRIMARY KEY,
  tax_rate TEXT NOT NULL
) STRICT;
INSERT INTO japan_consumption_tax_history (apply_start_date, tax_rate) VALUES
  ('1989-04-01', '3'),
  ('1997-04-01', '5'),
  ('2014-04-01', '8'),
  ('2019-10-01', '10');

CREATE TABLE japan_reduce_tax_history (
  reduce_tax_id INTEGER NOT NULL,
  term_start TEXT NOT NULL,
  name TEXT NOT NULL,
  division TEXT NOT NULL,
  rate TEXT NOT NULL,
  condition_names TEXT,
  advanced_condition TEXT,
  PRIMARY KEY (reduce_tax_id, term_start)
) STRICT;
INSERT INTO japan_reduce_tax_history (reduce_tax_id, term_start, name, division, rate, condition_names, advanced_condition) VALUES
  (10000001, '2019-10-01', '軽減税率', '1', '8', NULL, NULL),
  (10000002, '2019-10-01', '選択[標準]', '2', '8', '店内,持ち帰り', '0'),
  (10000003, '2019-10-01', '選択[軽減]', '2', '8', '店内,持ち帰り', '1'),
  (10000004, '2019-10-01', '選択[選択]', '2', '8', '店内,持ち帰り', NULL);

-- Receipt provisos (GET /receipt_provisoes): the wording a receipt's 但し書き offers. The code is
-- minted by the id allocator; at most one proviso is the initial value (the repo keeps it so).
CREATE TABLE receipt_provisos (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  receipt_proviso_code INTEGER NOT NULL,
  receipt_proviso_name TEXT NOT NULL,
  initial_value_flag TEXT NOT NULL DEFAULT '0' CHECK (initial_value_flag IN ('0', '1')),
  display_sequence INTEGER,
  display_flag TEXT NOT NULL DEFAULT '1' CHECK (display_flag IN ('0', '1')),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, receipt_proviso_code)
) STRICT;

-- Staff roles (GET /roles). Role 1 is the administrator every contract has (it cannot be
-- deleted); other ids are minted by the id allocator (never 1: they end in the node's 3 digits
-- after a sequence of at least 1). Its function controls are child rows: kind 'pos'
-- (functionControls), 'inventory' (inventoryFunctionControls), 'alert' (alertFunctionControls,
-- function_id holding the alertType).
CREATE TABLE roles (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  role_id INTEGER NOT NULL,
  role_name TEXT NOT NULL,
  note TEXT,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, role_id)
) STRICT;

CREATE TABLE role_function_controls (
  contract_id TEXT NOT NULL,
  role_id INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('pos', 'inventory', 'alert')),
  function_id INTEGER NOT NULL,
  control_division TEXT NOT NULL,
  PRIMARY KEY (contract_id, role_id, kind, function_id),
  FOREIGN KEY (contract_id, role_id) REFERENCES roles (contract_id, role_id)
) STRICT;

-- Every contract, existing or made later, starts with Japan's rates and the administrator role,
-- stamped with the contract's creation time.
INSERT INTO consumption_tax_rates (contract_id, apply_start_date, tax_rate, ins_at, upd_at)
  SELECT c.contract_id, h.apply_start_date, h.tax_rate, c.created_at, c.created_at FROM contracts c, japan_consumption_tax_history h;
INSERT INTO reduce_tax_rates (contract_id, reduce_tax_id, term_start, name, division, rate, condition_names, advanced_condition, ins_at, upd_at)
  SELECT c.contract_id, h.reduce_tax_id, h.term_start, h.name, h.division, h.rate, h.condition_names, h.advanced_condition, c.created_at, c.created_at
  FROM contracts c, japan_reduce_tax_history h;
INSERT INTO roles (contract_id, role_id, role_name, ins_at, upd_at) SELECT contract_id, 1, '管理者', created_at, created_at FROM contracts;

CREATE TRIGGER contracts_seed_issue26 AFTER INSERT ON contracts
BEGIN
  INSERT INTO consumption_tax_rates (contract_id, apply_start_date, tax_rate, ins_at, upd_at)
    SELECT NEW.contract_id, apply_start_date, tax_rate, NEW.created_at, NEW.created_at FROM japan_consumption_tax_history;
  INSERT INTO reduce_tax_rates (contract_id, reduce_tax_id, term_start, name, division, rate, condition_names, advanced_condition, ins_at, upd_at)
    SELECT NEW.contract_id, reduce_tax_id, term_start, name, division, rate, condition_names, advanced_condition, NEW.created_at, NEW.created_at
    FROM japan_reduce_tax_history;
  INSERT INTO roles (contract_id, role_id, role_name, ins_at, upd_at) VALUES (NEW.contract_id, 1, '管理者', NEW.created_at, NEW.created_at);
END;

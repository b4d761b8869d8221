-- Register terminals (spec 2.11, 4.16) and the devices they link to: cash drawers and
-- payment terminals (CAT/CCT). Divisions and flags are TEXT '0'/'1' so they round-trip exactly.
-- There are no DELETE endpoints for these tables, so the foreign keys can never turn a
-- refused delete into a 500; the repos still check every reference first to answer a 400.

CREATE TABLE cash_drawers (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  cash_drawer_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  cash_drawer_name TEXT NOT NULL,
  use_stop_division TEXT NOT NULL DEFAULT '0' CHECK (use_stop_division IN ('0', '1')),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, cash_drawer_id),
  FOREIGN KEY (contract_id, store_id) REFERENCES stores (contract_id, store_id)
) STRICT;
CREATE INDEX cash_drawers_store ON cash_drawers (contract_id, store_id);

-- store_id is optional: a CAT/CCT device may be kept at head office until it is installed.
CREATE TABLE payment_terminals (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  payment_terminal_id INTEGER NOT NULL,
  store_id INTEGER,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('CAT', 'CCT')),
  device_code TEXT,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, payment_terminal_id),
  FOREIGN KEY (contract_id, store_id) REFERENCES stores (contract_id, store_id)
) STRICT;
CREATE INDEX payment_terminals_store ON payment_terminals (contract_id, store_id);

-- uuid compares without case (a UUID's hex digits mean the same in either case) and is
-- unique per contract; credit_terminal_id is unique because one CAT/CCT serves one register.
CREATE TABLE terminals (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  terminal_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  terminal_name TEXT NOT NULL,
  uuid TEXT COLLATE NOCASE,
  use_stop_division TEXT NOT NULL DEFAULT '0' CHECK (use_stop_division IN ('0', '1')),
  transaction_editable_flag TEXT NOT NULL DEFAULT '0' CHECK (transaction_editable_flag IN ('0', '1')),
  self_checkout_available_flag TEXT NOT NULL DEFAULT '0' CHECK (self_checkout_available_flag IN ('0', '1')),
  smart_id_engine_available_flag TEXT NOT NULL DEFAULT '0' CHECK (smart_id_engine_available_flag IN ('0', '1')),
  credit_terminal_id INTEGER,
  cash_drawer_id INTEGER,
  parent_terminal_id INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, terminal_id),
  FOREIGN KEY (contract_id, store_id) REFERENCES stores (contract_id, store_id),
  FOREIGN KEY (contract_id, credit_terminal_id) REFERENCES payment_terminals (contract_id, payment_terminal_id),
  FOREIGN KEY (contract_id, cash_drawer_id) REFERENCES cash_drawers (contract_id, cash_drawer_id),
  FOREIGN KEY (contract_id, parent_terminal_id) REFERENCES terminals (contract_id, terminal_id)
) STRICT;
CREATE INDEX terminals_store ON terminals (contract_id, store_id);
CREATE UNIQUE INDEX terminals_uuid ON terminals (contract_id, uuid) WHERE uuid IS NOT NULL;
CREATE UNIQUE INDEX terminals_credit_terminal ON terminals (contract_id, credit_terminal_id) WHERE credit_terminal_id IS NOT NULL;
CREATE INDEX terminals_parent ON terminals (contract_id, parent_terminal_id) WHERE parent_terminal_id IS NOT NULL;
CREATE INDEX terminals_cash_drawer ON terminals (contract_id, cash_drawer_id) WHERE cash_drawer_id IS NOT NULL;

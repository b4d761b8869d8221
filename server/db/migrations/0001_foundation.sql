-- Foundation: contracts and their API clients, tokens, id sequences, and the first masters.
-- Times are epoch milliseconds (UTC); the HTTP layer renders them in the contract's zone.
-- Numeric ids (minted by the allocator, DESIGN §4) and display sequences are INTEGER so
-- they sort as numbers and look up by primary key; the HTTP layer renders them as strings.
-- Divisions, flags and codes are TEXT so they round-trip exactly.

CREATE TABLE id_sequences (
  name TEXT PRIMARY KEY,
  last INTEGER NOT NULL
) STRICT;

CREATE TABLE contracts (
  contract_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  plan TEXT NOT NULL CHECK (plan IN ('standard','premium','premium_plus','food_business','retail_business','enterprise')),
  time_zone TEXT NOT NULL DEFAULT 'Asia/Tokyo',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE api_clients (
  client_id TEXT PRIMARY KEY,
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  secret_hash TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE access_tokens (
  token_hash TEXT PRIMARY KEY,
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  client_id TEXT NOT NULL REFERENCES api_clients (client_id),
  scopes TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX access_tokens_expiry ON access_tokens (expires_at);

CREATE TABLE stores (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  store_id INTEGER NOT NULL,
  store_name TEXT NOT NULL,
  store_code TEXT,
  division TEXT NOT NULL DEFAULT '0',
  pause_flag TEXT NOT NULL DEFAULT '0',
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, store_id)
) STRICT;
CREATE UNIQUE INDEX stores_code ON stores (contract_id, store_code) WHERE store_code IS NOT NULL;

CREATE TABLE categories (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  category_id INTEGER NOT NULL,
  category_code TEXT,
  category_name TEXT NOT NULL,
  category_abbr TEXT,
  display_sequence INTEGER,
  display_flag TEXT NOT NULL DEFAULT '1',
  tax_division TEXT NOT NULL DEFAULT '0',
  point_not_applicable TEXT NOT NULL DEFAULT '0',
  tax_free_division TEXT NOT NULL DEFAULT '0',
  reduce_tax_id TEXT,
  color TEXT,
  category_group_id INTEGER,
  parent_category_id INTEGER,
  level INTEGER NOT NULL DEFAULT 1 CHECK (level BETWEEN 1 AND 3),
  tag TEXT,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, category_id),
  FOREIGN KEY (contract_id, parent_category_id) REFERENCES categories (contract_id, category_id)
) STRICT;
CREATE UNIQUE INDEX categories_code ON categories (contract_id, category_code) WHERE category_code IS NOT NULL;
CREATE INDEX categories_parent ON categories (contract_id, parent_category_id);

CREATE TABLE customer_group_sections (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  section_id INTEGER NOT NULL CHECK (section_id BETWEEN 1 AND 5),
  label TEXT NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, section_id)
) STRICT;

CREATE TABLE customer_groups (
  contract_id TEXT NOT NULL,
  customer_group_id INTEGER NOT NULL,
  section_id INTEGER NOT NULL,
  label TEXT NOT NULL,
  display_flag TEXT NOT NULL DEFAULT '1',
  display_sequence INTEGER NOT NULL DEFAULT 0,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, customer_group_id),
  FOREIGN KEY (contract_id, section_id) REFERENCES customer_group_sections (contract_id, section_id)
) STRICT;
CREATE INDEX customer_groups_section ON customer_groups (contract_id, section_id);

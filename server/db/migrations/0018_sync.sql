-- Sync with head office (issue 11, DESIGN §5). Store side: the outbox (written in the same
-- transaction as every synced change), the link to central and its cursors. Central side: the
-- nodes allowed to push (secret stored hashed), their high-water marks, the change log stores
-- pull masters from, and dead letters. Both sides: the hybrid logical clock's last value and
-- each master record's current HLC version (last writer wins), and the log of conflict losers.

-- The role this data dir was last served as, so one-shot commands write their sync rows the same way.
CREATE TABLE sync_instance (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  role TEXT NOT NULL CHECK (role IN ('store', 'central'))
);

-- The HLC's last value (one row), so the clock never goes back across restarts.
CREATE TABLE sync_hlc (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last TEXT NOT NULL
);

-- The HLC version of each synced master record on this instance (last writer wins).
CREATE TABLE sync_versions (
  contract_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  hlc TEXT NOT NULL,
  PRIMARY KEY (contract_id, entity, entity_id)
) WITHOUT ROWID;

-- Store: every synced change, in commit order; seq is the node's push sequence (never reused).
CREATE TABLE outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  node INTEGER NOT NULL,
  contract_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  op TEXT NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
  hlc TEXT NOT NULL,
  row TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX outbox_contract ON outbox (contract_id, seq);

-- Store: the link of a contract to central. The secret is kept as given (the store presents it).
CREATE TABLE sync_links (
  contract_id TEXT PRIMARY KEY,
  central_url TEXT NOT NULL,
  node INTEGER NOT NULL,
  secret TEXT NOT NULL,
  linked_at INTEGER NOT NULL,
  pull_cursor INTEGER NOT NULL DEFAULT 0,
  last_push_at INTEGER,
  last_pull_at INTEGER,
  last_attempt_at INTEGER,
  last_error TEXT,
  online INTEGER NOT NULL DEFAULT 0,
  clock_skew_ms INTEGER,
  central_dead_letters INTEGER NOT NULL DEFAULT 0
);

-- Central: the store nodes of a contract allowed to push, and what each has pushed so far.
CREATE TABLE sync_nodes (
  contract_id TEXT NOT NULL,
  node INTEGER NOT NULL CHECK (node BETWEEN 1 AND 999),
  name TEXT,
  secret_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,
  high_water INTEGER NOT NULL DEFAULT 0,
  last_push_at INTEGER,
  last_pull_at INTEGER,
  PRIMARY KEY (contract_id, node)
);

-- Central: every master change, its own and those stores pushed; stores pull by seq.
CREATE TABLE change_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  contract_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  op TEXT NOT NULL,
  hlc TEXT NOT NULL,
  origin_node INTEGER NOT NULL,
  row TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX change_log_contract ON change_log (contract_id, seq);

-- Central: contracts whose masters made before sync began are in the change log.
CREATE TABLE sync_seeded (
  contract_id TEXT PRIMARY KEY,
  seeded_at INTEGER NOT NULL
);

-- Items not applied: at central those a node pushed and central refused (direction push); at a
-- store those pulled from central that could not be applied (direction pull).
CREATE TABLE dead_letters (
  dead_letter_id INTEGER PRIMARY KEY AUTOINCREMENT,
  contract_id TEXT NOT NULL,
  node INTEGER NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('push', 'pull')),
  seq INTEGER NOT NULL,
  entity TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  op TEXT NOT NULL,
  hlc TEXT NOT NULL,
  row TEXT,
  reason TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'retried', 'discarded')),
  created_at INTEGER NOT NULL,
  resolved_at INTEGER
);
CREATE INDEX dead_letters_contract ON dead_letters (contract_id, status);

-- Both sides: a master version that lost to a later HLC (last writer wins), kept for the record.
CREATE TABLE sync_conflicts (
  conflict_id INTEGER PRIMARY KEY AUTOINCREMENT,
  contract_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  winner_hlc TEXT NOT NULL,
  loser_hlc TEXT NOT NULL,
  loser_row TEXT,
  at INTEGER NOT NULL
);

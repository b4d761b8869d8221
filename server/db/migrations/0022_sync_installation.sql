-- A node number is one installation (issue 11): ids carry the node number (DESIGN §4), and a
-- data dir set up again would mint them again from 1 and restart its outbox sequence below
-- central's high-water mark. A store's data dir gets an installation id when first linked;
-- central keeps the one a node first pushed with and refuses another.
CREATE TABLE sync_installation (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  installation_id TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
ALTER TABLE sync_nodes ADD COLUMN installation_id TEXT;

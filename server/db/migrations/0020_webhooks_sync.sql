-- Webhooks ride the sync (issue 11 item 7, DESIGN §5). A linked store's events are pushed to
-- central, which delivers them; event ids are minted per instance (<seq><node>), so two stores of
-- two contracts with the same node number mint the same ids: at central an event is known by
-- (contract_id, event_id), like every other synced record. The tables are rebuilt with that key.
CREATE TABLE webhook_events_new (
  contract_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event TEXT NOT NULL,
  action TEXT,
  body TEXT NOT NULL,
  cause TEXT, -- JSON: what raised it
  target_url TEXT, -- a callback's own address (6.3); null for subscription events
  -- set when this instance made its deliveries, or (a linked store) handed the event to central
  fanned_out INTEGER NOT NULL DEFAULT 0 CHECK (fanned_out IN (0, 1)),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, event_id)
) STRICT;
INSERT INTO webhook_events_new (contract_id, event_id, event, action, body, cause, target_url, fanned_out, created_at)
  SELECT contract_id, event_id, event, action, body, cause, target_url, fanned_out, created_at FROM webhook_events;
DROP TABLE webhook_events;
ALTER TABLE webhook_events_new RENAME TO webhook_events;
CREATE INDEX webhook_events_unfanned ON webhook_events (created_at) WHERE fanned_out = 0;

CREATE TABLE webhook_deliveries_new (
  delivery_id TEXT NOT NULL PRIMARY KEY,
  contract_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  subscription_id TEXT, -- null for a callback (6.3)
  url TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  replays INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  last_attempt_at INTEGER,
  last_status_code INTEGER,
  last_error TEXT,
  delivered_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (contract_id, event_id, subscription_id)
) STRICT;
INSERT INTO webhook_deliveries_new SELECT delivery_id, contract_id, event_id, subscription_id, url, status, attempts, replays, next_attempt_at,
  last_attempt_at, last_status_code, last_error, delivered_at, created_at, updated_at FROM webhook_deliveries;
DROP TABLE webhook_deliveries;
ALTER TABLE webhook_deliveries_new RENAME TO webhook_deliveries;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_contract ON webhook_deliveries (contract_id, delivery_id);

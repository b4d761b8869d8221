-- Outbound webhooks (issue 11 item 7, DESIGN §5) and the order-shipment orders that raise 6.1.
--
-- webhook_subscriptions: where a contract's events go. The secret is `whsec_<base64>` (Standard
-- Webhooks); it is kept in clear because every delivery is signed with it.
CREATE TABLE webhook_subscriptions (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  subscription_id TEXT NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL, -- space separated event names
  secret TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  disabled_reason TEXT, -- why the service turned it off (410 Gone), null when active or turned off by hand
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, subscription_id)
) STRICT;

-- webhook_events: one row per notice, written in the transaction of the change that caused it
-- (sync/webhooks/events.ts). body is the exact JSON sent; fanned_out is set when the worker has
-- made its deliveries (one per matching subscription, or one to target_url for a callback).
CREATE TABLE webhook_events (
  event_id TEXT NOT NULL PRIMARY KEY,
  contract_id TEXT NOT NULL,
  event TEXT NOT NULL,
  action TEXT,
  body TEXT NOT NULL,
  cause TEXT, -- JSON: what raised it
  target_url TEXT, -- a callback's own address (6.3); null for subscription events
  fanned_out INTEGER NOT NULL DEFAULT 0 CHECK (fanned_out IN (0, 1)),
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_events_unfanned ON webhook_events (created_at) WHERE fanned_out = 0;

-- webhook_deliveries: one per (event, subscription); status pending | delivered | dead.
CREATE TABLE webhook_deliveries (
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
  UNIQUE (event_id, subscription_id)
) STRICT;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_contract ON webhook_deliveries (contract_id, delivery_id);

-- The order heads of /{contract_id}/order-shipment/orders (the supporting resource of 6.1).
CREATE TABLE order_shipment_orders (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  order_head_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  order_code TEXT,
  status TEXT NOT NULL DEFAULT 'received' CHECK (status IN ('received', 'shipped', 'canceled')),
  shipped_at INTEGER,
  canceled_at INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, order_head_id),
  FOREIGN KEY (contract_id, store_id) REFERENCES stores (contract_id, store_id)
) STRICT;
CREATE INDEX order_shipment_orders_store ON order_shipment_orders (contract_id, store_id);

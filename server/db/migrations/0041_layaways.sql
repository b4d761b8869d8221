-- Layaways (取置き, issue 26): goods a store keeps for a customer, registered by the platform's
-- POST /transactions/layaways as a transaction of transactionHeadDivision 10 and listed by GET
-- /transactions/layaways. Store-made records (registry kind 'sales', ids minted from the
-- transactions sequence with the minting node's suffix, so a layaway's transactionHeadId never
-- names a sale) that travel to head office with their details.
--
-- layaways: the head. transaction_at: when the server registered it (transactionDateTime);
--   terminal_tran_at: the terminal's time (terminalTranDateTime), which dates it on a business
--   day (a closed day refuses it). subtotal, subtotal_discount_price, total: exact decimals as
--   the server computed them from the lines (the sent values must agree); amount: the number of
--   goods kept. status: the layaway's state as the platform's transaction `layaway` record
--   carries it, 0 kept, 1 picked up (引取済み); pick_up_transaction_head_id: the sale that picked
--   it up. cancel_division 1 and cancel_at: cancelled (取消), its goods back in the available
--   stock. A layaway is picked up or cancelled once, never both.
--   body_hash: the registration request's body (SHA-256 of its JSON, keys sorted): a terminal
--   resending the same store, terminal and terminalTranId gets the first layaway back when the
--   body is the same, a 409 when it differs (as POST /transactions); the unique index keeps one.
-- layaway_details: one product line each (transactionDetailId unique in its layaway); quantity
--   a whole number of goods taken out of the store's available stock and laid away.
-- stock_movements.layaway_delta: what the movement added to the store's laid-away quantity of the
--   product (stock.layaway_stock_amount); head office adds it as it adds delta (sync/balances.ts).
--   layaway_amount_after: that quantity right after the movement, as the store that made it saw
--   it (the platform's layawayStockAmount of a stock change). Both '0' for every earlier movement.
CREATE TABLE layaways (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  transaction_head_id INTEGER NOT NULL,
  transaction_at INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  terminal_id INTEGER NOT NULL,
  terminal_tran_id TEXT NOT NULL,
  terminal_tran_at INTEGER NOT NULL,
  customer_id INTEGER,
  staff_id INTEGER,
  subtotal TEXT NOT NULL,
  subtotal_discount_price TEXT NOT NULL,
  total TEXT NOT NULL,
  amount INTEGER NOT NULL,
  memo TEXT,
  status TEXT NOT NULL DEFAULT '0',
  pick_up_transaction_head_id INTEGER,
  cancel_division TEXT NOT NULL DEFAULT '0',
  cancel_at INTEGER,
  body_hash TEXT NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, transaction_head_id)
) STRICT;
CREATE INDEX layaways_store ON layaways (contract_id, store_id, terminal_tran_at);
CREATE UNIQUE INDEX layaways_terminal_tran ON layaways (contract_id, store_id, terminal_id, terminal_tran_id);
CREATE INDEX layaways_customer ON layaways (contract_id, customer_id);
CREATE INDEX layaways_upd ON layaways (contract_id, upd_at);

CREATE TABLE layaway_details (
  contract_id TEXT NOT NULL,
  transaction_head_id INTEGER NOT NULL,
  transaction_detail_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  sales_price TEXT NOT NULL,
  unit_discount_price TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, transaction_head_id, transaction_detail_id),
  FOREIGN KEY (contract_id, transaction_head_id) REFERENCES layaways (contract_id, transaction_head_id)
) STRICT;

ALTER TABLE stock_movements ADD COLUMN layaway_delta TEXT NOT NULL DEFAULT '0';
ALTER TABLE stock_movements ADD COLUMN layaway_amount_after TEXT NOT NULL DEFAULT '0';

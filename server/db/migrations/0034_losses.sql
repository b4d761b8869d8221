-- Losses (ロス登録, issue 26): goods a store lost (broken, stolen, thrown away) taken out of its
-- stock, each named by a loss division (ロス区分) of the contract's own list.
--
-- loss_divisions: a plain master keyed by the code the shop gives it (the platform's division
--   code, digits), editable anywhere (registry kind 'master').
-- losses: store-made records (registry kind 'sales', ids with the minting node's suffix) that
--   travel to head office with their details each time they change. division names a loss
--   division's code (checked by the rules, not a foreign key: the master and the record travel
--   apart). loss_at: the platform's lossDateTime, when the loss happened; the stock movements
--   of the loss carry it as their target time.
-- loss_details: one product line each. tax_rate: the product's rate in force at loss_at unless
--   sent; cost: the product master's (tax excluded) when the line was made, 0 when it has none.
--   quantity: a whole number; the store's stock is always the sum of the loss movements of its
--   lines (stock division 14), so an edit moves the difference and a delete gives it all back.
CREATE TABLE loss_divisions (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  division_code TEXT NOT NULL,
  division_name TEXT NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, division_code)
) STRICT;

CREATE TABLE losses (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  loss_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  division TEXT NOT NULL,
  loss_at INTEGER NOT NULL,
  memo TEXT,
  identification_no TEXT,
  staff_id INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, loss_id)
) STRICT;
CREATE INDEX losses_store_at ON losses (contract_id, store_id, loss_at);
CREATE INDEX losses_division ON losses (contract_id, division);
CREATE INDEX losses_upd ON losses (contract_id, upd_at);

CREATE TABLE loss_details (
  contract_id TEXT NOT NULL,
  loss_detail_id INTEGER NOT NULL,
  loss_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  tax_rate TEXT NOT NULL,
  cost TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, loss_detail_id),
  FOREIGN KEY (contract_id, loss_id) REFERENCES losses (contract_id, loss_id)
) STRICT;
CREATE INDEX loss_details_loss ON loss_details (contract_id, loss_id, loss_detail_id);

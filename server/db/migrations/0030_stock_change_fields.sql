-- Stock changes in the platform's terms (issue 20 item 3): GET /stock/changes answers each
-- movement as the platform's stock history (在庫変動履歴), so a movement keeps what that record
-- holds. The table is rebuilt: `cause` (our own words) becomes `stock_division`, the platform's
-- 在庫区分 code, and the movement gains its target time, the stores a store-to-store shipping
-- moved between, and the product's tax division, price and cost as they were when it moved.
--
-- stock_division: 01 correction (the stock routes through the back-office UI), 02 sale, 04
--   shipping out, 05 receiving, 10 shipment, 12 return, 15 API (the stock routes through any
--   other client); the other codes of the platform's list are allowed so a filter may name them.
-- target_at: the platform's targetDateTime (対象日時), the time the quantity changed; equal to
--   moved_at (updDateTime) for everything this server records.
-- from_store_id / to_store_id: the shipping and receiving stores of a store-to-store shipping
--   (04 and 05), null otherwise.
-- tax_division, price_units, cost_units: the product master's at the movement, in the products
--   table's units (price in thousandths, cost in hundred-thousandths); cost null when the
--   product has none.
--
-- Existing rows: the division follows from the cause (manual_set, manual_add and bulk_add made
-- with the back-office UI's client are 01, by any other client 15); the target time is the
-- time it moved; the stores come from the shipping it references; tax division, price and cost
-- from the product master as it is now (the nearest record of what they were).
CREATE TABLE stock_movements_new (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  movement_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  stock_division TEXT NOT NULL CHECK (stock_division IN ('01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '12', '13', '14', '15', '16', '17', '18')),
  delta TEXT NOT NULL,
  amount_after TEXT NOT NULL,
  target_at INTEGER NOT NULL,
  from_store_id INTEGER,
  to_store_id INTEGER,
  tax_division TEXT CHECK (tax_division IN ('0', '1', '2')),
  price_units INTEGER,
  cost_units INTEGER,
  memo TEXT,
  transaction_head_id INTEGER,
  shipping_id INTEGER,
  shipment_id INTEGER,
  storage_info_id INTEGER,
  client_id TEXT,
  staff_id INTEGER,
  moved_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, movement_id)
) STRICT;
INSERT INTO stock_movements_new (contract_id, movement_id, store_id, product_id, stock_division, delta, amount_after, target_at,
    from_store_id, to_store_id, tax_division, price_units, cost_units, memo, transaction_head_id, shipping_id, shipment_id,
    storage_info_id, client_id, staff_id, moved_at)
  SELECT m.contract_id, m.movement_id, m.store_id, m.product_id,
    CASE m.cause
      WHEN 'sale' THEN '02'
      WHEN 'return' THEN '12'
      WHEN 'shipping_out' THEN '04'
      WHEN 'receiving' THEN '05'
      WHEN 'shipment' THEN '10'
      ELSE CASE WHEN m.client_id LIKE 'backoffice-ui:%' THEN '01' ELSE '15' END
    END,
    m.delta, m.amount_after, m.moved_at, s.shipping_store_id, s.receiving_store_id,
    CASE WHEN p.tax_division IN ('0', '1', '2') THEN p.tax_division END, p.price_units, p.cost_units,
    m.memo, m.transaction_head_id, m.shipping_id, m.shipment_id, m.storage_info_id, m.client_id, m.staff_id, m.moved_at
  FROM stock_movements m
  LEFT JOIN shippings s ON s.contract_id = m.contract_id AND s.shipping_id = m.shipping_id
  LEFT JOIN products p ON p.contract_id = m.contract_id AND p.product_id = m.product_id;
DROP TABLE stock_movements;
ALTER TABLE stock_movements_new RENAME TO stock_movements;
CREATE INDEX stock_movements_item ON stock_movements (contract_id, product_id, store_id, movement_id);
CREATE INDEX stock_movements_transaction ON stock_movements (contract_id, transaction_head_id)
  WHERE transaction_head_id IS NOT NULL;

-- Issue 26: coupons (クーポン) as a synced master (server/db/entities.ts), and the cancel's cause
-- of a point movement.
--
-- A coupon is a discount (coupon_division 1: coupon_value yen off) or a rate (2: coupon_value %
-- off) valid from start_date to end_date inclusive (YYYY-MM-DD in the contract's zone; null: no
-- bound). A sale's coupon line naming it (transaction_coupons.coupon_id) is checked against it and
-- takes its name and benefit when the register sends none. coupon_value is exact decimal TEXT.
CREATE TABLE coupons (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  coupon_id INTEGER NOT NULL,
  coupon_name TEXT NOT NULL,
  coupon_division TEXT NOT NULL CHECK (coupon_division IN ('1', '2')),
  coupon_value TEXT NOT NULL,
  start_date TEXT,
  end_date TEXT,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, coupon_id)
) STRICT;

-- A coupon's items (クーポン商品): type 1 a condition of use, 2 goods the coupon grants (at
-- sales_price); division says what item_id names: 1 a category id, 2 a product id, 3 a group
-- code (text, so item_id is TEXT). Goods granted are products only.
CREATE TABLE coupon_products (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  coupon_id INTEGER NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('1', '2')),
  division TEXT NOT NULL CHECK (division IN ('1', '2', '3')),
  item_id TEXT NOT NULL,
  sales_price TEXT,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, coupon_id, type, division, item_id)
) STRICT;

-- customer_point_movements.cause gains sale_cancel (POST /transactions/{id}/cancel gives back
-- what the sale moved); the column is free text, so no change of the table is needed.

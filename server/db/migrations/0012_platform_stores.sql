-- Stores as the platform has them (issue 16, item 8) and the per-store handling of products
-- (item 9).
--
-- division: the platform's 1 normal store / 2 warehouse replaces the invented 0 store /
-- 1 warehouse / 2 order-receiving store. On the platform an order-receiving store (受注店舗)
-- is no division of a POS store: it is a store of the order-shipment API, which refuses the
-- ids of normal stores and warehouses. It becomes order_receiving = '1' here (its division
-- '1': it sells), so the closing rule of spec 4.15 keeps refusing it. The column keeps its old
-- DEFAULT (SQLite cannot change it); the triggers refuse any other value.
ALTER TABLE stores ADD COLUMN order_receiving TEXT NOT NULL DEFAULT '0' CHECK (order_receiving IN ('0', '1'));
UPDATE stores SET order_receiving = '1' WHERE division = '2';
UPDATE stores SET division = CASE division WHEN '1' THEN '2' ELSE '1' END;
CREATE TRIGGER stores_division_insert BEFORE INSERT ON stores
  WHEN NEW.division NOT IN ('1', '2')
  BEGIN SELECT RAISE(ABORT, 'stores.division must be 1 (normal store) or 2 (warehouse)'); END;
CREATE TRIGGER stores_division_update BEFORE UPDATE OF division ON stores
  WHEN NEW.division NOT IN ('1', '2')
  BEGIN SELECT RAISE(ABORT, 'stores.division must be 1 (normal store) or 2 (warehouse)'); END;

-- The platform's store fields we lacked. Texts are NULL when unset; flags and divisions TEXT
-- codes; decimals TEXT in their shortest exact form. The settings the platform names twice
-- stay one column each: sumProcDivision is closing_method, sumDateChangeTime closing_time,
-- terminalAdjustmentCashFlag cash_input_at_settlement, savingAutoDivision and savingAutoPrice
-- bank_deposit_auto_input and its amount; discountRoundingDivision is the contract's setting.
ALTER TABLE stores ADD COLUMN store_abbr TEXT;
ALTER TABLE stores ADD COLUMN print_receipt_store_name TEXT;
ALTER TABLE stores ADD COLUMN print_stock_receipt_store_name TEXT;
ALTER TABLE stores ADD COLUMN post_code TEXT;
ALTER TABLE stores ADD COLUMN address TEXT;
ALTER TABLE stores ADD COLUMN phone_number TEXT;
ALTER TABLE stores ADD COLUMN fax_number TEXT;
ALTER TABLE stores ADD COLUMN mail_address TEXT;
ALTER TABLE stores ADD COLUMN homepage TEXT;
ALTER TABLE stores ADD COLUMN temp_tran_mail_address TEXT;
ALTER TABLE stores ADD COLUMN price_change_flag TEXT NOT NULL DEFAULT '1' CHECK (price_change_flag IN ('0', '1'));
ALTER TABLE stores ADD COLUMN sell_division TEXT NOT NULL DEFAULT '0' CHECK (sell_division IN ('0', '1'));
ALTER TABLE stores ADD COLUMN sum_ref_column TEXT NOT NULL DEFAULT '0' CHECK (sum_ref_column IN ('0', '1'));
ALTER TABLE stores ADD COLUMN point_not_applicable TEXT NOT NULL DEFAULT '0' CHECK (point_not_applicable IN ('0', '1'));
ALTER TABLE stores ADD COLUMN tax_free_division TEXT NOT NULL DEFAULT '0' CHECK (tax_free_division IN ('0', '1', '2'));
ALTER TABLE stores ADD COLUMN max_bundle_product_count INTEGER NOT NULL DEFAULT 9 CHECK (max_bundle_product_count BETWEEN 1 AND 999);
ALTER TABLE stores ADD COLUMN max_discount_rate TEXT;
ALTER TABLE stores ADD COLUMN carriage_display_flag TEXT NOT NULL DEFAULT '0' CHECK (carriage_display_flag IN ('0', '1'));
ALTER TABLE stores ADD COLUMN terminal_check_cash_flag TEXT NOT NULL DEFAULT '0' CHECK (terminal_check_cash_flag IN ('0', '1'));
ALTER TABLE stores ADD COLUMN waiter_adjustment_division TEXT NOT NULL DEFAULT '0' CHECK (waiter_adjustment_division IN ('0', '1'));
ALTER TABLE stores ADD COLUMN cancel_setting_division TEXT NOT NULL DEFAULT '1' CHECK (cancel_setting_division IN ('1', '2', '3'));
ALTER TABLE stores ADD COLUMN rounding_division TEXT NOT NULL DEFAULT '00'
  CHECK (rounding_division IN ('00', '11', '12', '13', '21', '22', '23', '31', '32', '33', '41', '42', '43', '99'));
ALTER TABLE stores ADD COLUMN card_company_select_division TEXT NOT NULL DEFAULT '0' CHECK (card_company_select_division IN ('0', '1'));
ALTER TABLE stores ADD COLUMN gift_receipt_valid_days INTEGER;
ALTER TABLE stores ADD COLUMN tax_label_normal TEXT;
ALTER TABLE stores ADD COLUMN tax_label_reduce TEXT;
ALTER TABLE stores ADD COLUMN display_sequence INTEGER;
ALTER TABLE stores ADD COLUMN face_payment_use_division TEXT NOT NULL DEFAULT '0' CHECK (face_payment_use_division IN ('0', '1'));
ALTER TABLE stores ADD COLUMN invoice_registration_no TEXT;

-- pointCondition beside the point settings of migration 0008 (point_giving_*, point_spend_division,
-- mileage_division), which it shows and writes: one source of truth for the sales rules.
ALTER TABLE stores ADD COLUMN point_use_division TEXT NOT NULL DEFAULT '1' CHECK (point_use_division IN ('0', '1'));
ALTER TABLE stores ADD COLUMN spend_rate TEXT NOT NULL DEFAULT '1';
ALTER TABLE stores ADD COLUMN point_use_unit INTEGER;
ALTER TABLE stores ADD COLUMN point_spend_limit_division TEXT NOT NULL DEFAULT '0' CHECK (point_spend_limit_division IN ('0', '1', '2'));
ALTER TABLE stores ADD COLUMN expire_division TEXT NOT NULL DEFAULT '0' CHECK (expire_division IN ('0', '1', '2', '3'));
ALTER TABLE stores ADD COLUMN expire_limit INTEGER;
ALTER TABLE stores ADD COLUMN mileage_limit INTEGER;

-- receiptPrintInfo: the texts a client may write. Its images (airPrintLogo, advertisementImage,
-- giftReceiptImage) and giftReceiptNote are uploaded through the admin screen on the platform;
-- this server has none, so they are not stored.
ALTER TABLE stores ADD COLUMN receipt_header TEXT;
ALTER TABLE stores ADD COLUMN receipt_footer TEXT;
ALTER TABLE stores ADD COLUMN receipt_tax_office_stamp_comment TEXT;
ALTER TABLE stores ADD COLUMN tax_office_name TEXT;
ALTER TABLE stores ADD COLUMN discount_receipt_header TEXT;
ALTER TABLE stores ADD COLUMN discount_receipt_footer TEXT;

-- A store as the API reads it: its row and the contract's discount rounding, which the platform
-- shows on the store. SQLite expands stores.* when the view is used, so later columns appear.
CREATE VIEW store_reads AS
  SELECT stores.*, contracts.discount_rounding_division AS contract_discount_rounding_division
  FROM stores JOIN contracts ON contracts.contract_id = stores.contract_id;

-- Per-store handling of a product (商品取扱店舗): assign_division '0' sells, '1' does not. A store
-- without a row sells the product (the platform's default "every store handles a new product").
CREATE TABLE product_stores (
  contract_id TEXT NOT NULL,
  product_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  assign_division TEXT NOT NULL CHECK (assign_division IN ('0', '1')),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, product_id, store_id),
  FOREIGN KEY (contract_id, product_id) REFERENCES products (contract_id, product_id) ON DELETE CASCADE,
  FOREIGN KEY (contract_id, store_id) REFERENCES stores (contract_id, store_id)
) STRICT;
CREATE INDEX product_stores_store ON product_stores (contract_id, store_id);

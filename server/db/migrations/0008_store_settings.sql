-- Settings the sales endpoints of issue 4 read (spec 2.13 defaults "from the store master" and
-- "from settings", 4.15's store settings). Decimal settings are TEXT in plain decimal notation.
ALTER TABLE stores ADD COLUMN point_giving_division TEXT NOT NULL DEFAULT '1' CHECK (point_giving_division IN ('1', '2', '3', '4'));
ALTER TABLE stores ADD COLUMN point_giving_unit_price TEXT NOT NULL DEFAULT '100';
ALTER TABLE stores ADD COLUMN point_giving_unit TEXT NOT NULL DEFAULT '1';
ALTER TABLE stores ADD COLUMN point_spend_division TEXT NOT NULL DEFAULT '1' CHECK (point_spend_division IN ('1', '2'));
ALTER TABLE stores ADD COLUMN mileage_division TEXT NOT NULL DEFAULT '0' CHECK (mileage_division IN ('0', '1', '2'));
ALTER TABLE stores ADD COLUMN mileage_label TEXT;
ALTER TABLE stores ADD COLUMN closing_method TEXT NOT NULL DEFAULT '0' CHECK (closing_method IN ('0', '1'));
ALTER TABLE stores ADD COLUMN closing_time TEXT NOT NULL DEFAULT '23:59';
ALTER TABLE stores ADD COLUMN bank_deposit_auto_input TEXT NOT NULL DEFAULT '0' CHECK (bank_deposit_auto_input IN ('0', '1'));
ALTER TABLE stores ADD COLUMN bank_deposit_auto_input_amount TEXT NOT NULL DEFAULT '0';
ALTER TABLE stores ADD COLUMN cash_input_at_settlement TEXT NOT NULL DEFAULT '0' CHECK (cash_input_at_settlement IN ('0', '1'));
ALTER TABLE stores ADD COLUMN cash_drawer_division TEXT NOT NULL DEFAULT '0' CHECK (cash_drawer_division IN ('0', '1'));

-- Tax settings of the contract: rounding of tax amounts and of discounts
-- ('0' half up, '1' down, '2' up). Japanese shops usually round tax down.
ALTER TABLE contracts ADD COLUMN tax_rounding TEXT NOT NULL DEFAULT '1' CHECK (tax_rounding IN ('0', '1', '2'));
ALTER TABLE contracts ADD COLUMN discount_rounding_division TEXT NOT NULL DEFAULT '0' CHECK (discount_rounding_division IN ('0', '1', '2'));

-- Contract settings that endpoints of issue 3 depend on (spec 4.8, 4.16, §8).
-- member_head_office_linkage: staff ranks are maintained by head office and cannot be
--   updated here (4.8 → 400).
-- cat_cct_linkage: the contract may link payment terminals (CAT/CCT) to register terminals (4.16).
-- max_*: registration caps bought with the contract (§8); the defaults are a basic contract:
--   ten sales terminals, no self-checkout, no smart ID engine.
ALTER TABLE contracts ADD COLUMN member_head_office_linkage INTEGER NOT NULL DEFAULT 0 CHECK (member_head_office_linkage IN (0, 1));
ALTER TABLE contracts ADD COLUMN cat_cct_linkage INTEGER NOT NULL DEFAULT 0 CHECK (cat_cct_linkage IN (0, 1));
ALTER TABLE contracts ADD COLUMN max_sales_terminals INTEGER NOT NULL DEFAULT 10 CHECK (max_sales_terminals >= 0);
ALTER TABLE contracts ADD COLUMN max_self_checkout_terminals INTEGER NOT NULL DEFAULT 0 CHECK (max_self_checkout_terminals >= 0);
ALTER TABLE contracts ADD COLUMN max_smart_id_engines INTEGER NOT NULL DEFAULT 0 CHECK (max_smart_id_engines >= 0);

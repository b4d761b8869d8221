-- Staff (spec 2.3), their back-office logins and rights (spec §5, 4.4), staff ranks (2.6).

-- Nullable columns are the fields a PATCH may clear (null or ""); the others have defaults.
CREATE TABLE staffs (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  staff_id INTEGER NOT NULL,
  staff_name TEXT NOT NULL,
  staff_kana TEXT,
  gender TEXT NOT NULL DEFAULT '9' CHECK (gender IN ('0', '1', '9')),
  birthday TEXT,
  post_code TEXT,
  address TEXT,
  phone TEXT,
  employee_classification_id INTEGER,
  dashboard_type INTEGER NOT NULL DEFAULT 0 CHECK (dashboard_type IN (0, 1)),
  staff_code TEXT,
  hire_date TEXT,
  termination_date TEXT,
  termination_reason TEXT,
  role_in_employee_list TEXT,
  career TEXT,
  pass_code TEXT,
  display_sequence INTEGER,
  memo TEXT,
  admin_memo TEXT,
  admin_flag INTEGER NOT NULL DEFAULT 0 CHECK (admin_flag IN (0, 1)),
  foreigner_flag INTEGER NOT NULL DEFAULT 0 CHECK (foreigner_flag IN (0, 1)),
  stamp_screen_display_flag INTEGER NOT NULL DEFAULT 0 CHECK (stamp_screen_display_flag IN (0, 1)),
  personal_web_stamp_screen_display_flag INTEGER NOT NULL DEFAULT 0 CHECK (personal_web_stamp_screen_display_flag IN (0, 1)),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, staff_id)
) STRICT;
CREATE UNIQUE INDEX staffs_code ON staffs (contract_id, staff_code) WHERE staff_code IS NOT NULL;

-- The back-office login of a staff member: kept apart from the staff master so that the
-- password hash never travels with staff records (sync, list queries). rights: space separated.
CREATE TABLE staff_logins (
  contract_id TEXT NOT NULL,
  staff_id INTEGER NOT NULL,
  password_hash TEXT NOT NULL,
  rights TEXT NOT NULL DEFAULT '',
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, staff_id),
  FOREIGN KEY (contract_id, staff_id) REFERENCES staffs (contract_id, staff_id)
) STRICT;

-- A user token (password grant) names its staff member; app tokens leave it null. The rights
-- are looked up by staff at verification, so a rights change applies to tokens already issued.
ALTER TABLE access_tokens ADD COLUMN staff_id INTEGER;
CREATE INDEX access_tokens_staff ON access_tokens (contract_id, staff_id) WHERE staff_id IS NOT NULL;

-- staff_rank is the code the shop gives the rank (its key, "the code in the admin screen").
-- staff_discount_rate is an exact decimal percentage kept as TEXT, never a float.
CREATE TABLE staff_ranks (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  staff_rank TEXT NOT NULL,
  full_name TEXT NOT NULL,
  display_name TEXT,
  display_flag TEXT NOT NULL DEFAULT '1' CHECK (display_flag IN ('0', '1')),
  display_sequence INTEGER NOT NULL DEFAULT 0,
  staff_discount_rate TEXT NOT NULL DEFAULT '0',
  use_product_staff_discount_rate_division TEXT NOT NULL DEFAULT '0' CHECK (use_product_staff_discount_rate_division IN ('0', '1')),
  staff_application_selling_price_division TEXT NOT NULL DEFAULT '0' CHECK (staff_application_selling_price_division IN ('0', '1', '2')),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, staff_rank)
) STRICT;

-- Terminal settlements (adjustments) and daily closings (spec 4.15, 3.4 sumDivision).
-- Money is INTEGER thousandths (toUnits(value, 3)); note and coin counts are plain INTEGER.
-- A settlement is "unclosed" while sum_date IS NULL; a closing consumes it (sum_date,
-- daily_summary_id). Releasing the closing sets released = '1' and keeps both as history: the
-- settlement stays with the released closing and its count is never used again (rule 5), but
-- its deposit still counts (rule 4) in the next closing of its date or a later one:
-- deposit_summary_id is the closing in force that counted the deposit, NULL again on release.

CREATE TABLE adjustments (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  adjustment_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  terminal_id INTEGER NOT NULL,
  adjusted_at INTEGER NOT NULL,
  settled_count INTEGER NOT NULL,
  settled_cash_total INTEGER NOT NULL,
  -- cash data: all NULL when the settlement registered none
  ten_thousand_yen INTEGER,
  five_thousand_yen INTEGER,
  two_thousand_yen INTEGER,
  one_thousand_yen INTEGER,
  five_hundred_yen INTEGER,
  one_hundred_yen INTEGER,
  fifty_yen INTEGER,
  ten_yen INTEGER,
  five_yen INTEGER,
  one_yen INTEGER,
  real_cash_balance INTEGER,
  -- as sent; NULL when bank deposit auto-input was on (the setting gives them) or no cash data
  preparation_cash INTEGER,
  saving INTEGER,
  deposited_bank_money INTEGER NOT NULL DEFAULT 0 CHECK (deposited_bank_money >= 0),
  sum_date TEXT,
  daily_summary_id INTEGER,
  deposit_summary_id INTEGER,
  released TEXT NOT NULL DEFAULT '0' CHECK (released IN ('0', '1')),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, adjustment_id),
  FOREIGN KEY (contract_id, store_id) REFERENCES stores (contract_id, store_id),
  FOREIGN KEY (contract_id, terminal_id) REFERENCES terminals (contract_id, terminal_id),
  CHECK ((ten_thousand_yen IS NULL) = (real_cash_balance IS NULL)),
  CHECK (released = '0' OR sum_date IS NOT NULL)
) STRICT;
CREATE INDEX adjustments_store ON adjustments (contract_id, store_id, adjusted_at);
CREATE INDEX adjustments_unclosed ON adjustments (contract_id, store_id, adjusted_at) WHERE sum_date IS NULL;
CREATE INDEX adjustments_summary ON adjustments (contract_id, daily_summary_id) WHERE daily_summary_id IS NOT NULL;
CREATE INDEX adjustments_deposit_summary ON adjustments (contract_id, deposit_summary_id) WHERE deposit_summary_id IS NOT NULL;
CREATE INDEX adjustments_released_deposits ON adjustments (contract_id, store_id, sum_date)
  WHERE released = '1' AND deposit_summary_id IS NULL AND deposited_bank_money > 0;

-- One closing of a store for a date. A released closing stays as history (released_at set);
-- the date may then be closed again, so only one unreleased closing per store and date.
CREATE TABLE daily_summaries (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  daily_summary_id INTEGER NOT NULL,
  store_id INTEGER NOT NULL,
  sum_date TEXT NOT NULL,
  cash_drawer_id INTEGER NOT NULL DEFAULT 0,
  cash_source TEXT NOT NULL CHECK (cash_source IN ('settlement', 'request', 'uncounted')),
  -- counted notes and coins; NULL when nobody counted (automatic closing without settlement)
  ten_thousand_yen INTEGER,
  five_thousand_yen INTEGER,
  two_thousand_yen INTEGER,
  one_thousand_yen INTEGER,
  five_hundred_yen INTEGER,
  one_hundred_yen INTEGER,
  fifty_yen INTEGER,
  ten_yen INTEGER,
  five_yen INTEGER,
  one_yen INTEGER,
  preparation_cash INTEGER NOT NULL,
  saving INTEGER NOT NULL,
  carry_over_reserve INTEGER NOT NULL,
  cash_sales_total INTEGER NOT NULL,
  computed_cash_balance INTEGER NOT NULL,
  real_cash_balance INTEGER NOT NULL,
  deposited_bank_money INTEGER NOT NULL,
  over_short INTEGER NOT NULL,
  transaction_count INTEGER NOT NULL,
  -- JSON array of the terminal ids (strings, ascending) that raised the closed transactions
  terminal_ids TEXT NOT NULL,
  closing_method TEXT NOT NULL CHECK (closing_method IN ('manual', 'auto', 'api')),
  closed_at INTEGER NOT NULL,
  released_at INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, daily_summary_id),
  FOREIGN KEY (contract_id, store_id) REFERENCES stores (contract_id, store_id)
) STRICT;
CREATE UNIQUE INDEX daily_summaries_open ON daily_summaries (contract_id, store_id, sum_date) WHERE released_at IS NULL;
CREATE INDEX daily_summaries_date ON daily_summaries (contract_id, sum_date, store_id);

-- Which transactions a closing closed, so that its release reopens exactly those (and not a
-- transaction that was registered as already closed for the same date).
CREATE TABLE daily_summary_transactions (
  contract_id TEXT NOT NULL,
  daily_summary_id INTEGER NOT NULL,
  transaction_head_id INTEGER NOT NULL,
  PRIMARY KEY (contract_id, daily_summary_id, transaction_head_id)
) STRICT, WITHOUT ROWID;

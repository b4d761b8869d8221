-- The day's report of a closing (issue 10, item 7): gross to net sales, discounts, tax per rate,
-- payments per method, tips, counts and cash moves, per terminal and for the store, computed in
-- the closing's transaction from the transactions it closes (server/domain/closing-report.ts).
-- Stored as JSON (exact decimal strings) on the closing row, so a released closing keeps the
-- report it had. NULL on closings made before this migration: the server computes theirs from
-- the transactions the closing recorded (daily_summary_transactions) when they are read.
ALTER TABLE daily_summaries ADD COLUMN report TEXT;

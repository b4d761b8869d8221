-- Several central processes on one database (issue 24): the change log's commit order.
-- On PostgreSQL two central processes commit their changes in any order, so a change with a
-- lower seq can become visible after a higher one was pulled: each row also carries the id of
-- the transaction that wrote it (txid) and a floor under the txid of every row written after it
-- (txid_floor: the oldest transaction still running when it was written), and a pull takes the
-- rows in (txid, seq) order, only those of transactions that have ended (sync/central.ts).
-- Their values come from PostgreSQL's defaults (0043_cluster_order.pg.sql). On SQLite the one
-- writer commits in seq order: both stay 0 and the index below stays empty.
ALTER TABLE change_log ADD COLUMN txid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE change_log ADD COLUMN txid_floor INTEGER NOT NULL DEFAULT 0;
CREATE INDEX change_log_commit_order ON change_log (contract_id, txid, seq) WHERE txid > 0;

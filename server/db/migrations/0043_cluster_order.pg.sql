-- PostgreSQL part of 0043_cluster_order.sql.
-- The rows already logged were committed in seq order (one process wrote them): txid 1, below
-- every transaction id PostgreSQL hands out (3 and up), so they come first, in seq order.
UPDATE change_log SET txid = 1, txid_floor = 1;
-- A row's txid is its transaction's (the top-level one: a savepoint commits with it), as a
-- bigint (xid8 with its epoch: 64 bits). txid_floor is the xmin of the inserting statement's
-- snapshot, taken before the row drew its seq: a row with a higher seq drew it later, in a
-- transaction then running (its id is at least that xmin) or not yet holding an id (it gets one
-- above every id handed out so far).
ALTER TABLE change_log ALTER COLUMN txid SET DEFAULT (pg_current_xact_id()::text::bigint);
ALTER TABLE change_log ALTER COLUMN txid_floor SET DEFAULT (pg_snapshot_xmin(pg_current_snapshot())::text::bigint);

-- The hybrid clock (sync/hlc.ts): one row a slot, rows 1 to 100, instead of SQLite's one row.
-- A process claims a slot with a session advisory lock (sync_hlc_claim) and mints only counters
-- that leave its slot's remainder modulo 100, so no two processes mint the same value; each
-- saves its last value in its slot's row only if it is later than the row's (never waiting on
-- another process's row).
ALTER TABLE sync_hlc DROP CONSTRAINT sync_hlc_id_check;
ALTER TABLE sync_hlc ADD CONSTRAINT sync_hlc_slot CHECK (id BETWEEN 1 AND 100);
-- The first slot (0-99) no other session holds, locked for this session; when all are held, one
-- at random (still correct: the save then waits for that slot's other process, never collides).
CREATE FUNCTION sync_hlc_claim() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  FOR slot IN 0..99 LOOP
    IF pg_try_advisory_lock(4738115, slot) THEN
      RETURN slot;
    END IF;
  END LOOP;
  RETURN floor(random() * 100)::integer;
END $$;

-- PostgreSQL part of 0012_platform_stores.sql: its triggers, which SQLite writes with RAISE(ABORT).
-- The same message and a check violation (23514), as the CHECK the column could not get.
-- replaces: trigger stores_division_insert
-- replaces: trigger stores_division_update
CREATE FUNCTION stores_division_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'stores.division must be 1 (normal store) or 2 (warehouse)' USING ERRCODE = 'check_violation';
END $$;
CREATE TRIGGER stores_division_insert BEFORE INSERT ON stores
  FOR EACH ROW WHEN (NEW.division NOT IN ('1', '2'))
  EXECUTE FUNCTION stores_division_check();
CREATE TRIGGER stores_division_update BEFORE UPDATE OF division ON stores
  FOR EACH ROW WHEN (NEW.division NOT IN ('1', '2'))
  EXECUTE FUNCTION stores_division_check();

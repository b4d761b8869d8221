-- PostgreSQL part of 0001_foundation.sql (see server/db/dialect/postgres-ddl.ts). The SQLite
-- function and collation later migrations name, defined here so their CHECKs and columns are
-- written once for both engines.

-- json_valid(text) as SQLite has it: true for JSON text, false otherwise, NULL for NULL.
CREATE FUNCTION json_valid(value text) RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  PERFORM value::json;
  RETURN true;
EXCEPTION WHEN others THEN
  RETURN false;
END $$;

-- COLLATE NOCASE: compares and keys text without regard to case (ICU, secondary strength).
CREATE COLLATION nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);

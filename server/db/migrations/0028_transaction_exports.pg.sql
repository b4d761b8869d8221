-- PostgreSQL part of 0028_transaction_exports.sql: the signing key made from PostgreSQL's strong
-- random source (gen_random_uuid: 122 random bits each, two make the 64 hex digits SQLite's
-- 32 random bytes give), stamped with the time in epoch milliseconds.
-- replaces: insert into transaction_export_key
INSERT INTO transaction_export_key (singleton, signing_key, created_at)
  VALUES (1, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''),
          (extract(epoch FROM clock_timestamp()) * 1000)::bigint);

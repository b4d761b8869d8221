/**
 * Migrations on PostgreSQL: the same forward-only files as SQLite (server/db/migrate.ts),
 * translated by the dialect (server/db/dialect/postgres-ddl.ts), applied at start in one
 * transaction and recorded in the same `schema_migrations` table. Central processes sharing a
 * database may start together: an advisory lock lets one migrate while the others wait, then
 * find nothing pending.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { translateMigrations, type PostgresMigration } from '../dialect/postgres-ddl.js';
import { latestVersion, loadMigrations, NewerDatabaseError } from '../migrate.js';

const migrationsDir = fileURLToPath(new URL('../migrations/', import.meta.url));

/** Any constant both engines' code agrees on; the key of the migration lock. */
const MIGRATION_LOCK_KEY = 7_202_623;

export function loadPostgresMigrations(dir = migrationsDir): PostgresMigration[] {
  const migrations = loadMigrations(dir);
  const fileOf = (m: { version: number; name: string }) => `${String(m.version).padStart(4, '0')}_${m.name}`;
  // A part whose name matches no migration (a typo) would otherwise be skipped without a word.
  const orphan = readdirSync(dir).find((f) => f.endsWith('.pg.sql') && !migrations.some((m) => `${fileOf(m)}.pg.sql` === f));
  if (orphan) throw new Error(`${orphan} is the PostgreSQL part of no migration: name it NNNN_name.pg.sql after its NNNN_name.sql`);
  return translateMigrations(
    migrations.map((m) => {
      const part = `${dir}${fileOf(m)}.pg.sql`;
      return existsSync(part) ? { ...m, pgPart: readFileSync(part, 'utf8') } : m;
    }),
  );
}

/** The version a PostgreSQL database is at, 0 for one no migration has touched; reads only. */
export async function postgresSchemaVersion(db: pg.Pool | pg.PoolClient): Promise<number> {
  const table = await db.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
  if (!table.rows[0]?.present) return 0;
  const { rows } = await db.query<{ v: string | number | null }>('SELECT max(version) AS v FROM schema_migrations');
  return Number(rows[0]?.v ?? 0);
}

export class MigrationFailed extends Error {
  constructor(migration: PostgresMigration, statement: string, cause: Error) {
    const head = statement.replace(/\s+/g, ' ').slice(0, 80);
    super(`migration ${String(migration.version).padStart(4, '0')}_${migration.name} failed on PostgreSQL at "${head}": ${cause.message}`, { cause });
    this.name = 'MigrationFailed';
  }
}

/**
 * Applies the pending migrations in one transaction and records each; returns the versions applied.
 * A database written by a newer build is refused (NewerDatabaseError) and left untouched.
 */
export async function migratePostgres(pool: pg.Pool, migrations = loadPostgresMigrations(), now = new Date()): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      const applied = await applyPending(client, migrations, now);
      await client.query('COMMIT');
      return applied;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  } finally {
    client.release();
  }
}

async function applyPending(client: pg.PoolClient, migrations: PostgresMigration[], now: Date): Promise<number[]> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version bigint PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`);
  const current = await postgresSchemaVersion(client);
  const known = latestVersion(migrations.map((m) => ({ ...m, sql: '' })));
  if (current > known) throw new NewerDatabaseError(current, known);
  const pending = migrations.filter((m) => m.version > current);
  for (const m of pending) {
    for (const statement of m.statements) {
      try {
        await client.query(statement);
      } catch (error) {
        throw new MigrationFailed(m, statement, error as Error);
      }
    }
    await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, now.toISOString()]);
  }
  return pending.map((m) => m.version);
}

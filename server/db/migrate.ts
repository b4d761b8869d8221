import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Sqlite } from './open.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Thrown when the file was written by a newer build; the database is left untouched. */
export class NewerDatabaseError extends Error {
  constructor(readonly found: number, readonly known: number) {
    super(
      `the database is at migration ${found}, newer than this build knows (${known}); ` +
        'refusing to open it: install the newer pos-backoffice version that wrote it',
    );
  }
}

// The .sql files are copied next to the compiled migrator by build/compile.mjs, so the
// same relative location works from source (tests) and from dist/ (CLI, Electron).
const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

export function loadMigrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f.slice(5, -4), sql: readFileSync(dir + f, 'utf8') }));
}

/** The highest version the given migrations reach: the schema this build writes. */
export const latestVersion = (migrations: Migration[] = loadMigrations()) => migrations.reduce((max, m) => Math.max(max, m.version), 0);

/** The version a database is at, 0 for one no migration has touched; reads only. */
export function schemaVersion(db: Sqlite): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!table) return 0;
  return (db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
}

/**
 * Applies the pending forward-only migrations in one transaction and records each.
 * Returns the versions applied.
 */
export function migrate(db: Sqlite, migrations: Migration[] = loadMigrations(), now = new Date()): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const row = db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null };
  const current = row.v ?? 0;
  const known = latestVersion(migrations);
  if (current > known) throw new NewerDatabaseError(current, known);

  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return [];
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const m of pending) {
      db.exec(m.sql);
      record.run(m.version, m.name, now.toISOString());
    }
  }).immediate();
  return pending.map((m) => m.version);
}

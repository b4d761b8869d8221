import Database from 'better-sqlite3';
import { latestVersion, schemaVersion } from '../db/migrate.js';

/** A file that is not a sound pos-backoffice database; the message names the file and why. */
export class UnusableDatabaseError extends Error {}

/**
 * Checks that `file` is a pos-backoffice database this build can open: SQLite's full
 * `integrity_check` says ok, it has the schema_migrations table, and no migration newer than
 * this build's. `label` is the name the operator knows the file by (restore checks a copy).
 * Returns its schema version.
 */
export function checkDatabaseFile(file: string, label = file, known = latestVersion()): { schemaVersion: number } {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (error) {
    throw new UnusableDatabaseError(`${label} cannot be opened: ${(error as Error).message}`);
  }
  try {
    let problems: string[];
    try {
      problems = db.prepare('PRAGMA integrity_check').pluck().all() as string[];
    } catch (error) {
      // A file that is no SQLite database, or one whose header or schema is damaged, fails here.
      throw new UnusableDatabaseError(`${label} is not a usable SQLite database: ${(error as Error).message}`);
    }
    if (problems.length !== 1 || problems[0] !== 'ok') {
      throw new UnusableDatabaseError(`${label} fails SQLite's integrity check: ${problems.slice(0, 3).join('; ')}`);
    }
    const version = schemaVersion(db);
    if (version === 0) throw new UnusableDatabaseError(`${label} is not a pos-backoffice database (it has no schema_migrations)`);
    if (version > known) {
      throw new UnusableDatabaseError(`${label} is at migration ${version}, newer than this build knows (${known}); install the newer pos-backoffice version that wrote it`);
    }
    return { schemaVersion: version };
  } finally {
    db.close();
  }
}

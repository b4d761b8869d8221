import Database from 'better-sqlite3';
import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lockDataDir } from '../db/data-dir-lock.js';
import { DATA_FILE_MODE, databaseFile, tighten } from '../db/open.js';
import { checkDatabaseFile, UnusableDatabaseError } from './check.js';

/** Why a restore was refused; the data dir is as it was. */
export class RestoreError extends Error {}

export interface RestoreResult {
  /** The backup restored (absolute path). */
  restored: string;
  /** The database it now is. */
  database: string;
  schemaVersion: number;
  /** Where the database it replaced was kept (with its -wal and -shm), or null when there was none. */
  previous: string | null;
}

/** SQLite's files beside a database: all are set aside together so the old one stays whole. */
const COMPANIONS = ['', '-wal', '-shm', '-journal'];

/**
 * Replaces the data dir's database with a backup. Refused (DataDirBusyError) while a server or
 * command uses the data dir, and the lock is kept throughout so none starts midway. The backup is
 * copied beside the database first (the file on a USB stick or share is only read) and the copy
 * is checked (checkDatabaseFile: integrity_check, a pos-backoffice schema not newer than this
 * build); only then is the current database renamed aside, never deleted, and the copy renamed
 * in. An older backup is migrated by the next `serve`, which backs it up first.
 */
export function restoreDatabase(options: { dataDir: string; from: string; now?: Date }): RestoreResult {
  const from = resolve(options.from);
  if (!existsSync(from)) throw new RestoreError(`${from} does not exist`);
  if (!statSync(from).isFile()) throw new RestoreError(`${from} is not a file`);
  const lock = lockDataDir(options.dataDir, 'exclusive');
  try {
    const target = databaseFile(options.dataDir);
    const staging = `${target}.restoring`;
    // A restore cut short earlier leaves its copy; it was never the database.
    for (const suffix of COMPANIONS) rmSync(staging + suffix, { force: true });
    let version: number;
    try {
      copyFileSync(from, staging);
      tighten(staging, DATA_FILE_MODE);
      version = checkDatabaseFile(staging, from).schemaVersion;
      asOneFile(staging);
    } catch (error) {
      for (const suffix of COMPANIONS) rmSync(staging + suffix, { force: true });
      if (error instanceof UnusableDatabaseError) throw new RestoreError(`${error.message}; nothing was changed`);
      throw new RestoreError(`cannot copy ${from} into ${options.dataDir}: ${(error as Error).message}; nothing was changed`);
    }
    const previous = setAside(target, options.now ?? new Date());
    renameSync(staging, target);
    return { restored: from, database: resolve(target), schemaVersion: version, previous };
  } finally {
    lock.release();
  }
}

/** A copy of a live database (not one of our backups) may be in WAL mode: fold it into one file. */
function asOneFile(file: string): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/** Renames the database and its companions to pos-before-restore-<time>.sqlite*, or returns null. */
function setAside(target: string, now: Date): string | null {
  if (!COMPANIONS.some((suffix) => existsSync(target + suffix))) return null;
  const aside = resolve(join(target, '..', `pos-before-restore-${now.toISOString().replace(/[-:]/g, '')}.sqlite`));
  for (const suffix of COMPANIONS) {
    if (existsSync(target + suffix)) renameSync(target + suffix, aside + suffix);
  }
  return aside;
}

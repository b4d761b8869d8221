import Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { schemaVersion } from '../db/migrate.js';
import { CLI_BUSY_TIMEOUT_MS, DATA_DIR_MODE, DATA_FILE_MODE, databaseFile, openDatabase } from '../db/open.js';
import { checkDatabaseFile, UnusableDatabaseError } from './check.js';

/**
 * A backup names why it was taken: `manual` (the CLI's default), `daily` (the desktop app's,
 * which prunes only those it made) and `pre-migration` (serve, before upgrading the schema).
 */
export const BACKUP_KINDS = ['manual', 'daily', 'pre-migration'] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

/** Why a backup could not be taken; nothing is left behind in the folder. */
export class BackupError extends Error {}

export interface BackupResult {
  /** The absolute path of the backup: one self-contained SQLite file. */
  file: string;
  bytes: number;
  kind: BackupKind;
  /** The database's migration version, so a restore knows what it brings back. */
  schemaVersion: number;
  /** The copy's `PRAGMA integrity_check`, run on it before it got its name. */
  integrity: 'ok';
  createdAt: string;
}

export const defaultBackupDir = (dataDir: string) => join(dataDir, 'backups');

/**
 * `pos-backup-20250301T021500.123Z-daily.sqlite`: UTC time first, so the names sort by time
 * (with no character Windows forbids), then the kind.
 */
export function backupFileName(at: Date, kind: BackupKind): string {
  return `pos-backup-${at.toISOString().replace(/[-:]/g, '')}-${kind}.sqlite`;
}

/** Every page in one step (sqlite3_backup_step copies at most 0x7fffffff). */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the data dir's database into `to` (default <data-dir>/backups) with SQLite's online
 * backup, while the server keeps writing. The copy is taken in one backup step, that is inside
 * one read transaction of the WAL database: a snapshot of every transaction committed before the
 * step began (so every sale already acknowledged), none half. Copied page by page with the
 * default of 100 pages a step, each write of the server in between would restart it, and a busy
 * store could keep it from ever finishing.
 *
 * The copy is written as `<name>.partial`, switched to a rollback journal (one file, nothing
 * beside it to lose on a USB stick), checked with `integrity_check`, and only then renamed to
 * its final name: a file named `pos-backup-*.sqlite` is always a whole, checked backup.
 */
export async function backupDatabase(options: { dataDir: string; to?: string; kind: BackupKind; now?: Date }): Promise<BackupResult> {
  const now = options.now ?? new Date();
  const source = databaseFile(options.dataDir);
  if (!existsSync(source) || statSync(source).size === 0) throw new BackupError(`there is no database to back up at ${source}`);
  const dir = resolve(options.to ?? defaultBackupDir(options.dataDir));
  const file = join(dir, backupFileName(now, options.kind));
  const partial = `${file}.partial`;
  try {
    mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
    if (existsSync(file)) throw new BackupError(`${file} already exists`);
    // Made first with its final mode: the copy holds password hashes and members' data.
    closeSync(openSync(partial, 'w', DATA_FILE_MODE));
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`cannot write a backup into ${dir}: ${(error as Error).message}`);
  }
  try {
    await copyDatabase(source, partial);
    const { schemaVersion: version } = checkDatabaseFile(partial, `the backup ${file}`, Number.MAX_SAFE_INTEGER);
    renameSync(partial, file);
    return { file, bytes: statSync(file).size, kind: options.kind, schemaVersion: version, integrity: 'ok', createdAt: now.toISOString() };
  } catch (error) {
    rmSync(partial, { force: true });
    if (error instanceof BackupError) throw error;
    if (error instanceof UnusableDatabaseError) throw new BackupError(error.message);
    throw new BackupError(`the backup to ${file} failed: ${(error as Error).message}`);
  }
}

async function copyDatabase(source: string, target: string): Promise<void> {
  const db = openDatabase(source, { busyTimeoutMs: CLI_BUSY_TIMEOUT_MS });
  try {
    if (schemaVersion(db) === 0) throw new BackupError(`${source} is not a pos-backoffice database (it has no schema_migrations)`);
    await db.backup(target, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  const copy = new Database(target);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

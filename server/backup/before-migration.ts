import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { latestVersion, schemaVersion } from '../db/migrate.js';
import { CLI_BUSY_TIMEOUT_MS, databaseFile, openDatabase } from '../db/open.js';
import { backupDatabase, BackupError, backupFileName, defaultBackupDir, type BackupResult } from './backup.js';

/** What `serve` prints (one JSON line) before it upgrades a database: the desktop app shows "updating". */
export interface MigratingNotice {
  from: number;
  to: number;
  /** The pre-migration backup being written. */
  backup: string;
}

/**
 * Before an upgrade migrates a store's database, a copy of it as it was goes to
 * <data-dir>/backups (`…-pre-migration.sqlite`): a migration that goes wrong, or a new version
 * that has to be rolled back, never costs the store its data. Only a database that has data
 * (some migration applied) and is behind this build is copied; a new one, an up-to-date one and
 * one from a newer build (which openDeps refuses) are not. When the copy fails the migration
 * does not run.
 */
export async function backupBeforeMigration(dataDir: string, notify?: (notice: MigratingNotice) => void, now = new Date()): Promise<BackupResult | null> {
  const file = databaseFile(dataDir);
  if (!existsSync(file) || statSync(file).size === 0) return null;
  const db = openDatabase(file, { busyTimeoutMs: CLI_BUSY_TIMEOUT_MS });
  let from: number;
  try {
    from = schemaVersion(db);
  } finally {
    db.close();
  }
  const to = latestVersion();
  if (from === 0 || from >= to) return null;
  notify?.({ from, to, backup: resolve(defaultBackupDir(dataDir), backupFileName(now, 'pre-migration')) });
  try {
    return await backupDatabase({ dataDir, kind: 'pre-migration', now });
  } catch (error) {
    throw new BackupError(`cannot back up the database before migrating it from ${from} to ${to}, so it was not migrated: ${(error as Error).message}`);
  }
}

import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_FILE_MODE, databaseFile, protectDataDir, tighten } from './open.js';

/**
 * Who uses a data directory, as an operating-system file lock: `server.lock` in the data dir, an
 * empty SQLite file. A server (and every one-shot command) holds a shared lock on it while it
 * runs; `restore` needs it exclusively. The OS drops a lock when its process ends, even when the
 * process is killed or the PC loses power, so no stale pid file can ever block a restore, and a
 * pid reused by another program can never pass for a server.
 *
 * SQLite does the locking, the same way on Windows, macOS and Linux: a read transaction that
 * stays open holds a SHARED lock, BEGIN EXCLUSIVE takes an EXCLUSIVE one, and with a busy timeout
 * of 0 a lock another process holds is an immediate SQLITE_BUSY. The file is never written and
 * never deleted (deleting a lock file lets two processes lock two different files).
 */
export const LOCK_FILE = 'server.lock';

/** The lock is held by another process; `exclusive` says which kind was asked for. */
export class DataDirBusyError extends Error {
  constructor(readonly dataDir: string, readonly wanted: 'shared' | 'exclusive') {
    super(
      wanted === 'exclusive'
        ? `a pos-backoffice server (or command) is using ${dataDir}; stop the server first`
        : `a restore is replacing the database in ${dataDir}; start again when it has finished`,
    );
  }
}

export interface DataDirLock {
  release(): void;
}

export function lockDataDir(dataDir: string, mode: 'shared' | 'exclusive'): DataDirLock {
  // Before the lock file is in it: an empty directory is still recognised as ours and tightened.
  protectDataDir(dataDir, existsSync(databaseFile(dataDir)));
  const file = join(dataDir, LOCK_FILE);
  closeSync(openSync(file, 'a', DATA_FILE_MODE));
  tighten(file, DATA_FILE_MODE);
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 0');
    if (mode === 'exclusive') {
      db.exec('BEGIN EXCLUSIVE');
    } else {
      // A deferred transaction takes its SHARED lock at the first read and keeps it until the end.
      db.exec('BEGIN');
      db.prepare('SELECT count(*) FROM sqlite_master').get();
    }
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirBusyError(dataDir, mode);
    throw error;
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      // Closing ends the transaction and so the lock.
      db.close();
    },
  };
}

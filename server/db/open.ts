import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type Sqlite = Database.Database;

/** The store's database in a data directory (`--data-dir`). */
export const databaseFile = (dataDir: string) => join(dataDir, 'pos.sqlite');

/**
 * How long a connection waits, blocking its thread, for a lock held by another process.
 * The server waits not at all: its writes retry asynchronously (platform/http/busy.ts) so the event
 * loop keeps answering. The CLI's one-shot commands may block, and wait up to 5 s.
 */
export const SERVER_BUSY_TIMEOUT_MS = 0;
export const CLI_BUSY_TIMEOUT_MS = 5000;

/** The data directory and the database files hold secret hashes and members' personal data. */
export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;

/**
 * Opens the SQLite file with the pragmas the appliance relies on:
 * WAL so terminals can read while a sale is written, synchronous=FULL so a sale
 * acknowledged to a terminal survives a power cut, foreign keys on, and the busy timeout
 * of the caller (the server's by default).
 *
 * The directory is made (or tightened to) 0700 and the database file 0600 before SQLite
 * opens it; SQLite gives the -wal and -shm files it creates the database file's mode, and
 * ones left from before are tightened too.
 */
export function openDatabase(file: string, options: { busyTimeoutMs?: number } = {}): Sqlite {
  if (file !== ':memory:') protectFiles(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  setBusyTimeout(db, options.busyTimeoutMs ?? SERVER_BUSY_TIMEOUT_MS);
  return db;
}

export function setBusyTimeout(db: Sqlite, ms: number): void {
  db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(ms))}`);
}

function protectFiles(file: string): void {
  const existed = existsSync(file);
  protectDataDir(dirname(file), existed);
  // Create the file with its final mode (whatever the umask) so SQLite never makes it 0644.
  if (!existed) closeSync(openSync(file, 'a', DATA_FILE_MODE));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) tighten(f, DATA_FILE_MODE);
}

/**
 * Makes the data directory, or tightens it to 0700 when it is this server's: it holds the
 * database, or nothing yet. mkdir's mode makes a new directory 0700 (less the umask, which only
 * narrows it). `--data-dir /tmp` or `.` must not chmod a directory others share.
 */
export function protectDataDir(dir: string, holdsDatabase: boolean): void {
  const made = mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE }) !== undefined;
  if (made || ((holdsDatabase || readdirSync(dir).length === 0) && !isSticky(dir))) tighten(dir, DATA_DIR_MODE);
}

/** /tmp and its kind (sticky, shared by every user) are never ours to chmod. */
const isSticky = (dir: string) => (statSync(dir).mode & 0o1000) !== 0;

/**
 * chmod an existing file or directory of ours; a missing one is skipped, and one we may
 * not change (owned by another user) is left as it is rather than refusing to start.
 */
export function tighten(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}

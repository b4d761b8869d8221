// The desktop app's backups: one a day of the store's database into a folder of the owner's
// choosing (a USB stick, a network share; <data-dir>/backups by default), the newest 14 kept, and
// a restore from the menu. Both run the server's own CLI (`backup`, `restore`) through the
// server's spawner, so the copy is the one `pos-backoffice backup` makes: SQLite's online backup,
// consistent while sales are written, checked with integrity_check. Plain Node, tested in Node.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOnce, type Spawner } from './server-process.js';

/** desktop-settings.json's backupFolder and backupKeep (settings.ts validates them). */
export interface BackupSettings {
  /** Where the daily backups go; null: <data-dir>/backups, beside the database and the pre-migration copies. */
  folder: string | null;
  /** How many of its daily backups the app keeps (1..365); older ones it made are deleted. */
  keep: number;
}

export const DEFAULT_BACKUP_SETTINGS: BackupSettings = { folder: null, keep: 14 };
export const DAY_MS = 24 * 60 * 60 * 1000;
/** A backup of a big database onto a slow USB stick may take minutes; a hung one must end. */
export const BACKUP_TIMEOUT_MS = 30 * 60 * 1000;

export const backupFolder = (settings: BackupSettings, dataDir: string) => settings.folder ?? join(dataDir, 'backups');

/** One backup the app made: what `pos-backoffice backup` printed. */
export interface MadeBackup {
  file: string;
  bytes: number;
  createdAt: string;
}

/**
 * backups.json in userData: the backups this app made, so it deletes only those (never a manual
 * one, nor another store PC's in a shared folder), and the last failure to show.
 */
export interface BackupLog {
  made: MadeBackup[];
  lastError?: { at: string; message: string };
}

export const backupLogFile = (userData: string) => join(userData, 'backups.json');

/** A missing or unreadable log is an empty one: the next backup is then due at once. */
export function loadBackupLog(file: string): BackupLog {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<BackupLog>;
    const made = Array.isArray(raw.made)
      ? raw.made.filter((m): m is MadeBackup => typeof m?.file === 'string' && typeof m.createdAt === 'string' && !Number.isNaN(Date.parse(m.createdAt)))
      : [];
    return { made, ...(raw.lastError ? { lastError: raw.lastError } : {}) };
  } catch {
    return { made: [] };
  }
}

/** Written whole through a temporary file, so a crash never leaves half a log. */
export function saveBackupLog(file: string, log: BackupLog): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(log, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

/**
 * Due when the newest backup the app made is a day old or more, or there is none. A clock set
 * back (the newest one "in the future") makes it due too, rather than waiting until the clock
 * catches up.
 */
export function backupDue(log: BackupLog, now: Date, intervalMs = DAY_MS): boolean {
  const newest = Math.max(...log.made.map((m) => Date.parse(m.createdAt)));
  if (!Number.isFinite(newest)) return true;
  const age = now.getTime() - newest;
  return age >= intervalMs || age < 0;
}

/** The CLI's one-line reason (its stderr without the "pos-backoffice: " prefix), or what went wrong running it. */
export class BackupCommandError extends Error {}

function reasonOf(result: { code: number | null; stderr: string; timedOut: boolean }, what: string, timeoutMs: number): string {
  if (result.timedOut) return `the ${what} did not finish within ${Math.round(timeoutMs / 60000)} min and was stopped`;
  const line = result.stderr.trim().split('\n').pop()?.replace(/^pos-backoffice: /, '');
  return line || `the ${what} failed (exit code ${result.code})`;
}

/**
 * `pos-backoffice backup --to FOLDER --kind KIND`; resolves with the backup it made. `manual`
 * (a "back up now" from the menu) is never pruned: only daily backups are recorded in the log.
 */
export async function runBackup(spawn: Spawner, dataDir: string, folder: string, kind: 'daily' | 'manual' = 'daily', timeoutMs = BACKUP_TIMEOUT_MS): Promise<MadeBackup> {
  const result = await runOnce(spawn, ['backup', '--to', folder, '--kind', kind, '--data-dir', dataDir], timeoutMs);
  if (result.code !== 0 || result.timedOut) throw new BackupCommandError(reasonOf(result, 'backup', timeoutMs));
  const made = JSON.parse(result.stdout.trim().split('\n').pop()!) as MadeBackup;
  return { file: made.file, bytes: made.bytes, createdAt: made.createdAt };
}

/**
 * Deletes the backups the app made beyond the newest `keep` and returns the log without them.
 * A file already gone (the stick was cleaned by hand) leaves the log too; one that cannot be
 * deleted now (the share is offline) stays in the log and is tried again next time.
 */
export function prune(log: BackupLog, keep: number, remove: (file: string) => void = (f) => rmSync(f)): { log: BackupLog; removed: string[] } {
  const newestFirst = [...log.made].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  const kept = newestFirst.slice(0, keep);
  const removed: string[] = [];
  for (const old of newestFirst.slice(keep)) {
    try {
      remove(old.file);
      removed.push(old.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      kept.push(old);
    }
  }
  kept.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  return { log: { ...log, made: kept }, removed };
}

export type DailyOutcome =
  | { status: 'not-due' }
  | { status: 'made'; backup: MadeBackup; removed: string[] }
  | { status: 'failed'; message: string };

export interface DailyBackupOptions {
  spawn: Spawner;
  dataDir: string;
  /** backups.json (backupLogFile(userData)). */
  logFile: string;
  settings: BackupSettings;
  now?: () => Date;
  timeoutMs?: number;
}

/**
 * The daily backup: when one is due, makes it, records it and prunes the older ones. A failure
 * (the stick is not plugged in, the share is down) is recorded as lastError and returned; the
 * backup stays due, so the next check tries again.
 */
export async function dailyBackup(opts: DailyBackupOptions): Promise<DailyOutcome> {
  const now = opts.now ?? (() => new Date());
  const log = loadBackupLog(opts.logFile);
  if (!backupDue(log, now())) return { status: 'not-due' };
  let backup: MadeBackup;
  try {
    backup = await runBackup(opts.spawn, opts.dataDir, backupFolder(opts.settings, opts.dataDir), 'daily', opts.timeoutMs);
  } catch (error) {
    const message = error instanceof BackupCommandError ? error.message : (error as Error).message;
    saveBackupLog(opts.logFile, { ...log, lastError: { at: now().toISOString(), message } });
    return { status: 'failed', message };
  }
  const pruned = prune({ made: [...log.made, backup] }, opts.settings.keep);
  saveBackupLog(opts.logFile, pruned.log);
  return { status: 'made', backup, removed: pruned.removed };
}

/**
 * Runs `check` now and then every `everyMs` (an hour: a PC that sleeps or is switched off at
 * night still gets its backup soon after it is back), never two at a time. The timer does not
 * keep the process alive.
 */
export function scheduleBackups(check: () => Promise<unknown>, everyMs = 60 * 60 * 1000): { stop(): void } {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    void check()
      .catch(() => undefined)
      .finally(() => {
        running = false;
      });
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

export interface Restored {
  restored: string;
  database: string;
  schemaVersion: number;
  /** The database it replaced, kept in the data folder; null when there was none. */
  previous: string | null;
}

/**
 * `pos-backoffice restore --from FILE`. The server must be stopped first (the CLI refuses while
 * it serves the data folder) and started again after, which migrates an older backup.
 */
export async function restoreBackup(spawn: Spawner, dataDir: string, file: string, timeoutMs = BACKUP_TIMEOUT_MS): Promise<Restored> {
  const result = await runOnce(spawn, ['restore', '--from', file, '--data-dir', dataDir], timeoutMs);
  if (result.code !== 0 || result.timedOut) throw new BackupCommandError(reasonOf(result, 'restore', timeoutMs));
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as Restored;
}

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  backupDue,
  backupLogFile,
  BackupCommandError,
  dailyBackup,
  DAY_MS,
  DEFAULT_BACKUP_SETTINGS,
  loadBackupLog,
  prune,
  restoreBackup,
  runBackup,
  saveBackupLog,
  scheduleBackups,
  type BackupLog,
} from '../../app/electron/backups.js';
import { parseMigratingLine } from '../../app/electron/startup-lines.js';
import { childProcessSpawner, startServer } from '../../app/electron/server-process.js';
import { loadMigrations, migrate } from '../../server/db/migrate.js';
import { openDatabase } from '../../server/db/open.js';
import { compileCopy, ROOT } from '../helpers/serve-child.js';

// The compiled server's CLI, as the app runs it, in a private copy (other suites rebuild dist/).
const OUT = '.test-dist-electron-backups';
let main: string;
let userData: string;
let dataDir: string;

const at = (iso: string) => () => new Date(iso);
const made = (file: string, createdAt: string) => ({ file, bytes: 1, createdAt });

beforeAll(() => {
  main = compileCopy(OUT);
}, 180000);
afterAll(() => rmSync(join(ROOT, OUT), { recursive: true, force: true }));
beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), 'pos-desktop-backups-'));
  dataDir = join(userData, 'data');
  const r = spawnSync(process.execPath, [main, 'contract', 'create', '--id', 'shop', '--plan', 'premium', '--data-dir', dataDir], { encoding: 'utf8', timeout: 30000 });
  expect(r.status, r.stderr).toBe(0);
});
afterEach(() => rmSync(userData, { recursive: true, force: true }));

const options = (folder: string | null, keep: number, now: () => Date) => ({
  spawn: childProcessSpawner(main),
  dataDir,
  logFile: backupLogFile(userData),
  settings: { folder, keep },
  now,
});

describe('when a daily backup is due', () => {
  const log = (...createdAt: string[]): BackupLog => ({ made: createdAt.map((c, i) => made(`/b/${i}`, c)) });
  it('is due with none made, and a day after the newest one', () => {
    const now = new Date('2025-03-10T09:00:00.000Z');
    expect(backupDue({ made: [] }, now)).toBe(true);
    expect(backupDue(log('2025-03-09T09:00:00.001Z'), now)).toBe(false);
    expect(backupDue(log('2025-03-01T09:00:00.000Z', '2025-03-09T09:00:00.000Z'), now)).toBe(true);
    expect(backupDue(log('2025-03-09T09:00:00.000Z', '2025-03-10T08:00:00.000Z'), now)).toBe(false);
  });

  it('is due when the clock was set back behind the newest one', () => {
    expect(backupDue(log('2025-03-10T09:00:00.000Z'), new Date('2025-03-10T08:59:00.000Z'))).toBe(true);
  });
});

describe('the daily backup', () => {
  it('makes a daily backup with the CLI into the chosen folder, records it, and waits a day for the next', async () => {
    const folder = join(userData, 'usb-stick');
    const first = await dailyBackup(options(folder, 14, at('2025-03-10T09:00:00.000Z')));
    expect(first.status).toBe('made');
    const backup = (first as { backup: { file: string; bytes: number; createdAt: string } }).backup;
    expect(backup).toEqual({ file: expect.stringMatching(/\/usb-stick\/pos-backup-\d{8}T\d{6}\.\d{3}Z-daily\.sqlite$/), bytes: expect.any(Number), createdAt: expect.any(String) });
    expect(readdirSync(folder)).toEqual([basename(backup.file)]);
    const db = new Database(backup.file, { readonly: true });
    expect(db.prepare('SELECT contract_id FROM contracts').pluck().all()).toEqual(['shop']);
    db.close();
    expect(loadBackupLog(backupLogFile(userData))).toEqual({ made: [backup] });

    // "Back up now" makes a manual one beside it, which the log (and so pruning) leaves alone.
    const now = await runBackup(childProcessSpawner(main), dataDir, folder, 'manual');
    expect(now.file).toMatch(/-manual\.sqlite$/);
    expect(readdirSync(folder).sort()).toEqual([basename(backup.file), basename(now.file)].sort());
    expect(loadBackupLog(backupLogFile(userData))).toEqual({ made: [backup] });

    // The log holds the CLI's own time; an hour after it nothing is due.
    const later = new Date(Date.parse(backup.createdAt) + 60 * 60 * 1000);
    expect(await dailyBackup(options(folder, 14, () => later))).toEqual({ status: 'not-due' });
    expect(readdirSync(folder)).toHaveLength(2);
  }, 60000);

  it('defaults to <data-dir>/backups', async () => {
    const outcome = await dailyBackup(options(DEFAULT_BACKUP_SETTINGS.folder, 14, () => new Date()));
    expect(outcome.status).toBe('made');
    expect(readdirSync(join(dataDir, 'backups'))).toEqual([basename((outcome as { backup: { file: string } }).backup.file)]);
  }, 60000);

  it('keeps the newest `keep` of its own backups and deletes only its own older ones', async () => {
    const folder = join(userData, 'share');
    mkdirSync(folder);
    // A manual backup and another store PC's daily one in the same shared folder: not the app's.
    writeFileSync(join(folder, 'pos-backup-20240101T000000.000Z-manual.sqlite'), 'manual');
    writeFileSync(join(folder, 'pos-backup-20240101T000000.000Z-daily.sqlite'), 'another PC');
    const logFile = backupLogFile(userData);
    const files: string[] = [];
    for (let day = 0; day < 5; day++) {
      // Each run finds the last backup a day old: the log is aged by a day in between.
      const log = loadBackupLog(logFile);
      saveBackupLog(logFile, { made: log.made.map((m) => ({ ...m, createdAt: new Date(Date.parse(m.createdAt) - DAY_MS).toISOString() })) });
      const outcome = await dailyBackup(options(folder, 3, () => new Date()));
      expect(outcome.status).toBe('made');
      files.push((outcome as { backup: { file: string } }).backup.file);
      expect((outcome as { removed: string[] }).removed).toEqual(day >= 3 ? [files[day - 3]] : []);
    }
    expect(readdirSync(folder).sort()).toEqual(
      ['pos-backup-20240101T000000.000Z-daily.sqlite', 'pos-backup-20240101T000000.000Z-manual.sqlite', ...files.slice(2).map((f) => basename(f))].sort(),
    );
    expect(loadBackupLog(logFile).made.map((m) => m.file)).toEqual(files.slice(2));
  }, 120000);

  it('records a failure with the CLI reason and stays due, so the next check tries again', async () => {
    const notAFolder = join(userData, 'stick-not-plugged-in');
    writeFileSync(notAFolder, 'a file where the folder should be');
    const outcome = await dailyBackup(options(join(notAFolder, 'backups'), 14, at('2025-03-10T09:00:00.000Z')));
    expect(outcome).toEqual({ status: 'failed', message: expect.stringMatching(new RegExp(`^cannot write a backup into ${join(notAFolder, 'backups')}: ENOTDIR`)) });
    const log = loadBackupLog(backupLogFile(userData));
    expect(log).toEqual({ made: [], lastError: { at: '2025-03-10T09:00:00.000Z', message: (outcome as { message: string }).message } });
    rmSync(notAFolder);
    const retried = await dailyBackup(options(notAFolder, 14, at('2025-03-10T10:00:00.000Z')));
    expect(retried.status).toBe('made');
    // A success clears the failure.
    expect(loadBackupLog(backupLogFile(userData)).lastError).toBeUndefined();
  }, 60000);
});

describe('pruning', () => {
  it('forgets a file already deleted by hand, and keeps trying one it cannot delete now', () => {
    const log: BackupLog = { made: [made('/a', '2025-03-01T00:00:00Z'), made('/b', '2025-03-02T00:00:00Z'), made('/c', '2025-03-03T00:00:00Z'), made('/d', '2025-03-04T00:00:00Z')] };
    const removed: string[] = [];
    const remove = (f: string) => {
      if (f === '/a') throw Object.assign(new Error('gone'), { code: 'ENOENT' });
      if (f === '/b') throw Object.assign(new Error('share offline'), { code: 'EHOSTDOWN' });
      removed.push(f);
    };
    const result = prune(log, 1, remove);
    expect(result.removed).toEqual(['/c']);
    expect(result.log.made.map((m) => m.file)).toEqual(['/b', '/d']);
  });

  it('reads a missing or broken log as empty', () => {
    expect(loadBackupLog(join(userData, 'none.json'))).toEqual({ made: [] });
    writeFileSync(join(userData, 'broken.json'), '{not json');
    expect(loadBackupLog(join(userData, 'broken.json'))).toEqual({ made: [] });
  });
});

describe('the schedule', () => {
  it('checks at once and again on its interval, never two at a time', async () => {
    let calls = 0;
    let finish: () => void = () => undefined;
    const schedule = scheduleBackups(() => {
      calls += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    }, 5);
    try {
      expect(calls).toBe(1);
      // Many intervals pass while the first check runs: none starts beside it.
      for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 10));
      expect(calls).toBe(1);
      finish();
      for (let i = 0; i < 200 && calls < 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(calls).toBe(2);
    } finally {
      schedule.stop();
    }
  });
});

describe('restore from the menu', () => {
  it('restores a backup once the server is stopped, and says why when it cannot', async () => {
    const outcome = await dailyBackup(options(null, 14, () => new Date()));
    const file = (outcome as { backup: { file: string } }).backup.file;
    const spawn = childProcessSpawner(main);
    const server = await startServer({ spawn, dataDir, port: 0, host: '127.0.0.1', readyTimeoutMs: 30000 });
    try {
      await expect(restoreBackup(spawn, dataDir, file)).rejects.toEqual(new BackupCommandError(`a pos-backoffice server (or command) is using ${dataDir}; stop the server first`));
    } finally {
      expect(await server.stop(10000)).toBe('stopped');
    }
    const restored = await restoreBackup(spawn, dataDir, file);
    expect(restored).toEqual({ restored: file, database: join(dataDir, 'pos.sqlite'), schemaVersion: expect.any(Number), previous: expect.stringMatching(/pos-before-restore-.*\.sqlite$/) });
    expect(existsSync(restored.previous!)).toBe(true);

    const notes = join(userData, 'notes.txt');
    writeFileSync(notes, 'not a database');
    await expect(restoreBackup(spawn, dataDir, notes)).rejects.toEqual(new BackupCommandError(`${notes} is not a usable SQLite database: file is not a database; nothing was changed`));
  }, 90000);
});

describe('the migrating line', () => {
  it('is read from serve\'s output; every other line is not it', () => {
    const line = JSON.stringify({ migrating: true, from: 25, to: 30, backup: '/data/backups/pos-backup-20250310T090000.000Z-pre-migration.sqlite' });
    expect(parseMigratingLine(line)).toEqual({ migrating: true, from: 25, to: 30, backup: '/data/backups/pos-backup-20250310T090000.000Z-pre-migration.sqlite' });
    for (const other of ['{"ready":true,"url":"http://127.0.0.1:8080"}', '{"level":30,"msg":"migrating"}', '{"migrating":true}', '{"migrating":true,"from":"25","to":30,"backup":"x"}', 'migrating', '{"migrating":tru']) {
      expect(parseMigratingLine(other), other).toBeNull();
    }
  });

  it('is what serve prints before it upgrades a database, ahead of its ready line', async () => {
    // A database of the build before the newest migration, made by the migrator itself.
    const older = join(userData, 'older');
    const all = loadMigrations();
    const db = openDatabase(join(older, 'pos.sqlite'));
    migrate(db, all.slice(0, -1));
    db.close();
    const child = childProcessSpawner(main)(['serve', '--port', '0', '--data-dir', older]);
    const seen: string[] = [];
    try {
      const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
      for await (const line of lines) {
        if (parseMigratingLine(line)) seen.push('migrating');
        if (line.startsWith('{"ready":true')) {
          seen.push('ready');
          break;
        }
      }
    } finally {
      const exited = new Promise((resolve) => child.onExit(resolve));
      child.kill(false);
      await exited;
    }
    expect(seen).toEqual(['migrating', 'ready']);
  }, 60000);
});

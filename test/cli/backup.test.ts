import { spawn } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestVersion, loadMigrations, migrate } from '../../server/db/migrate.js';
import { openDatabase } from '../../server/db/open.js';
import { clientToken, compileCopy, ROOT, serveDemo, type DemoContract } from '../helpers/serve-child.js';

/**
 * Issue 21 part 4: `backup` and `restore`, and the backup `serve` takes before it migrates. The
 * compiled CLI runs in its own processes beside a serving one, on real data directories.
 */
const OUT = '.test-dist-backup';
let main: string;
const CLIENTS = 20;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI, without blocking this process: the clients keep writing while it runs. */
function cli(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() });
    });
  });
}

/** `serve --port 0` without demo data; resolves with every stdout line up to its ready line. */
function serveLines(dataDir: string): Promise<{ lines: string[]; stop: () => Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, 'serve', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, POS_LOG_LEVEL: 'warn' } });
    let out = '';
    let err = '';
    let answered = false;
    const timer = setTimeout(() => reject(new Error(`serve did not get ready: ${out} ${err}`)), 60_000);
    const stop = () =>
      new Promise<number | null>((done) => {
        child.removeAllListeners('exit');
        child.once('exit', (code) => done(code));
        child.kill('SIGTERM');
      });
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      const ready = lines.findIndex((l) => l.startsWith('{"ready":true'));
      if (ready >= 0 && !answered) {
        answered = true;
        clearTimeout(timer);
        // One answer first: by then serve has set up its SIGTERM handler (main.ts does so right
        // after the ready line), so the stop below is the graceful one.
        const { url } = JSON.parse(lines[ready]!) as { url: string };
        void fetch(`${url}/openapi.json`).then(
          () => resolve({ lines: lines.slice(0, ready + 1), stop }),
          reject,
        );
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${err}`));
    });
  });
}

const stopChild = (child: import('node:child_process').ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });

const tranIds = (file: string, prefix: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return new Set(db.prepare('SELECT terminal_tran_id FROM transactions WHERE terminal_tran_id LIKE ?').pluck().all(`${prefix}%`) as string[]);
  } finally {
    db.close();
  }
};

const integrity = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('PRAGMA integrity_check').pluck().all();
  } finally {
    db.close();
  }
};

const versionOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number;
  } finally {
    db.close();
  }
};

/** Every file of a data dir with its bytes, to show a refused restore changed nothing. */
const snapshot = (dir: string) => Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).isFile() ? readFileSync(join(dir, f)).toString('base64') : 'dir']));

beforeAll(() => {
  main = compileCopy(OUT);
}, 180000);
afterAll(() => rmSync(join(ROOT, OUT), { recursive: true, force: true }));

describe('a backup taken while 20 clients write sales', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'pos-backup-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('passes integrity_check, holds every sale acknowledged before it began, and a restore of it serves them', async () => {
    const first = await serveDemo(main, dataDir);
    // A new data dir has nothing to upgrade: no pre-migration backup.
    expect(existsSync(join(dataDir, 'backups'))).toBe(false);
    const retail: DemoContract = first.retail;
    const bearer = await clientToken(retail, ['pos.transactions:read', 'pos.transactions:write', 'pos.stores:read']);
    const terminals = (await (await fetch(`${retail.baseUrl}/terminals?limit=1`, { headers: { authorization: `Bearer ${bearer}` } })).json()) as {
      terminalId: string;
      storeId: string;
    }[];
    const { terminalId, storeId } = terminals[0]!;
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');

    // Acknowledged sales in the order their 200 arrived; `sentAfter` marks those sent after the backup ended.
    const acked: { tranId: string; transactionHeadId: string; sentAfterBackup: boolean }[] = [];
    let backupEnded = false;
    let stop = false;
    const client = async (c: number) => {
      for (let n = 0; n < 10_000 && !stop; n++) {
        const tranId = `BK-${c}-${n}`;
        const sentAfterBackup = backupEnded;
        const res = await fetch(`${retail.baseUrl}/transactions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            storeId,
            terminalId,
            transactionHeadDivision: '1',
            terminalTranId: tranId,
            terminalTranDateTime: at,
            details: [{ transactionDetailId: '1', salesPrice: String(100 + c), quantity: '1' }],
            depositCash: String(100 + c),
          }),
        });
        expect(res.status).toBe(200);
        acked.push({ tranId, transactionHeadId: ((await res.json()) as { transactionHeadId: string }).transactionHeadId, sentAfterBackup });
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 6000 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
      expect(done()).toBe(true);
    };

    let backup: Run;
    let before: Set<string>;
    let ackedWhileBackingUp: number;
    try {
      await until(() => acked.length >= 200);
      before = new Set(acked.map((a) => a.tranId));
      backup = await cli(['backup', '--data-dir', dataDir]);
      ackedWhileBackingUp = acked.length - before.size;
      backupEnded = true;
      await until(() => acked.filter((a) => a.sentAfterBackup).length >= CLIENTS);
    } finally {
      stop = true;
      await Promise.all(clients);
    }

    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    const made = JSON.parse(backup.stdout) as Record<string, unknown>;
    const file = made.file as string;
    expect(made).toEqual({ file, bytes: statSync(file).size, kind: 'manual', schemaVersion: latestVersion(), integrity: 'ok', createdAt: expect.any(String) });
    expect(file).toBe(join(dataDir, 'backups', `pos-backup-${(made.createdAt as string).replace(/[-:]/g, '')}-manual.sqlite`));
    expect(readdirSync(join(dataDir, 'backups'))).toEqual([file.split('/').pop()]);
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    // The sales did not stop for it.
    expect(ackedWhileBackingUp).toBeGreaterThan(0);

    expect(integrity(file)).toEqual(['ok']);
    const inBackup = tranIds(file, 'BK-');
    expect([...before].filter((id) => !inBackup.has(id))).toEqual([]);
    const after = acked.filter((a) => a.sentAfterBackup);
    expect(after.filter((a) => inBackup.has(a.tranId))).toEqual([]);
    // One self-contained file: no WAL beside it to lose.
    expect(existsSync(`${file}-wal`)).toBe(false);

    // Refused while the server serves the data dir; the live database keeps every sale.
    const refused = await cli(['restore', '--from', file, '--data-dir', dataDir]);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `pos-backoffice: a pos-backoffice server (or command) is using ${dataDir}; stop the server first` });
    expect(await stopChild(first.child)).toBe(0);
    expect(tranIds(join(dataDir, 'pos.sqlite'), 'BK-').size).toBe(acked.length);

    const restored = await cli(['restore', '--from', file, '--data-dir', dataDir]);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const result = JSON.parse(restored.stdout) as { previous: string };
    expect(result).toEqual({ restored: file, database: join(dataDir, 'pos.sqlite'), schemaVersion: latestVersion(), previous: expect.stringMatching(/pos-before-restore-\d{8}T\d{6}\.\d{3}Z\.sqlite$/) });
    // The database it replaced is kept aside whole, sales after the backup included.
    expect(tranIds(result.previous, 'BK-').size).toBe(acked.length);

    const second = await serveDemo(main, dataDir);
    try {
      const again = await clientToken(second.retail, ['pos.transactions:read']);
      const read = async (id: string) => {
        const res = await fetch(`${second.retail.baseUrl}/transactions/${id}`, { headers: { authorization: `Bearer ${again}` } });
        return { status: res.status, body: (await res.json()) as { terminalTranId?: string } };
      };
      const wanted = acked.filter((a) => before.has(a.tranId));
      for (let i = 0; i < wanted.length; i += CLIENTS) {
        const answers = await Promise.all(wanted.slice(i, i + CLIENTS).map((a) => read(a.transactionHeadId)));
        expect(answers.map((r) => [r.status, r.body.terminalTranId])).toEqual(wanted.slice(i, i + CLIENTS).map((a) => [200, a.tranId]));
      }
      // And a sale sent after the backup is not: the restore did replace the database.
      expect((await read(after[0]!.transactionHeadId)).status).toBe(404);
    } finally {
      expect(await stopChild(second.child)).toBe(0);
    }
  }, 240000);
});

describe('restore refuses a file that is not a sound pos-backoffice database', () => {
  let root: string;
  let dataDir: string;
  let good: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'pos-restore-'));
    dataDir = join(root, 'data');
    expect((await cli(['contract', 'create', '--id', 'shop', '--plan', 'premium', '--data-dir', dataDir])).code).toBe(0);
    const made = await cli(['backup', '--to', join(root, 'usb'), '--data-dir', dataDir]);
    good = (JSON.parse(made.stdout) as { file: string }).file;
  }, 60000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A copy of the good backup with `bytes` written over `page` (1-based) of the table or index `name`. */
  const damaged = (name: string, bytes: Buffer, target: string) => {
    const db = new Database(good, { readonly: true });
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const page = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(name) as number;
    db.close();
    copyFileSync(good, target);
    const fd = openSync(target, 'r+');
    writeSync(fd, bytes, 0, bytes.length, (page - 1) * pageSize);
    closeSync(fd);
    return target;
  };

  it('says why, exits 1 and leaves the data dir as it was', async () => {
    const text = join(root, 'notes.txt');
    writeFileSync(text, 'this is not a database\n'.repeat(100));
    const empty = join(root, 'empty.sqlite');
    writeFileSync(empty, '');
    const foreign = join(root, 'foreign.sqlite');
    const other = new Database(foreign);
    other.exec('CREATE TABLE things (x)');
    other.close();
    // The contracts table's root page overwritten with bytes that are no b-tree page.
    const garbled = damaged('contracts', Buffer.alloc(16, 0xff), join(root, 'garbled.sqlite'));
    // The contracts table's unique index emptied: the table has a row its index lacks.
    const emptiedIndex = damaged('sqlite_autoindex_contracts_1', Buffer.from([0x0a, 0, 0, 0, 0, 0x10, 0, 0]), join(root, 'index.sqlite'));
    const newer = join(root, 'newer.sqlite');
    copyFileSync(good, newer);
    const n = new Database(newer);
    n.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', '2030-01-01T00:00:00Z')").run();
    n.close();

    const before = snapshot(dataDir);
    const cases: [string, string][] = [
      [join(root, 'missing.sqlite'), `${join(root, 'missing.sqlite')} does not exist`],
      [root, `${root} is not a file`],
      [text, `${text} is not a usable SQLite database: file is not a database; nothing was changed`],
      [empty, `${empty} is not a pos-backoffice database (it has no schema_migrations); nothing was changed`],
      [foreign, `${foreign} is not a pos-backoffice database (it has no schema_migrations); nothing was changed`],
      [garbled, `${garbled} is not a usable SQLite database: database disk image is malformed; nothing was changed`],
      [newer, `${newer} is at migration 9999, newer than this build knows (${latestVersion()}); install the newer pos-backoffice version that wrote it; nothing was changed`],
    ];
    for (const [from, reason] of cases) {
      expect(await cli(['restore', '--from', from, '--data-dir', dataDir]), from).toEqual({ code: 1, stdout: '', stderr: `pos-backoffice: ${reason}` });
    }
    const index = await cli(['restore', '--from', emptiedIndex, '--data-dir', dataDir]);
    expect(index.code).toBe(1);
    expect(index.stderr).toMatch(new RegExp(`^pos-backoffice: ${emptiedIndex.replace(/[.]/g, '\\.')} fails SQLite's integrity check: .*missing from index sqlite_autoindex_contracts_1.*; nothing was changed$`));
    expect(snapshot(dataDir)).toEqual(before);

    // The good one is restored (the same data dir, so the refusals were not about it).
    expect((await cli(['restore', '--from', good, '--data-dir', dataDir])).code).toBe(0);
  }, 120000);

  it('restore and backup give one-line reasons for bad arguments (exit 2) and failures (exit 1)', async () => {
    expect(await cli(['restore', '--data-dir', dataDir])).toEqual({ code: 2, stdout: '', stderr: 'pos-backoffice: --from is required: the backup file to restore' });
    expect(await cli(['backup', '--kind', 'weekly', '--data-dir', dataDir])).toEqual({ code: 2, stdout: '', stderr: 'pos-backoffice: --kind must be manual or daily, got "weekly"' });
    const nothing = join(root, 'no-data');
    expect(await cli(['backup', '--data-dir', nothing])).toEqual({ code: 1, stdout: '', stderr: `pos-backoffice: there is no database to back up at ${join(nothing, 'pos.sqlite')}` });
    const aFile = join(root, 'a-file');
    writeFileSync(aFile, 'x');
    const blocked = await cli(['backup', '--to', join(aFile, 'sub'), '--data-dir', dataDir]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toMatch(new RegExp(`^pos-backoffice: cannot write a backup into ${join(aFile, 'sub')}: ENOTDIR`));
  }, 60000);
});

describe('an upgrade backs the database up before it migrates it', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'pos-upgrade-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const all = loadMigrations();
  const older = all[all.length - 2]!.version;
  /** A data dir written by the build before the newest migration, with one contract. */
  const olderDataDir = (name: string) => {
    const dataDir = join(root, name);
    const db = openDatabase(join(dataDir, 'pos.sqlite'));
    migrate(db, all.filter((m) => m.version <= older));
    db.prepare("INSERT INTO contracts (contract_id, name, plan, created_at, updated_at) VALUES ('old-shop', 'Old shop', 'premium', 1, 1)").run();
    db.close();
    return dataDir;
  };

  it('serve prints that it is migrating, copies the old database to backups/, then migrates and serves', async () => {
    const dataDir = olderDataDir('serve');
    const first = await serveLines(dataDir);
    // The log's own JSON lines (a warning or two) aside: the notice, then the ready line.
    const lines = first.lines.filter((l) => /^\{"(migrating|ready)"/.test(l));
    expect(lines).toHaveLength(2);
    const notice = JSON.parse(lines[0]!) as { backup: string };
    expect(notice).toEqual({ migrating: true, from: older, to: latestVersion(), backup: expect.stringMatching(/-pre-migration\.sqlite$/) });
    expect(notice.backup.startsWith(join(dataDir, 'backups', 'pos-backup-'))).toBe(true);
    expect(JSON.parse(lines[1]!)).toMatchObject({ ready: true });
    expect(await first.stop()).toBe(0);

    expect(integrity(notice.backup)).toEqual(['ok']);
    expect(versionOf(notice.backup)).toBe(older);
    const kept = new Database(notice.backup, { readonly: true });
    expect(kept.prepare('SELECT contract_id FROM contracts').pluck().all()).toEqual(['old-shop']);
    kept.close();
    expect(versionOf(join(dataDir, 'pos.sqlite'))).toBe(latestVersion());

    // Up to date now: the next start neither says so nor copies it again.
    const second = await serveLines(dataDir);
    expect(second.lines.filter((l) => /^\{"(migrating|ready)"/.test(l)).map((l) => Object.keys(JSON.parse(l) as object)[0])).toEqual(['ready']);
    expect(await second.stop()).toBe(0);
    expect(readdirSync(join(dataDir, 'backups'))).toHaveLength(1);
  }, 120000);

  it('a one-shot command on an older database backs it up too, and prints only its own result', async () => {
    const dataDir = olderDataDir('command');
    const r = await cli(['contract', 'create', '--id', 'new-shop', '--plan', 'premium', '--data-dir', dataDir]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ contractId: 'new-shop' });
    const [copy] = readdirSync(join(dataDir, 'backups'));
    expect(copy).toMatch(/^pos-backup-\d{8}T\d{6}\.\d{3}Z-pre-migration\.sqlite$/);
    expect(versionOf(join(dataDir, 'backups', copy!))).toBe(older);
  }, 60000);

  it('when the copy cannot be made, the database is not migrated and serve exits 1 saying why', async () => {
    const dataDir = olderDataDir('blocked');
    writeFileSync(join(dataDir, 'backups'), 'a file where the backups folder would be');
    const r = await cli(['serve', '--port', '0', '--data-dir', dataDir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^pos-backoffice: cannot back up the database before migrating it from ${older} to ${latestVersion()}, so it was not migrated: cannot write a backup into ${join(dataDir, 'backups')}: EEXIST`),
    );
    expect(versionOf(join(dataDir, 'pos.sqlite'))).toBe(older);
  }, 60000);
});

// The synchronous PostgreSQL client (server/db/pg/sync-client.ts) against a real throwaway
// cluster. Its worker runs from dist/ (worker_threads load only JS), hence ensureDistBuilt.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailable, PgQueryError } from '../../server/db/pg/errors.js';
import { PgSyncClient } from '../../server/db/pg/sync-client.js';
import { caught } from '../helpers/pg-sync-client.js';
import { startOwnPostgres, startPostgres, type OwnPgCluster, type PgCluster } from '../helpers/postgres.js';
import { ensureDistBuilt, ROOT } from '../ui/support/build.js';

let cluster: PgCluster;
const clients: PgSyncClient[] = [];
const open = (connectionString: string, options: Partial<ConstructorParameters<typeof PgSyncClient>[0]> = {}) => {
  const client = new PgSyncClient({ connectionString, connectTimeoutMs: 3000, ...options });
  clients.push(client);
  return client;
};

beforeAll(async () => {
  await ensureDistBuilt();
  cluster = await startPostgres();
}, 300_000);
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(() => cluster?.stop());

describe('statements', () => {
  it('returns rows and the count of rows changed, with ? and @name parameters', async () => {
    const db = open(await cluster.createDatabase());
    db.query('CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL)');
    expect(db.query('INSERT INTO items VALUES (?, ?), (?, ?)', [1, 'tea', 2, 'rice'])).toEqual({ rows: [], rowCount: 2 });
    expect(db.query('UPDATE items SET name = @name WHERE id >= @from', { name: 'x', from: 2 }).rowCount).toBe(1);
    expect(db.query('SELECT id, name FROM items ORDER BY id')).toEqual({ rows: [{ id: 1, name: 'tea' }, { id: 2, name: 'x' }], rowCount: 2 });
    expect(db.query("SELECT '?' AS q, ?::text AS p", ['v']).rows).toEqual([{ q: '?', p: 'v' }]);
  });

  it('reads values as the SQLite code does: integers as numbers, decimals exact as text, no booleans or parsed JSON', async () => {
    const db = open(cluster.url());
    const [row] = db.query(
      `SELECT 42::bigint AS safe, 9007199254740993::bigint AS unsafe, count(*) AS n, 12345678901234567890.123456789::numeric AS exact,
              0.1::numeric + 0.2::numeric AS sum, 'テキスト'::text AS text, NULL::text AS nothing, 1 = 1 AS yes, 1 = 2 AS no,
              '{"a": 1}'::jsonb AS doc, 7::integer AS int4, 1.5::float8 AS float
         FROM (VALUES (1), (2)) AS v(x)`,
    ).rows;
    expect(row).toEqual({
      safe: 42,
      unsafe: '9007199254740993',
      n: 2,
      exact: '12345678901234567890.123456789',
      sum: '0.3',
      text: 'テキスト',
      nothing: null,
      yes: 1,
      no: 0,
      doc: '{"a": 1}',
      int4: 7,
      float: 1.5,
    });
  });

  it('runs a batch in order in one hop; the first statement that fails ends it with its error', async () => {
    const db = open(await cluster.createDatabase());
    db.query('CREATE TABLE t (n integer PRIMARY KEY)');
    const results = db.batch([{ sql: 'INSERT INTO t VALUES (?), (?)', params: [1, 2] }, { sql: 'SELECT sum(n) AS total FROM t' }, { sql: 'DELETE FROM t WHERE n = @n', params: { n: 2 } }]);
    expect(results).toEqual([{ rows: [], rowCount: 2 }, { rows: [{ total: 3 }], rowCount: 1 }, { rows: [], rowCount: 1 }]);
    const error = caught(() => db.batch([{ sql: 'INSERT INTO t VALUES (5)' }, { sql: 'INSERT INTO t VALUES (1)' }, { sql: 'INSERT INTO t VALUES (6)' }])) as PgQueryError;
    expect([error.name, error.code]).toEqual(['PgQueryError', '23505']);
    expect(db.query('SELECT n FROM t ORDER BY n').rows).toEqual([{ n: 1 }, { n: 5 }]);
  });

  it('throws what PostgreSQL refuses as a PgQueryError with its SQLSTATE', async () => {
    const db = open(cluster.url());
    const error = caught(() => db.query('SELECT * FROM no_such_table')) as PgQueryError;
    expect(error).toBeInstanceOf(PgQueryError);
    expect(error.code).toBe('42P01');
    expect(error.message).toBe('relation "no_such_table" does not exist');
    expect(db.query('SELECT 1 AS one').rows).toEqual([{ one: 1 }]);
  });
});

describe('transactions', () => {
  let db: PgSyncClient;
  const names = () => db.query<{ name: string }>('SELECT name FROM t ORDER BY name').rows.map((r) => r.name);
  const seen = async () => {
    db = open(await cluster.createDatabase());
    db.query('CREATE TABLE t (name text PRIMARY KEY)');
  };

  it('commits what fn wrote and returns its result', async () => {
    await seen();
    expect(db.transaction(() => (db.query("INSERT INTO t VALUES ('a')"), db.inTransaction))).toBe(true);
    expect(db.inTransaction).toBe(false);
    expect(names()).toEqual(['a']);
  });

  it('rolls everything back when fn throws, and throws its error', async () => {
    await seen();
    const error = caught(() =>
      db.transaction(() => {
        db.query("INSERT INTO t VALUES ('a')");
        throw new Error('refused');
      }),
    );
    expect((error as Error).message).toBe('refused');
    expect(names()).toEqual([]);
  });

  it('nests as savepoints: an inner failure undoes only the inner work', async () => {
    await seen();
    db.transaction(() => {
      db.query("INSERT INTO t VALUES ('outer')");
      db.transaction(() => db.query("INSERT INTO t VALUES ('inner kept')"));
      expect(caught(() => db.transaction(() => (db.query("INSERT INTO t VALUES ('inner undone')"), db.query("INSERT INTO t VALUES ('outer')"))))).toBeInstanceOf(PgQueryError);
    });
    expect(names()).toEqual(['inner kept', 'outer']);
  });

  it('a statement that fails inside a transaction rolls the transaction back; caught, the next one is refused as PostgreSQL aborted it', async () => {
    await seen();
    db.query("INSERT INTO t VALUES ('a')");
    const error = caught(() =>
      db.transaction(() => {
        db.query("INSERT INTO t VALUES ('b')");
        db.query("INSERT INTO t VALUES ('a')");
      }),
    ) as PgQueryError;
    expect([error.code, error.constraint]).toEqual(['23505', 't_pkey']);
    expect(names()).toEqual(['a']);

    const aborted = caught(() =>
      db.transaction(() => {
        caught(() => db.query("INSERT INTO t VALUES ('a')"));
        db.query("INSERT INTO t VALUES ('c')");
      }),
    ) as PgQueryError;
    expect(aborted.code).toBe('25P02');
    expect(names()).toEqual(['a']);
  });

  it('refuses an async fn and rolls back what it began', async () => {
    await seen();
    const error = caught(() => db.transaction(() => (db.query("INSERT INTO t VALUES ('a')"), Promise.resolve())));
    expect((error as Error).message).toBe('transaction() takes a synchronous function; it returned a promise');
    expect(names()).toEqual([]);
  });
});

describe('timeouts', () => {
  it("a statement over PostgreSQL's statement timeout is a DatabaseUnavailable timeout, and the connection goes on", async () => {
    const db = open(cluster.url(), { statementTimeoutMs: 300 });
    const error = caught(() => db.query('SELECT pg_sleep(5)')) as DatabaseUnavailable;
    expect(error).toBeInstanceOf(DatabaseUnavailable);
    expect([error.reason, error.code, error.commitUnknown, error.retryAfterSeconds]).toEqual(['timeout', '57014', false, 1]);
    expect(db.query('SELECT 1 AS one').rows).toEqual([{ one: 1 }]);
  });

  it('a call the worker does not answer in time ends with a DatabaseUnavailable timeout; the next call has a new worker', async () => {
    const db = open(cluster.url(), { statementTimeoutMs: 0, callTimeoutMs: 1500, reconnectPauseMs: 0 });
    const pid = db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid').rows[0]!.pid;
    const error = caught(() => db.query('SELECT pg_sleep(8)')) as DatabaseUnavailable;
    expect([error.name, error.reason, error.message]).toEqual(['DatabaseUnavailable', 'timeout', 'the database did not answer within 1500 ms']);
    const again = db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid').rows[0]!.pid;
    expect(again).not.toBe(pid);
  });

  it("holds this thread's event loop only while a call runs, and an idle client does not keep the process alive", () => {
    const db = open(cluster.url());
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      db.query('SELECT pg_sleep(0.2)');
      expect(ticks).toBe(0);
    } finally {
      clearInterval(timer);
    }
    const script = `import { PgSyncClient } from ${JSON.stringify(join(ROOT, 'dist/server/db/pg/sync-client.js'))};
      const db = new PgSyncClient({ connectionString: ${JSON.stringify(cluster.url())} });
      let ticked = false;
      setTimeout(() => { ticked = true; console.log(JSON.stringify([ticked, db.query('SELECT 1 AS one').rows])); }, 1);
      db.query('SELECT 1');
      console.log(JSON.stringify([ticked]));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 15_000 });
    expect(out.trim().split('\n')).toEqual(['[false]', '[true,[{"one":1}]]']);
  });
});

describe('the server going away', () => {
  let own: OwnPgCluster;
  beforeAll(async () => {
    own = await startOwnPostgres();
  }, 120_000);
  afterAll(() => own?.stop());

  it('is a DatabaseUnavailable while it is stopped, never a hung call, and the client reconnects when it is back', async () => {
    const url = await own.createDatabase();
    const db = open(url, { connectTimeoutMs: 2000, reconnectPauseMs: 0 });
    db.query('CREATE TABLE t (n integer)');
    db.query('INSERT INTO t VALUES (1)');
    await own.kill();
    const down = caught(() => db.query('SELECT n FROM t')) as DatabaseUnavailable;
    expect(down).toBeInstanceOf(DatabaseUnavailable);
    expect([down.reason, down.retryAfterSeconds, down.commitUnknown]).toEqual(['connection', 1, false]);
    expect(caught(() => db.transaction(() => db.query('SELECT 1')))).toBeInstanceOf(DatabaseUnavailable);
    await own.start();
    expect(db.query('SELECT n FROM t').rows).toEqual([{ n: 1 }]);
  }, 60_000);

  it('after a failed connect, calls fail at once for the reconnect pause instead of each waiting to connect', async () => {
    const url = await own.createDatabase();
    await own.kill();
    try {
      const db = open(url, { reconnectPauseMs: 60_000 });
      const refused = caught(() => db.query('SELECT 1')) as DatabaseUnavailable;
      expect([refused.reason, refused.code]).toEqual(['connection', 'ECONNREFUSED']);
      const paused = caught(() => db.query('SELECT 1')) as DatabaseUnavailable;
      expect([paused.reason, paused.message]).toEqual(['connection', 'the database could not be reached; not trying again for 60000 ms after a failure']);
    } finally {
      await own.start();
    }
  }, 60_000);

  it('a transaction whose connection is lost fails with DatabaseUnavailable and nothing of it is kept', async () => {
    const url = await own.createDatabase();
    const db = open(url, { connectTimeoutMs: 2000 });
    db.query('CREATE TABLE t (n integer)');
    const error = caught(() =>
      db.transaction(() => {
        db.query('INSERT INTO t VALUES (1)');
        // Another session ends this one's backend, as a restart or failover would.
        const admin = new PgSyncClient({ connectionString: url });
        try {
          admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
        } finally {
          admin.close();
        }
        db.query('INSERT INTO t VALUES (2)');
      }),
    ) as DatabaseUnavailable;
    expect(error).toBeInstanceOf(DatabaseUnavailable);
    expect(error.reason).toBe('connection');
    expect(db.query('SELECT count(*) AS n FROM t').rows).toEqual([{ n: 0 }]);
  }, 60_000);
});

import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, DatabaseUrlError, describeDatabase, parseDatabaseUrl } from '../../server/db/pg/connect.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';

describe('the database URL', () => {
  it('reads user, password, host, port and database, percent-decoded', () => {
    const t = parseDatabaseUrl('postgres://pos%40hq:s3cr%2Ft@db.example:6543/pos_central?sslmode=require');
    expect(t).toMatchObject({ user: 'pos@hq', password: 's3cr/t', host: 'db.example', port: 6543, database: 'pos_central', sslmode: 'require' });
    expect(parseDatabaseUrl('postgresql://db/pos')).toMatchObject({ host: 'db', port: 5432, database: 'pos' });
    expect(parseDatabaseUrl('postgres://u@[::1]:5433/pos')).toMatchObject({ host: '::1', port: 5433 });
  });

  it('is described without its password', () => {
    const t = parseDatabaseUrl('postgres://pos:hunter2@db:5433/central');
    expect(describeDatabase(t)).toBe('postgres://pos@db:5433/central');
  });

  it('lists a primary and its standby, each host a URL of its own for pg, target_session_attrs kept for us', () => {
    const t = parseDatabaseUrl('postgres://pos:hunter2@10.0.0.1:5432,[::1],db2:6543/central?sslmode=require&target_session_attrs=read-write');
    expect(t).toMatchObject({
      host: '10.0.0.1',
      port: 5432,
      hosts: [{ host: '10.0.0.1', port: 5432 }, { host: '::1', port: 5432 }, { host: 'db2', port: 6543 }],
      targetSessionAttrs: 'read-write',
      user: 'pos',
      password: 'hunter2',
      database: 'central',
      sslmode: 'require',
    });
    expect(t.hostUrls).toEqual([
      'postgres://pos:hunter2@10.0.0.1:5432/central?sslmode=require',
      'postgres://pos:hunter2@[::1]/central?sslmode=require',
      'postgres://pos:hunter2@db2:6543/central?sslmode=require',
    ]);
    expect(t.connectionString).toBe(t.hostUrls[0]);
    expect(describeDatabase(t)).toBe('postgres://pos@10.0.0.1:5432,[::1]:5432,db2:6543/central?target_session_attrs=read-write');
    // One host and libpq's default: the URL as given, as before.
    const one = parseDatabaseUrl('postgres://pos@db/central?sslmode=disable');
    expect(one).toMatchObject({ hosts: [{ host: 'db', port: 5432 }], targetSessionAttrs: 'any', connectionString: 'postgres://pos@db/central?sslmode=disable' });
    expect(one.hostUrls).toEqual(['postgres://pos@db/central?sslmode=disable']);
    expect(parseDatabaseUrl('postgres://pos@a,b/central?target_session_attrs=any')).toMatchObject({ targetSessionAttrs: 'any', hostUrls: ['postgres://pos@a/central', 'postgres://pos@b/central'] });
  });

  const refused: [string, string][] = [
    ['', 'database URL: it is empty'],
    ['db.example/pos', 'database URL: it has no scheme'],
    ['mysql://u:pw@db/pos', 'database URL: the scheme "mysql" is not postgres or postgresql'],
    ['postgres:u:hunter2@db/pos', 'database URL: "//" must follow the scheme'],
    ['postgres://u:hunter2@db:54x2/pos', 'database URL: the port is not a number from 1 to 65535'],
    ['postgres://u:hunter2@db:70000/pos', 'database URL: the port is not a number from 1 to 65535'],
    ['postgres://u:hunter2@db:5432', 'database URL: it names no database (add /<database> after the host)'],
    ['postgres://u:hunter2@db/a/b', 'database URL: the database name has a "/" in it'],
    ['postgres://u:hunter2@/pos', 'database URL: it names no host'],
    ['postgres://u:hunter2@db/pos?sslmode=sometimes', 'database URL: sslmode "sometimes" is not one of disable, prefer, require, verify-ca, verify-full, no-verify'],
    ['postgres://u:hunter2@db/pos?pool=9', 'database URL: the parameter "pool" is not supported (only sslmode, application_name, target_session_attrs)'],
    ['postgres://u:hunter2@db1:5432,/pos', 'database URL: a host of the list is empty'],
    ['postgres://u:hunter2@db1:5432,db2:99999/pos', 'database URL: the port is not a number from 1 to 65535'],
    ['postgres://u:hunter2@db1,db2/pos?target_session_attrs=read-only', 'database URL: target_session_attrs "read-only" is not one of any, read-write (central writes: read-write picks the primary)'],
    ['postgres://u:hunt%zz@db/pos', 'database URL: the password has a broken %-escape'],
  ];
  it.each(refused)('refuses %j in one line naming the problem, never the password', (url, problem) => {
    let error: unknown;
    try {
      parseDatabaseUrl(url);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseUrlError);
    const message = (error as Error).message;
    expect(message).toBe(`${problem} (expected postgres://user[:password]@host[:port]/database)`);
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('\n');
  });
});

describe('the pool', () => {
  let cluster: PgCluster;
  let silent: Server;
  beforeAll(async () => {
    cluster = await startPostgres();
    // Accepts TCP connections and never answers: a server that hangs during the handshake.
    silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  }, 120_000);
  afterAll(async () => {
    silent?.close();
    await cluster?.stop();
  });

  it('sets statement, lock and idle-in-transaction timeouts on every connection', async () => {
    const pool = createPool(parseDatabaseUrl(await cluster.createDatabase()), { statementTimeoutMs: 300, lockTimeoutMs: 200 });
    try {
      const { rows } = await pool.query(
        "SELECT current_setting('statement_timeout') AS st, current_setting('lock_timeout') AS lt, current_setting('idle_in_transaction_session_timeout') AS it, current_setting('application_name') AS app",
      );
      expect(rows[0]).toEqual({ st: '300ms', lt: '200ms', it: '1min', app: 'pos-backoffice' });
      await expect(pool.query('SELECT pg_sleep(5)')).rejects.toMatchObject({ code: '57014' });
    } finally {
      await pool.end();
    }
  });

  it('gives up connecting to a server that does not answer', async () => {
    const { port } = silent.address() as { port: number };
    const pool = createPool(parseDatabaseUrl(`postgres://u:pw@127.0.0.1:${port}/pos`), { connectTimeoutMs: 300 });
    try {
      await expect(pool.query('SELECT 1')).rejects.toThrow(/timeout/i);
    } finally {
      await pool.end();
    }
  });
});

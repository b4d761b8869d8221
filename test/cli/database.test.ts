import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCopy, ROOT } from '../helpers/serve-child.js';
import { freePort } from '../helpers/postgres-cluster.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';
import { createMigratedDatabase } from '../helpers/postgres-template.js';

/**
 * Head office on PostgreSQL from the command line (issue 23 item 1), as an operator runs it: the
 * compiled CLI in its own processes against a real PostgreSQL server, chosen by `--database URL`
 * or `POS_DATABASE_URL`. The URL carries a password (the test cluster trusts loopback, so any
 * password is accepted): it must never be printed.
 */
const OUT = '.test-dist-database';
const PASSWORD = 'sekret-pw-9';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

type Via = 'flag' | 'env';

/** With the URL as --database (`flag`) or as POS_DATABASE_URL (`env`). */
function withUrl(args: string[], url: string | undefined, via: Via): { args: string[]; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { ...process.env, POS_LOG_LEVEL: 'warn' };
  delete env.POS_DATABASE_URL;
  delete env.POS_DATA_DIR;
  if (url === undefined) return { args, env };
  return via === 'flag' ? { args: [...args, '--database', url], env } : { args, env: { ...env, POS_DATABASE_URL: url } };
}

/** Every line of both streams: none may hold the password. */
const printed: string[] = [];

describe('the CLI on PostgreSQL (--database / POS_DATABASE_URL)', () => {
  let main: string;
  let cluster: PgCluster;
  let dataDir: string;
  const children: ChildProcess[] = [];

  const cli = (args: string[], url: string | undefined, via: Via = 'flag'): Ran => {
    const line = withUrl([...args, '--data-dir', dataDir], url, via);
    const r = spawnSync(process.execPath, [main, ...line.args], { encoding: 'utf8', timeout: 60_000, env: line.env });
    printed.push(r.stdout, r.stderr);
    return { code: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
  };
  /** The JSON lines of a command that succeeded. */
  const ok = (args: string[], url: string, via: Via = 'flag'): any[] => {
    const r = cli(args, url, via);
    expect(r, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
    return r.stdout.split('\n').filter((l) => l.startsWith('{') || l.startsWith('[')).map((l) => JSON.parse(l));
  };
  /** A failure: exactly one line on stderr, no stack trace, nothing on stdout, never the password. */
  const oneLine = (r: Ran, code: number) => {
    expect(r.code).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^pos-backoffice: /);
    expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+/);
    expect(r.stderr).not.toContain(PASSWORD);
    return r.stderr;
  };

  /** `serve` of the compiled CLI; resolves with its ready line. */
  const serve = (args: string[], url: string, via: Via = 'flag') =>
    new Promise<{ child: ChildProcess; ready: Record<string, any>; output: () => string }>((resolve, reject) => {
      const line = withUrl(['serve', ...args, '--port', '0', '--data-dir', dataDir], url, via);
      const child = spawn(process.execPath, [main, ...line.args], { stdio: ['ignore', 'pipe', 'pipe'], env: line.env });
      children.push(child);
      let out = '';
      const timer = setTimeout(() => reject(new Error(`serve did not get ready: ${out}`)), 60_000);
      const take = (chunk: Buffer) => {
        out += chunk.toString();
        const ready = out.split('\n').find((l) => l.startsWith('{"ready":true'));
        if (ready) {
          clearTimeout(timer);
          resolve({ child, ready: JSON.parse(ready), output: () => out });
        }
      };
      child.stdout!.on('data', take);
      child.stderr!.on('data', take);
      child.on('exit', (code) => {
        clearTimeout(timer);
        printed.push(out);
        reject(new Error(`serve exited ${code}: ${out}`));
      });
    });
  const stop = (child: ChildProcess) =>
    new Promise<number | null>((resolve) => {
      child.removeAllListeners('exit');
      if (child.exitCode !== null) return resolve(child.exitCode);
      child.on('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });

  /** The URL of a database with the password in it. */
  const withPassword = (url: string) => url.replace('postgres@', `postgres:${PASSWORD}@`);
  const withoutPassword = (url: string) => url.replace(`:${PASSWORD}@`, '@');
  const query = async (url: string, sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: withoutPassword(url) });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    cluster = await startPostgres();
    main = compileCopy(OUT);
    dataDir = mkdtempSync(join(tmpdir(), 'pos-cli-pg-'));
  }, 180_000);
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    rmSync(join(ROOT, OUT), { recursive: true, force: true });
    expect(printed.join('\n')).not.toContain(PASSWORD);
  });

  it('serve --role central migrates a new database, names the engine and the database without its password, answers the API and stops on SIGTERM', async () => {
    const url = withPassword(await cluster.createDatabase());
    ok(['contract', 'create', '--id', 'hq', '--plan', 'premium_plus'], url);
    const [client] = ok(['client', 'create', '--contract', 'hq'], url);
    const { child, ready, output } = await serve(['--role', 'central'], url);
    expect(ready).toMatchObject({ role: 'central', engine: 'postgres', database: withoutPassword(url) });
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const token = await tokenOf(ready.url, 'hq', client);
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${ready.url}/hq/pos${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const created = await api('POST', '/stores', { storeName: 'Head office' });
    expect(created.status).toBe(200);
    const { storeId } = (await created.json()) as { storeId: string };
    const stores = (await (await api('GET', '/stores')).json()) as { storeId: string; storeName: string }[];
    expect(stores.map((s) => [s.storeId, s.storeName])).toEqual([[storeId, 'Head office']]);
    // It is in PostgreSQL, not in a SQLite file of the data dir.
    expect(await query(url, 'SELECT store_name FROM stores WHERE contract_id = $1', ['hq'])).toEqual([{ store_name: 'Head office' }]);
    expect(await stop(child)).toBe(0);
    expect(output()).not.toContain(PASSWORD);
    // Served as central: the database says so to the commands that follow.
    expect(await query(url, 'SELECT role FROM sync_instance')).toEqual([{ role: 'central' }]);
  }, 120_000);

  it('every command of head office runs on the database, given by --database or by POS_DATABASE_URL', async () => {
    const migrated = await createMigratedDatabase(cluster);
    const url = withPassword(migrated);
    const { child, ready } = await serve(['--role', 'central'], url, 'env');
    expect(ready).toMatchObject({ engine: 'postgres', database: withoutPassword(url) });
    for (const [contract, via] of [['by-flag', 'flag'], ['by-env', 'env']] as const) {
      const run = (args: string[]) => ok(args, url, via);
      expect(run(['contract', 'create', '--id', contract, '--plan', 'premium_plus'])).toMatchObject([{ contractId: contract, plan: 'premium_plus' }]);
      expect(run(['contract', 'set-plan', '--id', contract, '--plan', 'premium'])).toMatchObject([{ contractId: contract, plan: 'premium' }]);
      expect(run(['contract', 'set', '--id', contract, '--tax-rounding', 'up', '--max-sales-terminals', '7'])[0].settings).toMatchObject({ taxRounding: '2', maxSalesTerminals: 7 });
      const [client] = run(['client', 'create', '--contract', contract]);
      expect(client.clientSecret).toEqual(expect.any(String));

      // staff-password set on a staff member made through the API, then the login works there.
      const token = await tokenOf(ready.url, contract, client);
      const staff = await fetch(`${ready.url}/${contract}/pos/staffs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ staffName: 'Hanako', staffCode: 'S100' }),
      });
      expect(staff.status).toBe(200);
      const { staffId } = (await staff.json()) as { staffId: string };
      expect(run(['staff-password', 'set', '--contract', contract, '--staff', staffId, '--password', 'hq-pass-123', '--rights', 'staff_view'])).toEqual([
        { contractId: contract, staffId, username: 'S100', rights: ['staff_view'], passwordChanged: true },
      ]);
      const login = await fetch(`${ready.url}/app/${contract}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=password&username=S100&password=hq-pass-123&client_id=${client.clientId}&client_secret=${client.clientSecret}`,
      });
      expect(login.status).toBe(200);

      // The sync module's commands.
      const [added] = run(['node', 'add', '--contract', contract, '--node', '4', '--name', 'Shop 4']);
      expect(added).toMatchObject({ contractId: contract, node: 4, name: 'Shop 4', secret: expect.stringMatching(/^nsec_/) });
      expect(run(['node', 'list', '--contract', contract])).toEqual([{ contractId: contract, node: 4, name: 'Shop 4', revoked: false, highWater: 0, lastPushAt: null, lastPullAt: null }]);
      expect(run(['sync', 'status', '--contract', contract])).toMatchObject([{ role: 'central', contractId: contract, nodes: [{ node: 4, revoked: false }], deadLetters: 0 }]);
      expect(run(['sync', 'dead-letters', '--contract', contract])).toEqual([]);
      expect(run(['node', 'revoke', '--contract', contract, '--node', '4'])).toEqual([{ contractId: contract, node: 4, revoked: true }]);
      // A public receiver (no request is made: nothing raises its event here).
      const [hook] = run(['webhook', 'add', '--contract', contract, '--url', 'https://93.184.216.34/hooks', '--events', 'pos:coupons']);
      expect(hook).toMatchObject({ url: 'https://93.184.216.34/hooks', events: ['pos:coupons'], secret: expect.stringMatching(/^whsec_/) });
      expect(run(['webhook', 'list', '--contract', contract])).toMatchObject([[{ subscriptionId: hook.subscriptionId }]]);
      expect(run(['webhook', 'deliveries', '--contract', contract])).toEqual([[]]);
      oneLine(cli(['webhook', 'replay', '--contract', contract, '--id', '999999'], url, via), 1);
      expect(run(['webhook', 'remove', '--contract', contract, '--id', hook.subscriptionId])).toHaveLength(1);
      expect(run(['webhook', 'list', '--contract', contract])).toEqual([[]]);
      // A store's command: PostgreSQL is head office's.
      expect(oneLine(cli(['link', '--central', 'http://127.0.0.1:9', '--contract', contract, '--node', '5', '--secret', 's', '--offline'], url, via), 1)).toBe(
        'pos-backoffice: link runs on a store data dir; this one is served as central',
      );
    }
    // Both contracts, seen by every command and by the running server alike.
    expect(ok(['sync', 'status'], url).map((s) => s.contractId)).toEqual(['by-env', 'by-flag']);
    expect((await query(url, 'SELECT contract_id, plan FROM contracts ORDER BY contract_id')).map((r) => [r.contract_id, r.plan])).toEqual([
      ['by-env', 'premium'],
      ['by-flag', 'premium'],
    ]);
    // Head office writes to its change log, never to a store's outbox.
    expect(await query(url, 'SELECT count(*)::int AS n FROM outbox')).toEqual([{ n: 0 }]);
    expect(await stop(child)).toBe(0);
  }, 180_000);

  it('seed fills a contract on the database, once', async () => {
    const url = withPassword(await createMigratedDatabase(cluster));
    ok(['contract', 'create', '--id', 'demo', '--plan', 'premium_plus'], url, 'env');
    const [seeded] = ok(['seed', '--contract', 'demo'], url);
    expect(seeded).toMatchObject({ contractId: 'demo', seeded: true });
    expect(seeded.categories).toBeGreaterThan(0);
    expect(ok(['seed', '--contract', 'demo'], url, 'env')).toMatchObject([{ contractId: 'demo', seeded: false }]);
    const [{ n }] = await query(url, "SELECT count(*)::int AS n FROM categories WHERE contract_id = 'demo'");
    expect(n).toBe(seeded.categories);
    expect(oneLine(cli(['seed', '--contract', 'nope'], url), 1)).toBe('pos-backoffice: contract nope does not exist');
  }, 120_000);

  it('a bad URL, a closed port, a missing database and a newer schema are one line and a non-zero exit, never the password', async () => {
    const closed = await freePort();
    const newer = withPassword(await createMigratedDatabase(cluster));
    await query(newer, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (99999, 'from_the_future', '2030-01-01T00:00:00Z')");
    const port = new URL(cluster.url()).port;
    const cases: { url: string; code: number; says: RegExp }[] = [
      { url: `postgres://postgres:${PASSWORD}@127.0.0.1:notaport/db`, code: 2, says: /port is not a number/ },
      { url: `mysql://root:${PASSWORD}@127.0.0.1/db`, code: 2, says: /scheme "mysql" is not postgres/ },
      { url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}`, code: 2, says: /names no database/ },
      { url: `postgres://postgres:${PASSWORD}@127.0.0.1:${closed}/pos`, code: 1, says: new RegExp(`127\\.0\\.0\\.1:${closed}/pos: connection refused`) },
      { url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/no_such_database`, code: 1, says: /database "no_such_database" does not exist/ },
      { url: newer, code: 1, says: /newer than this build knows/ },
    ];
    for (const { url, code, says } of cases) {
      for (const via of ['flag', 'env'] as const) {
        expect(oneLine(cli(['contract', 'create', '--id', 'x', '--plan', 'premium'], url, via), code), `${url} ${via}`).toMatch(says);
        expect(oneLine(cli(['node', 'list'], url, via), code), `${url} ${via}`).toMatch(says);
      }
      expect(oneLine(cli(['serve', '--role', 'central', '--port', '0'], url), code), url).toMatch(says);
    }
    // Nothing was written to the newer database.
    expect(await query(newer, 'SELECT count(*)::int AS n FROM contracts')).toEqual([{ n: 0 }]);
  }, 180_000);

  it('serve of a store and backup / restore refuse a database: usage, exit 2', async () => {
    const url = withPassword(cluster.url('postgres'));
    for (const via of ['flag', 'env'] as const) {
      expect(oneLine(cli(['serve', '--port', '0'], url, via), 2)).toMatch(/is for serve --role central/);
      expect(oneLine(cli(['serve', '--role', 'store', '--port', '0'], url, via), 2)).toMatch(/is for serve --role central/);
      expect(oneLine(cli(['backup'], url, via), 2)).toMatch(/pg_dump/);
      expect(oneLine(cli(['restore', '--from', join(dataDir, 'x.sqlite')], url, via), 2)).toMatch(/pg_restore/);
    }
  }, 60_000);
});

async function tokenOf(url: string, contract: string, client: { clientId: string; clientSecret: string }): Promise<string> {
  const res = await fetch(`${url}/app/${contract}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}



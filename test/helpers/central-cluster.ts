/**
 * Head office as a cluster, with real processes on 127.0.0.1 (issue 24): one PostgreSQL database
 * (a migrated copy in the run's cluster), several `serve --role central` processes of a compiled
 * copy on it (each with its own data dir and port), a round-robin proxy in front of them
 * (./round-robin-proxy.ts), and store PCs that are `serve` processes on their own SQLite data
 * dirs, linked to central through the proxy (`node add` at central, `link` and `client create`
 * at the store, all by the compiled CLI). The test reads central's rows from PostgreSQL and a
 * store's from its file (read-only). `close()` ends every process it started and removes every
 * dir and the database, also after a failure; `said()` is what each process printed, for a
 * failing assertion's message.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { freePort } from './postgres-cluster.js';
import { startPostgres, type PgCluster } from './postgres.js';
import { createMigratedDatabase } from './postgres-template.js';
import { running, runCli, serveChild, stopChild, type Served } from './serve-child.js';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.js';

/** A request that takes longer than this has hung. */
export const REQUEST_TIMEOUT_MS = 30_000;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls every `every` ms until check holds or `ms` passed; says whether it held. */
export async function until(check: () => boolean | Promise<boolean>, ms = 60_000, every = 50): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(every);
  }
  return false;
}

/** A query at the database `url` on a connection of its own, closed after it (5 s to connect); its rows. */
export async function queryAt<T = any>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A `count(*) ... AS n` at the database `url`. */
export const countAt = async (url: string, sql: string, params: unknown[] = []) => Number((await queryAt<{ n: string | number }>(url, sql, params))[0]!.n);

export interface ApiClient {
  clientId: string;
  clientSecret: string;
}

/** A client-credentials token at `url` (a process or the proxy). */
export async function tokenOf(url: string, contract: string, client: ApiClient): Promise<string> {
  const res = await fetch(`${url}/app/${contract}/token`, {
    method: 'POST',
    headers: { authorization: basic(client.clientId, client.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (res.status !== 200) throw new Error(`token at ${url}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export type Api = (method: string, path: string, body?: unknown) => Promise<Response>;

/** The contract's POS API at `url` with a bearer token. */
export const apiOf =
  (url: string, contract: string, token: string): Api =>
  (method, path, body) =>
    fetch(`${url}/${contract}/pos${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });

/** The JSON of a 2xx answer; throws with the status and body otherwise. */
export async function ok<T = any>(answer: Promise<Response> | Response, what = ''): Promise<T> {
  const res = await answer;
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`${what} ${res.url}: ${res.status} ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface CentralProcess {
  index: number;
  dataDir: string;
  port: number;
  /** The running process (the last one started). */
  served: Served;
  url: string;
  alive(): boolean;
  /** Serves it again on the same data dir and port (after a kill; another port if that one was taken meanwhile). */
  start(): Promise<Served>;
  /** Sends `signal` and waits for the exit; its exit code (null after a signal or when never started). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** What every run of this process printed. */
  output(): string;
}

export interface StorePc {
  node: number;
  /** The node's secret at central (the sync endpoints' Basic credentials with the node number). */
  secret: string;
  dir: string;
  served: Served;
  url: string;
  client: ApiClient;
  /** The store's POS API (a token of its own client). */
  api: Api;
  /** Its SQLite file, read-only. */
  db: Database.Database;
  outbox(): number;
  lastError(): string | null;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface CentralClusterOptions {
  contract: string;
  plan?: string;
  /** How many central processes (2). */
  processes?: number;
  /** More `serve` arguments for every central process. */
  centralArgs?: string[];
  /** The store's sync knobs (env of its serve). */
  storeEnv?: Record<string, string>;
}

export interface CentralCluster {
  contract: string;
  database: string;
  proxy: RoundRobinProxy;
  centrals: CentralProcess[];
  stores: StorePc[];
  /** An API client at central (all scopes). */
  client: ApiClient;
  /** A one-shot command of the compiled CLI at central (on the database); its first JSON line. */
  cli(args: string[]): Promise<any>;
  /** A query at central's database. */
  query<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
  /** A count(*) ... AS n at central. */
  count(sql: string, params?: unknown[]): Promise<number>;
  /** Central's POS API through the proxy, or at one process. */
  api(at?: CentralProcess): Promise<Api>;
  /** Registers node `node` at central, links a fresh store data dir to it through the proxy, serves it. */
  addStore(node: number, name: string): Promise<StorePc>;
  /** The tails of what every process printed, the stores' last errors and the proxy's counters. */
  said(): string;
  close(): Promise<void>;
}

export async function startCentralCluster(main: string, options: CentralClusterOptions): Promise<CentralCluster> {
  const { contract } = options;
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  let pgCluster: PgCluster | undefined;
  let admin: pg.Client | undefined;
  let proxy: RoundRobinProxy | undefined;
  const centrals: CentralProcess[] = [];
  const stores: StorePc[] = [];
  let database = '';

  const close = async () => {
    await Promise.all(stores.map((s) => s.stop('SIGKILL').catch(() => {})));
    await Promise.all(children.map((c) => stopChild(c, 'SIGKILL')));
    for (const s of stores) s.db.close();
    await proxy?.close().catch(() => {});
    await admin?.end().catch(() => {});
    if (pgCluster && database) {
      const client = new pg.Client({ connectionString: pgCluster.url() });
      try {
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${new URL(database).pathname.slice(1)} WITH (FORCE)`);
      } catch {
        // the run's cluster goes at its end anyway
      } finally {
        await client.end().catch(() => {});
      }
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };

  try {
    pgCluster = await startPostgres();
    database = await createMigratedDatabase(pgCluster);
    admin = new pg.Client({ connectionString: database });
    admin.on('error', () => {});
    await admin.connect();
    proxy = await startRoundRobinProxy();
    const firstDir = tempDir('pos-cluster-hq0-');
    const cli = (args: string[]) => runCli(main, [...args, '--data-dir', firstDir, '--database', database]);
    await cli(['contract', 'create', '--id', contract, '--plan', options.plan ?? 'retail_business']);
    const client = (await cli(['client', 'create', '--contract', contract])) as ApiClient;

    const processes = options.processes ?? 2;
    const dataDirs = Array.from({ length: processes }, (_, index) => (index === 0 ? firstDir : tempDir(`pos-cluster-hq${index}-`)));
    const ports: number[] = [];
    for (let index = 0; index < processes; index++) ports.push(await freePort());
    for (let index = 0; index < processes; index++) {
      const dataDir = dataDirs[index]!;
      const port = ports[index]!;
      let log = '';
      const args = (p: number) => ['--role', 'central', '--port', String(p), '--data-dir', dataDir, '--database', database, '--rate-reads', '0', '--rate-writes', '0', '--rate-sync', '0', ...(options.centralArgs ?? [])];
      const central: CentralProcess = {
        index,
        dataDir,
        port,
        served: undefined as unknown as Served,
        url: `http://127.0.0.1:${port}`,
        alive: () => central.served !== undefined && running(central.served.child),
        async start() {
          log += `\n--- central ${index} started ---\n`;
          try {
            central.served = await serveChild(main, args(central.port), { children, onOutput: (text) => (log += text) });
          } catch (error) {
            // Served again after a kill, its port was taken meanwhile: another port, and the proxy follows.
            if (!/already in use/.test((error as Error).message)) throw error;
            central.port = await freePort();
            log += `\n--- central ${index} started on port ${central.port} ---\n`;
            central.served = await serveChild(main, args(central.port), { children, onOutput: (text) => (log += text) });
          }
          const at = proxy!.targets.indexOf(central.url);
          central.url = central.served.url;
          if (at >= 0) proxy!.targets[at] = central.url;
          return central.served;
        },
        stop: async (signal = 'SIGTERM') => (central.served ? stopChild(central.served.child, signal) : null),
        output: () => log,
      };
      centrals.push(central);
    }
    // Started together (each takes a few seconds to load and connect); the proxy sends to them in this order.
    await Promise.all(centrals.map((c) => c.start()));
    for (const c of centrals) proxy.targets.push(c.url);

    const query = async <T = any>(sql: string, params: unknown[] = []) => (await admin!.query(sql, params)).rows as T[];
    const tokens = new Map<string, string>();
    const cluster: CentralCluster = {
      contract,
      database,
      proxy,
      centrals,
      stores,
      client,
      cli,
      query,
      count: async (sql, params) => Number((await query<{ n: string | number }>(sql, params))[0]!.n),
      async api(at) {
        const url = at?.url ?? proxy!.url;
        // A token is good at every process (they share the database): one is enough.
        let token = tokens.get('central');
        if (!token) tokens.set('central', (token = await tokenOf(url, contract, client)));
        return apiOf(url, contract, token);
      },
      async addStore(node, name) {
        const { secret } = (await cli(['node', 'add', '--contract', contract, '--node', String(node), '--name', name])) as { secret: string };
        const dir = tempDir(`pos-cluster-store${node}-`);
        await runCli(main, ['link', '--central', proxy!.url, '--contract', contract, '--node', String(node), '--secret', secret, '--data-dir', dir]);
        const storeClient = (await runCli(main, ['client', 'create', '--contract', contract, '--data-dir', dir])) as ApiClient;
        const env = { POS_SYNC_BATCH_ITEMS: '20', POS_SYNC_INTERVAL_MS: '50', POS_SYNC_BACKOFF_MAX_MS: '300', POS_SYNC_IDLE_MAX_MS: '300', ...(options.storeEnv ?? {}) };
        const served = await serveChild(main, ['--port', '0', '--data-dir', dir], { env, children });
        const db = new Database(join(dir, 'pos.sqlite'), { readonly: true });
        const store: StorePc = {
          node,
          secret,
          dir,
          served,
          url: served.url,
          client: storeClient,
          api: apiOf(served.url, contract, await tokenOf(served.url, contract, storeClient)),
          db,
          outbox: () => db.prepare('SELECT count(*) FROM outbox').pluck().get() as number,
          lastError: () => db.prepare('SELECT last_error FROM sync_links').pluck().get() as string | null,
          stop: (signal = 'SIGTERM') => stopChild(served.child, signal),
        };
        stores.push(store);
        return store;
      },
      said() {
        const tail = (s: string) => s.slice(-4000);
        return [
          `proxy: ${JSON.stringify(proxy!.stats())}`,
          ...centrals.map((c) => `central ${c.index} (${c.url}, ${c.alive() ? 'running' : 'ended'}):\n${tail(c.output())}`),
          ...stores.map((s) => `store node ${s.node}: outbox ${safe(() => s.outbox())}, last error ${safe(() => s.lastError())}\n${tail(s.served.output())}`),
        ].join('\n');
      },
      close,
    };
    return cluster;
  } catch (error) {
    await close();
    throw error;
  }
}

function safe(read: () => unknown): string {
  try {
    return String(read());
  } catch (e) {
    return `(${(e as Error).message})`;
  }
}

/**
 * A webhook receiver on 127.0.0.1: keeps each hit's headers and body as it arrives and answers 200
 * after `delayMs` (a slow receiver: a delivery stays in flight across other processes' passes).
 */
export interface WebhookReceiver {
  url: string;
  hits: { headers: IncomingHttpHeaders; body: string }[];
  /** Hits per `webhook-id`. */
  byId(): Map<string, number>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(delayMs = 0): Promise<WebhookReceiver> {
  const hits: WebhookReceiver['hits'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ headers: req.headers, body });
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    hits,
    byId() {
      const counts = new Map<string, number>();
      for (const h of hits) {
        const id = String(h.headers['webhook-id']);
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      return counts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../helpers/modules.js';
import { FixedClock } from '../../server/clock.js';
import { openDeps, type AppDeps, type RateLimitConfig, type Resolve, type Role } from '../../server/deps.js';
import { ALL_SCOPES } from '../../server/platform/http/scopes.js';
import { AuthRepo } from '../../server/platform/auth/repo.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { SyncAgent, type AgentOptions } from '../../sync/agent.js';
import { NodeRepo } from '../../sync/central.js';
import { syncContext } from '../../sync/context.js';
import { LinkRepo } from '../../sync/link.js';
import { testDatabase } from '../helpers/engine.js';

export const CONTRACT = 'sync-contract';
export const T0 = '2026-11-22T01:00:00Z';

/**
 * One instance (store or central) on its own database: a store always on its SQLite file (a store
 * never runs on PostgreSQL), central on the test engine (its own PostgreSQL database when
 * POS_TEST_ENGINE=postgres, dropped on close); its HTTP server may be started and stopped.
 */
export interface Instance {
  deps: AppDeps;
  clock: FixedClock;
  dir: string;
  app: FastifyInstance | undefined;
  url: string | undefined;
  /** Builds the app and listens on 127.0.0.1 (on `port` when given). */
  up(port?: number): Promise<string>;
  /** Stops listening (central "down"); the database stays open. */
  down(): Promise<void>;
  /** A fresh token of the contract (tokens expire: the clock moves in tests). */
  token(): Promise<string>;
  api(method: string, path: string, body?: unknown): Promise<LightMyRequestResponse>;
  /** The JSON of a 200 answer (throws otherwise). */
  ok(method: string, path: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

export interface InstanceOptions {
  clock?: FixedClock;
  /** Receivers central may send to although not public (a receiver on 127.0.0.1 needs it). */
  webhookAllow?: readonly string[];
  resolve?: Resolve;
  /**
   * Off unless a test sets them: they count real seconds, and tests that drain in tight loops
   * (a flaky link, a 5 ms scheduler) would meet central's per-node limit by their pace alone.
   */
  rateLimits?: Partial<RateLimitConfig>;
}

const NO_RATE_LIMITS: Partial<RateLimitConfig> = { reads: 0, writes: 0, syncPerNode: 0 };

export async function makeInstance(role: Role, node: number, options: InstanceOptions = {}): Promise<Instance> {
  const dir = mkdtempSync(join(tmpdir(), `pos-sync-${role}-`));
  const clock = options.clock ?? new FixedClock(new Date(T0));
  const database = role === 'central' ? await testDatabase() : undefined;
  const deps = openDeps({
    file: join(dir, 'pos.sqlite'),
    ...(database?.postgresUrl ? { postgresUrl: database.postgresUrl } : {}),
    role,
    node,
    clock,
    checkResponses: true,
    rateLimits: options.rateLimits ?? NO_RATE_LIMITS,
    ...(options.webhookAllow ? { webhookAllow: options.webhookAllow } : {}),
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  new ContractRepo(deps.db, deps.writer, clock).create({ contractId: CONTRACT, name: 'Sync', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
  const auth = new AuthRepo(deps.db, deps.writer, clock);
  let app: FastifyInstance | undefined;
  let built: FastifyInstance | undefined;
  let tokenValue: { token: string; until: number } | undefined;

  const inject = async () => (built ??= await buildApp(deps));
  const instance: Instance = {
    deps,
    clock,
    dir,
    app: undefined,
    url: undefined,
    async up(port = 0) {
      app = await buildApp(deps);
      instance.app = app;
      const address = await app.listen({ host: '127.0.0.1', port });
      instance.url = address;
      return address;
    },
    async down() {
      await app?.close();
      app = undefined;
      instance.app = undefined;
    },
    async token() {
      const now = clock.now().getTime();
      if (tokenValue && tokenValue.until > now + 60_000) return tokenValue.token;
      const clientId = randomBytes(8).toString('hex');
      const secret = randomBytes(16).toString('hex');
      auth.createClient({ clientId, contractId: CONTRACT, secret, scopes: ALL_SCOPES });
      const res = await (await inject()).inject({
        method: 'POST',
        url: `/app/${CONTRACT}/token`,
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials',
      });
      if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`);
      tokenValue = { token: res.json().access_token, until: now + 3_000_000 };
      return tokenValue.token;
    },
    async api(method, path, body) {
      const token = await instance.token();
      return (await inject()).inject({
        method: method as 'GET',
        url: `/${CONTRACT}/pos${path}`,
        headers: { authorization: `Bearer ${token}` },
        ...(body === undefined ? {} : { payload: body as object }),
      });
    },
    async ok(method, path, body) {
      const res = await instance.api(method, path, body);
      if (res.statusCode !== 200) throw new Error(`${role} ${method} ${path}: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    async close() {
      await app?.close();
      await built?.close();
      deps.db.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return instance;
}

/** A free TCP port on 127.0.0.1 (for a central that starts after the store has linked to it). */
export { freePort } from '../helpers/postgres-cluster.js';

export const count = (deps: AppDeps, sql: string, ...args: unknown[]) => deps.db.prepare(sql).pluck().get(...args) as number;

/**
 * The contract's sales and the sum of their totals, compared as a number: SQLite sums the decimal
 * texts to a number, PostgreSQL to exact numeric text (read as a string).
 */
export function saleTotals(deps: AppDeps): { n: number; total: number } {
  const { n, total } = deps.db.prepare('SELECT count(*) AS n, coalesce(sum(total), 0) AS total FROM transactions WHERE contract_id = ?').get(CONTRACT) as {
    n: number;
    total: number | string;
  };
  return { n, total: Number(total) };
}

/** Registers `store` as node `node` at a listening central and links the store to it; the agent syncs that store. */
export function linkStore(central: Instance, store: Instance, node: number, options: { name?: string; agent?: Partial<AgentOptions> } = {}): SyncAgent {
  const { secret } = new NodeRepo(syncContext(central.deps)).add(CONTRACT, node, options.name);
  new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl: central.url!, node, secret });
  return new SyncAgent(store.deps, options.agent);
}

/** Head office listening on 127.0.0.1 and one store PC (node 7, "Shop 7") linked to it but not yet synced. */
export interface CentralAndStore {
  central: Instance;
  store: Instance;
  agent: SyncAgent;
  close(): Promise<void>;
}

export async function centralAndStore(): Promise<CentralAndStore> {
  const central = await makeInstance('central', 0);
  const store = await makeInstance('store', 7);
  await central.up();
  const agent = linkStore(central, store, 7, { name: 'Shop 7', agent: { timeoutMs: 3000 } });
  return {
    central,
    store,
    agent,
    async close() {
      await store.close();
      await central.close();
    },
  };
}

/** Head office and two store PCs, East (node 3) and West (node 5), both linked and synced once. */
export interface CentralAndTwoStores {
  central: Instance;
  east: Instance;
  west: Instance;
  agent(store: Instance): SyncAgent;
  /** Pushes and pulls `store` until both ways are empty. */
  sync(store: Instance): ReturnType<SyncAgent['drain']>;
  close(): Promise<void>;
}

/** `seed` writes head office's data first, so both stores start from it. */
export async function centralAndTwoStores(seed: (central: Instance) => Promise<void>): Promise<CentralAndTwoStores> {
  const central = await makeInstance('central', 0);
  const east = await makeInstance('store', 3);
  const west = await makeInstance('store', 5);
  await central.up();
  await seed(central);
  const agents = new Map([
    [east, linkStore(central, east, 3)],
    [west, linkStore(central, west, 5)],
  ]);
  const agent = (store: Instance) => {
    const found = agents.get(store);
    if (!found) throw new Error('not one of the two stores');
    return found;
  };
  const net: CentralAndTwoStores = {
    central,
    east,
    west,
    agent,
    sync: (store) => agent(store).drain(CONTRACT),
    async close() {
      await east.close();
      await west.close();
      await central.close();
    },
  };
  await net.sync(east);
  await net.sync(west);
  return net;
}

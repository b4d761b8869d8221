import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../helpers/modules.js';
import { FixedClock } from '../../../server/clock.js';
import { defaultRateLimits, type AppDeps } from '../../../server/deps.js';
import { ALL_SCOPES } from '../../../server/platform/http/scopes.js';
import { AuthRepo } from '../../../server/platform/auth/repo.js';
import { ContractRepo } from '../../../server/platform/contracts/repo.js';
import { NodeRepo } from '../../../sync/central.js';
import { syncContext } from '../../../sync/context.js';
import { makeTestApp } from '../../helpers/app.js';
import { centralsOnOneDatabase } from '../../helpers/one-database.js';
import { CONTRACT, makeInstance, T0, type Instance } from '../../sync/helpers.js';

/**
 * Issue 25 item 2: per-contract limits at head office, with @fastify/rate-limit. Reads and
 * writes per contract, 429 with Retry-After and the API's problem body; the sync endpoints per
 * node, apart; none on a store PC; counted in the database for several central processes.
 * Real HTTP on 127.0.0.1; no timing is asserted (the flood's figures are printed).
 */

const OTHER = 'other-contract';
let central: Instance | undefined;
afterEach(async () => {
  await central?.close();
  central = undefined;
});

const tooMany = (detail: string) => ({ type: 'about:blank', title: 'Too Many Requests', status: 429, detail });

async function centralWith(rateLimits: Partial<AppDeps['config']['rateLimits']>): Promise<Instance> {
  const instance = await makeInstance('central', 0, { rateLimits });
  new ContractRepo(instance.deps.db, instance.deps.writer, instance.clock).create({ contractId: OTHER, name: 'Other', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
  await instance.up();
  return instance;
}

/** A client of the contract and a token for it, through the token endpoint. */
async function tokenOf(at: Instance, contractId: string): Promise<string> {
  const clientId = randomBytes(8).toString('hex');
  const secret = randomBytes(16).toString('hex');
  new AuthRepo(at.deps.db, at.deps.writer, at.clock).createClient({ clientId, contractId, secret, scopes: ALL_SCOPES });
  const res = await fetch(`${at.url}/app/${contractId}/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

const call = (at: Instance, token: string, method: string, path: string, contractId = CONTRACT, body?: unknown) =>
  fetch(`${at.url}/${contractId}/pos${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const basic = (node: number, secret: string) => `Basic ${Buffer.from(`${node}:${secret}`).toString('base64')}`;
const push = (at: Instance, node: number, secret: string) =>
  fetch(`${at.url}/sync/${CONTRACT}/push`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: basic(node, secret) }, body: JSON.stringify({ node, items: [] }) });

async function expectTooMany(res: Response, detail: string, windowSeconds: number): Promise<void> {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter >= 1 && retryAfter <= windowSeconds).toBe(true);
  expect(await res.json()).toEqual(tooMany(detail));
}

describe('per-contract limits at head office', () => {
  it('reads and writes are counted per contract (all its clients): beyond, 429 with Retry-After; another contract goes on; a refused token does not count', async () => {
    central = await centralWith({ reads: 3, writes: 2, windowMs: 60_000 });
    const [a, b, other] = [await tokenOf(central, CONTRACT), await tokenOf(central, CONTRACT), await tokenOf(central, OTHER)];
    // Requests the token check refuses are not the contract's: they use none of its budget.
    for (let i = 0; i < 4; i++) expect((await call(central, 'not-a-token', 'GET', '/stores')).status).toBe(401);
    expect([(await call(central, a, 'GET', '/stores')).status, (await call(central, b, 'GET', '/stores')).status, (await call(central, a, 'HEAD', '/stores')).status]).toEqual([200, 200, 200]);
    const readLimit = 'the apps of contract sync-contract made more than their read limit of 3 requests in 60 seconds';
    await expectTooMany(await call(central, b, 'GET', '/stores'), readLimit, 60);
    expect((await call(central, a, 'HEAD', '/categories')).status).toBe(429);

    // Writes have their own budget.
    expect((await call(central, a, 'POST', '/categories', CONTRACT, { categoryName: 'A' })).status).toBe(200);
    expect((await call(central, b, 'POST', '/categories', CONTRACT, { categoryName: 'B' })).status).toBe(200);
    await expectTooMany(
      await call(central, a, 'PATCH', '/categories/1000', CONTRACT, { categoryName: 'C' }),
      'the apps of contract sync-contract made more than their write limit of 2 requests in 60 seconds',
      60,
    );
    // Another contract's apps are not held up.
    for (let i = 0; i < 3; i++) expect((await call(central, other, 'GET', '/stores', OTHER)).status).toBe(200);
    expect((await call(central, other, 'POST', '/categories', OTHER, { categoryName: 'Theirs' })).status).toBe(200);
  });

  it("a store node's sync requests count apart from its contract's API, per node; a stranger naming the node does not use its budget", async () => {
    central = await centralWith({ reads: 1, syncPerNode: 2, windowMs: 60_000 });
    const nodes = new NodeRepo(syncContext(central.deps));
    const [five, six] = [nodes.add(CONTRACT, 5).secret, nodes.add(CONTRACT, 6).secret];
    const token = await tokenOf(central, CONTRACT);
    expect((await call(central, token, 'GET', '/stores')).status).toBe(200);
    expect((await call(central, token, 'GET', '/stores')).status).toBe(429);
    // The contract's API is over its limit; its store still pushes.
    for (let i = 0; i < 3; i++) expect((await push(central, 5, 'wrong')).status).toBe(401);
    expect([(await push(central, 5, five)).status, (await push(central, 5, five)).status]).toEqual([200, 200]);
    await expectTooMany(await push(central, 5, five), 'node 5 of contract sync-contract made more than its sync limit of 2 requests in 60 seconds', 60);
    expect((await push(central, 6, six)).status).toBe(200);
  });

  it('the defaults: the platform’s 50 reads and 20 writes a second at central, none on a store PC', async () => {
    expect(defaultRateLimits('central')).toEqual({ reads: 50, writes: 20, syncPerNode: 50, windowMs: 1000, shared: false });
    expect(defaultRateLimits('store')).toMatchObject({ reads: 0, writes: 0, syncPerNode: 0 });
    const shop = await makeTestApp();
    try {
      const statuses = await Promise.all(Array.from({ length: 80 }, () => shop.api('GET', '/stores').then((r) => r.statusCode)));
      expect(new Set(statuses)).toEqual(new Set([200]));
    } finally {
      await shop.close();
    }
  });
});

describe('several central processes on one database', () => {
  it('count together in the database (serve --rate-limit-shared): the limit holds however the requests are spread', async () => {
    const clock = new FixedClock(new Date(T0));
    // Head office's one database: the data dir's SQLite file, or one PostgreSQL database both processes open.
    const centrals = await centralsOnOneDatabase('pos-rate-');
    const options = { clock, checkResponses: true, rateLimits: { reads: 3, windowMs: 60_000, shared: true } };
    const [one, two] = [centrals.open(options), centrals.open(options)];
    const apps: FastifyInstance[] = [];
    try {
      new ContractRepo(one.db, one.writer, clock).create({ contractId: CONTRACT, name: 'Shared', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
      new AuthRepo(one.db, one.writer, clock).createClient({ clientId: 'c1', contractId: CONTRACT, secret: 's'.repeat(32), scopes: ALL_SCOPES });
      apps.push(await buildApp(one), await buildApp(two));
      const token = (
        await apps[0]!.inject({
          method: 'POST',
          url: `/app/${CONTRACT}/token`,
          headers: { authorization: `Basic ${Buffer.from(`c1:${'s'.repeat(32)}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'grant_type=client_credentials',
        })
      ).json().access_token as string;
      const read = (app: FastifyInstance) => app.inject({ method: 'GET', url: `/${CONTRACT}/pos/stores`, headers: { authorization: `Bearer ${token}` } });
      expect([(await read(apps[0]!)).statusCode, (await read(apps[1]!)).statusCode, (await read(apps[0]!)).statusCode]).toEqual([200, 200, 200]);
      const refused = await read(apps[1]!);
      expect([refused.statusCode, refused.headers['retry-after']]).toEqual([429, '60']);
      expect(refused.json()).toEqual(tooMany('the apps of contract sync-contract made more than their read limit of 3 requests in 60 seconds'));
      expect(one.db.prepare('SELECT key, hits FROM rate_limit_counters').all()).toEqual([{ key: `api:${CONTRACT}:read`, hits: 4 }]);
      // The window ends for both processes at once.
      clock.advance(60_000);
      expect([(await read(apps[1]!)).statusCode, (await read(apps[0]!)).statusCode]).toEqual([200, 200]);
    } finally {
      for (const app of apps) await app.close();
      await centrals.close();
    }
  });
});

describe('one contract flooding head office', () => {
  it('200 reads at once: that contract gets 429s, while another contract’s reads and a node’s push go through (latencies printed)', async () => {
    central = await centralWith(defaultRateLimits('central'));
    const secret = new NodeRepo(syncContext(central.deps)).add(CONTRACT, 5).secret;
    const [flooder, other] = [await tokenOf(central, CONTRACT), await tokenOf(central, OTHER)];
    const timed = async <T>(fn: () => Promise<T>) => {
      const started = performance.now();
      const value = await fn();
      return { value, ms: performance.now() - started };
    };
    const otherReads = async () => {
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const { value, ms } = await timed(() => call(central!, other, 'GET', '/stores', OTHER));
        expect(value.status).toBe(200);
        await value.arrayBuffer();
        times.push(ms);
      }
      return times;
    };
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    // Quiet: the figures to compare with.
    const quietReads = await otherReads();
    const quietPush = await timed(() => push(central!, 5, secret));
    expect(quietPush.value.status).toBe(200);

    // The flood: 200 reads of one contract, 20 at a time; meanwhile the other contract reads and the node pushes.
    const statuses: number[] = [];
    const problems: [string | null, unknown][] = [];
    let next = 0;
    const lane = async () => {
      while (next < 200) {
        next++;
        const res = await call(central!, flooder, 'GET', '/stores');
        statuses.push(res.status);
        if (res.status === 429) problems.push([res.headers.get('retry-after'), await res.json()]);
        else await res.arrayBuffer();
      }
    };
    const started = performance.now();
    const [, floodReads, floodPush] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, lane)),
      otherReads(),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return timed(() => push(central!, 5, secret));
      })(),
    ]);
    const floodMs = performance.now() - started;

    expect(statuses).toHaveLength(200);
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const bodies = [...new Map(problems.map(([, body]) => [JSON.stringify(body), body])).values()];
    expect(bodies).toEqual([tooMany('the apps of contract sync-contract made more than their read limit of 50 requests in 1 second')]);
    expect(problems.filter(([retryAfter]) => retryAfter !== '1')).toEqual([]);
    expect(floodPush.value.status).toBe(200);
    console.log(
      `[rate-limits] 200 reads of one contract in ${floodMs.toFixed(0)} ms: ${200 - refused} answered 200, ${refused} answered 429; ` +
        `another contract's reads median ${median(quietReads).toFixed(1)} ms quiet / ${median(floodReads).toFixed(1)} ms during the flood ` +
        `(max ${Math.max(...quietReads).toFixed(1)} / ${Math.max(...floodReads).toFixed(1)} ms); a node's push ${quietPush.ms.toFixed(1)} ms quiet / ${floodPush.ms.toFixed(1)} ms during the flood`,
    );
  });
});

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { basic, ok, REQUEST_TIMEOUT_MS, startCentralCluster, startWebhookReceiver, tokenOf, until, type Api, type CentralCluster, type CentralProcess, type StorePc, type WebhookReceiver } from '../helpers/central-cluster.js';
import { ROOT, serverCopy } from '../helpers/serve-child.js';

/**
 * Head office as a cluster (issue 24), with real processes on 127.0.0.1 and always on PostgreSQL
 * whatever POS_TEST_ENGINE says: one database, two `serve --role central` processes of the
 * compiled CLI on it (each with its own data dir) behind a round-robin proxy, and two store PCs
 * (`serve` on their own SQLite data dirs) linked to central through the proxy. Everything a store
 * sends goes through the proxy, so a store's pushes and pulls land on both processes in turn.
 *
 * - Each store's sales drain to central exactly once, while one central is SIGKILLed in the
 *   middle of a push: the proxy answers 502 for it, the stores retry and drain through the other;
 *   the killed one is served again on its data dir.
 * - One push sent to both processes at the same moment (a store's resend racing its first try)
 *   is applied once: the node's row is locked while its batch applies.
 * - A master made through either process reaches every store; masters made through both at once
 *   do not collide, and a pull walking the cursor meanwhile passes none of them over; a change
 *   one process commits after the other committed a later one is not passed over either.
 * - Five webhook notices raised through both processes are each delivered once.
 * - A CSV export asked of one process downloads from the other; failed logins spread over both
 *   processes are limited together (`--rate-limit-shared`).
 */
const OUT = '.test-dist-cluster';
const CONTRACT = 'cluster-contract';
/** Sales raised at each store. */
const SALES = 300;

/** `promise`, or a failure naming `what` after `ms`. */
const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what)), ms).unref())]);

const sale = (storeId: string, terminalId: string, i: number, productId?: string) => ({
  transactionHeadDivision: '1',
  storeId,
  terminalId,
  terminalTranDateTime: '2026-11-27T01:00:00Z',
  details: [
    productId
      ? { transactionDetailId: '1', transactionDetailDivision: '1', productId, salesPrice: '300', quantity: '1', taxDivision: '2' }
      : { transactionDetailId: '1', transactionDetailDivision: '1', productName: `Item ${i}`, salesPrice: String(100 + (i % 50)), quantity: '1', taxDivision: '2' },
  ],
});

describe('head office as two central processes on one PostgreSQL database behind a round-robin proxy', () => {
  let hq: CentralCluster;
  let receiver: WebhookReceiver;
  /** Each store PC with the store master and register it sells on. */
  const shops: { pc: StorePc; storeId: string; terminalId: string }[] = [];

  beforeAll(async () => {
    const main = serverCopy(OUT);
    // Answers after 1.5 s: a delivery is still in flight when the other process's worker passes.
    receiver = await startWebhookReceiver(1500);
    hq = await startCentralCluster(main, { contract: CONTRACT, centralArgs: ['--webhook-allow', '127.0.0.1', '--rate-limit-shared'] });
    const api = await hq.api();
    // Both store PCs are set up at once: each registered at central, linked through the proxy,
    // served; each pulls its store master and registers a till of its own.
    const setUp = async (node: number, name: string) => {
      const { storeId } = await ok<{ storeId: string }>(api('POST', '/stores', { storeName: name }));
      const pc = await hq.addStore(node, name);
      expect(await until(async () => (await pc.api('GET', `/stores/${storeId}`)).status === 200, 30_000), hq.said()).toBe(true);
      const [terminal] = await ok<{ terminalId: string }[]>(pc.api('POST', '/terminals', { storeId, terminalName: `${name} 1` }));
      return { pc, storeId, terminalId: terminal!.terminalId };
    };
    shops.push(...(await Promise.all([setUp(3, 'East'), setUp(5, 'West')])));
  }, 180_000);

  /**
   * Every sale of every store is at central once, with its total and its line; nothing became a
   * dead letter.
   */
  async function everySaleOnceAtCentral() {
    let all = 0;
    for (const { pc, storeId } of shops) {
      const atStore = (pc.db.prepare('SELECT transaction_head_id AS id, total FROM transactions WHERE store_id = ? ORDER BY transaction_head_id').all(storeId) as { id: number | string; total: string }[]).map((r) => `${r.id}:${r.total}`);
      const there = (await hq.query<{ id: string; total: string }>('SELECT transaction_head_id AS id, total FROM transactions WHERE store_id = $1 ORDER BY transaction_head_id', [storeId])).map((r) => `${r.id}:${r.total}`);
      expect(there, `node ${pc.node}`).toEqual(atStore);
      all += atStore.length;
    }
    expect(await hq.count('SELECT count(*) AS n FROM transactions')).toBe(all);
    expect(await hq.count('SELECT count(*) AS n FROM transaction_details')).toBe(all);
    expect(await hq.count('SELECT count(DISTINCT transaction_head_id) AS n FROM transaction_details')).toBe(all);
    expect(await hq.count('SELECT count(*) AS n FROM dead_letters'), hq.said()).toBe(0);
    return all;
  }

  /**
   * A node's pull walked as a store walks it (cursor to cursor until no more), through the proxy
   * or at one process, remembering the categories and stores it was given.
   */
  function pullWalker(pc: StorePc) {
    const seen = new Set<string>();
    let cursor = 0;
    const walk = async (at = hq.proxy.url) => {
      for (let page = 0; page < 1000; page++) {
        const answer = await ok<{ items: { entity: string; id: string }[]; cursor: number; more: boolean }>(
          fetch(`${at}/sync/${CONTRACT}/pull?cursor=${cursor}&limit=1000`, { headers: { authorization: basic(String(pc.node), pc.secret) }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
          'pull',
        );
        for (const item of answer.items) if (item.entity === 'category' || item.entity === 'store') seen.add(`${item.entity}:${item.id}`);
        cursor = answer.cursor;
        if (!answer.more) return;
      }
    };
    return { seen, walk };
  }

  /** Central processes A and B (the proxy's first and second target). */
  const centralsAB = () => hq.centrals as [CentralProcess, CentralProcess];

  /** Whether the store PC's file holds these categories and stores. */
  const storeHas = (pc: StorePc, categories: string[], stores: string[]) => {
    const ids = (sql: string) => new Set((pc.db.prepare(sql).pluck().all() as (string | number)[]).map(String));
    const there = ids('SELECT category_id FROM categories');
    const shopsThere = ids('SELECT store_id FROM stores');
    return categories.every((id) => there.has(id)) && stores.every((id) => shopsThere.has(id));
  };

  // A failed test prints what every process said last (central's and the stores' logs, the proxy's counters).
  afterEach(({ task }) => {
    if (task.result?.state === 'fail' && hq) console.error(`${task.name}:\n${hq.said()}`);
  });

  afterAll(async () => {
    await hq?.close();
    await receiver?.close();
    rmSync(join(ROOT, OUT), { recursive: true, force: true });
  }, 60_000);

  it('each store’s sales drain to central exactly once, with one central SIGKILLed in the middle of a push: the stores drain through the other, and the killed one serves again on its data dir', async () => {
    const [a, b] = centralsAB();
    const atCentral = () => hq.count('SELECT count(*) AS n FROM transactions');

    // Both stores sell while they drain; the test kills central A when a push is in flight to it.
    const selling = shops.map(async ({ pc, storeId, terminalId }) => {
      for (let i = 0; i < SALES; i++) await ok(pc.api('POST', '/transactions', sale(storeId, terminalId, i)), `sale ${i} at node ${pc.node}`);
    });
    const pushPath = `/sync/${CONTRACT}/push`;
    const killed = await until(async () => hq.proxy.inFlight(0, pushPath) > 0 && (await atCentral()) >= SALES / 3, 60_000, 2);
    if (killed) await a.stop('SIGKILL');
    expect(killed, `no push in flight to central A after a third of the sales\n${hq.said()}`).toBe(true);
    const atKill = await atCentral();
    await Promise.all(selling);
    expect(atKill, hq.said()).toBeLessThan(2 * SALES);

    // Every store drains through B alone; what A answered before its death and what it was
    // applying when it died are not applied again, nor lost.
    expect(await until(() => shops.every((s) => s.pc.outbox() === 0), 60_000), hq.said()).toBe(true);
    expect(a.alive()).toBe(false);
    const stats = hq.proxy.stats();
    expect(stats.badGateway[0], 'the proxy answered 502 for the killed central').toBeGreaterThan(0);

    expect(await everySaleOnceAtCentral()).toBe(2 * SALES);
    // A 500 is logged as "request failed": B never answered one.
    expect(b.output().split('\n').filter((l) => l.includes('"msg":"request failed"'))).toEqual([]);

    // A is served again on its data dir and port; both take requests again.
    await a.start();
    const api = await hq.api();
    for (let i = 0; i < 4; i++) expect((await api('GET', '/stores')).status).toBe(200);
  }, 120_000);

  it('one push arriving at both processes at the same moment, and again from the store, is applied once: stock movements add up once', async () => {
    const [a, b] = centralsAB();
    const { pc, storeId, terminalId } = shops[0]!;
    const before = await hq.count('SELECT count(*) AS n FROM transactions');
    const proxied = await hq.api();
    const { categoryId } = await ok<{ categoryId: string }>(proxied('POST', '/categories', { categoryName: 'Tea leaves' }));
    const { productId } = await ok<{ productId: string }>(proxied('POST', '/products', { categoryId, productCode: 'TEA', productName: 'Tea', price: '300' }));
    expect(await until(async () => (await pc.api('GET', `/products/${productId}`)).status === 200, 30_000), hq.said()).toBe(true);
    // The store's next push is kept by the proxy (the store is answered 502 and will resend it):
    // stock received (+3, twenty times) and sold (-1, forty times), each a movement central adds.
    const captured = hq.proxy.capture(`/sync/${CONTRACT}/push`);
    for (let i = 0; i < 20; i++) await ok(pc.api('POST', `/stock/${productId}/add`, { storeId, stockAmount: '3' }));
    for (let i = 0; i < 40; i++) await ok(pc.api('POST', '/transactions', sale(storeId, terminalId, SALES + i, productId)));
    const [push] = await within(captured, 30_000, `no push came\n${hq.said()}`);
    expect((JSON.parse(push!.body.toString()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    // Sent to A and B twice each, all at once, as a store timing out and resending through a balancer would.
    const send = (url: string) =>
      fetch(`${url}${push!.path}`, { method: 'POST', headers: { authorization: push!.headers.authorization!, 'content-type': 'application/json' }, body: push!.body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const answers = await Promise.all([a, b, a, b].map(async (c) => ({ at: c.index, status: (await send(c.url)).status })));
    expect(answers.filter((x) => x.status !== 200), `${JSON.stringify(answers)}\n${hq.said()}`).toEqual([]);
    // The store's own resend goes through the proxy as usual.
    expect(await until(() => pc.outbox() === 0, 60_000), hq.said()).toBe(true);
    expect(await everySaleOnceAtCentral()).toBe(before + 40);
    const stock = async (api: Api) => (await ok<{ stockAmount: string }[]>(api('GET', `/stock?store_id=${storeId}&product_id=${productId}`)))[0]?.stockAmount;
    expect(await stock(pc.api)).toBe('20');
    expect(await stock(proxied), hq.said()).toBe('20');
  }, 90_000);

  it('a master made through one process is pulled by every store; masters made through both at once all arrive, with no id twice, and a pull walking the cursor meanwhile skips none', async () => {
    const [a, b] = centralsAB();
    const made: string[] = [];
    made.push((await ok<{ categoryId: string }>((await hq.api(b))('POST', '/categories', { categoryName: 'Made at B' }))).categoryId);
    made.push((await ok<{ categoryId: string }>((await hq.api(a))('POST', '/categories', { categoryName: 'Made at A' }))).categoryId);

    // A node's pull through the proxy, walked from the start as a store does, again and again
    // while a hundred masters are made through both processes at once (ten at a time; categories
    // and stores, which take ids from different sequences, so their writes do not queue on one):
    // a change committed by one process after another's later one must not fall behind the cursor.
    const { seen, walk } = pullWalker(shops[0]!.pc);
    await walk();
    let making = true;
    const walker = (async () => {
      while (making) await walk();
    })();
    const proxied = await hq.api();
    const stores: string[] = [];
    try {
      await Promise.all(
        Array.from({ length: 10 }, async (_, lane) => {
          for (let i = 0; i < 10; i++) {
            if (lane % 2) stores.push((await ok<{ storeId: string }>(proxied('POST', '/stores', { storeName: `Burst ${lane}-${i}` }))).storeId);
            else made.push((await ok<{ categoryId: string }>(proxied('POST', '/categories', { categoryName: `Burst ${lane}-${i}` }))).categoryId);
          }
        }),
      );
    } finally {
      making = false;
      await walker;
    }
    await walk();
    expect(new Set(made).size).toBe(made.length);
    expect(new Set(stores).size).toBe(stores.length);
    const passedOver = [...made.map((id) => `category:${id}`), ...stores.map((id) => `store:${id}`)].filter((key) => !seen.has(key));
    expect(passedOver, 'masters the cursor passed over').toEqual([]);

    for (const { pc } of shops) expect(await until(() => storeHas(pc, made, stores), 30_000, 100), `node ${pc.node}\n${hq.said()}`).toBe(true);
  }, 60_000);

  it('a change one process commits after the other committed a later one is not passed over by the pull', async () => {
    const [a, b] = centralsAB();
    const { seen, walk } = pullWalker(shops[1]!.pc);
    await walk();
    // The test holds the version row A's next category will write just after its change-log row
    // (sync/write-hooks.ts: change_log, then sync_versions): A's write waits there, its change
    // numbered, while B writes a store and commits. A pull at B then must not move past A's
    // change. (At B: A's one connection is busy waiting. All within the 3 s lock_timeout.)
    const blocker = new pg.Client({ connectionString: hq.database });
    blocker.on('error', () => {});
    await blocker.connect();
    try {
      const last = Number((await hq.query<{ last: string }>("SELECT last FROM id_sequences WHERE name = 'categories'"))[0]?.last ?? 0);
      const nextId = `${last + 1}000`;
      await blocker.query('BEGIN');
      await blocker.query('INSERT INTO sync_versions (contract_id, entity, entity_id, hlc) VALUES ($1, $2, $3, $4)', [CONTRACT, 'category', nextId, '0']);
      const late = ok<{ categoryId: string }>((await hq.api(a))('POST', '/categories', { categoryName: 'Committed late' }));
      const waiting = () => hq.count("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%sync_versions%'");
      expect(await until(async () => (await waiting()) > 0, 20_000, 10), `A's write did not wait on the version row\n${hq.said()}`).toBe(true);
      const { storeId } = await ok<{ storeId: string }>((await hq.api(b))('POST', '/stores', { storeName: 'Committed early' }));
      await walk(b.url);
      await blocker.query('ROLLBACK');
      const { categoryId } = await late;
      expect(categoryId).toBe(nextId);
      await walk();
      expect([`category:${categoryId}`, `store:${storeId}`].filter((key) => !seen.has(key)), 'passed over by the pull').toEqual([]);
      for (const { pc } of shops) expect(await until(() => storeHas(pc, [categoryId], [storeId]), 30_000, 100), `node ${pc.node}\n${hq.said()}`).toBe(true);
    } finally {
      await blocker.query('ROLLBACK').catch(() => {});
      await blocker.end().catch(() => {});
    }
  }, 60_000);

  it('five webhook notices raised through both processes are each delivered exactly once', async () => {
    const [a, b] = centralsAB();
    await ok((await hq.api())('POST', '/webhook_subscriptions', { url: receiver.url, events: ['pos:payment-method-groups'] }));
    const at = [a, b, a, b, a];
    for (const [i, central] of at.entries()) await ok((await hq.api(central))('POST', '/payment_method_groups', { paymentMethodGroupName: `Group ${i}` }));

    const settled = async () =>
      receiver.byId().size >= 5 &&
      (await hq.count("SELECT count(*) AS n FROM webhook_deliveries WHERE subscription_id IS NOT NULL AND status <> 'delivered'")) === 0;
    expect(await until(settled, 30_000, 100), `${JSON.stringify([...receiver.byId()])}\n${hq.said()}`).toBe(true);
    // Both processes' delivery workers pass (every second) a few more times: nothing is sent again.
    await new Promise((r) => setTimeout(r, 2500));
    const counts = receiver.byId();
    expect([...counts.values()], JSON.stringify([...counts])).toEqual([1, 1, 1, 1, 1]);
    expect(receiver.hits).toHaveLength(5);
    const deliveries = await hq.query<{ attempts: number }>('SELECT attempts FROM webhook_deliveries WHERE subscription_id IS NOT NULL');
    expect(deliveries.map((d) => Number(d.attempts))).toEqual([1, 1, 1, 1, 1]);
  }, 60_000);

  it('a CSV export asked of one process is followed and downloaded through the other', async () => {
    const [a, b] = centralsAB();
    const now = Date.now();
    const range = { transactionDateTimeFrom: new Date(now - 86_400_000).toISOString().slice(0, 19) + 'Z', transactionDateTimeTo: new Date(now + 3_600_000).toISOString().slice(0, 19) + 'Z' };
    const { requestCode } = await ok<{ requestCode: string }>((await hq.api(a))('POST', '/transactions/details/out_file_async', range));
    const atB = await hq.api(b);
    let progress: { status: string; fileUrl: string | null; rowsWritten: number } | undefined;
    const done = async () => {
      progress = await ok(atB('GET', `/transactions/details/out_file_async/${requestCode}`));
      return progress!.status === 'succeeded' || progress!.status === 'failed';
    };
    expect(await until(done, 60_000, 200), hq.said()).toBe(true);
    expect(progress!.status, JSON.stringify(progress)).toBe('succeeded');
    const file = new URL(progress!.fileUrl!);
    const res = await fetch(`${b.url}${file.pathname}${file.search}`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    expect(res.status, `${await res.clone().text()}`).toBe(200);
    const lines = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8').trim().split('\n');
    expect(lines).toHaveLength((await hq.count('SELECT count(*) AS n FROM transaction_details')) + 1);
  }, 90_000);

  it('failed logins spread over both processes are limited together', async () => {
    const [a, b] = centralsAB();
    const login = (url: string) =>
      fetch(`${url}/app/${CONTRACT}/token`, {
        method: 'POST',
        headers: { authorization: basic(hq.client.clientId, hq.client.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=password&username=guesser&password=wrong-password',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    // 10 failures a username in the window (README, Limits): five at each process.
    for (let i = 0; i < 10; i++) expect((await login(i % 2 ? b.url : a.url)).status).toBe(400);
    for (const central of [a, b]) {
      const res = await login(central.url);
      expect(res.status, `central ${central.index}`).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // An app token still comes from either.
    for (const central of [a, b]) expect(await tokenOf(central.url, CONTRACT, hq.client)).toBeTruthy();
  }, 60_000);
});

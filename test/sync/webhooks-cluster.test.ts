import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/clock.js';
import type { AppDeps } from '../../server/deps.js';
import { AuthRepo } from '../../server/platform/auth/repo.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { ALL_SCOPES } from '../../server/platform/http/scopes.js';
import { LEASE_MARGIN_MS, runWebhookPass, type TryResult, type WebhookOptions } from '../../sync/webhooks/deliver.js';
import { DeliveryRepo } from '../../sync/webhooks/deliveries.js';
import { onPostgres } from '../helpers/engine.js';
import { buildApp } from '../helpers/modules.js';
import { centralsOnOneDatabase, type CentralsOnOneDatabase } from '../helpers/one-database.js';

/**
 * Issue 24: webhooks on several central processes sharing one database. Two apps (each with its
 * own connection: on PostgreSQL its own client; on SQLite its own handle on the data dir's file)
 * and a real receiver on 127.0.0.1. Each delivery is claimed by one process before it is sent,
 * so the receiver sees each webhook-id once however the two workers' passes interleave; a claim
 * left by a process that died is retried by the other once its lease has passed. On PostgreSQL
 * a third connection (pg) holds rows as a process in the middle of its claim would, and the
 * app's claim goes past them without waiting. The clocks start at the real time (signatures).
 */

const CONTRACT = 'cluster-contract';
const SECRET = 's'.repeat(32);
// Two lanes and three tries a pass: the two processes' passes share the work between them.
const OPTIONS: WebhookOptions = { schedule: [1000], timeoutMs: 2000, random: () => 0.5, concurrency: 2, batch: 3 };
const LEASE_MS = 2000 + LEASE_MARGIN_MS;

interface Receiver {
  url: string;
  /** webhook-id of each request, in arrival order. */
  ids: string[];
  /** How many of the next requests get a 500. */
  failures: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const ids: string[] = [];
  const receiver = { failures: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['webhook-id']));
      const fail = receiver.failures > 0;
      if (fail) receiver.failures -= 1;
      res.writeHead(fail ? 500 : 200);
      res.end(fail ? 'nope' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks`,
    ids,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** How many requests each webhook-id got. */
const hitsById = (ids: readonly string[]) => ids.reduce<Record<string, number>>((hits, id) => ({ ...hits, [id]: (hits[id] ?? 0) + 1 }), {});

describe('webhooks on two central processes sharing one database', () => {
  let centrals: CentralsOnOneDatabase;
  let clock: FixedClock;
  let one: AppDeps;
  let two: AppDeps;
  let apps: FastifyInstance[];
  let rx: Receiver;
  let token: string;

  beforeEach(async () => {
    centrals = await centralsOnOneDatabase('pos-hooks-cluster-');
    clock = new FixedClock(new Date());
    const options = { clock, checkResponses: true, webhookAllow: ['127.0.0.1'] };
    [one, two] = [centrals.open(options), centrals.open(options)];
    new ContractRepo(one.db, one.writer, clock).create({ contractId: CONTRACT, name: 'Cluster', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
    new AuthRepo(one.db, one.writer, clock).createClient({ clientId: 'c1', contractId: CONTRACT, secret: SECRET, scopes: ALL_SCOPES });
    apps = [await buildApp(one), await buildApp(two)];
    const res = await apps[1]!.inject({
      method: 'POST',
      url: `/app/${CONTRACT}/token`,
      headers: { authorization: `Basic ${Buffer.from(`c1:${SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    token = res.json().access_token as string;
    rx = await startReceiver();
    // Subscribed through the first process; the events below are raised through both.
    expect((await api(0, 'POST', '/webhook_subscriptions', { url: rx.url, events: ['pos:payment-method-groups'] })).statusCode).toBe(200);
  });

  afterEach(async () => {
    await rx.close();
    for (const app of apps) await app.close();
    await centrals.close();
  });

  const api = (at: 0 | 1, method: string, path: string, body?: unknown) =>
    apps[at]!.inject({ method: method as 'POST', url: `/${CONTRACT}/pos${path}`, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { payload: body as object }) });
  /** A payment method group made through process `at`: one pos:payment-method-groups event. */
  const raise = async (at: 0 | 1, name: string) => expect((await api(at, 'POST', '/payment_method_groups', { paymentMethodGroupName: name })).statusCode).toBe(200);
  const deliveryRows = () =>
    one.db.prepare('SELECT delivery_id, status, attempts, next_attempt_at FROM webhook_deliveries ORDER BY delivery_id').all() as {
      delivery_id: string;
      status: string;
      attempts: number;
      next_attempt_at: number | null;
    }[];

  it('five events raised through both, both workers passing at once: each delivery is sent exactly once, by one of them', async () => {
    for (const [k, at] of ([0, 1, 0, 1, 1] as const).entries()) await raise(at, `Group ${k}`);
    const sentBy: [TryResult[], TryResult[]] = [[], []];
    // Passes of both processes running together, as their workers do (fanning the events out,
    // then sending), until nothing is left due (bounded: five deliveries, three a pass).
    for (let round = 0; round < 5 && (round === 0 || deliveryRows().some((d) => d.status === 'pending')); round++) {
      const [a, b, c, d] = await Promise.all([runWebhookPass(one, OPTIONS), runWebhookPass(two, OPTIONS), runWebhookPass(one, OPTIONS), runWebhookPass(two, OPTIONS)]);
      sentBy[0].push(...a, ...c);
      sentBy[1].push(...b, ...d);
    }
    const hits = hitsById(rx.ids);
    expect(Object.keys(hits)).toHaveLength(5);
    expect(Object.values(hits)).toEqual([1, 1, 1, 1, 1]);
    expect(deliveryRows().map((d) => [d.status, d.attempts])).toEqual(Array.from({ length: 5 }, () => ['delivered', 1]));
    // Both processes sent: the claim shared the work, not one process doing it all.
    expect(sentBy[0].length).toBeGreaterThan(0);
    expect(sentBy[1].length).toBeGreaterThan(0);
    expect(sentBy[0].length + sentBy[1].length).toBe(5);
    expect([...sentBy[0], ...sentBy[1]].every((r) => r.outcome === 'delivered')).toBe(true);
    // Nothing is sent again later.
    clock.advance(LEASE_MS + 60_000);
    expect([...(await runWebhookPass(one, OPTIONS)), ...(await runWebhookPass(two, OPTIONS))]).toEqual([]);
    expect(rx.ids).toHaveLength(5);
  });

  it('a claim left by a process killed mid-send is retried by the other once its lease has passed, and the late outcome is not recorded', async () => {
    await raise(1, 'Cards');
    const repoOne = new DeliveryRepo(one);
    repoOne.fanOut();
    // The first process claims the delivery and "dies" before sending it.
    const now = clock.now().getTime();
    const [claimed] = repoOne.claimDue(now, now + LEASE_MS, 5);
    expect(claimed).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: now + LEASE_MS });
    // Seen through either process: still pending, its next try at the lease's end.
    const [view] = (await api(1, 'GET', '/webhook_deliveries')).json() as { status: string; nextAttemptDateTime: string }[];
    expect(view!.status).toBe('pending');
    // Within the lease the other process leaves it.
    clock.advance(LEASE_MS - 1);
    expect(await runWebhookPass(two, OPTIONS)).toEqual([]);
    expect(rx.ids).toEqual([]);
    // Once it has passed, the other process sends it.
    clock.advance(1);
    expect((await runWebhookPass(two, OPTIONS)).map((r) => r.outcome)).toEqual(['delivered']);
    expect(rx.ids).toEqual([`msg_${claimed!.event_id}`]);
    // The first process's outcome arriving late changes nothing: its claim is no longer the delivery's.
    expect(repoOne.record(claimed!, { status: 'pending', attempted: true, at: clock.now().getTime(), next: clock.now().getTime() + 1000, statusCode: 500, error: 'late' })).toBe(false);
    expect(deliveryRows().map((d) => [d.status, d.attempts])).toEqual([['delivered', 1]]);
    expect(await runWebhookPass(one, OPTIONS)).toEqual([]);
    expect(rx.ids).toHaveLength(1);
  });

  it('a failed try is recorded by the process that made it and retried once by whichever process passes next, with the same webhook-id', async () => {
    await raise(0, 'Cards');
    rx.failures = 1;
    expect((await runWebhookPass(one, OPTIONS)).map((r) => r.outcome)).toEqual(['retry']);
    expect(deliveryRows().map((d) => [d.status, d.attempts])).toEqual([['pending', 1]]);
    clock.advance(1000);
    const [a, b] = await Promise.all([runWebhookPass(two, OPTIONS), runWebhookPass(one, OPTIONS)]);
    // The process passing first claims it; the other finds nothing due.
    expect([a.map((r) => r.outcome), b]).toEqual([['delivered'], []]);
    expect(rx.ids).toHaveLength(2);
    expect(new Set(rx.ids).size).toBe(1);
    expect(deliveryRows().map((d) => [d.status, d.attempts])).toEqual([['delivered', 2]]);
  });

  describe.runIf(onPostgres)('rows held by another process’s open transaction (PostgreSQL)', () => {
    let holder: pg.Client;
    beforeEach(async () => {
      holder = new pg.Client({ connectionString: centrals.database.postgresUrl });
      await holder.connect();
    });
    afterEach(async () => {
      await holder.end();
    });

    it('events being fanned out elsewhere are skipped, not waited for, and fanned out once', async () => {
      await raise(0, 'A');
      await raise(1, 'B');
      // Another process is in the middle of fanning out the first event: its row is locked.
      const [first] = (await holder.query('SELECT event_id FROM webhook_events ORDER BY created_at, event_id')).rows as { event_id: string }[];
      await holder.query('BEGIN');
      await holder.query('SELECT event_id FROM webhook_events WHERE event_id = $1 FOR UPDATE', [first!.event_id]);
      // This process fans out only the other one, at once.
      expect(new DeliveryRepo(two).fanOut()).toBe(1);
      // The other process marks its event and commits (its delivery made as the fan-out would).
      await holder.query('UPDATE webhook_events SET fanned_out = 1 WHERE event_id = $1', [first!.event_id]);
      await holder.query('COMMIT');
      expect(new DeliveryRepo(one).fanOut()).toBe(0);
      expect(new DeliveryRepo(two).fanOut()).toBe(0);
      // Held and let go without committing (that process died): the event is fanned out here.
      await raise(0, 'C');
      const [third] = (await holder.query('SELECT event_id FROM webhook_events WHERE fanned_out = 0')).rows as { event_id: string }[];
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM webhook_events WHERE event_id = $1 FOR UPDATE', [third!.event_id]);
      expect(new DeliveryRepo(one).fanOut()).toBe(0);
      await holder.query('ROLLBACK');
      expect(new DeliveryRepo(one).fanOut()).toBe(1);
      expect(deliveryRows()).toHaveLength(2);
    });

    it('a delivery being claimed by another process is skipped without waiting; the others are sent', async () => {
      for (const name of ['A', 'B', 'C']) await raise(0, name);
      new DeliveryRepo(one).fanOut();
      const ids = deliveryRows().map((d) => d.delivery_id);
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM webhook_deliveries WHERE delivery_id = $1 FOR UPDATE', [ids[0]]);
      const sent = await runWebhookPass(two, OPTIONS);
      expect(sent.map((r) => r.deliveryId).sort()).toEqual([ids[1], ids[2]].sort());
      // That process's claim commits: the delivery is its own until the lease ends.
      const lease = clock.now().getTime() + LEASE_MS;
      await holder.query('UPDATE webhook_deliveries SET next_attempt_at = $1 WHERE delivery_id = $2', [lease, ids[0]]);
      await holder.query('COMMIT');
      expect(await runWebhookPass(one, OPTIONS)).toEqual([]);
      expect(Object.values(hitsById(rx.ids))).toEqual([1, 1]);
    });
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedAddress } from '../../server/deps.js';
import { runWebhookPass, type WebhookOptions } from '../../sync/webhooks/deliver.js';
import { problem } from '../helpers/app.js';
import { freePort, makeInstance, type Instance } from './helpers.js';

/**
 * Issue 25 item 1: head office sends webhooks and callbacks only to public addresses, asked when
 * a receiver is named and again at every delivery, on the address connected to; its operator's
 * allow-list opens chosen internal receivers; a store PC sends to its LAN as before; a delivery
 * records the status and its own words, never what the receiver sent.
 *
 * Nothing here reaches beyond loopback: host names live under .invalid and resolve only through
 * the test's resolver; a receiver refused is refused before any connection; the one "public"
 * address (93.184.215.14) is only ever an answer of that resolver at subscription, never
 * connected to.
 */

const OPTIONS: WebhookOptions = { schedule: [1000], timeoutMs: 2000, random: () => 0.5 };
const PUBLIC = '93.184.215.14';
const RULE = 'head office sends webhooks and callbacks only to public addresses, unless its operator allows the receiver';

interface Receiver {
  port: number;
  url: string;
  bodies: string[];
  /** Status and body of the next answers; 200 "ok" when empty. */
  plan: { status: number; body: string }[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const bodies: string[] = [];
  const plan: { status: number; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      bodies.push(body);
      const next = plan.shift() ?? { status: 200, body: 'ok' };
      res.writeHead(next.status, { 'content-type': 'text/plain' });
      res.end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    bodies,
    plan,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The test's DNS: names under .invalid answer what `answers` holds; the calls are kept. */
function testResolver() {
  const answers = new Map<string, ResolvedAddress[]>();
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const found = answers.get(hostname);
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
  const v4 = (address: string): ResolvedAddress[] => [{ address, family: 4 }];
  return { answers, asked, resolve, v4 };
}

let central: Instance;
let store: Instance;
let rx: Receiver;
let dns: ReturnType<typeof testResolver>;

beforeEach(async () => {
  dns = testResolver();
  central = await makeInstance('central', 0, { resolve: dns.resolve });
  store = await makeInstance('store', 3);
  rx = await startReceiver();
});
afterEach(async () => {
  await rx.close();
  await store.close();
  await central.close();
});

const subscribe = (at: Instance, url: string) => at.api('POST', '/webhook_subscriptions', { url, events: ['pos:payment-method-groups'] });
const createGroup = async (at: Instance) => (await at.ok('POST', '/payment_method_groups', { paymentMethodGroupName: 'Cards' })).paymentMethodGroupId as string;
const pass = async (at: Instance) => (await runWebhookPass(at.deps, OPTIONS)).map(({ outcome, statusCode, error }) => ({ outcome, statusCode, error }));
const lastDelivery = async (at: Instance) => (await at.ok('GET', '/webhook_deliveries?limit=1'))[0] as Record<string, unknown>;

describe('a receiver named at head office must be public', () => {
  const refused: [string, string][] = [
    ['http://127.0.0.1:5432/', '127.0.0.1 is a loopback address'],
    ['http://10.0.0.1/hooks', '10.0.0.1 is a private address'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
    ['http://[::1]:8080/hooks', '::1 is a loopback address'],
    ['http://[::ffff:10.0.0.1]/hooks', '::ffff:a00:1 is a private address'],
    ['http://localhost./hooks', 'localhost resolves to a loopback address'],
    ['https://intranet.shop.invalid/hooks', 'intranet.shop.invalid resolves to a private address'],
  ];

  it('central refuses loopback, private, link-local and names resolving to them (400 on url), on create and on change; a store PC takes them all', async () => {
    dns.answers.set('intranet.shop.invalid', dns.v4('10.20.30.40'));
    dns.answers.set('hooks.partner.invalid', dns.v4(PUBLIC));
    const kept = await subscribe(central, 'https://hooks.partner.invalid/pos');
    expect(kept.statusCode, kept.body).toBe(200);
    const id = kept.json().subscriptionId as string;
    for (const [url, why] of refused) {
      const detail = `[url] the receiver ${why}; ${RULE}`;
      expect([url, problem(await subscribe(central, url), 400).detail]).toEqual([url, detail]);
      expect([url, problem(await central.api('PATCH', `/webhook_subscriptions/${id}`, { url }), 400).detail]).toEqual([url, detail]);
      expect([url, (await subscribe(store, url)).statusCode]).toEqual([url, 200]);
    }
    expect((await central.ok('GET', '/webhook_subscriptions')).map((s: { url: string }) => s.url)).toEqual(['https://hooks.partner.invalid/pos']);
    expect(await central.ok('GET', '/webhook_subscriptions')).toHaveLength(1);
    expect(await store.ok('GET', '/webhook_subscriptions')).toHaveLength(refused.length);
    // A name that resolves to no address now is taken: the delivery resolves it again.
    expect((await subscribe(central, 'https://not-yet.shop.invalid/hooks')).statusCode).toBe(200);
  });

  it('a CSV export callbackUrl too (400 on callbackUrl at central, taken at a store PC)', async () => {
    const body = { transactionDateTimeFrom: '2026-11-01T00:00:00+09:00', transactionDateTimeTo: '2026-11-30T23:59:59+09:00', callbackUrl: 'http://169.254.169.254/latest/csv' };
    const path = '/transactions/details/out_file_async';
    expect(problem(await central.api('POST', path, body), 400).detail).toBe(`[callbackUrl] the receiver 169.254.169.254 is a link-local address; ${RULE}`);
    expect((await store.api('POST', path, body)).statusCode).toBe(200);
  });

  it('a stock bulk add callbackUrl too (400 on callbackUrl at central, nothing accepted; taken at a store PC)', async () => {
    const body = () => ({ stock: [{ storeId: '1', productId: '1', stockAmount: '1' }], callbackUrl: 'http://10.0.0.1/stock' });
    const refused = await central.api('POST', '/stock/add/bulk', body());
    expect(problem(refused, 400).detail).toBe(`[callbackUrl] the receiver 10.0.0.1 is a private address; ${RULE}`);
    expect(central.deps.db.prepare('SELECT count(*) FROM stock_bulk_jobs').pluck().get()).toBe(0);
    expect((await store.api('POST', '/stock/add/bulk', body())).statusCode).toBe(200);
  });
});

describe('each delivery from head office is checked on the address it connects to', () => {
  it('a name that resolved to a public address when subscribed and to a private one now is refused before connecting', async () => {
    dns.answers.set('hooks.partner.invalid', dns.v4(PUBLIC));
    expect((await subscribe(central, 'http://hooks.partner.invalid/pos')).statusCode).toBe(200);
    dns.answers.set('hooks.partner.invalid', dns.v4('10.0.0.7'));
    await createGroup(central);
    const why = 'refused: hooks.partner.invalid resolves to a private address';
    expect(await pass(central)).toEqual([{ outcome: 'retry', statusCode: null, error: why }]);
    expect(dns.asked).toEqual(['hooks.partner.invalid', 'hooks.partner.invalid']);
    expect(await lastDelivery(central)).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null, lastError: why });
    // One public and one unique-local answer: refused as well.
    dns.answers.set('hooks.partner.invalid', [
      { address: PUBLIC, family: 4 },
      { address: 'fd00::7', family: 6 },
    ]);
    central.clock.advance(1000);
    expect(await pass(central)).toEqual([{ outcome: 'dead', statusCode: null, error: 'refused: hooks.partner.invalid resolves to a unique-local address' }]);
  });

  it('an address in the URL allowed when subscribed and not any more is refused: the receiver hears nothing', async () => {
    central.deps.config.receivers = { ...central.deps.config.receivers, allow: ['127.0.0.1'] };
    expect((await subscribe(central, rx.url)).statusCode).toBe(200);
    await createGroup(central);
    expect(await pass(central)).toEqual([{ outcome: 'delivered', statusCode: 200, error: null }]);
    central.deps.config.receivers = { ...central.deps.config.receivers, allow: [] };
    await createGroup(central);
    expect(await pass(central)).toEqual([{ outcome: 'retry', statusCode: null, error: 'refused: 127.0.0.1 is a loopback address' }]);
    expect(rx.bodies).toHaveLength(1);
  });

  it('the allow-list opens a receiver by name or by range; the connection goes to the address the rule checked', async () => {
    dns.answers.set('receiver.shop.invalid', dns.v4('127.0.0.1'));
    const url = `http://receiver.shop.invalid:${rx.port}/hooks`;
    expect(problem(await subscribe(central, url), 400).detail).toBe(`[url] the receiver receiver.shop.invalid resolves to a loopback address; ${RULE}`);
    central.deps.config.receivers = { ...central.deps.config.receivers, allow: ['receiver.shop.invalid'] };
    expect((await subscribe(central, url)).statusCode).toBe(200);
    await createGroup(central);
    expect(await pass(central)).toEqual([{ outcome: 'delivered', statusCode: 200, error: null }]);
    central.deps.config.receivers = { ...central.deps.config.receivers, allow: ['127.0.0.0/8'] };
    await createGroup(central);
    expect(await pass(central)).toEqual([{ outcome: 'delivered', statusCode: 200, error: null }]);
    expect(rx.bodies).toHaveLength(2);
  });
});

describe('a delivery records what happened in its own words', () => {
  for (const role of ['central', 'store'] as const) {
    it(`never the receiver's body, nor the address and port the network stack names (${role})`, async () => {
      const at = role === 'central' ? central : store;
      // Head office sends to this loopback receiver only because its operator allows it.
      if (role === 'central') at.deps.config.receivers = { ...at.deps.config.receivers, allow: ['127.0.0.1'] };
      const closed = await freePort();
      expect((await subscribe(at, rx.url)).statusCode).toBe(200);
      expect((await subscribe(at, `http://127.0.0.1:${closed}/hooks`)).statusCode).toBe(200);
      rx.plan.push({ status: 500, body: 'FATAL: password authentication failed for user "postgres" (internal answer)' });
      await createGroup(at);
      const results = (await pass(at)).sort((a, b) => String(a.error).localeCompare(String(b.error)));
      expect(results).toEqual([
        { outcome: 'retry', statusCode: null, error: 'connection refused' },
        { outcome: 'retry', statusCode: 500, error: 'receiver answered 500' },
      ]);
      const listed = (await at.ok('GET', '/webhook_deliveries')) as { lastStatusCode: number | null; lastError: string }[];
      expect(listed.map((d) => [d.lastStatusCode, d.lastError]).sort()).toEqual([
        [null, 'connection refused'],
        [500, 'receiver answered 500'],
      ]);
      expect(JSON.stringify(listed)).not.toContain('internal answer');
      expect(JSON.stringify(listed.map((d) => d.lastError))).not.toContain(String(closed));
    });
  }
});

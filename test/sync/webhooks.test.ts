import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommand, runCommand } from '../helpers/modules.js';
import { raiseCallback, raiseEvent } from '../../server/events/webhook-events.js';
import { DELIVERY_TIMEOUT_MS, nextAttemptAt, RETRY_SCHEDULE_MS, retryAfterMs, runWebhookPass, startWebhookWorker, type WebhookOptions } from '../../sync/webhooks/deliver.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';
import { postgresUrlOf } from '../../server/db/engine.js';

/**
 * Issue 11 item 7: outbound webhooks. A real receiver on 127.0.0.1 (node:http); the service's
 * clock is a FixedClock set to the real time (standardwebhooks checks the timestamp against
 * the wall clock) and advanced by hand past a short retry schedule.
 */

type Behaviour = { status: number; headers?: Record<string, string> } | 'hang';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
  /** Answers in order; when empty, 200. */
  plan: Behaviour[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const plan: Behaviour[] = [];
  const hung: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const next = plan.shift() ?? { status: 200 };
      if (next === 'hang') return void hung.push(res);
      res.writeHead(next.status, next.headers ?? {});
      res.end(next.status === 200 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook-payment-method-groups`,
    received,
    plan,
    async close() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const OPTIONS: WebhookOptions = { schedule: [1000, 2000, 3000], timeoutMs: 300, random: () => 0.5 };

describe('webhooks', () => {
  let t: TestApp;
  let rx: Receiver;
  let token: string;
  beforeEach(async () => {
    t = await makeTestApp();
    // The real time (standardwebhooks checks webhook-timestamp against it); a token minted at it.
    t.clock.set(new Date());
    token = await t.tokenFor();
    rx = await startReceiver();
  });
  afterEach(async () => {
    await rx.close();
    await t.close();
  });

  const subscribe = async (events: string[] = ['pos:payment-method-groups'], url = rx.url) => {
    const res = await api('POST', '/webhook_subscriptions', { url, events });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { subscriptionId: string; secret: string; active: boolean; url: string; events: string[] };
  };
  const api = (method: string, path: string, body?: unknown, tok = token) => t.api(method, path, body, tok);
  const pass = () => runWebhookPass(t.deps, OPTIONS);
  const deliveries = async (query = '') => (await api('GET', `/webhook_deliveries${query}`)).json() as Record<string, unknown>[];
  const createGroup = async (name = 'Cards') => (await api('POST', '/payment_method_groups', { paymentMethodGroupName: name })).json().paymentMethodGroupId as string;

  it('500, then no answer in time, then 200: delivered once with the same webhook-id, and the signature verifies', async () => {
    const sub = await subscribe();
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const groupId = await createGroup();
    rx.plan.push({ status: 500 }, 'hang', { status: 200 });

    expect((await pass()).map((r) => r.outcome)).toEqual(['retry']);
    let [d] = await deliveries();
    expect(d).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500, event: 'pos:payment-method-groups', action: 'created' });
    expect(d!.lastError).toContain('receiver answered 500');

    // Not due yet: nothing is sent.
    expect(await pass()).toEqual([]);
    t.clock.advance(1000);
    const second = await pass();
    expect(second.map((r) => r.outcome)).toEqual(['retry']);
    expect(second[0]!.error).toBe('no answer within 300 ms');
    [d] = await deliveries();
    expect(d).toMatchObject({ status: 'pending', attempts: 2, lastError: 'no answer within 300 ms' });

    t.clock.advance(2000);
    expect((await pass()).map((r) => r.outcome)).toEqual(['delivered']);
    [d] = await deliveries();
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null, nextAttemptDateTime: null });

    expect(rx.received).toHaveLength(3);
    const ids = new Set(rx.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    const last = rx.received[2]!;
    const body = `{"contractId":"${t.contractId}","event":"pos:payment-method-groups","action":"created","paymentMethodGroupIds":["${groupId}"]}`;
    expect(last.body).toBe(body);
    expect(last.method).toBe('POST');
    expect(last.headers['content-type']).toBe('application/json');
    expect(last.headers['service-event']).toBe('pos:payment-method-groups');
    expect(last.headers['service-contract-id']).toBe(t.contractId);
    expect(last.headers['webhook-id']).toBe(`msg_${last.headers['service-event-id']}`);
    expect(new Webhook(sub.secret).verify(last.body, last.headers as Record<string, string>)).toEqual(JSON.parse(body));
    // A wrong secret or a changed body does not verify.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(last.body, last.headers as Record<string, string>)).toThrow();
    expect(() => new Webhook(sub.secret).verify(last.body.replace('Cards', 'X').replace('created', 'edited'), last.headers as Record<string, string>)).toThrow();
    // Delivered: no further try.
    t.clock.advance(100_000);
    expect(await pass()).toEqual([]);
  });

  it('6.2 bodies for create, edit and delete of a payment method group; one delivery per subscription', async () => {
    await subscribe();
    await subscribe(['order-shipment:orders']); // not this event
    const id = await createGroup();
    expect((await api('PATCH', `/payment_method_groups/${id}`, { paymentMethodGroupName: 'Card brands' })).statusCode).toBe(200);
    expect((await api('DELETE', `/payment_method_groups/${id}`)).statusCode).toBe(204);
    expect((await pass()).map((r) => r.outcome)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(rx.received.map((r) => JSON.parse(r.body))).toEqual(
      ['created', 'edited', 'deleted'].map((action) => ({ contractId: t.contractId, event: 'pos:payment-method-groups', action, paymentMethodGroupIds: [id] })),
    );
    expect(rx.received.every((r) => r.headers['service-event'] === 'pos:payment-method-groups')).toBe(true);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(3);
  });

  it('a write that fails raises no event; raiseEvent outside a write transaction is refused', async () => {
    await subscribe();
    const id = await createGroup();
    const method = await api('POST', '/payment_methods', { paymentMethodCode: 'VISA', paymentMethodName: 'Visa', paymentDivision: '1', paymentMethodGroupId: id });
    expect(method.statusCode, method.body).toBe(200);
    // The group is in use: the delete is refused and rolled back with its event.
    expect((await api('DELETE', `/payment_method_groups/${id}`)).statusCode).toBe(400);
    await pass();
    expect(rx.received.map((r) => JSON.parse(r.body).action)).toEqual(['created']);
    expect(() =>
      raiseEvent(t.deps, { contractId: t.contractId, event: 'pos:payment-method-groups', action: 'created', payload: { paymentMethodGroupIds: ['1'] } }),
    ).toThrow('inside Writer.write');
  });

  it('6.1 after ship and cancel of order-shipment orders', async () => {
    await subscribe(['order-shipment:orders']);
    const inject = (method: string, path: string, body?: object, tok = token) =>
      t.app.inject({ method: method as 'GET', url: `/${t.contractId}/order-shipment${path}`, headers: { authorization: `Bearer ${tok}` }, ...(body ? { payload: body } : {}) });
    const store = (await api('POST', '/stores', { storeName: 'Web shop', division: '1' })).json().storeId as string;
    expect(store).toBeTruthy();
    const a = (await inject('POST', '/orders', { storeId: store, orderCode: 'EC-1' })).json();
    const b = (await inject('POST', '/orders', { storeId: store })).json();
    expect(a).toMatchObject({ storeId: store, orderCode: 'EC-1', status: 'received', shippedDateTime: null });

    const shipped = await inject('POST', `/orders/${a.orderHeadId}/ship`);
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json()).toMatchObject({ status: 'shipped' });
    expect((await inject('POST', `/orders/${b.orderHeadId}/cancel`)).json()).toMatchObject({ status: 'canceled' });
    // A refused transition raises nothing.
    expect((await inject('POST', `/orders/${a.orderHeadId}/cancel`)).statusCode).toBe(409);

    expect((await pass()).map((r) => r.outcome)).toEqual(['delivered', 'delivered']);
    expect(rx.received.map((r) => r.body)).toEqual([
      `{"contractId":"${t.contractId}","event":"order-shipment:orders","action":"shipped","storeId":"${store}","orderHeadIds":["${a.orderHeadId}"]}`,
      `{"contractId":"${t.contractId}","event":"order-shipment:orders","action":"canceled","storeId":"${store}","orderHeadIds":["${b.orderHeadId}"]}`,
    ]);
    expect(rx.received.map((r) => r.headers['service-event'])).toEqual(['order-shipment:orders', 'order-shipment:orders']);
  });

  it('410 Gone turns the subscription off; later events are not sent to it; turning it on again works', async () => {
    const sub = await subscribe();
    rx.plan.push({ status: 410 });
    await createGroup('A');
    expect((await pass()).map((r) => r.outcome)).toEqual(['disabled']);
    const got = (await api('GET', `/webhook_subscriptions/${sub.subscriptionId}`)).json();
    expect(got.active).toBe(false);
    expect(got.disabledReason).toMatch(/^receiver answered 410 Gone at /);
    const [d] = await deliveries();
    expect(d).toMatchObject({ status: 'dead', attempts: 1, lastStatusCode: 410, lastError: 'receiver answered 410 Gone: subscription turned off' });
    // Replay is refused while it is off.
    expect(problem(await api('POST', `/webhook_deliveries/${d!.deliveryId}/replay`), 409).detail).toBe(
      `[delivery_id] the subscription ${sub.subscriptionId} of webhook delivery ${d!.deliveryId} is turned off; turn it on first (active: true)`,
    );
    await createGroup('B');
    t.clock.advance(10_000);
    expect(await pass()).toEqual([]);
    expect(rx.received).toHaveLength(1);

    const on = await api('PATCH', `/webhook_subscriptions/${sub.subscriptionId}`, { active: true });
    expect(on.json()).toMatchObject({ active: true, disabledReason: null });
    expect((await api('POST', `/webhook_deliveries/${d!.deliveryId}/replay`)).json()).toMatchObject({ status: 'pending', attempts: 0, replays: 1 });
    expect((await pass()).map((r) => r.outcome)).toEqual(['delivered']);
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1]!.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
  });

  it('dead after the last try; replay by API and by CLI sends it again with the same webhook-id', async () => {
    await subscribe();
    await createGroup();
    rx.plan.push({ status: 500 }, { status: 502 }, { status: 503 }, { status: 500 }, { status: 500 });
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      outcomes.push(...(await pass()).map((r) => r.outcome));
      t.clock.advance(3000);
    }
    expect(outcomes).toEqual(['retry', 'retry', 'retry', 'dead']);
    const [d] = await deliveries('?status=dead');
    expect(d).toMatchObject({ status: 'dead', attempts: 4, lastStatusCode: 500, nextAttemptDateTime: null });
    t.clock.advance(1_000_000);
    expect(await pass()).toEqual([]);

    expect(problem(await api('POST', '/webhook_deliveries/424242/replay'), 404).detail).toBe('[delivery_id] webhook delivery 424242 does not exist');
    const replayed = await api('POST', `/webhook_deliveries/${d!.deliveryId}/replay`);
    expect(replayed.json()).toMatchObject({ status: 'pending', attempts: 0, replays: 1 });
    expect(problem(await api('POST', `/webhook_deliveries/${d!.deliveryId}/replay`), 409).detail).toMatch(/is still pending/);
    expect((await pass()).map((r) => r.outcome)).toEqual(['retry']); // the 5th planned answer: 500
    t.clock.advance(1000);
    expect((await pass()).map((r) => r.outcome)).toEqual(['delivered']);

    // CLI: list, replay a delivered one, deliveries by status.
    const dataDir = dirname(t.deps.db.name);
    // The CLI on the app's database: its PostgreSQL one when the run's engine is.
    const database = postgresUrlOf(t.deps.db);
    const on = (args: string[]) => (database ? [...args, '--database', database] : args);
    const out: string[] = [];
    const io = { out: (line: string) => void out.push(line) };
    await runCommand(parseCommand(on(['webhook', 'replay', '--contract', t.contractId, '--id', d!.deliveryId as string, '--data-dir', dataDir])), io);
    expect(JSON.parse(out.pop()!)).toMatchObject({ deliveryId: d!.deliveryId, status: 'pending', replays: 2 });
    await runCommand(parseCommand(on(['webhook', 'deliveries', '--contract', t.contractId, '--status', 'pending', '--data-dir', dataDir])), io);
    expect(JSON.parse(out.pop()!).map((x: { deliveryId: string }) => x.deliveryId)).toEqual([d!.deliveryId]);
    expect((await pass()).map((r) => r.outcome)).toEqual(['delivered']);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(rx.received).toHaveLength(7);
  });

  it('Retry-After is honoured (seconds and HTTP date); the schedule has jitter', async () => {
    await subscribe();
    await createGroup();
    rx.plan.push({ status: 503, headers: { 'retry-after': '120' } });
    await pass();
    const [d] = await deliveries();
    expect(Date.parse(d!.nextAttemptDateTime as string)).toBe(Math.floor((t.clock.now().getTime() + 120_000) / 1000) * 1000);
    // The schedule: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; 15 s to answer.
    expect(RETRY_SCHEDULE_MS).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(DELIVERY_TIMEOUT_MS).toBe(15_000);
    const now = Date.parse('2026-11-22T00:00:00Z');
    expect(retryAfterMs('Sun, 22 Nov 2026 00:05:00 GMT', now)).toBe(300_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(nextAttemptAt(1, 0, [5000], () => 0)).toBe(4000);
    expect(nextAttemptAt(1, 0, [5000], () => 0.999999)).toBe(6000);
    expect(nextAttemptAt(2, 0, [5000], () => 0.5)).toBeNull();
    expect(nextAttemptAt(1, 0, [5000], () => 0.5, 60_000)).toBe(60_000);
  });

  it('subscriptions: http(s) only, known events, the secret on create and single read with write scope', async () => {
    for (const url of ['ftp://example.com/hook', 'file:///etc/passwd', 'javascript:alert(1)', 'example.com/hook']) {
      const res = await api('POST', '/webhook_subscriptions', { url, events: ['pos:payment-method-groups'] });
      expect(problem(res, 400).detail).toBe('[url] must be an http:// or https:// URL');
    }
    expect(problem(await api('POST', '/webhook_subscriptions', { url: rx.url, events: ['pos:nothing'] }), 400).detail).toMatch(/^\[events\[0\]\]/);
    expect(problem(await api('POST', '/webhook_subscriptions', { url: rx.url, events: [] }), 400).detail).toBe('[events] names no event');
    const sub = await subscribe(['pos:payment-method-groups', 'order-shipment:orders', 'pos:transaction-detail-csv']);
    expect(sub).toMatchObject({ active: true, events: ['pos:payment-method-groups', 'order-shipment:orders', 'pos:transaction-detail-csv'] });
    const list = (await api('GET', '/webhook_subscriptions')).json();
    expect(list).toHaveLength(1);
    expect(list[0].secret).toBeUndefined();
    expect((await api('GET', `/webhook_subscriptions/${sub.subscriptionId}`)).json().secret).toBe(sub.secret);
    const reader = await t.tokenFor({ scopes: ['pos.stores:read'] });
    expect((await api('GET', `/webhook_subscriptions/${sub.subscriptionId}`, undefined, reader)).json().secret).toBeUndefined();
    expect(problem(await api('POST', '/webhook_subscriptions', { url: rx.url, events: ['order-shipment:orders'] }, reader), 403).detail).toBe(
      '[scope] the token lacks the scope pos.stores:write',
    );
    expect(problem(await api('PATCH', `/webhook_subscriptions/${sub.subscriptionId}`, { url: 'ws://x' }), 400).detail).toBe('[url] must be an http:// or https:// URL');

    // CLI add refuses a bad URL; add prints the secret; remove.
    expect(() => parseCommand(['webhook', 'add', '--contract', t.contractId, '--url', 'ftp://x', '--events', 'pos:payment-method-groups'])).toThrow(
      '--url must be an http:// or https:// URL, got "ftp://x"',
    );
    const dataDir = dirname(t.deps.db.name);
    // The CLI on the app's database: its PostgreSQL one when the run's engine is.
    const database = postgresUrlOf(t.deps.db);
    const on = (args: string[]) => (database ? [...args, '--database', database] : args);
    const out: string[] = [];
    const io = { out: (line: string) => void out.push(line) };
    await runCommand(parseCommand(on(['webhook', 'add', '--contract', t.contractId, '--url', rx.url, '--events', 'order-shipment:orders', '--data-dir', dataDir])), io);
    const added = JSON.parse(out.pop()!);
    expect(added.secret).toMatch(/^whsec_/);
    await runCommand(parseCommand(on(['webhook', 'list', '--contract', t.contractId, '--data-dir', dataDir])), io);
    expect(JSON.parse(out.pop()!).map((s: { subscriptionId: string }) => s.subscriptionId)).toEqual([sub.subscriptionId, added.subscriptionId]);
    await runCommand(parseCommand(on(['webhook', 'remove', '--contract', t.contractId, '--id', added.subscriptionId, '--data-dir', dataDir])), io);
    expect((await api('GET', `/webhook_subscriptions/${added.subscriptionId}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/webhook_subscriptions/${sub.subscriptionId}`)).statusCode).toBe(204);
    expect((await api('GET', '/webhook_subscriptions')).json()).toEqual([]);
  });

  it('6.3: the CSV completion notice goes to the callbackUrl with the query parameters, signed when subscribed', async () => {
    const sub = await subscribe(['pos:transaction-detail-csv']);
    const query = { file_url: 'https://files.example/x.csv', status: 'success', message: '', proc_name: 'get_transaction_detail_list', state: 'abc', request_code: '77' };
    t.deps.writer.write(() => raiseCallback(t.deps, { contractId: t.contractId, url: `${rx.url.replace('payment-method-groups', 'csv')}?k=1`, query }));
    expect(() => t.deps.writer.write(() => raiseCallback(t.deps, { contractId: t.contractId, url: 'ftp://x', query }))).toThrow('must be http(s)');
    expect((await pass()).map((r) => r.outcome)).toEqual(['delivered']);
    const [r] = rx.received;
    const url = new URL(r!.url, 'http://x');
    expect(url.pathname).toBe('/webhook-csv');
    expect(Object.fromEntries(url.searchParams)).toEqual({ k: '1', ...query });
    expect(JSON.parse(r!.body)).toEqual(query);
    expect(r!.headers['service-event']).toBe('pos:transaction-detail-csv');
    expect(new Webhook(sub.secret).verify(r!.body, r!.headers as Record<string, string>)).toEqual(query);
    const [d] = await deliveries();
    expect(d).toMatchObject({ subscriptionId: null, status: 'delivered', action: 'success' });
  });

  it('a store linked to central does not deliver its subscription events (central does), only its callbacks', async () => {
    await subscribe();
    await createGroup();
    const linked = { ...OPTIONS, deliversSubscriptionEvents: () => false };
    expect(await runWebhookPass(t.deps, linked)).toEqual([]);
    expect(t.deps.db.prepare('SELECT fanned_out FROM webhook_events').all()).toEqual([{ fanned_out: 0 }]);
    expect((await pass()).map((r) => r.outcome)).toEqual(['delivered']);
  });

  it('removing a subscription ends its pending deliveries', async () => {
    const sub = await subscribe();
    await createGroup();
    rx.plan.push({ status: 500 });
    await pass();
    expect((await api('DELETE', `/webhook_subscriptions/${sub.subscriptionId}`)).statusCode).toBe(204);
    const [d] = await deliveries();
    expect(d).toMatchObject({ status: 'dead', lastError: 'subscription removed', attempts: 1 });
    expect(problem(await api('POST', `/webhook_deliveries/${d!.deliveryId}/replay`), 409).detail).toBe(
      `[delivery_id] the subscription ${sub.subscriptionId} of webhook delivery ${d!.deliveryId} was removed`,
    );
    t.clock.advance(100_000);
    expect(await pass()).toEqual([]);
    expect(problem(await api('GET', '/webhook_deliveries?status=lost'), 400).detail).toMatch(/^\[status\]/);
  });

  it('the worker loop delivers by itself and stops', async () => {
    const sub = await subscribe();
    await createGroup();
    const stop = startWebhookWorker(t.deps, undefined, { ...OPTIONS, intervalMs: 20 });
    try {
      for (let i = 0; i < 100 && rx.received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await stop();
    }
    expect(rx.received).toHaveLength(1);
    expect(new Webhook(sub.secret).verify(rx.received[0]!.body, rx.received[0]!.headers as Record<string, string>)).toMatchObject({ action: 'created' });
  });
});

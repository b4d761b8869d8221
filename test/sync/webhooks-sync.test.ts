import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/clock.js';
import { SyncAgent } from '../../sync/agent.js';
import { NodeRepo } from '../../sync/central.js';
import { syncContext } from '../../sync/context.js';
import { LinkRepo } from '../../sync/link.js';
import { startSyncScheduler } from '../../sync/scheduler.js';
import { runWebhookPass, startWebhookWorker, type WebhookOptions } from '../../sync/webhooks/deliver.js';
import { raiseCallback } from '../../server/events/webhook-events.js';
import { SubscriptionRepo } from '../../sync/webhooks/subscriptions.js';
import { problem } from '../helpers/app.js';
import { CONTRACT, count, makeInstance, type Instance } from './helpers.js';

/**
 * Issue 11 item 7 with DESIGN §5: subscriptions are managed at central and pulled by the stores;
 * a linked store's webhook events ride the push and central delivers them (one sender); an
 * unlinked store delivers its own. Central, the store and the receiver are real servers on
 * 127.0.0.1. The clocks start at the real time: standardwebhooks checks webhook-timestamp.
 */

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ url: req.url!, headers: req.headers, body });
      res.writeHead(200);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const OPTIONS: WebhookOptions = { schedule: [1000], timeoutMs: 2000, random: () => 0.5 };
const NODE = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const basic = (node: number, s: string) => `Basic ${Buffer.from(`${node}:${s}`).toString('base64')}`;

let central: Instance;
let store: Instance;
let rx: Receiver;
let agent: SyncAgent;
let secret: string;

const outboxItems = () =>
  (store.deps.db.prepare('SELECT seq, entity, entity_id AS id, op, hlc, row FROM outbox ORDER BY seq').all() as { seq: number; entity: string; id: string; hlc: string; row: string }[]).map(
    (r) => ({ ...r, row: JSON.parse(r.row) as { row: Record<string, unknown> } }),
  );
const rawPush = (items: unknown[]) =>
  fetch(`${central.url}/sync/${CONTRACT}/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic(NODE, secret) },
    body: JSON.stringify({ node: NODE, items }),
  });
const subscribeAtCentral = async (events = ['pos:payment-method-groups']) =>
  (await central.ok('POST', '/webhook_subscriptions', { url: rx.url, events })) as { subscriptionId: string; secret: string };
const createGroup = async (at: Instance, name = 'Cards') => (await at.ok('POST', '/payment_method_groups', { paymentMethodGroupName: name })).paymentMethodGroupId as string;
const outcomes = async (at: Instance) => (await runWebhookPass(at.deps, OPTIONS)).map((r) => r.outcome);

beforeEach(async () => {
  const now = new Date();
  // The receiver is on 127.0.0.1: head office sends there only because its operator allows it.
  central = await makeInstance('central', 0, { clock: new FixedClock(now), webhookAllow: ['127.0.0.1'] });
  store = await makeInstance('store', NODE, { clock: new FixedClock(now) });
  rx = await startReceiver();
  await central.up();
  secret = new NodeRepo(syncContext(central.deps)).add(CONTRACT, NODE, 'Shop 5').secret;
  new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl: central.url!, node: NODE, secret });
  agent = new SyncAgent(store.deps, { timeoutMs: 5000 });
});
afterEach(async () => {
  await rx.close();
  await store.close();
  await central.close();
});

describe('webhook subscriptions are managed at central', () => {
  it('a subscription created at central is pulled by a linked store (with its secret); edits and removal follow', async () => {
    const sub = await subscribeAtCentral();
    await agent.drain(CONTRACT);
    const pulled = await store.ok('GET', `/webhook_subscriptions/${sub.subscriptionId}`);
    expect(pulled).toMatchObject({ subscriptionId: sub.subscriptionId, url: rx.url, events: ['pos:payment-method-groups'], secret: sub.secret, active: true });

    await central.ok('PATCH', `/webhook_subscriptions/${sub.subscriptionId}`, { events: ['pos:payment-method-groups', 'order-shipment:orders'], active: false });
    await agent.drain(CONTRACT);
    expect(await store.ok('GET', `/webhook_subscriptions/${sub.subscriptionId}`)).toMatchObject({
      events: ['pos:payment-method-groups', 'order-shipment:orders'],
      active: false,
    });

    expect((await central.api('DELETE', `/webhook_subscriptions/${sub.subscriptionId}`)).statusCode).toBe(204);
    await agent.drain(CONTRACT);
    expect(await store.ok('GET', '/webhook_subscriptions')).toEqual([]);
    // Pulled subscriptions do not go back into the store's outbox.
    expect(count(store.deps, "SELECT count(*) FROM outbox WHERE entity = 'webhook_subscription'")).toBe(0);
  });

  it('a linked store refuses local subscription writes (400: managed at head office), by API and in the repo the CLI uses', async () => {
    const sub = await subscribeAtCentral();
    await agent.drain(CONTRACT);
    const detail = `webhook subscriptions of contract ${CONTRACT} are managed at head office: this store is linked to central (${central.url}); change them there and they reach this store with the next pull`;
    expect(problem(await store.api('POST', '/webhook_subscriptions', { url: rx.url, events: ['pos:payment-method-groups'] }), 400).detail).toBe(detail);
    expect(problem(await store.api('PATCH', `/webhook_subscriptions/${sub.subscriptionId}`, { active: false }), 400).detail).toBe(detail);
    expect(problem(await store.api('DELETE', `/webhook_subscriptions/${sub.subscriptionId}`), 400).detail).toBe(detail);
    expect(await store.ok('GET', `/webhook_subscriptions/${sub.subscriptionId}`)).toMatchObject({ active: true });
    expect(() => new SubscriptionRepo(store.deps).create(CONTRACT, { url: rx.url, events: ['order-shipment:orders'] })).toThrow(detail);
    expect(() => new SubscriptionRepo(store.deps).remove(CONTRACT, sub.subscriptionId)).toThrow(detail);
    expect(count(store.deps, 'SELECT count(*) FROM webhook_subscriptions')).toBe(1);
    // Unlinked, the store sets its own again.
    new LinkRepo(store.deps).unlink(CONTRACT);
    expect((await store.api('POST', '/webhook_subscriptions', { url: rx.url, events: ['order-shipment:orders'] })).statusCode).toBe(200);
  });
});

describe('a linked store\'s events go out from central', () => {
  it('a payment method group created at the linked store leads to exactly one signed delivery, from central', async () => {
    const sub = await subscribeAtCentral();
    await agent.drain(CONTRACT);
    const groupId = await createGroup(store);

    // The event rides the outbox with its cause, and the store's own worker leaves it alone.
    expect(outboxItems().map((i) => i.entity)).toEqual(['payment_method_group', 'webhook_event']);
    const [event] = store.deps.db.prepare('SELECT event_id, fanned_out FROM webhook_events').all() as { event_id: string; fanned_out: number }[];
    expect(event!.fanned_out).toBe(1);
    expect(event!.event_id.endsWith('005')).toBe(true);
    expect(await outcomes(store)).toEqual([]);

    await agent.drain(CONTRACT);
    expect(count(store.deps, 'SELECT count(*) FROM outbox')).toBe(0);
    expect(central.deps.db.prepare('SELECT event_id, event, action, fanned_out FROM webhook_events').all()).toEqual([
      { event_id: event!.event_id, event: 'pos:payment-method-groups', action: 'created', fanned_out: 0 },
    ]);
    expect(await outcomes(central)).toEqual(['delivered']);
    for (let i = 0; i < 3; i++) {
      central.clock.advance(2000);
      store.clock.advance(2000);
      await agent.drain(CONTRACT);
      expect(await outcomes(central)).toEqual([]);
      expect(await outcomes(store)).toEqual([]);
    }

    expect(rx.received).toHaveLength(1);
    const [r] = rx.received;
    const body = { contractId: CONTRACT, event: 'pos:payment-method-groups', action: 'created', paymentMethodGroupIds: [groupId] };
    expect(JSON.parse(r!.body)).toEqual(body);
    expect(r!.headers).toMatchObject({
      'service-event': 'pos:payment-method-groups',
      'service-contract-id': CONTRACT,
      'service-event-id': event!.event_id,
      'webhook-id': `msg_${event!.event_id}`,
    });
    expect(new Webhook(sub.secret).verify(r!.body, r!.headers as Record<string, string>)).toEqual(body);
    expect(count(central.deps, "SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered'")).toBe(1);
    expect(count(store.deps, 'SELECT count(*) FROM webhook_deliveries')).toBe(0);
  });

  it('as serve runs them (the store\'s scheduler, a webhook worker on each side), one delivery reaches the receiver, from central', async () => {
    const sub = await subscribeAtCentral();
    const log = Fastify({ logger: false }).log;
    const stops = [
      startSyncScheduler(store.deps, log, { intervalMs: 20, busyMs: 5, idleMaxMs: 100, backoffMaxMs: 100 }),
      startWebhookWorker(store.deps, undefined, { ...OPTIONS, intervalMs: 20 }),
      startWebhookWorker(central.deps, undefined, { ...OPTIONS, intervalMs: 20 }),
    ];
    try {
      for (let i = 0; i < 200 && count(store.deps, 'SELECT count(*) FROM webhook_subscriptions') === 0; i++) await sleep(20);
      await createGroup(store);
      for (let i = 0; i < 200 && rx.received.length === 0; i++) await sleep(20);
      await sleep(300); // a few more rounds and passes on both sides
    } finally {
      for (const stop of stops) await stop();
    }
    expect(rx.received).toHaveLength(1);
    expect(new Webhook(sub.secret).verify(rx.received[0]!.body, rx.received[0]!.headers as Record<string, string>)).toMatchObject({ action: 'created' });
    expect(count(central.deps, "SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered'")).toBe(1);
    expect(count(store.deps, 'SELECT count(*) FROM webhook_deliveries')).toBe(0);
  });

  it('events reach central exactly once when a batch is resent (answer lost, then the agent sends it again)', async () => {
    await subscribeAtCentral();
    await agent.drain(CONTRACT);
    await createGroup(store, 'A');
    await createGroup(store, 'B');
    const items = outboxItems();
    expect(items.map((i) => i.entity)).toEqual(['payment_method_group', 'webhook_event', 'payment_method_group', 'webhook_event']);
    // The batch reaches central, the store never hears the answer: its outbox still holds it.
    expect(await (await rawPush(items)).json()).toMatchObject({ applied: 4, skipped: 0, deadLetters: [] });
    // Central's worker runs in between: the events are fanned out once.
    expect(await outcomes(central)).toEqual(['delivered', 'delivered']);
    // The same batch again, even with another body, is only acknowledged.
    const tampered = items.map((i) => (i.entity === 'webhook_event' ? { ...i, row: { row: { ...i.row.row, action: 'deleted' } } } : i));
    expect(await (await rawPush(tampered)).json()).toMatchObject({ applied: 0, skipped: 4 });
    expect((await agent.drain(CONTRACT)).pushed).toBe(4);
    expect(count(store.deps, 'SELECT count(*) FROM outbox')).toBe(0);
    central.clock.advance(5000);
    expect(await outcomes(central)).toEqual([]);
    expect(count(central.deps, 'SELECT count(*) FROM webhook_events')).toBe(2);
    expect(count(central.deps, "SELECT count(*) FROM webhook_events WHERE action = 'created'")).toBe(2);
    expect(count(central.deps, 'SELECT count(*) FROM webhook_deliveries')).toBe(2);
    expect(rx.received.map((r) => JSON.parse(r.body).action)).toEqual(['created', 'created']);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(2);
  });

  it('central refuses a pushed callback, an unknown event, another contract\'s body and an update of an event (dead letters)', async () => {
    await agent.drain(CONTRACT);
    await createGroup(store);
    const [, event] = outboxItems();
    const row = event!.row.row;
    const hlc = event!.hlc;
    const item = (seq: number, change: Record<string, unknown>, op = 'insert', id = `9${NODE.toString().padStart(3, '0')}`) => ({
      seq,
      entity: 'webhook_event',
      id,
      op,
      hlc,
      row: { row: { ...row, event_id: id, ...change } },
    });
    const answer = (await (
      await rawPush([
        item(101, { target_url: 'http://127.0.0.1:1/cb', event: 'pos:transaction-detail-csv' }),
        item(102, { event: 'pos:everything' }),
        item(103, { body: JSON.stringify({ contractId: 'other', event: 'pos:payment-method-groups' }) }),
        item(104, {}, 'update', event!.id),
      ])
    ).json()) as { deadLetters: { reason: string }[] };
    expect(answer.deadLetters.map((d) => d.reason)).toEqual([
      'webhook_event 9005: a callback (6.3) is sent by the instance that made the file, not by central',
      'webhook_event 9005: "pos:everything" is not an event central delivers to subscriptions',
      `webhook_event 9005: its body is not of contract ${CONTRACT}`,
      `webhook_event ${event!.id} is written once: update is refused`,
    ]);
    expect(count(central.deps, 'SELECT count(*) FROM webhook_events')).toBe(0);
  });

  it('a callback (6.3) raised at a linked store is sent by the store, not pushed', async () => {
    await subscribeAtCentral(['pos:transaction-detail-csv']);
    await agent.drain(CONTRACT);
    const query = { status: 'success', file_url: 'https://files.example/x.csv', request_code: '1' };
    store.deps.writer.write(() => raiseCallback(store.deps, { contractId: CONTRACT, url: `${rx.url}/csv`, query }));
    await agent.drain(CONTRACT);
    expect(count(central.deps, 'SELECT count(*) FROM webhook_events')).toBe(0);
    expect(await outcomes(store)).toEqual(['delivered']);
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.url.startsWith('/hooks/csv?')).toBe(true);
  });

  it('unlinked before the push, the store delivers its waiting events itself', async () => {
    await subscribeAtCentral();
    await agent.drain(CONTRACT);
    await createGroup(store);
    expect(await outcomes(store)).toEqual([]);
    expect(new LinkRepo(store.deps).unlink(CONTRACT)).toBe(true);
    expect(outboxItems().map((i) => i.entity)).toEqual(['payment_method_group']);
    expect(await outcomes(store)).toEqual(['delivered']);
    expect(rx.received).toHaveLength(1);
  });
});

describe('an unlinked store delivers its own events', () => {
  it('sets its subscriptions locally and sends a signed delivery itself; nothing is queued for central', async () => {
    const alone = await makeInstance('store', 6, { clock: new FixedClock(new Date()) });
    try {
      const sub = (await alone.ok('POST', '/webhook_subscriptions', { url: rx.url, events: ['pos:payment-method-groups'] })) as { secret: string };
      const groupId = await createGroup(alone, 'Local');
      expect(count(alone.deps, "SELECT count(*) FROM outbox WHERE entity = 'webhook_event'")).toBe(0);
      expect(await outcomes(alone)).toEqual(['delivered']);
      expect(rx.received).toHaveLength(1);
      expect(new Webhook(sub.secret).verify(rx.received[0]!.body, rx.received[0]!.headers as Record<string, string>)).toMatchObject({
        action: 'created',
        paymentMethodGroupIds: [groupId],
      });
      expect(count(central.deps, 'SELECT count(*) FROM webhook_events')).toBe(0);
    } finally {
      await alone.close();
    }
  });
});

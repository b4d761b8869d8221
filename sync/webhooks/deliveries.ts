import type { AppDeps } from '../../server/deps.js';
import { Conflict, NotFound } from '../../server/platform/http/problem.js';
import type { SubscriptionRow } from './subscriptions.js';
import { dialectOf } from '../../server/db/engine.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

export interface DeliveryRow {
  delivery_id: string;
  contract_id: string;
  event_id: string;
  subscription_id: string | null;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  replays: number;
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A delivery with what sending it needs: its event and (for a subscription) the secret. */
export interface DueDelivery extends DeliveryRow {
  event: string;
  action: string | null;
  body: string;
  secret: string | null;
  subscription_active: number | null;
  /** For a subscription delivery: the subscription still exists. */
  subscription_exists: number;
}

/**
 * Deliveries are this instance's own bookkeeping (tries, times, errors), not business data:
 * they are not reported through writer.changed, so they never reach the sync outbox.
 */
export const DELIVERY_ENTITY = 'webhook_delivery';

type Deps = Pick<AppDeps, 'db' | 'writer' | 'ids' | 'clock'>;

export interface DeliveryFilter {
  status?: DeliveryStatus;
  subscriptionId?: string;
  eventId?: string;
}

/** Deliveries of webhook events: made by fan-out, updated by the worker after each try. */
export class DeliveryRepo {
  constructor(private readonly deps: Deps) {}

  /**
   * Turns events not yet fanned out into deliveries: one per active subscription of the event's
   * contract that takes the event, or one to a callback's own URL; then marks them fanned out.
   * Returns how many deliveries it made. With `subscriptionEvents: false` (a store linked to
   * central, whose events central delivers) only callbacks (6.3) are fanned out here.
   * Several central processes on one database fan out at once: each takes the events it reads
   * (claimRowsOf) and marks them in the same transaction, so an event is fanned out by one of
   * them (a callback's delivery has no subscription, so the unique key alone would not stop a
   * second one).
   */
  fanOut(batch = 500, options: { subscriptionEvents?: boolean } = {}): number {
    const { db, writer, ids, clock } = this.deps;
    // A contract linked to central hands its subscription events to central (sync/event-forwarder.ts
    // forwards them in the push), which delivers them: here only its callbacks are fanned out.
    const callbacksOnly =
      options.subscriptionEvents === false
        ? 'AND target_url IS NOT NULL'
        : 'AND (target_url IS NOT NULL OR contract_id NOT IN (SELECT contract_id FROM sync_links))';
    // Most passes find nothing: look before taking the write lock.
    if (!db.prepare(`SELECT 1 FROM webhook_events WHERE fanned_out = 0 ${callbacksOnly} LIMIT 1`).get()) return 0;
    return writer.write(() => {
      const events = db
        .prepare(
          `SELECT event_id, contract_id, event, target_url FROM webhook_events WHERE fanned_out = 0 ${callbacksOnly}
           ORDER BY created_at, event_id LIMIT ? ${dialectOf(db).claimRowsOf('webhook_events')}`,
        )
        .all(batch) as { event_id: string; contract_id: string; event: string; target_url: string | null }[];
      if (!events.length) return 0;
      const now = clock.now().getTime();
      const insert = db.prepare(
        `INSERT INTO webhook_deliveries (delivery_id, contract_id, event_id, subscription_id, url, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      );
      const subs = db.prepare(`SELECT * FROM webhook_subscriptions WHERE contract_id = ? AND active = 1 ORDER BY ${dialectOf(db).integerOf('subscription_id')}`);
      const mark = db.prepare('UPDATE webhook_events SET fanned_out = 1 WHERE contract_id = ? AND event_id = ?');
      let made = 0;
      for (const e of events) {
        const targets: { subscriptionId: string | null; url: string }[] = e.target_url
          ? [{ subscriptionId: null, url: e.target_url }]
          : (subs.all(e.contract_id) as SubscriptionRow[])
              .filter((s) => s.events.split(' ').includes(e.event))
              .map((s) => ({ subscriptionId: s.subscription_id, url: s.url }));
        for (const t of targets) {
          const deliveryId = ids.next('webhook_deliveries');
          made += insert.run(deliveryId, e.contract_id, e.event_id, t.subscriptionId, t.url, now, now, now).changes;
        }
        mark.run(e.contract_id, e.event_id);
      }
      return made;
    });
  }

  /** Whether a pending delivery is due: most passes find none, and look before taking the write lock. */
  anyDue(now: number): boolean {
    return this.deps.db.prepare("SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? LIMIT 1").get(now) !== undefined;
  }

  /**
   * Claims up to `limit` pending deliveries whose next try is due, oldest first, for this process
   * to send: in one write transaction their next try moves to `leaseUntil` (the send's timeout and
   * a margin from now), so no other process (several central processes on one database) takes
   * them while they are in flight (claimRowsOf: picked rows are locked, rows another process is
   * picking are skipped). The try's outcome is recorded over the lease; a process that dies
   * mid-send leaves it, and once it has passed the delivery is due again and another process
   * retries it (the webhook-id is the same: the receiver dedupes). The rows answered carry the
   * lease as their next_attempt_at: record() takes it as the claim's mark.
   */
  claimDue(now: number, leaseUntil: number, limit: number): DueDelivery[] {
    const { db, writer } = this.deps;
    return writer.write(() => {
      const due = db
        .prepare(
          `SELECT d.*, e.event, e.action, e.body,
                COALESCE(s.secret, (SELECT c.secret FROM webhook_subscriptions c
                                    WHERE c.contract_id = d.contract_id AND c.active = 1 AND d.subscription_id IS NULL
                                      AND (' ' || c.events || ' ') LIKE '% ' || e.event || ' %'
                                    ORDER BY ${dialectOf(this.deps.db).integerOf('c.subscription_id')} LIMIT 1)) AS secret,
                s.active AS subscription_active,
                (s.subscription_id IS NOT NULL) AS subscription_exists
         FROM webhook_deliveries d
         JOIN webhook_events e ON e.contract_id = d.contract_id AND e.event_id = d.event_id
         LEFT JOIN webhook_subscriptions s ON s.contract_id = d.contract_id AND s.subscription_id = d.subscription_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= ?
         ORDER BY d.next_attempt_at, ${dialectOf(this.deps.db).integerOf('d.delivery_id')} LIMIT ? ${dialectOf(db).claimRowsOf('d')}`,
        )
        .all(now, limit) as DueDelivery[];
      const lease = db.prepare('UPDATE webhook_deliveries SET next_attempt_at = ? WHERE delivery_id = ?');
      for (const d of due) {
        lease.run(leaseUntil, d.delivery_id);
        d.next_attempt_at = leaseUntil;
      }
      return due;
    });
  }

  /**
   * Records one try's outcome over the claim (`d` as claimDue answered it, its lease in
   * next_attempt_at). False when the claim was no longer this process's: its lease ran out and
   * another process took the delivery, whose try records instead. `next` null with status pending
   * is not allowed: pending needs a time.
   */
  record(
    d: Pick<DeliveryRow, 'delivery_id' | 'contract_id' | 'next_attempt_at'>,
    outcome: { status: DeliveryStatus; attempted: boolean; at: number; next: number | null; statusCode: number | null; error: string | null },
  ): boolean {
    const { db, writer } = this.deps;
    return writer.write(() => {
      return db.prepare(
        `UPDATE webhook_deliveries SET status = ?, attempts = attempts + ?, next_attempt_at = ?,
                last_attempt_at = CASE WHEN ? THEN ? ELSE last_attempt_at END,
                last_status_code = CASE WHEN ? THEN ? ELSE last_status_code END,
                last_error = ?, delivered_at = CASE WHEN ? = 'delivered' THEN ? ELSE delivered_at END, updated_at = ?
         WHERE delivery_id = ? AND status = 'pending' AND next_attempt_at = ?`,
      ).run(
        outcome.status,
        outcome.attempted ? 1 : 0,
        outcome.status === 'pending' ? outcome.next : null,
        outcome.attempted ? 1 : 0,
        outcome.at,
        outcome.attempted ? 1 : 0,
        outcome.statusCode,
        outcome.error,
        outcome.status,
        outcome.at,
        outcome.at,
        d.delivery_id,
        d.next_attempt_at,
      ).changes > 0;
    });
  }

  find(contractId: string, deliveryId: string): DeliveryView | undefined {
    return this.deps.db.prepare(`${VIEW} WHERE d.contract_id = ? AND d.delivery_id = ?`).get(contractId, deliveryId) as DeliveryView | undefined;
  }

  get(contractId: string, deliveryId: string): DeliveryView {
    const found = this.find(contractId, deliveryId);
    if (!found) throw NotFound.field('delivery_id', `webhook delivery ${deliveryId} does not exist`);
    return found;
  }

  /** Newest first. */
  list(contractId: string, filter: DeliveryFilter, page: { limit: number; page: number }): DeliveryView[] {
    const where = ['d.contract_id = ?'];
    const values: (string | number)[] = [contractId];
    if (filter.status) where.push('d.status = ?'), values.push(filter.status);
    if (filter.subscriptionId) where.push('d.subscription_id = ?'), values.push(filter.subscriptionId);
    if (filter.eventId) where.push('d.event_id = ?'), values.push(filter.eventId);
    return this.deps.db
      .prepare(`${VIEW} WHERE ${where.join(' AND ')} ORDER BY ${dialectOf(this.deps.db).integerOf('d.delivery_id')} DESC LIMIT ? OFFSET ?`)
      .all(...values, page.limit + 1, (page.page - 1) * page.limit) as DeliveryView[];
  }

  /**
   * Sends a dead (or delivered) delivery again with a fresh retry schedule, as soon as the worker
   * runs; the webhook-id stays the event's. 409 while it is still pending, or when its
   * subscription is turned off or gone (turn it on first).
   */
  replay(contractId: string, deliveryId: string): DeliveryView {
    const { db, writer, clock } = this.deps;
    return writer.write(() => {
      const d = this.get(contractId, deliveryId);
      if (d.status === 'pending') throw new Conflict(`[delivery_id] webhook delivery ${deliveryId} is still pending (next try ${new Date(d.next_attempt_at ?? 0).toISOString()})`);
      if (d.subscription_id !== null) {
        const sub = db.prepare('SELECT active FROM webhook_subscriptions WHERE contract_id = ? AND subscription_id = ?').get(contractId, d.subscription_id) as
          | { active: number }
          | undefined;
        if (!sub) throw new Conflict(`[delivery_id] the subscription ${d.subscription_id} of webhook delivery ${deliveryId} was removed`);
        if (sub.active !== 1) throw new Conflict(`[delivery_id] the subscription ${d.subscription_id} of webhook delivery ${deliveryId} is turned off; turn it on first (active: true)`);
      }
      const now = clock.now().getTime();
      // Still not pending when it is written (two processes replaying it at once replay it once).
      db.prepare(
        `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, replays = replays + 1, next_attempt_at = ?, updated_at = ?
         WHERE delivery_id = ? AND status <> 'pending'`,
      ).run(now, now, deliveryId);
      return this.get(contractId, deliveryId);
    });
  }
}

export interface DeliveryView extends DeliveryRow {
  event: string;
  action: string | null;
  body: string;
}

const VIEW = `SELECT d.*, e.event, e.action, e.body FROM webhook_deliveries d JOIN webhook_events e ON e.contract_id = d.contract_id AND e.event_id = d.event_id`;

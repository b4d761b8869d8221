import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../server/deps.js';
import { BadRequest, NotFound } from '../../server/platform/http/problem.js';
import { isHttpUrl, isWebhookEvent, type WebhookEventName } from '../../server/events/webhook-events.js';
import { dialectOf } from '../../server/db/engine.js';

export interface SubscriptionRow {
  contract_id: string;
  subscription_id: string;
  url: string;
  events: string;
  secret: string;
  active: number;
  disabled_reason: string | null;
  ins_at: number;
  upd_at: number;
}

export interface Subscription {
  contractId: string;
  subscriptionId: string;
  url: string;
  events: WebhookEventName[];
  secret: string;
  active: boolean;
  disabledReason: string | null;
  insAt: number;
  updAt: number;
}

export interface SubscriptionInput {
  url: string;
  events: string[];
  active?: boolean;
}

export const SUBSCRIPTION_ENTITY = 'webhook_subscription';

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The key a secret signs with: the bytes after `whsec_`, base64-decoded. */
export const secretKey = (secret: string) => Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');

const toSubscription = (r: SubscriptionRow): Subscription => ({
  contractId: r.contract_id,
  subscriptionId: r.subscription_id,
  url: r.url,
  events: r.events.split(' ').filter(isWebhookEvent),
  secret: r.secret,
  active: r.active === 1,
  disabledReason: r.disabled_reason,
  insAt: r.ins_at,
  updAt: r.upd_at,
});

function checkUrl(url: string): string {
  if (!isHttpUrl(url)) throw BadRequest.field('url', `must be an http:// or https:// URL, got "${url.slice(0, 200)}"`);
  return url;
}

function checkEvents(events: string[]): WebhookEventName[] {
  if (!events.length) throw BadRequest.field('events', 'names no event');
  const unknown = events.filter((e) => !isWebhookEvent(e));
  if (unknown.length) throw BadRequest.field('events', `unknown event ${unknown.join(', ')}`);
  return [...new Set(events)] as WebhookEventName[];
}

type Deps = Pick<AppDeps, 'db' | 'writer' | 'ids' | 'clock'>;

/** Webhook subscriptions of a contract (DESIGN §5): URL, events, secret, active flag. */
export class SubscriptionRepo {
  constructor(private readonly deps: Deps) {}

  find(contractId: string, subscriptionId: string): Subscription | undefined {
    const row = this.deps.db
      .prepare('SELECT * FROM webhook_subscriptions WHERE contract_id = ? AND subscription_id = ?')
      .get(contractId, subscriptionId) as SubscriptionRow | undefined;
    return row && toSubscription(row);
  }

  get(contractId: string, subscriptionId: string): Subscription {
    const found = this.find(contractId, subscriptionId);
    if (!found) throw NotFound.field('subscription_id', `webhook subscription ${subscriptionId} does not exist`);
    return found;
  }

  list(contractId: string): Subscription[] {
    const rows = this.deps.db
      .prepare(`SELECT * FROM webhook_subscriptions WHERE contract_id = ? ORDER BY ${dialectOf(this.deps.db).integerOf('subscription_id')}`)
      .all(contractId) as SubscriptionRow[];
    return rows.map(toSubscription);
  }

  /** Active subscriptions of a contract that take `event`. */
  forEvent(contractId: string, event: string): Subscription[] {
    return this.list(contractId).filter((s) => s.active && (s.events as string[]).includes(event));
  }

  /**
   * DESIGN §5: subscriptions are managed at central and pulled by the stores; a store linked to
   * central refuses local edits (they would be overwritten by the next pull and its events go out
   * from central anyway). An unlinked store (and central) sets its own.
   */
  private assertManagedHere(contractId: string): void {
    const linked = this.deps.db.prepare('SELECT central_url FROM sync_links WHERE contract_id = ?').pluck().get(contractId) as string | undefined;
    if (linked !== undefined) {
      throw new BadRequest(
        `webhook subscriptions of contract ${contractId} are managed at head office: this store is linked to central (${linked}); change them there and they reach this store with the next pull`,
      );
    }
  }

  create(contractId: string, input: SubscriptionInput): Subscription {
    this.assertManagedHere(contractId);
    const url = checkUrl(input.url);
    const events = checkEvents(input.events);
    return this.deps.writer.write(() => {
      const subscriptionId = this.deps.ids.next('webhook_subscriptions');
      const now = this.deps.clock.now().getTime();
      this.deps.db
        .prepare(
          `INSERT INTO webhook_subscriptions (contract_id, subscription_id, url, events, secret, active, ins_at, upd_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(contractId, subscriptionId, url, events.join(' '), newSecret(), input.active === false ? 0 : 1, now, now);
      this.deps.writer.changed({ contractId, entity: SUBSCRIPTION_ENTITY, id: subscriptionId, op: 'insert' });
      return this.get(contractId, subscriptionId);
    });
  }

  /** Changes the keys given; turning a subscription on clears the reason it was turned off. */
  update(contractId: string, subscriptionId: string, patch: Partial<SubscriptionInput>): Subscription {
    this.assertManagedHere(contractId);
    const url = patch.url === undefined ? undefined : checkUrl(patch.url);
    const events = patch.events === undefined ? undefined : checkEvents(patch.events);
    return this.deps.writer.write(() => {
      const current = this.get(contractId, subscriptionId);
      const active = patch.active ?? current.active;
      const reason = patch.active === undefined ? current.disabledReason : null;
      this.deps.db
        .prepare(
          `UPDATE webhook_subscriptions SET url = ?, events = ?, active = ?, disabled_reason = ?, upd_at = ?
           WHERE contract_id = ? AND subscription_id = ?`,
        )
        .run(url ?? current.url, (events ?? current.events).join(' '), active ? 1 : 0, reason, this.deps.clock.now().getTime(), contractId, subscriptionId);
      this.deps.writer.changed({ contractId, entity: SUBSCRIPTION_ENTITY, id: subscriptionId, op: 'update' });
      return this.get(contractId, subscriptionId);
    });
  }

  /** The service turns a subscription off when its receiver answers 410 Gone. */
  disable(contractId: string, subscriptionId: string, reason: string): void {
    this.deps.writer.write(() => {
      const changed = this.deps.db
        .prepare(
          `UPDATE webhook_subscriptions SET active = 0, disabled_reason = ?, upd_at = ?
           WHERE contract_id = ? AND subscription_id = ? AND active = 1`,
        )
        .run(reason, this.deps.clock.now().getTime(), contractId, subscriptionId).changes;
      if (changed) this.deps.writer.changed({ contractId, entity: SUBSCRIPTION_ENTITY, id: subscriptionId, op: 'update' });
    });
  }

  /** Removes it; its deliveries not yet made become dead (kept for the record, replayable no more). */
  remove(contractId: string, subscriptionId: string): void {
    this.assertManagedHere(contractId);
    this.deps.writer.write(() => {
      this.get(contractId, subscriptionId);
      const now = this.deps.clock.now().getTime();
      this.deps.db
        .prepare(
          `UPDATE webhook_deliveries SET status = 'dead', next_attempt_at = NULL, last_error = 'subscription removed', updated_at = ?
           WHERE contract_id = ? AND subscription_id = ? AND status = 'pending'`,
        )
        .run(now, contractId, subscriptionId);
      this.deps.db.prepare('DELETE FROM webhook_subscriptions WHERE contract_id = ? AND subscription_id = ?').run(contractId, subscriptionId);
      this.deps.writer.changed({ contractId, entity: SUBSCRIPTION_ENTITY, id: subscriptionId, op: 'delete' });
    });
  }
}

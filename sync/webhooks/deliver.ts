import { createHmac } from 'node:crypto';
import got from 'got';
import type { AppDeps } from '../../server/deps.js';
import { receiverRule } from '../../server/platform/http/receivers.js';
import { VERSION } from '../../server/version.js';
import { DeliveryRepo, type DueDelivery } from './deliveries.js';
import { secretKey, SubscriptionRepo } from './subscriptions.js';
import { isDatabaseUnavailable } from '../../server/db/pg/errors.js';
import { isBusyError } from '../../server/db/write.js';

/** Waits after the 1st, 2nd, ... failed try (about 2 days in all); after the last the delivery is dead. */
export const RETRY_SCHEDULE_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, 10 * 3600_000, 10 * 3600_000];
/** A 2xx within this time is a success; anything slower is a failed try. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/**
 * A claimed delivery's lease is its try's timeout and this: time for the receiver's lookup and
 * connect and for recording the outcome. A process killed mid-send leaves the delivery to the
 * others once its lease has passed (deliveries.ts claimDue).
 */
export const LEASE_MARGIN_MS = 30_000;
/** Retry-After is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = 24 * 3600_000;
/** Jitter: each wait is scaled by a factor in [1 - JITTER, 1 + JITTER). */
export const JITTER = 0.2;
const MAX_ERROR_TEXT = 500;

export interface JobLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
const silent: JobLog = { info() {}, warn() {}, error() {} };

export interface WebhookOptions {
  schedule?: readonly number[];
  timeoutMs?: number;
  /** A number in [0, 1) for the jitter; tests pass () => 0.5 for none. */
  random?: () => number;
  /** Deliveries sent per pass, and how many at once. */
  batch?: number;
  concurrency?: number;
  /**
   * Whether this instance delivers its subscription events (6.1, 6.2) at all (default true). A
   * contract linked to central is left out in any case: its events ride the push and go out from
   * central (DESIGN §5; sync/event-forwarder.ts, and the fan-out skips linked contracts).
   * Callbacks (6.3) always go out from the instance that made the file. Asked on every pass.
   */
  deliversSubscriptionEvents?: () => boolean;
}

type Deps = Pick<AppDeps, 'db' | 'writer' | 'ids' | 'clock' | 'config'>;

/** Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` keyed by the decoded secret. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The message id a receiver dedupes on: the event's, the same on every retry and replay. */
export const webhookId = (eventId: string) => `msg_${eventId}`;

/** The headers of one try at `now` (the timestamp, hence the signature, is the try's own). */
export function deliveryHeaders(d: Pick<DueDelivery, 'event' | 'contract_id' | 'event_id' | 'body' | 'secret'>, now: Date): Record<string, string> {
  const id = webhookId(d.event_id);
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': `pos-backoffice/${VERSION} webhooks`,
    'service-event': d.event,
    'service-contract-id': d.contract_id,
    'service-event-id': d.event_id,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    ...(d.secret ? { 'webhook-signature': sign(d.secret, id, timestamp, d.body) } : {}),
  };
}

/** Seconds or an HTTP date, as milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * When to try again after failed try number `attempts` (1-based), or null when that was the last.
 * The schedule's wait with jitter, but never sooner than the receiver's Retry-After (capped).
 */
export function nextAttemptAt(attempts: number, now: number, schedule: readonly number[], random: () => number, retryAfter?: number): number | null {
  const wait = schedule[attempts - 1];
  if (wait === undefined) return null;
  const jittered = Math.round(wait * (1 - JITTER + 2 * JITTER * random()));
  const honoured = retryAfter === undefined ? jittered : Math.max(jittered, Math.min(retryAfter, MAX_RETRY_AFTER_MS));
  return now + honoured;
}

export interface TryResult {
  deliveryId: string;
  outcome: 'delivered' | 'retry' | 'dead' | 'disabled' | 'skipped';
  statusCode: number | null;
  error: string | null;
}

/** One try of one delivery: send, then record the outcome in its own transaction. */
async function attempt(deps: Deps, d: DueDelivery, options: Required<WebhookOptions>): Promise<TryResult> {
  const deliveries = new DeliveryRepo(deps);
  const result = (outcome: TryResult['outcome'], statusCode: number | null, error: string | null): TryResult => ({
    deliveryId: d.delivery_id,
    outcome,
    statusCode,
    error,
  });

  // A subscription turned off or removed since the fan-out: nothing is sent.
  if (d.subscription_id !== null && d.subscription_active !== 1) {
    const error = d.subscription_exists ? 'subscription turned off' : 'subscription removed';
    deliveries.record(d, { status: 'dead', attempted: false, at: deps.clock.now().getTime(), next: null, statusCode: null, error });
    return result('skipped', null, error);
  }

  const sentAt = deps.clock.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  let retryAfter: string | undefined;
  // Head office sends only to public addresses (server/platform/http/receivers.ts): an address in the URL
  // is refused here, a name by the lookup the client connects through.
  const guard = receiverRule(deps.config)?.forDelivery(d.url) ?? {};
  if ('refused' in guard) {
    error = `refused: ${guard.refused}`;
  } else {
    try {
      const response = await got.post(d.url, {
        body: d.body,
        headers: deliveryHeaders(d, sentAt),
        timeout: { request: options.timeoutMs },
        retry: { limit: 0 },
        throwHttpErrors: false,
        followRedirect: false,
        ...(guard.dnsLookup ? { dnsLookup: guard.dnsLookup } : {}),
      });
      statusCode = response.statusCode;
      const header = response.headers['retry-after'];
      retryAfter = Array.isArray(header) ? header[0] : header;
      // The receiver's body is never kept: it would hand whoever reads the deliveries what an
      // internal service answered.
      if (statusCode < 200 || statusCode > 299) error = `receiver answered ${statusCode}`;
    } catch (e) {
      error = failureText(e as { code?: string; message?: string }, options.timeoutMs);
    }
  }
  const at = deps.clock.now().getTime();
  error = error && error.slice(0, MAX_ERROR_TEXT);

  if (statusCode !== null && statusCode >= 200 && statusCode <= 299) {
    deliveries.record(d, { status: 'delivered', attempted: true, at, next: null, statusCode, error: null });
    return result('delivered', statusCode, null);
  }
  if (statusCode === 410 && d.subscription_id !== null) {
    const reason = `receiver answered 410 Gone at ${new Date(at).toISOString()} (delivery ${d.delivery_id})`;
    new SubscriptionRepo(deps).disable(d.contract_id, d.subscription_id, reason);
    deliveries.record(d, { status: 'dead', attempted: true, at, next: null, statusCode, error: 'receiver answered 410 Gone: subscription turned off' });
    return result('disabled', statusCode, error);
  }
  const next = nextAttemptAt(d.attempts + 1, at, options.schedule, options.random, retryAfterMs(retryAfter, at));
  deliveries.record(d, { status: next === null ? 'dead' : 'pending', attempted: true, at, next, statusCode, error });
  return result(next === null ? 'dead' : 'retry', statusCode, error);
}

/**
 * A failed try in the service's own words: the error's code, never the message of the network
 * stack (it names the address and port connected to) nor anything the receiver sent.
 */
function failureText(error: { code?: string; message?: string }, timeoutMs: number): string {
  switch (error.code) {
    case 'ETIMEDOUT':
      return `no answer within ${timeoutMs} ms`;
    case 'ERECEIVERREFUSED':
      return `refused: ${error.message}`;
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection closed before the answer';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return /CERT|TLS|SSL/.test(error.code ?? '') ? `TLS certificate not accepted (${error.code})` : `request failed (${error.code ?? 'error'})`;
  }
}

const withDefaults = (o: WebhookOptions = {}): Required<WebhookOptions> => ({
  schedule: o.schedule ?? RETRY_SCHEDULE_MS,
  timeoutMs: o.timeoutMs ?? DELIVERY_TIMEOUT_MS,
  random: o.random ?? Math.random,
  batch: o.batch ?? 100,
  concurrency: o.concurrency ?? 8,
  deliversSubscriptionEvents: o.deliversSubscriptionEvents ?? (() => true),
});

/**
 * One pass of the worker: fans out new events, then tries every delivery that is due (up to
 * `batch`, `concurrency` at a time). Returns each try's result. Each lane claims the next due
 * delivery just before sending it (DeliveryRepo.claimDue), with a lease of one try's timeout and
 * LEASE_MARGIN_MS: on several central processes sharing one database each delivery is sent by
 * the one process that claimed it.
 */
export async function runWebhookPass(deps: Deps, options: WebhookOptions = {}, log: JobLog = silent): Promise<TryResult[]> {
  const o = withDefaults(options);
  const deliveries = new DeliveryRepo(deps);
  deliveries.fanOut(500, { subscriptionEvents: o.deliversSubscriptionEvents() });
  if (!deliveries.anyDue(deps.clock.now().getTime())) return [];
  const results: TryResult[] = [];
  let claims = 0;
  let drained = false;
  let claimError: unknown;
  const claimNext = (): DueDelivery | undefined => {
    if (drained || claims >= o.batch) return undefined;
    claims += 1;
    const now = deps.clock.now().getTime();
    try {
      const [d] = deliveries.claimDue(now, now + o.timeoutMs + LEASE_MARGIN_MS, 1);
      if (!d) drained = true;
      return d;
    } catch (error) {
      // Nothing was claimed (the database busy or gone): the pass ends with the tries under way.
      drained = true;
      claimError ??= error;
      return undefined;
    }
  };
  const lane = async () => {
    for (let d = claimNext(); d; d = claimNext()) {
      try {
        const r = await attempt(deps, d, o);
        results.push(r);
        if (r.outcome === 'delivered') log.info({ deliveryId: d.delivery_id, event: d.event, url: d.url }, 'webhook delivered');
        else log.warn({ deliveryId: d.delivery_id, event: d.event, outcome: r.outcome, statusCode: r.statusCode, error: r.error }, 'webhook delivery failed');
      } catch (error) {
        // Recording failed (e.g. the database is locked by the CLI): the delivery is due again once its lease has passed.
        log.error({ deliveryId: d.delivery_id, err: error }, 'webhook delivery not recorded');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency, o.batch) }, lane));
  if (claimError !== undefined) {
    if (results.length === 0) throw claimError;
    log.warn({ err: claimError }, 'webhook pass cut short: claiming the next delivery failed');
  }
  return results;
}

export interface WorkerOptions extends WebhookOptions {
  /** Pause between passes. */
  intervalMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * The delivery worker: a pass every `intervalMs` (1 s), the next one scheduled when the last
 * ends, so passes never overlap. Returns a stop function that waits for the running pass.
 * `serve` starts it; the sync scheduler (sync/scheduler.ts) may own it later.
 */
export function startWebhookWorker(deps: Deps, log: JobLog = silent, options: WorkerOptions = {}): () => Promise<void> {
  const interval = options.intervalMs ?? 1000;
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms).unref());
  const clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as NodeJS.Timeout));
  let stopped = false;
  let handle: unknown;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = runWebhookPass(deps, options, log)
      .then(
        () => undefined,
        // Head office's PostgreSQL gone for a while is an outage the next pass outlives, not a fault here.
        (error) =>
          isDatabaseUnavailable(error) || isBusyError(error)
            ? log.warn({ err: (error as Error).message }, 'webhook pass postponed: the database is busy or unavailable')
            : log.error({ err: error }, 'webhook pass failed'),
      )
      .finally(() => {
        if (!stopped) handle = setTimer(tick, interval);
      });
  };
  handle = setTimer(tick, 0);
  return async () => {
    stopped = true;
    clearTimer(handle);
    await running;
  };
}

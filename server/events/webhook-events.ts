import type { Clock } from '../clock.js';
import type { IdAllocator } from '../db/ids.js';
import type { Sqlite } from '../db/open.js';
import type { Writer } from '../db/write.js';

/**
 * The notices the service sends (spec §6). Subscriptions name them; `Service-Event` carries them.
 * 6.3 (the CSV completion notice) goes to the callbackUrl its request named, not to subscriptions.
 */
export const ORDER_SHIPMENT_EVENT = 'order-shipment:orders'; // 6.1
export const PAYMENT_METHOD_GROUP_EVENT = 'pos:payment-method-groups'; // 6.2
export const CSV_COMPLETION_EVENT = 'pos:transaction-detail-csv'; // 6.3 (name ours: the spec gives none)
// Stocktaking (issue 26): the platform's 棚卸 notice, body { stocktakingInfoIds }.
export const STOCKTAKING_EVENT = 'pos:stocktaking';
// Losses (issue 26): the platform's ロス notice (postwebhooklosses), body { lossIds }, actions created / edited / deleted.
export const LOSS_EVENT = 'pos:losses';
// Coupons (issue 26): the platform's クーポン notice (postwebhookcoupons), body { couponIds }, actions created / edited / deleted.
export const COUPON_EVENT = 'pos:coupons';
// Product option groups (issue 26, options-sets): the platform's オプショングループ notice (body
// { productOptionGroupIds }, created / edited / deleted) and オプショングループ商品 notice (body
// { ids: [{ productOptionGroupId, productId }] }, created / deleted / bulk-update).
export const OPTION_GROUP_EVENT = 'pos:option-groups';
export const OPTION_GROUP_PRODUCT_EVENT = 'pos:product-options';
// waiter operations (issue 26): the platform's トッピングの販売状態・残数 notice, body { storeId, toppingIds }, action updated.
export const TOPPING_CONDITIONS_EVENT = 'waiter:topping-conditions';
// Bundles (issue 26, bundles): the platform's バンドル販売 notice (body { productBundleGroupIds },
// created / edited / deleted) and バンドル販売商品 notice (body { ids: [{ productBundleGroupId, productBundleId }] }, created / deleted).
export const BUNDLE_EVENT = 'pos:bundles';
export const BUNDLE_PRODUCT_EVENT = 'pos:bundle-products';
export const WEBHOOK_EVENTS = [ORDER_SHIPMENT_EVENT, PAYMENT_METHOD_GROUP_EVENT, CSV_COMPLETION_EVENT, STOCKTAKING_EVENT, LOSS_EVENT, COUPON_EVENT, OPTION_GROUP_EVENT, OPTION_GROUP_PRODUCT_EVENT, TOPPING_CONDITIONS_EVENT, BUNDLE_EVENT, BUNDLE_PRODUCT_EVENT] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

export const isWebhookEvent = (value: string): value is WebhookEventName => (WEBHOOK_EVENTS as readonly string[]).includes(value);

/** What raiseEvent needs: the repo's own db, id allocator and clock (a whole AppDeps fits). */
export interface EventContext {
  db: Sqlite;
  ids: IdAllocator;
  clock: Clock;
  /**
   * When given, the event row is also reported as entity `webhook_event` (insert), for a sync
   * outbox that pushes a linked store's events to central. The repos do not pass it yet (their
   * tests pin the exact list of changes they report).
   */
  writer?: Writer;
}

/** The entity name webhook event rows are reported under (writer.changed), for the sync registry. */
export const WEBHOOK_EVENT_ENTITY = 'webhook_event';

export interface RaiseEvent {
  contractId: string;
  event: WebhookEventName;
  action: string;
  /** The body's members after contractId, event and action (e.g. `{ paymentMethodGroupIds: [...] }`). */
  payload: Record<string, unknown>;
  /** What raised it (entity, id, op, ...), kept with the event for the record. */
  cause?: Record<string, unknown>;
}

export interface RaisedEvent {
  eventId: string;
  body: string;
}

/**
 * Records a notice INSIDE the caller's write transaction (Writer.write), so it commits or rolls
 * back with the change it reports. The body is fixed here, as the receiver will get it:
 * `{contractId, event, action, ...payload}`. The webhook worker fans it out to the contract's
 * subscriptions of that event and delivers it (sync/webhooks/deliver.ts).
 */
export function raiseEvent(ctx: EventContext, input: RaiseEvent): RaisedEvent {
  if (!ctx.db.inTransaction) throw new Error('raiseEvent() must be called inside Writer.write');
  const body = JSON.stringify({ contractId: input.contractId, event: input.event, action: input.action, ...input.payload });
  return insertEvent(ctx, input.contractId, input.event, input.action, body, input.cause ?? null, null);
}

export interface RaiseCallback {
  contractId: string;
  /** The callbackUrl of the request (4.11); the query parameters are added to it. */
  url: string;
  /** 6.3's query parameters: file_url (on success), status, message, proc_name, state, request_code. */
  query: Record<string, string>;
  cause?: Record<string, unknown>;
}

/**
 * 6.3: the CSV completion notice, sent to the request's own callbackUrl with the spec's query
 * parameters (the same members are the JSON body too). It is delivered, retried and replayable
 * like any event; it is signed with the secret of the contract's first active subscription to
 * `pos:transaction-detail-csv` when there is one. Call it inside Writer.write.
 */
export function raiseCallback(ctx: EventContext, input: RaiseCallback): RaisedEvent {
  if (!ctx.db.inTransaction) throw new Error('raiseCallback() must be called inside Writer.write');
  assertHttpUrl(input.url);
  const url = new URL(input.url);
  for (const [key, value] of Object.entries(input.query)) url.searchParams.set(key, value);
  const body = JSON.stringify(input.query);
  return insertEvent(ctx, input.contractId, CSV_COMPLETION_EVENT, input.query.status ?? null, body, input.cause ?? null, url.toString());
}

/**
 * POST /stock/add/bulk's completion notice: the platform's stock event (`pos:stock`, action
 * bulk-update) sent as JSON to the request's own callbackUrl, delivered, retried and replayable
 * like 6.3 (and, like it, never forwarded to central).
 */
export const STOCK_BULK_EVENT = 'pos:stock';

export interface RaiseJsonCallback {
  contractId: string;
  /** The request's callbackUrl. */
  url: string;
  event: string;
  action: string;
  /** The JSON body the receiver gets. */
  body: Record<string, unknown>;
  cause?: Record<string, unknown>;
}

/** A callback with a JSON body to the request's own URL (POST /stock/add/bulk). Call it inside Writer.write. */
export function raiseJsonCallback(ctx: EventContext, input: RaiseJsonCallback): RaisedEvent {
  if (!ctx.db.inTransaction) throw new Error('raiseJsonCallback() must be called inside Writer.write');
  assertHttpUrl(input.url);
  return insertEvent(ctx, input.contractId, input.event, input.action, JSON.stringify(input.body), input.cause ?? null, input.url);
}

function insertEvent(
  ctx: EventContext,
  contractId: string,
  event: string,
  action: string | null,
  body: string,
  cause: Record<string, unknown> | null,
  targetUrl: string | null,
): RaisedEvent {
  const eventId = ctx.ids.next('webhook_events');
  ctx.db
    .prepare(
      `INSERT INTO webhook_events (event_id, contract_id, event, action, body, cause, target_url, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(eventId, contractId, event, action, body, cause === null ? null : JSON.stringify(cause), targetUrl, ctx.clock.now().getTime());
  ctx.writer?.changed({ contractId, entity: WEBHOOK_EVENT_ENTITY, id: eventId, op: 'insert' });
  return { eventId, body };
}

/** http: or https: with a host; anything else (ftp:, file:, javascript:, a bare word) is refused. */
export function isHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

export function assertHttpUrl(value: string): void {
  if (!isHttpUrl(value)) throw new Error(`webhook URL must be http(s): ${value}`);
}

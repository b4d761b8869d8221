import { z } from 'zod';
import { formatDateTime } from '../../server/domain/time.js';
import { digits, patchBody } from '../../server/platform/http/fields.js';
import { pageQuery, POS_PAGE } from '../../server/platform/http/paging.js';
import type { DeliveryView } from './deliveries.js';
import { isHttpUrl, WEBHOOK_EVENTS } from '../../server/events/webhook-events.js';
import type { Subscription } from './subscriptions.js';

const url = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine(isHttpUrl, 'must be an http:// or https:// URL')
  .describe('the receiver: http:// or https:// only');
const events = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, 'names no event')
  .describe(`the events it receives: ${WEBHOOK_EVENTS.join(', ')}`);

export const createSubscriptionBody = z.strictObject({
  url,
  events,
  active: z.boolean().optional().describe('default true'),
});
export const updateSubscriptionBody = patchBody({ url: url.optional(), events: events.optional(), active: z.boolean().optional() });

export const subscriptionParams = z.object({ subscription_id: digits(12) });
export const deliveryParams = z.object({ delivery_id: digits(12) });

export const webhookSubscription = z
  .object({
    subscriptionId: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    active: z.boolean(),
    disabledReason: z.string().nullable().describe('why the service turned it off (the receiver answered 410 Gone)'),
    secret: z
      .string()
      .optional()
      .describe('whsec_<base64>: the Standard Webhooks signing secret; returned on create and on a single read with pos.stores:write'),
    insDateTime: z.string(),
    updDateTime: z.string(),
  })
  .meta({ id: 'WebhookSubscription' });

export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead'] as const;

export const webhookDelivery = z
  .object({
    deliveryId: z.string(),
    eventId: z.string().describe('Service-Event-Id; webhook-id is msg_<eventId>'),
    event: z.string(),
    action: z.string().nullable(),
    subscriptionId: z.string().nullable().describe('null for a callback (6.3)'),
    url: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int().describe('tries since it was made or last replayed'),
    replays: z.number().int(),
    nextAttemptDateTime: z.string().nullable(),
    lastAttemptDateTime: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    deliveredDateTime: z.string().nullable(),
    body: z.string().describe('the JSON body as sent'),
    insDateTime: z.string(),
    updDateTime: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });

export const listDeliveriesQuery = z.strictObject({
  ...pageQuery(['deliveryId'], POS_PAGE),
  status: z.enum(DELIVERY_STATUSES).optional(),
  subscription_id: digits(12).optional(),
  event_id: digits(12).optional(),
});

export type WebhookSubscription = z.infer<typeof webhookSubscription>;
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

const at = (ms: number | null, zone: string) => (ms === null ? null : formatDateTime(ms, zone));

export function presentSubscription(s: Subscription, zone: string, withSecret: boolean): WebhookSubscription {
  return {
    subscriptionId: s.subscriptionId,
    url: s.url,
    events: s.events,
    active: s.active,
    disabledReason: s.disabledReason,
    ...(withSecret ? { secret: s.secret } : {}),
    insDateTime: formatDateTime(s.insAt, zone),
    updDateTime: formatDateTime(s.updAt, zone),
  };
}

export function presentDelivery(d: DeliveryView, zone: string): WebhookDelivery {
  return {
    deliveryId: d.delivery_id,
    eventId: d.event_id,
    event: d.event,
    action: d.action,
    subscriptionId: d.subscription_id,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    replays: d.replays,
    nextAttemptDateTime: d.status === 'pending' ? at(d.next_attempt_at, zone) : null,
    lastAttemptDateTime: at(d.last_attempt_at, zone),
    lastStatusCode: d.last_status_code,
    lastError: d.last_error,
    deliveredDateTime: at(d.delivered_at, zone),
    body: d.body,
    insDateTime: formatDateTime(d.created_at, zone),
    updDateTime: formatDateTime(d.updated_at, zone),
  };
}

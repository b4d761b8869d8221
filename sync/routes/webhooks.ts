import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../server/deps.js';
import { authOf } from '../../server/platform/http/auth.js';
import { sendPage } from '../../server/platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../server/platform/http/problem.js';
import { assertReceiver } from '../../server/platform/http/receivers.js';
import { DeliveryRepo } from '../webhooks/deliveries.js';
import {
  createSubscriptionBody,
  deliveryParams,
  listDeliveriesQuery,
  presentDelivery,
  presentSubscription,
  subscriptionParams,
  updateSubscriptionBody,
  webhookDelivery,
  webhookSubscription,
} from '../webhooks/schema.js';
import { SubscriptionRepo } from '../webhooks/subscriptions.js';

const WRITE = 'pos.stores:write' as const;
const READ = 'pos.stores:read' as const;

/**
 * Webhook subscriptions and deliveries of a contract (issue 11 item 7), under /{contract_id}/pos.
 * Contract-wide settings: scope pos.stores (read to see, write to change). The secret is
 * returned on create and on a single read by a token with pos.stores:write (the receiver must
 * know it to verify signatures); lists never carry it.
 */
export default function webhookRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const subscriptions = new SubscriptionRepo(deps);
  const deliveries = new DeliveryRepo(deps);
  const tags = ['webhooks'];

  return async (app) => {
    app.post(
      '/webhook_subscriptions',
      {
        config: { scope: WRITE },
        schema: {
          tags,
          summary: 'Subscribe a receiver to events (the answer holds the signing secret)',
          body: createSubscriptionBody,
          response: { 200: webhookSubscription, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        // Head office sends to public addresses only (server/platform/http/receivers.ts); checked again at each delivery.
        await assertReceiver(deps.config, request.body.url, 'url');
        return presentSubscription(subscriptions.create(contract.contractId, request.body), contract.timeZone, true);
      },
    );

    app.get(
      '/webhook_subscriptions',
      {
        config: { scope: READ },
        schema: { tags, summary: 'List webhook subscriptions (without secrets)', response: { 200: z.array(webhookSubscription), ...commonErrorResponses } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return subscriptions.list(contract.contractId).map((s) => presentSubscription(s, contract.timeZone, false));
      },
    );

    app.get(
      '/webhook_subscriptions/:subscription_id',
      {
        config: { scope: READ },
        schema: {
          tags,
          summary: 'Get a webhook subscription (with its secret for a token holding pos.stores:write)',
          params: subscriptionParams,
          response: { 200: webhookSubscription, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract, scopes } = authOf(request);
        const s = subscriptions.get(contract.contractId, request.params.subscription_id);
        return presentSubscription(s, contract.timeZone, scopes.includes(WRITE));
      },
    );

    app.patch(
      '/webhook_subscriptions/:subscription_id',
      {
        config: { scope: WRITE },
        schema: {
          tags,
          summary: 'Change a subscription (url, events, active); turning it on clears the reason it was turned off',
          params: subscriptionParams,
          body: updateSubscriptionBody,
          response: { 200: webhookSubscription, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        if (request.body.url !== undefined) await assertReceiver(deps.config, request.body.url, 'url');
        const s = subscriptions.update(contract.contractId, request.params.subscription_id, request.body);
        return presentSubscription(s, contract.timeZone, false);
      },
    );

    app.delete(
      '/webhook_subscriptions/:subscription_id',
      {
        config: { scope: WRITE },
        schema: {
          tags,
          summary: 'Remove a subscription (its pending deliveries become dead)',
          params: subscriptionParams,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        subscriptions.remove(authOf(request).contract.contractId, request.params.subscription_id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/webhook_deliveries',
      {
        config: { scope: READ },
        schema: {
          tags,
          summary: 'List webhook deliveries, newest first (status, attempts, next try, last error)',
          querystring: listDeliveriesQuery,
          response: { 200: z.array(webhookDelivery), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const q = request.query;
        const rows = deliveries.list(
          contract.contractId,
          {
            ...(q.status ? { status: q.status } : {}),
            ...(q.subscription_id ? { subscriptionId: q.subscription_id } : {}),
            ...(q.event_id ? { eventId: q.event_id } : {}),
          },
          q,
        );
        return sendPage(request, reply, q, rows).map((d) => presentDelivery(d, contract.timeZone));
      },
    );

    app.get(
      '/webhook_deliveries/:delivery_id',
      {
        config: { scope: READ },
        schema: { tags, summary: 'Get a webhook delivery', params: deliveryParams, response: { 200: webhookDelivery, ...commonErrorResponses, 404: problemSchema } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentDelivery(deliveries.get(contract.contractId, request.params.delivery_id), contract.timeZone);
      },
    );

    app.post(
      '/webhook_deliveries/:delivery_id/replay',
      {
        config: { scope: WRITE },
        schema: {
          tags,
          summary: 'Send a dead (or delivered) delivery again, with a fresh retry schedule and the same webhook-id',
          params: deliveryParams,
          response: { 200: webhookDelivery, ...commonErrorResponses, 404: problemSchema, 409: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentDelivery(deliveries.replay(contract.contractId, request.params.delivery_id), contract.timeZone);
      },
    );
  };
}

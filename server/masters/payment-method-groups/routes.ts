import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { PaymentMethodGroupRepo } from './repo.js';
import {
  createPaymentMethodGroupBody,
  listPaymentMethodGroupsQuery,
  paymentMethodGroup,
  paymentMethodGroupParams,
  presentPaymentMethodGroup,
  updatePaymentMethodGroupBody,
} from './schema.js';

/** Payment method groups (supporting; their changes become the 6.2 notice). Sales settings: scope pos.transactions. */
export default function paymentMethodGroupsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const groups = new PaymentMethodGroupRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['payment methods'];

  return async (app) => {
    app.post(
      '/payment_method_groups',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: 'Register a payment method group',
          body: createPaymentMethodGroupBody,
          response: { 200: paymentMethodGroup, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentPaymentMethodGroup(groups.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/payment_method_groups',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'List payment method groups',
          querystring: listPaymentMethodGroupsQuery,
          response: { 200: z.array(paymentMethodGroup), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = groups.list(contract.contractId, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentPaymentMethodGroup(r, contract.timeZone));
      },
    );

    app.get(
      '/payment_method_groups/:payment_method_group_id',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'Get a payment method group',
          params: paymentMethodGroupParams,
          response: { 200: paymentMethodGroup, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentPaymentMethodGroup(groups.get(contract.contractId, request.params.payment_method_group_id), contract.timeZone);
      },
    );

    app.patch(
      '/payment_method_groups/:payment_method_group_id',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: 'Update a payment method group (only the keys sent change)',
          params: paymentMethodGroupParams,
          body: updatePaymentMethodGroupBody,
          response: { 200: paymentMethodGroup, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const row = groups.update(contract.contractId, request.params.payment_method_group_id, request.body);
        return presentPaymentMethodGroup(row, contract.timeZone);
      },
    );

    app.delete(
      '/payment_method_groups/:payment_method_group_id',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: 'Delete a payment method group (400 while a payment method is in it)',
          params: paymentMethodGroupParams,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        groups.delete(authOf(request).contract.contractId, request.params.payment_method_group_id);
        return reply.code(204).send(null);
      },
    );
  };
}

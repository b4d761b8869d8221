import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { PaymentMethodRepo } from './repo.js';
import {
  createPaymentMethodBody,
  listPaymentMethodsQuery,
  paymentMethod,
  paymentMethodParams,
  presentPaymentMethod,
  updatePaymentMethodBody,
} from './schema.js';

/**
 * Payment methods of other payments (spec 2.13 depositOthers): supporting, open to every plan.
 * They are sales settings, so the scope is pos.transactions.
 */
export default function paymentMethodsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const methods = new PaymentMethodRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['payment methods'];

  return async (app) => {
    for (const [path, flag, summary] of [
      ['/payment_methods', '0', 'Register a payment method'],
      [
        '/payment_methods/individual_application',
        '1',
        'Register a payment method by the individual-application registration operation (individualApplicationFlag 1: ' +
          'its other-payment lines honour denominationCode, denominationName and cardCompanyName)',
      ],
    ] as const) {
      app.post(
        path,
        {
          config: { scope: 'pos.transactions:write' },
          schema: { tags, summary, body: createPaymentMethodBody, response: { 200: paymentMethod, ...commonErrorResponses } },
        },
        async (request) => {
          const { contract } = authOf(request);
          return presentPaymentMethod(methods.create(contract.contractId, request.body, flag), contract.timeZone);
        },
      );
    }

    app.get(
      '/payment_methods',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'List payment methods',
          querystring: listPaymentMethodsQuery,
          response: { 200: z.array(paymentMethod), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = methods.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentPaymentMethod(r, contract.timeZone));
      },
    );

    app.get(
      '/payment_methods/:payment_method_id',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'Get a payment method',
          params: paymentMethodParams,
          response: { 200: paymentMethod, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentPaymentMethod(methods.get(contract.contractId, request.params.payment_method_id), contract.timeZone);
      },
    );

    app.patch(
      '/payment_methods/:payment_method_id',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: 'Update a payment method (only the keys sent change; individualApplicationFlag never changes)',
          params: paymentMethodParams,
          body: updatePaymentMethodBody,
          response: { 200: paymentMethod, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentPaymentMethod(methods.update(contract.contractId, request.params.payment_method_id, request.body), contract.timeZone);
      },
    );
  };
}

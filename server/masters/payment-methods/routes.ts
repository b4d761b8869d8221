import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { registerMasterRoutes } from '../../platform/http/master-routes.js';
import { PaymentMethodRepo } from './repo.js';
import { createPaymentMethodBody, listPaymentMethodsQuery, paymentMethod, presentPaymentMethod, updatePaymentMethodBody } from './schema.js';

/**
 * Payment methods of other payments (spec 2.13 depositOthers): supporting, open to every plan.
 * They are sales settings, so the scope is pos.transactions.
 */
export default function paymentMethodsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const methods = new PaymentMethodRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['payment methods'];

  return async (app) => {
    const route = apiRoutes(app, tags);
    // Two ways to register, which differ only in the individual-application flag they set.
    for (const [path, flag, summary] of [
      ['/payment_methods', '0', 'Register a payment method'],
      [
        '/payment_methods/individual_application',
        '1',
        'Register a payment method by the individual-application registration operation (individualApplicationFlag 1: ' +
          'its other-payment lines honour denominationCode, denominationName and cardCompanyName)',
      ],
    ] as const) {
      route.post(path, 'pos.transactions:write', { summary, body: createPaymentMethodBody, response: answers.one(paymentMethod) }, ({ contract, body }) =>
        presentPaymentMethod(methods.create(contract.contractId, body, flag), contract.timeZone),
      );
    }

    registerMasterRoutes(app, 'payment_method', methods, {
      tags,
      scope: 'pos.transactions',
      record: paymentMethod,
      present: presentPaymentMethod,
      list: listPaymentMethodsQuery,
      update: updatePaymentMethodBody,
      summaries: { update: 'Update a payment method (only the keys sent change; individualApplicationFlag never changes)' },
    });
  };
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { PaymentMethodGroupRepo } from './repo.js';
import { createPaymentMethodGroupBody, listPaymentMethodGroupsQuery, paymentMethodGroup, presentPaymentMethodGroup, updatePaymentMethodGroupBody } from './schema.js';

/** Payment method groups (supporting; their changes become the 6.2 notice). Sales settings: scope pos.transactions. */
export default function paymentMethodGroupsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return masterRoutes('payment_method_group', new PaymentMethodGroupRepo(deps.db, deps.writer, deps.ids, deps.clock), {
    tags: ['payment methods'],
    scope: 'pos.transactions',
    record: paymentMethodGroup,
    present: presentPaymentMethodGroup,
    create: createPaymentMethodGroupBody,
    list: listPaymentMethodGroupsQuery,
    update: updatePaymentMethodGroupBody,
    delete: true,
    summaries: { delete: 'Delete a payment method group (400 while a payment method is in it)' },
  });
}

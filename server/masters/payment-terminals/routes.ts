import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { assertCatCctLinkage } from './linkage.js';
import { PaymentTerminalRepo } from './repo.js';
import { createPaymentTerminalBody, listPaymentTerminalsQuery, paymentTerminal, presentPaymentTerminal, updatePaymentTerminalBody } from './schema.js';

/**
 * Payment terminals (CAT/CCT): supporting data for 4.16's creditTerminalId. Writes need the
 * contract's CAT/CCT linkage (403 otherwise); reads stay open so devices registered before a
 * linkage was cancelled can still be looked up.
 */
export default function paymentTerminalsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return masterRoutes('payment_terminal', new PaymentTerminalRepo(deps.db, deps.writer, deps.ids, deps.clock), {
    tags: ['terminals'],
    scope: 'pos.stores',
    record: paymentTerminal,
    present: presentPaymentTerminal,
    create: createPaymentTerminalBody,
    list: listPaymentTerminalsQuery,
    update: updatePaymentTerminalBody,
    beforeWrite: (auth) => assertCatCctLinkage(auth.contract.settings),
    summaries: {
      create: 'Register a payment terminal (CAT/CCT); needs the CAT/CCT linkage',
      list: 'List payment terminals (CAT/CCT)',
      get: 'Get a payment terminal (CAT/CCT)',
      update: 'Update a payment terminal (only the keys sent change); needs the CAT/CCT linkage',
    },
  });
}

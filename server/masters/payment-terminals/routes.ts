import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { assertCatCctLinkage } from './linkage.js';
import { PaymentTerminalRepo } from './repo.js';
import {
  createPaymentTerminalBody,
  listPaymentTerminalsQuery,
  paymentTerminal,
  paymentTerminalParams,
  presentPaymentTerminal,
  updatePaymentTerminalBody,
} from './schema.js';

/**
 * Payment terminals (CAT/CCT): supporting data for 4.16's creditTerminalId. Writes need the
 * contract's CAT/CCT linkage (403 otherwise); reads stay open so devices registered before a
 * linkage was cancelled can still be looked up.
 */
export default function paymentTerminalsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const devices = new PaymentTerminalRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['terminals'];

  return async (app) => {
    app.post(
      '/payment_terminals',
      {
        config: { scope: 'pos.stores:write' },
        schema: {
          tags,
          summary: 'Register a payment terminal (CAT/CCT); needs the CAT/CCT linkage',
          body: createPaymentTerminalBody,
          response: { 200: paymentTerminal, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        assertCatCctLinkage(contract.settings);
        return presentPaymentTerminal(devices.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/payment_terminals',
      {
        config: { scope: 'pos.stores:read' },
        schema: {
          tags,
          summary: 'List payment terminals (CAT/CCT)',
          querystring: listPaymentTerminalsQuery,
          response: { 200: z.array(paymentTerminal), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = devices.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentPaymentTerminal(r, contract.timeZone));
      },
    );

    app.get(
      '/payment_terminals/:payment_terminal_id',
      {
        config: { scope: 'pos.stores:read' },
        schema: {
          tags,
          summary: 'Get a payment terminal (CAT/CCT)',
          params: paymentTerminalParams,
          response: { 200: paymentTerminal, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentPaymentTerminal(devices.get(contract.contractId, request.params.payment_terminal_id), contract.timeZone);
      },
    );

    app.patch(
      '/payment_terminals/:payment_terminal_id',
      {
        config: { scope: 'pos.stores:write' },
        schema: {
          tags,
          summary: 'Update a payment terminal (only the keys sent change); needs the CAT/CCT linkage',
          params: paymentTerminalParams,
          body: updatePaymentTerminalBody,
          response: { 200: paymentTerminal, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        assertCatCctLinkage(contract.settings);
        return presentPaymentTerminal(devices.update(contract.contractId, request.params.payment_terminal_id, request.body), contract.timeZone);
      },
    );
  };
}

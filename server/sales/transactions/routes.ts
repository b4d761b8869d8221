import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, NotFound, problemSchema } from '../../platform/http/problem.js';
import { disposeTransaction } from './dispose.js';
import { assertCouponsAllowed } from './payments.js';
import { TransactionRegistry } from './register.js';
import {
  presentDetail,
  presentListItem,
  presentRead,
  presentTransaction,
  transaction,
  transactionDetail,
  transactionListItem,
  transactionRead,
} from './present.js';
import { getTransactionQuery, listChildren, listDetailsQuery, listTransactionsQuery, oneChildren } from './query.js';
import { TransactionRelations } from './relations.js';
import { createTransactionBody, disposeBody, registrationHeaders, transactionParams } from './schema.js';

/** Transactions (spec 2.13): registration (supporting), list, get, the lines of one and the return-cancel of 4.7. */
export default function transactionsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const registry = new TransactionRegistry(deps.db, deps.writer, deps.ids, deps.clock);
  const relations = new TransactionRelations(deps);
  const tags = ['transactions'];

  return async (app) => {
    app.post(
      '/transactions',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: 'Register a transaction (header, lines, other payments, coupons; member points)',
          description:
            'Idempotent: a retry with the same store, terminal and terminalTranId, or the same Idempotency-Key header, and the same body ' +
            'answers the transaction the first request made (header Idempotent-Replayed: true); the same key with another body is a 409.',
          headers: registrationHeaders,
          body: createTransactionBody,
          response: { 200: transaction, ...commonErrorResponses, 409: problemSchema },
        },
        // Coupons on a plan without them are a 403 before any 400: checked on the raw body, before validation.
        preValidation: async (request) => {
          assertCouponsAllowed(authOf(request).contract.plan, (request.body as { coupons?: unknown } | null | undefined)?.coupons);
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const { record, replayed } = registry.register(contract, request.body, request.headers['idempotency-key']);
        if (replayed) reply.header('idempotent-replayed', 'true');
        return presentTransaction(record, contract.timeZone);
      },
    );

    app.get(
      '/transactions',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'List transactions (one complete range of at most 31 days is required); with_details and with_deposit_others add child records',
          querystring: listTransactionsQuery,
          response: { 200: z.array(transactionListItem), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const wanted = listChildren(request.query);
        const rows = registry.repo.list(contract.contractId, request.query, request.query, wanted);
        return sendPage(request, reply, request.query, rows).map((t) => presentListItem(t, contract.timeZone, wanted, request.query.fields));
      },
    );

    app.get(
      '/transactions/:transaction_id',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'Get a transaction with its details, other payments and coupons (each unless its with_* is none), and the store, member, customer groups and staff member asked for',
          params: transactionParams,
          querystring: getTransactionQuery,
          response: { 200: transactionRead, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const found = registry.repo.find(contract.contractId, request.params.transaction_id);
        if (!found) throw NotFound.field('transaction_id', `transaction ${request.params.transaction_id} does not exist`);
        const related = relations.of(contract.contractId, contract.timeZone, found, request.query);
        return presentRead(found, contract.timeZone, oneChildren(request.query), related);
      },
    );

    app.get(
      '/transactions/:transaction_id/details',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'List the lines of a transaction, every field',
          params: transactionParams,
          querystring: listDetailsQuery,
          response: { 200: z.array(transactionDetail), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const id = request.params.transaction_id;
        if (!registry.repo.has(contract.contractId, id)) throw NotFound.field('transaction_id', `transaction ${id} does not exist`);
        const rows = registry.repo.detailsPage(contract.contractId, id, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentDetail(id, r, contract.timeZone));
      },
    );

    app.post(
      '/transactions/:transaction_id/dispose',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: 'Return-cancel a transaction (spec 4.7): registers the negated copy and marks the source',
          params: transactionParams,
          body: disposeBody,
          response: { 200: transaction, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentTransaction(disposeTransaction(registry, contract, request.params.transaction_id, request.body), contract.timeZone);
      },
    );
  };
}

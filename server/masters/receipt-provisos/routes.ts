import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { ReceiptProvisoRepo } from './repo.js';
import {
  createReceiptProvisoBody,
  listReceiptProvisosQuery,
  presentReceiptProviso,
  receiptProviso,
  receiptProvisoFields,
  receiptProvisoParams,
  updateReceiptProvisoBody,
} from './schema.js';

/**
 * Receipt provisos (領収書但し書き) at the platform's /receipt_provisoes, keyed by
 * receipt_proviso_code; scope pos.transactions, the five plans (plans.ts). The platform lists,
 * registers, updates and deletes them; it has no single GET, so none is served.
 */
export default function receiptProvisosRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return masterRoutes('receipt_proviso', new ReceiptProvisoRepo(deps.db, deps.writer, deps.ids, deps.clock), {
    path: '/receipt_provisoes',
    params: receiptProvisoParams,
    tags: ['receipt provisos'],
    scope: 'pos.transactions',
    record: receiptProviso,
    present: presentReceiptProviso,
    fields: receiptProvisoFields,
    create: createReceiptProvisoBody,
    list: listReceiptProvisosQuery,
    update: updateReceiptProvisoBody,
    delete: true,
    only: ['create', 'list', 'update', 'delete'],
    summaries: {
      create: 'Register a receipt proviso (領収書但し書き); initialValueFlag 1 makes it the only initial one',
      update: 'Update a receipt proviso (only the keys sent change); initialValueFlag 1 makes it the only initial one',
    },
  });
}

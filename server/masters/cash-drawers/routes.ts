import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { CashDrawerRepo } from './repo.js';
import { cashDrawer, cashDrawerParams, createCashDrawerBody, listCashDrawersQuery, presentCashDrawer, updateCashDrawerBody } from './schema.js';

/** Cash drawers of a store: supporting data for 4.16 (a terminal links a usable drawer of its store). */
export default function cashDrawersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const drawers = new CashDrawerRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['terminals'];

  return async (app) => {
    app.post(
      '/cash_drawers',
      {
        config: { scope: 'pos.stores:write' },
        schema: {
          tags,
          summary: 'Register a cash drawer of a store',
          body: createCashDrawerBody,
          response: { 200: cashDrawer, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentCashDrawer(drawers.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/cash_drawers',
      {
        config: { scope: 'pos.stores:read' },
        schema: {
          tags,
          summary: 'List cash drawers',
          querystring: listCashDrawersQuery,
          response: { 200: z.array(cashDrawer), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = drawers.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentCashDrawer(r, contract.timeZone));
      },
    );

    app.get(
      '/cash_drawers/:cash_drawer_id',
      {
        config: { scope: 'pos.stores:read' },
        schema: {
          tags,
          summary: 'Get a cash drawer',
          params: cashDrawerParams,
          response: { 200: cashDrawer, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentCashDrawer(drawers.get(contract.contractId, request.params.cash_drawer_id), contract.timeZone);
      },
    );

    app.patch(
      '/cash_drawers/:cash_drawer_id',
      {
        config: { scope: 'pos.stores:write' },
        schema: {
          tags,
          summary: 'Update a cash drawer (only the keys sent change)',
          params: cashDrawerParams,
          body: updateCashDrawerBody,
          response: { 200: cashDrawer, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentCashDrawer(drawers.update(contract.contractId, request.params.cash_drawer_id, request.body), contract.timeZone);
      },
    );
  };
}

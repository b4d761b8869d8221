import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { AdjustmentRepo } from './settlement-repo.js';
import { TerminalSettler } from './settler.js';
import { adjustment, adjustmentParams, createAdjustmentBody, listAdjustmentsQuery, presentAdjustment } from './settlement-schema.js';

/** Terminal settlements: the step before the daily closing (3.4: unprocessed → settled). */
export default function adjustmentsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const settler = new TerminalSettler(deps.db, deps.writer, deps.ids, deps.clock);
  const adjustments = new AdjustmentRepo(deps.db);
  const tags = ['daily closing'];

  return async (app) => {
    app.post(
      '/adjustments',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: 'Settle a terminal: its unprocessed transactions become settled, with the drawer count',
          body: createAdjustmentBody,
          response: { 200: adjustment, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentAdjustment(settler.settle(contract, request.body), contract.timeZone);
      },
    );

    app.get(
      '/adjustments',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'List terminal settlements',
          querystring: listAdjustmentsQuery,
          response: { 200: z.array(adjustment), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = adjustments.list(contract.contractId, contract.timeZone, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentAdjustment(r, contract.timeZone));
      },
    );

    app.get(
      '/adjustments/:adjustment_id',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'Get a terminal settlement',
          params: adjustmentParams,
          response: { 200: adjustment, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentAdjustment(adjustments.get(contract.contractId, request.params.adjustment_id), contract.timeZone);
      },
    );
  };
}

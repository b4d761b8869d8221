import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../http/auth.js';
import { sendPage } from '../../http/paging.js';
import { commonErrorResponses, problemSchema } from '../../http/problem.js';
import { DailyCloser } from './closer.js';
import { DailySummaryRepo } from './repo.js';
import {
  closingResult,
  createDailySummaryBody,
  dailySummary,
  dailySummaryParams,
  listDailySummariesQuery,
  presentDailySummary,
  toCashInput,
} from './schema.js';

/** Daily closing (4.15), its release and the stored closings. */
export default function dailySummariesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const closer = new DailyCloser(deps.db, deps.writer, deps.ids, deps.clock);
  const summaries = new DailySummaryRepo(deps.db);
  const tags = ['daily closing'];

  return async (app) => {
    app.post(
      '/daily_summaries',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: 'Close a store for a date (4.15): its settled transactions sold on or before sumDate become closed',
          body: createDailySummaryBody,
          response: { 200: closingResult, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const { storeId, sumDate, cashInfo } = request.body;
        const row = closer.close(contract, { storeId, sumDate, cashInfo: toCashInput(cashInfo), method: 'api' });
        const { sumDate: date, storeId: store, cashDrawerId, terminalIdList } = presentDailySummary(row, contract.timeZone);
        return { sumDate: date, storeId: store, cashDrawerId, terminalIdList };
      },
    );

    app.get(
      '/daily_summaries',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'List daily closings, released ones included',
          querystring: listDailySummariesQuery,
          response: { 200: z.array(dailySummary), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = summaries.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentDailySummary(r, contract.timeZone));
      },
    );

    app.get(
      '/daily_summaries/:store_id/:sum_date',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'Get the closing in force of a store and date, with every cash figure',
          params: dailySummaryParams,
          response: { 200: dailySummary, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const { store_id: storeId, sum_date: sumDate } = request.params;
        return presentDailySummary(summaries.getInForce(contract.contractId, storeId, sumDate), contract.timeZone);
      },
    );

    app.post(
      '/daily_summaries/:store_id/:sum_date/release',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: 'Release a closing (as the admin screen does): its transactions are settled again',
          params: dailySummaryParams,
          response: { 200: dailySummary, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const { store_id: storeId, sum_date: sumDate } = request.params;
        return presentDailySummary(closer.release(contract, storeId, sumDate), contract.timeZone);
      },
    );
  };
}

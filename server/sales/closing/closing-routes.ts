import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { computeClosingReport, type ClosingReport } from '../../domain/closing-report.js';
import { authOf } from '../../platform/http/auth.js';
import { uiClientRowId } from '../../platform/auth/ui-client.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { DailyCloser } from './closer.js';
import { DailySummaryRepo, type DailySummaryRow } from './closing-repo.js';
import {
  closingResult,
  createDailySummaryBody,
  dailySummary,
  dailySummaryParams,
  dailySummaryWithReport,
  listDailySummariesQuery,
  presentDailySummary,
  presentDailySummaryWithReport,
} from './closing-schema.js';
import { toCashInput } from './cash-info-schema.js';

/** Daily closing (4.15), its release and the stored closings. */
export default function dailySummariesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const closer = new DailyCloser(deps.db, deps.writer, deps.ids, deps.clock);
  const summaries = new DailySummaryRepo(deps.db);
  const tags = ['daily closing'];
  /** The stored report; a closing made before migration 0017 has none: computed from the transactions it recorded. */
  const reportOf = (row: DailySummaryRow): ClosingReport =>
    row.report === null ? computeClosingReport(summaries.reportInput(row.contract_id, row.daily_summary_id)) : (JSON.parse(row.report) as ClosingReport);

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
        const { contract, clientId } = authOf(request);
        const { storeId, sumDate, cashInfo } = request.body;
        // The back-office UI (its public client) is the admin screen of 4.15: it may close a store with cash drawer management.
        const method = clientId === uiClientRowId(contract.contractId) ? 'manual' : 'api';
        const row = closer.close(contract, { storeId, sumDate, cashInfo: toCashInput(cashInfo), method });
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
          summary: 'Get the closing in force of a store and date, with every cash figure and the day\'s report',
          params: dailySummaryParams,
          response: { 200: dailySummaryWithReport, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const { store_id: storeId, sum_date: sumDate } = request.params;
        const row = summaries.getInForce(contract.contractId, storeId, sumDate);
        return presentDailySummaryWithReport(row, contract.timeZone, reportOf(row));
      },
    );

    app.post(
      '/daily_summaries/:store_id/:sum_date/release',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: 'Release a closing (as the admin screen does): its transactions are settled again; it stays as history with its report',
          params: dailySummaryParams,
          response: { 200: dailySummaryWithReport, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const { store_id: storeId, sum_date: sumDate } = request.params;
        const row = closer.release(contract, storeId, sumDate);
        return presentDailySummaryWithReport(row, contract.timeZone, reportOf(row));
      },
    );
  };
}

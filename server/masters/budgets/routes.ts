import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { BudgetRepo, type MonthRecord } from './repo.js';
import { budgetMonthParams, dailyBudget, listBudgetsQuery, monthBudget, presentDailyBudget, presentMonthBudget, putBudgetBody } from './schema.js';

/** Daily budgets of a store, kept and removed a month at a time (spec 4.9, §8). */
export default function budgetsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const budgets = new BudgetRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['daily budgets'];
  const monthOf = (p: { store_id: string; year: string; month: string }) => ({ storeId: p.store_id, year: p.year, month: p.month });
  const present = (r: MonthRecord, p: { year: string; month: string }, zone: string) =>
    presentMonthBudget(String(r.store.store_id), p.year, p.month, r.rows, zone);

  return async (app) => {
    app.put(
      '/budget/:store_id/:year/:month',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: "Create or replace a store's daily budget for a month (days not sent are removed)",
          params: budgetMonthParams,
          body: putBudgetBody,
          response: { 200: monthBudget, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const { params } = request;
        return present(budgets.putMonth(contract.contractId, monthOf(params), request.body), params, contract.timeZone);
      },
    );

    app.get(
      '/budget/:store_id/:year/:month',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: "Get a store's daily budget for a month",
          params: budgetMonthParams,
          response: { 200: monthBudget, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const { params } = request;
        return present(budgets.getMonth(contract.contractId, monthOf(params)), params, contract.timeZone);
      },
    );

    app.get(
      '/budget',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'List daily budgets over stores and dates',
          querystring: listBudgetsQuery,
          response: { 200: z.array(dailyBudget), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = budgets.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentDailyBudget(r, contract.timeZone));
      },
    );

    app.delete(
      '/budget/:store_id/:year/:month',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: "Delete a store's daily budget for a month (spec 4.9)",
          params: budgetMonthParams,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        budgets.deleteMonth(contract.contractId, monthOf(request.params));
        return reply.code(204).send(null);
      },
    );
  };
}

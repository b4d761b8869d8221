import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers, sendNoContent } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { BudgetRepo, type MonthRecord } from './repo.js';
import { budgetMonthParams, dailyBudget, listBudgetsQuery, monthBudget, presentDailyBudget, presentMonthBudget, putBudgetBody, type BudgetMonthParams } from './schema.js';

/** Daily budgets of a store, kept and removed a month at a time (spec 4.9, §8). */
export default function budgetsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const budgets = new BudgetRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const monthOf = (p: BudgetMonthParams) => ({ storeId: p.store_id, year: p.year, month: p.month });
  const present = (r: MonthRecord, p: BudgetMonthParams, zone: string) => presentMonthBudget(String(r.store.store_id), p.year, p.month, r.rows, zone);

  return async (app) => {
    const route = apiRoutes(app, ['daily budgets']);
    const month = '/budget/:store_id/:year/:month';

    route.put(
      month,
      'pos.transactions:write',
      {
        summary: "Create or replace a store's daily budget for a month (days not sent are removed)",
        params: budgetMonthParams,
        body: putBudgetBody,
        response: answers.found(monthBudget),
      },
      ({ contract, params, body }) => present(budgets.putMonth(contract.contractId, monthOf(params), body), params, contract.timeZone),
    );

    route.get(
      month,
      'pos.transactions:read',
      { summary: "Get a store's daily budget for a month", params: budgetMonthParams, response: answers.found(monthBudget) },
      ({ contract, params }) => present(budgets.getMonth(contract.contractId, monthOf(params)), params, contract.timeZone),
    );

    route.get(
      '/budget',
      'pos.transactions:read',
      { summary: 'List daily budgets over stores and dates', querystring: listBudgetsQuery, response: answers.list(dailyBudget) },
      ({ contract, query, page }) => page(budgets.list(contract.contractId, query, query), (r) => presentDailyBudget(r, contract.timeZone)),
    );

    route.delete(
      month,
      'pos.transactions:write',
      { summary: "Delete a store's daily budget for a month (spec 4.9)", params: budgetMonthParams, response: answers.noContent() },
      ({ contract, params, reply }) => {
        budgets.deleteMonth(contract.contractId, monthOf(params));
        return sendNoContent(reply);
      },
    );
  };
}

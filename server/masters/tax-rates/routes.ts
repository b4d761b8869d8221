import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { ForbiddenError } from '../../domain/errors.js';
import { formatDateTime } from '../../domain/time.js';
import type { Contract } from '../../platform/contracts/repo.js';
import { answers, sendNoContent } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { problemSchema } from '../../platform/http/problem.js';
import { ConsumptionTaxRateRepo, ReduceTaxRateRepo, type ConsumptionTaxRateRow, type ReduceTaxRateRow } from './repo.js';
import {
  consumptionTaxRate,
  consumptionTaxRateParams,
  consumptionTaxRateFields,
  createConsumptionTaxRateBody,
  createReduceTaxRateBody,
  listConsumptionTaxRatesQuery,
  listReduceTaxRatesQuery,
  reduceTaxRate,
  reduceTaxRateParams,
  reduceTaxRateFields,
  type ConsumptionTaxRate,
  type ReduceTaxRate,
} from './schema.js';

const presentConsumption = (row: ConsumptionTaxRateRow, contract: Contract): ConsumptionTaxRate => ({
  applyStartDate: row.apply_start_date,
  taxRate: row.tax_rate,
  taxRounding: contract.settings.taxRounding,
});

const presentReduce = (row: ReduceTaxRateRow, zone: string): ReduceTaxRate => ({
  reduceTaxId: String(row.reduce_tax_id),
  name: row.name,
  division: row.division,
  rate: row.rate,
  termStart: row.term_start,
  termEnd: row.term_end,
  condition: row.condition_names,
  advancedCondition: row.advanced_condition,
  insDateTime: formatDateTime(row.ins_at, zone),
  updDateTime: formatDateTime(row.upd_at, zone),
});

/**
 * Rates are head office's to plan (DESIGN §1): a store PC takes them with the pull, so a change
 * made there would be overwritten and would reach no other store.
 */
function assertHeadOffice(deps: AppDeps, what: string): void {
  if (deps.config.role !== 'central') {
    throw new ForbiddenError(`${what} are planned at head office: add the change on the central instance and it reaches the stores with the next pull`);
  }
}

/**
 * Tax rates as dated masters (issue 26): the platform's GET /consumption_tax_rates and GET
 * /reduce_tax_rates (scope pos.transactions, every plan), and our head-office writes that add
 * a future change (the platform has none): POST /consumption_tax_rates, POST /reduce_tax_rates.
 */
export default function taxRatesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const consumption = new ConsumptionTaxRateRepo(deps.db, deps.writer, deps.clock);
  const reduced = new ReduceTaxRateRepo(deps.db, deps.writer, deps.clock);
  return async (app) => {
    const route = apiRoutes(app, ['tax rates']);
    route.get(
      '/consumption_tax_rates',
      'pos.transactions:read',
      { summary: 'List the standard consumption tax rate by period; target_date gives the one in force that day', querystring: listConsumptionTaxRatesQuery, response: answers.list(consumptionTaxRateFields.subset) },
      ({ contract, query, page }) =>
        page(consumption.list(contract.contractId, query, query), (row) => consumptionTaxRateFields.select(presentConsumption(row, contract), query.fields)),
    );
    route.post(
      '/consumption_tax_rates',
      'pos.transactions:write',
      {
        summary: 'Add a future change of the standard rate (ours, head office only): in force from midnight Japan time of applyStartDate',
        body: createConsumptionTaxRateBody,
        response: { ...answers.one(consumptionTaxRate), 409: problemSchema },
      },
      ({ contract, body }) => {
        assertHeadOffice(deps, 'consumption tax rates');
        return presentConsumption(consumption.create(contract.contractId, body), contract);
      },
    );
    route.get(
      '/reduce_tax_rates',
      'pos.transactions:read',
      { summary: 'List the fixed reduced-tax-rate settings by period', querystring: listReduceTaxRatesQuery, response: answers.list(reduceTaxRateFields.subset) },
      ({ contract, query, page }) =>
        page(reduced.list(contract.contractId, query, query), (row) => reduceTaxRateFields.select(presentReduce(row, contract.timeZone), query.fields)),
    );
    route.post(
      '/reduce_tax_rates',
      'pos.transactions:write',
      {
        summary: 'Add a future change of the reduced rate (ours, head office only): every fixed setting gets a period from termStart, the open one ends the day before',
        body: createReduceTaxRateBody,
        response: { ...answers.one(z.array(reduceTaxRate)), 409: problemSchema },
      },
      ({ contract, body }) => {
        assertHeadOffice(deps, 'reduced tax rates');
        return reduced.create(contract.contractId, body).map((row) => presentReduce(row, contract.timeZone));
      },
    );
    route.delete(
      '/consumption_tax_rates/:apply_start_date',
      'pos.transactions:write',
      { summary: 'Withdraw a planned change of the standard rate before its day begins (ours, head office only)', params: consumptionTaxRateParams, response: answers.noContent() },
      ({ contract, params, reply }) => {
        assertHeadOffice(deps, 'consumption tax rates');
        consumption.delete(contract.contractId, params.apply_start_date);
        return sendNoContent(reply);
      },
    );
    route.delete(
      '/reduce_tax_rates/:term_start',
      'pos.transactions:write',
      {
        summary: 'Withdraw the latest planned change of the reduced rate before its day begins (ours, head office only): the periods it ended are open again',
        params: reduceTaxRateParams,
        response: answers.noContent(),
      },
      ({ contract, params, reply }) => {
        assertHeadOffice(deps, 'reduced tax rates');
        reduced.withdraw(contract.contractId, params.term_start);
        return sendNoContent(reply);
      },
    );
  };
}

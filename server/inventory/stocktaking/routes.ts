import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { ALL_CATEGORIES_ID, ALL_PRODUCTS, BY_CATEGORY } from '../../domain/stocktaking.js';
import { answers, sendNoContent } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { StocktakingCounts } from './counts.js';
import { StocktakingDetails } from './details.js';
import { StocktakingRepo } from './repo.js';
import {
  categoryFields,
  createStocktakingBody,
  detailFields,
  detailsParams,
  enterCountsBody,
  listCategoriesQuery,
  listDetailsQuery,
  listProductsQuery,
  listStocktakingQuery,
  presentProduct,
  presentStocktaking,
  productFields,
  stocktaking,
  stocktakingFields,
  stocktakingParams,
  stocktakingProduct,
  updateStocktakingBody,
} from './schema.js';

/**
 * Stocktaking (棚卸, issue 26), Retail Business only (server/platform/http/plans.ts). The reads
 * are the platform's inventory API (GET /stocktaking, /{id}/products, /{id}/categories,
 * /{id}/details/{base_date}); the platform publishes no write of a stocktaking (its store app
 * makes them), so the writes a back office needs are ours in its style: POST /stocktaking,
 * GET/PATCH/DELETE /stocktaking/{id}, PATCH /stocktaking/{id}/products (enter counts) and POST
 * /stocktaking/{id}/complete (the counts become the stock).
 */
export default function stocktakingRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const stocktakings = new StocktakingRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const counts = new StocktakingCounts(deps.db, deps.writer, deps.ids, deps.clock, stocktakings);
  const details = new StocktakingDetails(deps.db, stocktakings.targets);

  return async (app) => {
    const route = apiRoutes(app, ['stocktaking']);

    route.post(
      '/stocktaking',
      'pos.stocktaking:write',
      { summary: 'Register a stocktaking of a store (ours: the platform publishes none)', body: createStocktakingBody, response: answers.one(stocktaking) },
      ({ contract, body }) => presentStocktaking(stocktakings.create(contract, body), contract.timeZone),
    );

    route.get(
      '/stocktaking',
      'pos.stocktaking:read',
      { summary: 'List stocktakings', querystring: listStocktakingQuery, response: answers.list(stocktakingFields.subset) },
      ({ contract, query, page }) =>
        page(stocktakings.list(contract.contractId, query, query), (r) => stocktakingFields.select(presentStocktaking(r, contract.timeZone), query.fields)),
    );

    route.get(
      '/stocktaking/:stocktaking_info_id',
      'pos.stocktaking:read',
      { summary: 'Get a stocktaking (ours)', params: stocktakingParams, querystring: stocktakingFields.getQuery, response: answers.found(stocktakingFields.subset) },
      ({ contract, params, query }) => stocktakingFields.select(presentStocktaking(stocktakings.get(contract.contractId, params.stocktaking_info_id), contract.timeZone), query.fields),
    );

    route.patch(
      '/stocktaking/:stocktaking_info_id',
      'pos.stocktaking:write',
      {
        summary: 'Change the date or memo of a stocktaking still counting (ours; 409 once complete)',
        params: stocktakingParams,
        body: updateStocktakingBody,
        response: answers.conflicting(stocktaking),
      },
      ({ contract, params, body }) => presentStocktaking(stocktakings.update(contract.contractId, params.stocktaking_info_id, body), contract.timeZone),
    );

    route.delete(
      '/stocktaking/:stocktaking_info_id',
      'pos.stocktaking:write',
      { summary: 'Delete a stocktaking still counting (ours; 409 once complete)', params: stocktakingParams, response: { ...answers.noContent(), 409: answers.conflicting(stocktaking)[409] } },
      ({ contract, params, reply }) => {
        stocktakings.remove(contract.contractId, params.stocktaking_info_id);
        return sendNoContent(reply);
      },
    );

    route.get(
      '/stocktaking/:stocktaking_info_id/products',
      'pos.stocktaking:read',
      { summary: 'List the target products of a stocktaking with their counts', params: stocktakingParams, querystring: listProductsQuery, response: answers.listOf(productFields.subset) },
      ({ contract, params, query, page }) => {
        const row = stocktakings.get(contract.contractId, params.stocktaking_info_id);
        return page(stocktakings.targets.list(row, query, query), (r) => productFields.select(presentProduct(r, contract.timeZone), query.fields));
      },
    );

    route.patch(
      '/stocktaking/:stocktaking_info_id/products',
      'pos.stocktaking:write',
      {
        summary: "Enter counted quantities (ours): each replaces the product's earlier count; 409 once complete",
        params: stocktakingParams,
        body: enterCountsBody,
        response: { ...answers.conflicting(stocktakingProduct), 200: answers.listOf(stocktakingProduct)[200] },
      },
      ({ contract, params, body }) => counts.enter(contract.contractId, params.stocktaking_info_id, body).map((r) => presentProduct(r, contract.timeZone)),
    );

    route.post(
      '/stocktaking/:stocktaking_info_id/complete',
      'pos.stocktaking:write',
      {
        summary: "Complete a stocktaking (ours): each counted product's stock becomes its count (stock division 08); 409 once complete",
        params: stocktakingParams,
        response: answers.conflicting(stocktaking),
      },
      ({ contract, params, auth }) =>
        presentStocktaking(counts.complete(contract.contractId, params.stocktaking_info_id, { clientId: auth.clientId, staffId: auth.staffId }), contract.timeZone),
    );

    route.get(
      '/stocktaking/:stocktaking_info_id/categories',
      'pos.stocktaking:read',
      { summary: 'List the target categories of a stocktaking ("0": every category)', params: stocktakingParams, querystring: listCategoriesQuery, response: answers.listOf(categoryFields.subset) },
      ({ contract, params, query, page }) => {
        const row = stocktakings.get(contract.contractId, params.stocktaking_info_id);
        const id = String(row.stocktaking_info_id);
        const present = (categoryId: string | number) => categoryFields.select({ stocktakingInfoId: id, categoryId: String(categoryId) }, query.fields);
        if (row.target_division === ALL_PRODUCTS) return page(query.page === 1 ? [ALL_CATEGORIES_ID] : [], present);
        const ids = row.target_division === BY_CATEGORY ? stocktakings.targets.categories(row, query) : stocktakings.targets.productCategories(row, query);
        return page<string | number, ReturnType<typeof present>>(ids, present);
      },
    );

    route.get(
      '/stocktaking/:stocktaking_info_id/details/:base_date',
      'pos.stocktaking:read',
      {
        summary: "The stock of a stocktaking's target products at its store at the end of base_date",
        params: detailsParams,
        querystring: listDetailsQuery,
        response: answers.listOf(detailFields.subset),
      },
      ({ contract, params, query, page }) => {
        const row = stocktakings.get(contract.contractId, params.stocktaking_info_id);
        return page(details.list(row, params.base_date, contract.timeZone, query, query), (d) => detailFields.select(d, query.fields));
      },
    );
  };
}

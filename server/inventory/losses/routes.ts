import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers, sendNoContent } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { LossRepo } from './repo.js';
import { createLossBody, listLossesQuery, loss, lossFields, lossParams, presentLoss, presentLossHead, updateLossBody } from './schema.js';

/**
 * Losses (the platform's /losses, ロス登録): goods a store lost, taken out of its stock (stock
 * division 14); scope pos.losses, Retail Business (server/platform/http/plans.ts). Every write
 * raises `pos:losses` (created, edited, deleted) with the loss's id.
 */
export default function lossesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const losses = new LossRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const answer = (contractId: string, lossId: string | number, zone: string) => {
    const { row, details } = losses.withDetails(contractId, lossId);
    return presentLoss(row, details, zone);
  };

  return async (app) => {
    const route = apiRoutes(app, ['losses']);

    route.post(
      '/losses',
      'pos.losses:write',
      { summary: "Register a loss: each detail's quantity leaves the store's stock (stock division 14)", body: createLossBody, response: answers.one(loss) },
      ({ contract, body }) => answer(contract.contractId, losses.create(contract.contractId, body).loss_id, contract.timeZone),
    );

    route.get(
      '/losses',
      'pos.losses:read',
      { summary: 'List losses (heads, without details); `fields` limits the response to top-level fields', querystring: listLossesQuery, response: answers.list(lossFields.subset) },
      ({ contract, query, page }) =>
        page(losses.list(contract.contractId, query, query), (row) => lossFields.select(presentLossHead(row, contract.timeZone), query.fields)),
    );

    route.get(
      '/losses/:loss_id',
      'pos.losses:read',
      { summary: 'Get a loss with its details', params: lossParams, response: answers.found(loss) },
      ({ contract, params }) => answer(contract.contractId, params.loss_id, contract.timeZone),
    );

    route.patch(
      '/losses/:loss_id',
      'pos.losses:write',
      {
        summary: 'Update a loss: division, memo, identification number, staff, details by lossDetailId or added; a quantity change moves the difference',
        params: lossParams,
        body: updateLossBody,
        response: answers.found(loss),
      },
      ({ contract, params, body }) => answer(contract.contractId, losses.update(contract.contractId, params.loss_id, body).loss_id, contract.timeZone),
    );

    route.delete(
      '/losses/:loss_id',
      'pos.losses:write',
      { summary: "Delete a loss: its quantities come back into the store's stock", params: lossParams, response: answers.noContent() },
      ({ contract, params, reply }) => {
        losses.delete(contract.contractId, params.loss_id);
        return sendNoContent(reply);
      },
    );
  };
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { problemSchema } from '../../platform/http/problem.js';
import { LayawayRepo } from './repo.js';
import { createLayawayBody, layaway, layawayFields, layawayListItem, listLayawaysQuery, presentLayaway, presentLayawayHead, presentLayawayState } from './schema.js';

/**
 * Layaways (the platform's /transactions/layaways, 取置き): POST registers one (transactionHeadDivision
 * 10), GET lists them; scope pos.transactions, the five plans of the pages (plans.ts). The static
 * path wins over /transactions/{transaction_id} in Fastify's router, whatever the order.
 */
export default function layawaysRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const layaways = new LayawayRepo(deps.db, deps.writer, deps.ids, deps.clock);

  return async (app) => {
    const route = apiRoutes(app, ['layaways']);

    route.post(
      '/transactions/layaways',
      'pos.transactions:write',
      {
        summary: "Register a layaway (取置き登録, transactionHeadDivision 10): its goods leave the store's available stock and are laid away (stock division 07)",
        description:
          'Once per store, terminal and terminalTranId: the same request again answers the first layaway (header Idempotent-Replayed: true); ' +
          'the same keys with another body are a 409.',
        body: createLayawayBody,
        response: { ...answers.one(layaway), 409: problemSchema },
      },
      ({ contract, body, reply }) => {
        const { row, details, replayed } = layaways.create(contract, body);
        if (replayed) reply.header('idempotent-replayed', 'true');
        return presentLayaway(row, details, contract.timeZone);
      },
    );

    route.get(
      '/transactions/layaways',
      'pos.transactions:read',
      {
        summary:
          'List layaways (取置き一覧取得; heads, one complete period of at most 31 days required); `fields` limits the heads to top-level fields, `with_layaway=all` adds each one\'s state',
        querystring: listLayawaysQuery,
        response: answers.list(layawayListItem),
      },
      ({ contract, query, page }) =>
        page(layaways.list(contract.contractId, query), (row) => ({
          ...layawayFields.select(presentLayawayHead(row, contract.timeZone), query.fields),
          ...(query.with_layaway === 'all' ? { layaway: presentLayawayState(row) } : {}),
        })),
    );
  };
}

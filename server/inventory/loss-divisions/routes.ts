import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { LossDivisionRepo } from './repo.js';
import { createLossDivisionBody, listLossDivisionsQuery, lossDivision, lossDivisionFields, lossDivisionParams, presentLossDivision, updateLossDivisionBody } from './schema.js';

/** Loss divisions (the platform's /loss_divisions, keyed by division_code), scope pos.losses; Retail Business (plans.ts). */
export default function lossDivisionRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return masterRoutes('loss_division', new LossDivisionRepo(deps.db, deps.writer, deps.clock), {
    tags: ['losses'],
    scope: 'pos.losses',
    params: lossDivisionParams,
    record: lossDivision,
    present: presentLossDivision,
    fields: lossDivisionFields,
    create: createLossDivisionBody,
    list: listLossDivisionsQuery,
    update: updateLossDivisionBody,
    delete: true,
    summaries: {
      get: 'Get a loss division; `fields` limits the response to top-level fields',
      delete: 'Delete a loss division no loss names',
    },
  });
}

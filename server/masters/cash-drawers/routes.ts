import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { CashDrawerRepo } from './repo.js';
import { cashDrawer, createCashDrawerBody, listCashDrawersQuery, presentCashDrawer, updateCashDrawerBody } from './schema.js';

/** Cash drawers of a store: supporting data for 4.16 (a terminal links a usable drawer of its store). */
export default function cashDrawersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return masterRoutes('cash_drawer', new CashDrawerRepo(deps.db, deps.writer, deps.ids, deps.clock), {
    tags: ['terminals'],
    scope: 'pos.stores',
    record: cashDrawer,
    present: presentCashDrawer,
    create: createCashDrawerBody,
    list: listCashDrawersQuery,
    update: updateCashDrawerBody,
    summaries: { create: 'Register a cash drawer of a store' },
  });
}

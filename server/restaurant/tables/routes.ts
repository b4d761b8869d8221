import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { TableRepo } from './repo.js';
import { createTableBody, listTablesQuery, presentTable, table, updateTableBody } from './schema.js';

/** Restaurant tables of a store (supporting endpoints, open to every plan). */
export default function tablesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return masterRoutes('table', new TableRepo(deps.db, deps.writer, deps.ids, deps.clock), {
    path: '/tables',
    noun: ['restaurant table', 'restaurant tables'],
    tags: ['tables'],
    scope: { read: 'waiter.stores:read', write: 'pos.stores:write' },
    record: table,
    present: presentTable,
    create: createTableBody,
    list: listTablesQuery,
    update: updateTableBody,
    delete: true,
    summaries: { delete: 'Delete a table no reservation names and no started table use occupies' },
  });
}

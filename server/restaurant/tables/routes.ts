import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { TableRepo } from './repo.js';
import { createTableBody, listTablesQuery, presentTable, table, tableParams, updateTableBody } from './schema.js';

/** Restaurant tables of a store (supporting endpoints, open to every plan). */
export default function tablesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const tables = new TableRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['tables'];

  return async (app) => {
    app.post(
      '/tables',
      {
        config: { scope: 'pos.stores:write' },
        schema: { tags, summary: 'Register a restaurant table', body: createTableBody, response: { 200: table, ...commonErrorResponses } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentTable(tables.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/tables',
      {
        config: { scope: 'waiter.stores:read' },
        schema: { tags, summary: 'List restaurant tables', querystring: listTablesQuery, response: { 200: z.array(table), ...commonErrorResponses } },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = tables.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentTable(r, contract.timeZone));
      },
    );

    app.get(
      '/tables/:table_id',
      {
        config: { scope: 'waiter.stores:read' },
        schema: { tags, summary: 'Get a restaurant table', params: tableParams, response: { 200: table, ...commonErrorResponses, 404: problemSchema } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentTable(tables.get(contract.contractId, request.params.table_id), contract.timeZone);
      },
    );

    app.patch(
      '/tables/:table_id',
      {
        config: { scope: 'pos.stores:write' },
        schema: {
          tags,
          summary: 'Update a restaurant table (only the keys sent change)',
          params: tableParams,
          body: updateTableBody,
          response: { 200: table, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentTable(tables.update(contract.contractId, request.params.table_id, request.body), contract.timeZone);
      },
    );

    app.delete(
      '/tables/:table_id',
      {
        config: { scope: 'pos.stores:write' },
        schema: {
          tags,
          summary: 'Delete a table no reservation names and no started table use occupies',
          params: tableParams,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        tables.delete(contract.contractId, request.params.table_id);
        return reply.code(204).send(null);
      },
    );
  };
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { TerminalRegistry } from './registry.js';
import { createTerminalBody, listTerminalsQuery, presentTerminal, terminal, terminalParams, updateTerminalBody } from './schema.js';

/** Register terminals: 4.16 POST /terminals and its supporting list, get and update. */
export default function terminalsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const registry = new TerminalRegistry(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['terminals'];

  return async (app) => {
    // Spec 4.16 shows the response as an array: it holds the one terminal registered.
    app.post(
      '/terminals',
      {
        config: { scope: 'pos.stores:write' },
        schema: {
          tags,
          summary: 'Register a terminal (spec 4.16); answers an array holding it',
          body: createTerminalBody,
          response: { 200: z.array(terminal), ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return [presentTerminal(registry.create(contract, request.body), contract.timeZone)];
      },
    );

    app.get(
      '/terminals',
      {
        config: { scope: 'pos.stores:read' },
        schema: {
          tags,
          summary: 'List terminals',
          querystring: listTerminalsQuery,
          response: { 200: z.array(terminal), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = registry.terminals.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentTerminal(r, contract.timeZone));
      },
    );

    app.get(
      '/terminals/:terminal_id',
      {
        config: { scope: 'pos.stores:read' },
        schema: {
          tags,
          summary: 'Get a terminal',
          params: terminalParams,
          response: { 200: terminal, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentTerminal(registry.terminals.get(contract.contractId, request.params.terminal_id), contract.timeZone);
      },
    );

    app.patch(
      '/terminals/:terminal_id',
      {
        config: { scope: 'pos.stores:write' },
        schema: {
          tags,
          summary: 'Update a terminal (only the keys sent change; the rules of 4.16 apply to them)',
          params: terminalParams,
          body: updateTerminalBody,
          response: { 200: terminal, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentTerminal(registry.update(contract, request.params.terminal_id, request.body), contract.timeZone);
      },
    );
  };
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { registerMasterRoutes } from '../../platform/http/master-routes.js';
import { TerminalRegistry } from './registry.js';
import { createTerminalBody, listTerminalsQuery, presentTerminal, terminal, updateTerminalBody, type ListTerminalsQuery } from './schema.js';

/** Register terminals: 4.16 POST /terminals and its supporting list, get and update. */
export default function terminalsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const registry = new TerminalRegistry(deps.db, deps.writer, deps.ids, deps.clock);
  // Reads go to the terminal repo; writes through the registry, which checks 4.16's rules.
  const terminals = {
    list: (contractId: string, query: ListTerminalsQuery) => registry.terminals.list(contractId, query, query),
    get: (contractId: string, terminalId: string) => registry.terminals.get(contractId, terminalId),
  };
  const tags = ['terminals'];

  return async (app) => {
    // Spec 4.16 shows the response as an array: it holds the one terminal registered.
    apiRoutes(app, tags).post(
      '/terminals',
      'pos.stores:write',
      { summary: 'Register a terminal (spec 4.16); answers an array holding it', body: createTerminalBody, response: answers.one(z.array(terminal)) },
      ({ contract, body }) => [presentTerminal(registry.create(contract, body), contract.timeZone)],
    );

    registerMasterRoutes(app, 'terminal', terminals, {
      tags,
      scope: 'pos.stores',
      record: terminal,
      present: presentTerminal,
      list: listTerminalsQuery,
      update: updateTerminalBody,
      run: { update: (auth, terminalId, body) => registry.update(auth.contract, terminalId, body) },
      summaries: { update: 'Update a terminal (only the keys sent change; the rules of 4.16 apply to them)' },
    });
  };
}

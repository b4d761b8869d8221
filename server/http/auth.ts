import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import { ContractRepo, type Contract } from '../resources/contracts/repo.js';
import { AuthRepo } from '../resources/auth/repo.js';
import { assertPlanAllows } from './plans.js';
import { Forbidden, Unauthorized } from './problem.js';
import type { Scope } from './scopes.js';

export interface RequestAuth {
  contract: Contract;
  clientId: string;
  scopes: readonly Scope[];
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
  interface FastifyContextConfig {
    /** The scope a token needs for this route; every API route declares one. */
    scope?: Scope;
  }
}

/** The authenticated contract of a request; routes under the base path always have one. */
export function authOf(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new Unauthorized('a bearer token is required');
  return request.auth;
}

/**
 * Bearer authentication for the API routes of one encapsulated plugin (the base path):
 * 401 for a missing, unknown or expired token or one of another contract; 403 for a
 * missing scope or a plan the route's plan line does not list.
 */
export function registerBearerAuth(app: FastifyInstance, deps: AppDeps): void {
  const tokens = new AuthRepo(deps.db, deps.writer, deps.clock);
  const contracts = new ContractRepo(deps.db, deps.writer, deps.clock);

  app.addHook('onRoute', (route) => {
    if (!route.config?.scope) throw new Error(`route ${route.method} ${route.url} declares no scope`);
  });

  app.addHook('onRequest', async (request) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match) throw new Unauthorized('a bearer token is required (Authorization: Bearer <token>)');
    const grant = tokens.findToken(match[1]!);
    if (!grant) throw new Unauthorized('the access token is not valid');
    if (grant.expiresAt <= deps.clock.now().getTime()) throw new Unauthorized('the access token has expired');
    const contractId = (request.params as { contract_id?: string }).contract_id;
    if (grant.contractId !== contractId) throw new Unauthorized('the access token was issued for another contract');
    const contract = contracts.find(contractId);
    if (!contract) throw new Unauthorized('the access token is not valid');

    const { scope } = request.routeOptions.config;
    if (scope && !grant.scopes.includes(scope)) throw new Forbidden(`[scope] the token lacks the scope ${scope}`);
    assertPlanAllows(contract.plan, request.method, request.routeOptions.url ?? '');
    request.auth = { contract, clientId: grant.clientId, scopes: grant.scopes };
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { ContractRepo, type Contract } from '../contracts/repo.js';
import { AuthRepo, hashSecret, type TokenGrant } from '../auth/repo.js';
import { STAFF_LOGIN_ENTITY, StaffLoginRepo } from '../auth/staff-logins.js';
import { assertPlanAllows } from './plans.js';
import { Forbidden, Unauthorized } from './problem.js';
import { assertRights, type Right } from './rights.js';
import type { Scope } from './scopes.js';

export interface RequestAuth {
  contract: Contract;
  clientId: string;
  scopes: readonly Scope[];
  /** The staff member of a user token (password grant); null for an app token. */
  staffId: string | null;
  /** The staff member's current rights; null for an app token (limited by scopes only). */
  rights: readonly Right[] | null;
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

/** How long a verified token and its contract are served from memory before SQLite is asked again. */
export const AUTH_CACHE_MS = 5000;
const AUTH_CACHE_MAX = 10_000;

interface Verified {
  grant: TokenGrant;
  contract: Contract;
  rights: readonly Right[] | null;
  until: number;
}

/**
 * Bearer authentication for the API routes of one encapsulated plugin (the base path):
 * 401 for a missing, unknown or expired token or one of another contract; 403 for a
 * missing scope, a plan the route's plan line does not list, or (user tokens only) a right
 * the central RIGHTS_TABLE or the route's `config.rights` requires (server/platform/http/rights.ts).
 */
export function registerBearerAuth(app: FastifyInstance, deps: AppDeps): void {
  const tokens = new AuthRepo(deps.db, deps.writer, deps.clock);
  const contracts = new ContractRepo(deps.db, deps.writer, deps.clock);
  const logins = new StaffLoginRepo(deps.db, deps.writer, deps.clock);

  // Two SQLite reads per request were a third of a simple GET's cost. Tokens never change,
  // so the token row and its contract are kept for AUTH_CACHE_MS; a contract or client change
  // made by this process clears the cache at once, one made by another process (the CLI on
  // the same file) is seen within AUTH_CACHE_MS. Expiry, scope and plan are checked on every request.
  // A user token's rights are read from the staff member's login, not frozen in the token, so
  // a rights change applies to tokens already issued: at once from this process (the login
  // change clears the cache), within AUTH_CACHE_MS from the CLI.
  const verified = new Map<string, Verified>();
  deps.writer.onChange((change) => {
    if (change.entity === 'contract' || change.entity === 'api_client' || change.entity === STAFF_LOGIN_ENTITY) verified.clear();
  });
  const verify = (token: string, now: number): Verified | undefined => {
    const key = hashSecret(token);
    const hit = verified.get(key);
    if (hit && hit.until > now) return hit;
    const grant = tokens.findTokenByHash(key);
    const contract = grant && contracts.find(grant.contractId);
    if (!grant || !contract) {
      verified.delete(key);
      return undefined;
    }
    const rights = grant.staffId === null ? null : (logins.find(grant.contractId, grant.staffId)?.rights ?? []);
    if (verified.size >= AUTH_CACHE_MAX) verified.clear();
    const entry = { grant, contract, rights, until: now + AUTH_CACHE_MS };
    verified.set(key, entry);
    return entry;
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.scope) throw new Error(`route ${route.method} ${route.url} declares no scope`);
  });

  app.addHook('onRequest', async (request) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match) throw new Unauthorized('a bearer token is required (Authorization: Bearer <token>)');
    const now = deps.clock.now().getTime();
    const hit = verify(match[1]!, now);
    if (!hit) throw new Unauthorized('the access token is not valid');
    const { grant, contract, rights } = hit;
    if (grant.expiresAt <= now) throw new Unauthorized('the access token has expired');
    const contractId = (request.params as { contract_id?: string }).contract_id;
    if (grant.contractId !== contractId) throw new Unauthorized('the access token was issued for another contract');

    const { scope } = request.routeOptions.config;
    if (scope && !grant.scopes.includes(scope)) throw new Forbidden(`[scope] the token lacks the scope ${scope}`);
    assertPlanAllows(contract.plan, request.method, request.routeOptions.url ?? '');
    assertRights(request, rights);
    request.auth = { contract, clientId: grant.clientId, scopes: grant.scopes, staffId: grant.staffId, rights };
  });
}

import formbody from '@fastify/formbody';
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { formatDate } from '../../domain/time.js';
import { problemSchema, ProblemError } from '../http/problem.js';
import { parseScopes, type Scope } from '../http/scopes.js';
import { ContractRepo, type Contract } from '../contracts/repo.js';
import { verifyPassword } from './password.js';
import { AuthRepo, secretMatches, type ApiClient } from './repo.js';
import { oauthProblem, tokenBody, tokenParams, tokenResponse } from './schema.js';
import { StaffLoginRepo } from './staff-logins.js';
import { DatabaseLoginAttempts } from './login-attempts.js';
import { createLoginThrottle } from './throttle.js';
import { ensureUiClient, UI_CLIENT_ID } from './ui-client.js';

export const TOKEN_TTL_SECONDS = 3600;

/** An RFC 6749 §5.2 error, rendered as problem+json with the OAuth `error` member. */
class OAuthError extends ProblemError {
  constructor(status: 400 | 401, error: string, description: string) {
    super(
      status,
      status === 401 ? 'Unauthorized' : 'Bad Request',
      description,
      status === 401 ? { 'www-authenticate': 'Basic realm="pos-backoffice"' } : {},
      { error, error_description: description },
    );
  }
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  // RFC 6749 §2.3.1 form-encodes id and secret; a malformed %-escape is no credential (401), not a crash.
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

const GRANT_TYPES = ['client_credentials', 'password'];

/**
 * POST /app/{contract_id}/token — the public platform's token endpoint, same shape.
 * client_credentials issues an app token (limited by scopes); password (RFC 6749 §4.3, the
 * staff code as username) issues a user token that also carries the staff member's rights.
 */
export default function tokenRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const auth = new AuthRepo(deps.db, deps.writer, deps.clock);
  const contracts = new ContractRepo(deps.db, deps.writer, deps.clock);
  const logins = new StaffLoginRepo(deps.db, deps.writer, deps.clock);
  // Several central processes on one database count failed logins together, in it, as the rate
  // limits do under the same setting (serve --rate-limit-shared); one process counts in memory.
  const throttle = createLoginThrottle(() => deps.config.loginThrottle, deps.clock, deps.config.rateLimits.shared ? new DatabaseLoginAttempts(deps) : undefined);

  return async (app) => {
    await app.register(formbody);
    app.post(
      '/app/:contract_id/token',
      {
        schema: {
          tags: ['auth'],
          summary: 'Issue an access token: OAuth 2.0 client credentials (app token) or password (user token of a staff member)',
          params: tokenParams,
          body: tokenBody,
          response: { 200: tokenResponse, 400: oauthProblem, 401: oauthProblem, 415: problemSchema, 429: oauthProblem },
        },
      },
      async (request, reply) => {
        const body = request.body ?? {};
        const basic = basicCredentials(request.headers.authorization);
        const id = basic?.id ?? body.client_id;
        const secret = basic?.secret ?? body.client_secret;
        // The back-office UI is a public client (no secret): the password grant only (ui-client.ts).
        const isUiClient = id === UI_CLIENT_ID && !secret;
        if (!id || (!secret && !isUiClient)) throw new OAuthError(401, 'invalid_client', 'client credentials are required (HTTP Basic)');

        let client: ApiClient;
        let contract: Contract;
        if (isUiClient) {
          const found = contracts.find(request.params.contract_id);
          if (!found) throw new OAuthError(401, 'invalid_client', 'client authentication failed');
          if (body.grant_type !== 'password') {
            throw new OAuthError(400, 'unauthorized_client', `[grant_type] the public client ${UI_CLIENT_ID} may use only grant_type=password`);
          }
          contract = found;
          client = ensureUiClient(auth, found.contractId);
        } else {
          const found = auth.findClient(id);
          // One answer for unknown client, wrong secret and another contract's client.
          const secretOk = found ? secretMatches(secret!, found.secretHash) : secretMatches(secret!, '00'.repeat(32));
          const owner = found && contracts.find(found.contractId);
          if (!found || !secretOk || found.contractId !== request.params.contract_id || !owner) {
            throw new OAuthError(401, 'invalid_client', 'client authentication failed');
          }
          client = found;
          contract = owner;
        }

        if (!body.grant_type) throw new OAuthError(400, 'invalid_request', '[grant_type] is required');
        if (!GRANT_TYPES.includes(body.grant_type)) {
          throw new OAuthError(400, 'unsupported_grant_type', `[grant_type] ${body.grant_type} is not supported`);
        }

        // DESIGN §3: any name of the platform's families may be asked for; the token carries those
        // the client holds and we serve (a narrower grant, RFC 6749 §3.3) and says so in `scope`.
        let scopes: Scope[] = client.scopes;
        if (body.scope !== undefined && body.scope.trim() !== '') {
          const requested = parseScopes(body.scope);
          if (requested.foreign.length) {
            throw new OAuthError(400, 'invalid_scope', `[scope] unknown scope ${requested.foreign.join(', ')}`);
          }
          scopes = requested.scopes.filter((s) => client.scopes.includes(s));
        }

        let staffId: string | null = null;
        if (body.grant_type === 'password') {
          if (!body.username) throw new OAuthError(400, 'invalid_request', '[username] is required');
          if (!body.password) throw new OAuthError(400, 'invalid_request', '[password] is required');
          // Failed logins are throttled per username and per client address (429, Retry-After):
          // counted before the password is checked, so parallel guesses cannot pass the limit.
          const attempt = await throttle.attempt(request, body.username);
          const login = logins.findByStaffCode(client.contractId, body.username);
          // Same answer (and the same scrypt work) for an unknown user, a staff member without
          // a password and a wrong password, so usernames cannot be probed.
          if (!(await verifyPassword(body.password, login?.passwordHash ?? null)) || !login) {
            throw new OAuthError(400, 'invalid_grant', 'the username or password is incorrect');
          }
          await attempt.succeeded();
          // A staff member may log in up to and including the last working day.
          const today = formatDate(deps.clock.now().getTime(), contract.timeZone);
          if (login.terminationDate !== null && login.terminationDate < today) {
            throw new OAuthError(400, 'invalid_grant', `the staff member left on ${login.terminationDate}`);
          }
          staffId = login.staffId;
        }

        const token = randomBytes(32).toString('base64url');
        auth.saveToken(token, {
          contractId: client.contractId,
          clientId: client.clientId,
          scopes,
          expiresAt: deps.clock.now().getTime() + TOKEN_TTL_SECONDS * 1000,
          staffId,
        });
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        return { access_token: token, token_type: 'Bearer' as const, expires_in: TOKEN_TTL_SECONDS, scope: scopes.join(' ') };
      },
    );
  };
}

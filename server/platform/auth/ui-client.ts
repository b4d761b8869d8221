import { randomBytes } from 'node:crypto';
import { ALL_SCOPES } from '../http/scopes.js';
import type { ApiClient, AuthRepo } from './repo.js';

/**
 * The back-office UI's public OAuth client (RFC 6749 §2.1): it runs in a browser, so it holds
 * no secret and may use only the password grant; a staff member's password is what
 * authenticates, and the staff member's rights still bind every call.
 */
export const UI_CLIENT_ID = 'backoffice-ui';

/**
 * access_tokens.client_id references api_clients, whose key is global, so each contract gets
 * its own row (`backoffice-ui:<contract>`; a contract id has no colon). Its secret is random and
 * thrown away at once: no one can use the row for client credentials.
 */
export const uiClientRowId = (contractId: string) => `${UI_CLIENT_ID}:${contractId}`;

/**
 * The contract's UI client row, made on its first login. Its token carries every scope we serve:
 * plans gate routes (platform/http/plans.ts) and the staff member's rights gate the rest (platform/http/rights.ts).
 */
export function ensureUiClient(auth: AuthRepo, contractId: string): ApiClient {
  const clientId = uiClientRowId(contractId);
  const found = auth.findClient(clientId);
  if (found) return { ...found, scopes: [...ALL_SCOPES] };
  auth.createClient({ clientId, contractId, secret: randomBytes(32).toString('base64url'), scopes: ALL_SCOPES });
  return auth.findClient(clientId)!;
}

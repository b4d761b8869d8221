import { randomBytes } from 'node:crypto';
import type { Scope } from '../http/scopes.js';
import type { AuthRepo } from './repo.js';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * Registers a new API client for a contract and returns its credentials. The secret is
 * shown once: only its hash is stored.
 */
export function registerClient(auth: AuthRepo, contractId: string, scopes: readonly Scope[]): ClientCredentials {
  const clientId = randomBytes(16).toString('hex');
  const clientSecret = randomBytes(32).toString('base64url');
  auth.createClient({ clientId, contractId, secret: clientSecret, scopes });
  return { clientId, clientSecret };
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import type { Scope } from '../http/scopes.js';

/** Secrets and tokens are stored only as SHA-256 hashes; both are 256-bit random values. */
export const hashSecret = (value: string) => createHash('sha256').update(value).digest('hex');

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface ApiClient {
  clientId: string;
  contractId: string;
  secretHash: string;
  scopes: Scope[];
}

export interface TokenGrant {
  contractId: string;
  clientId: string;
  scopes: Scope[];
  expiresAt: number;
  /** The staff member of a user token (password grant); null for an app token. */
  staffId: string | null;
}

export class AuthRepo {
  private readonly insertClient;
  private readonly clientById;
  private readonly insertToken;
  private readonly tokenByHash;
  private readonly purgeExpired;

  constructor(
    db: Sqlite,
    private readonly writer: Writer,
    private readonly clock: Clock,
  ) {
    this.insertClient = db.prepare(
      'INSERT INTO api_clients (client_id, contract_id, secret_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.clientById = db.prepare('SELECT client_id, contract_id, secret_hash, scopes FROM api_clients WHERE client_id = ?');
    this.insertToken = db.prepare(
      `INSERT INTO access_tokens (token_hash, contract_id, client_id, scopes, expires_at, created_at, staff_id)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.tokenByHash = db.prepare('SELECT contract_id, client_id, scopes, expires_at, staff_id FROM access_tokens WHERE token_hash = ?');
    this.purgeExpired = db.prepare('DELETE FROM access_tokens WHERE expires_at <= ?');
  }

  createClient(client: { clientId: string; contractId: string; secret: string; scopes: readonly Scope[] }): void {
    this.writer.write(() => {
      this.insertClient.run(client.clientId, client.contractId, hashSecret(client.secret), client.scopes.join(' '), this.clock.now().getTime());
      this.writer.changed({ contractId: client.contractId, entity: 'api_client', id: client.clientId, op: 'insert' });
    });
  }

  findClient(clientId: string): ApiClient | undefined {
    const row = this.clientById.get(clientId) as
      | { client_id: string; contract_id: string; secret_hash: string; scopes: string }
      | undefined;
    if (!row) return undefined;
    return { clientId: row.client_id, contractId: row.contract_id, secretHash: row.secret_hash, scopes: splitScopes(row.scopes) };
  }

  /** Stores a token's hash; expired tokens are purged on the way so the table stays small. */
  saveToken(token: string, grant: TokenGrant): void {
    const now = this.clock.now().getTime();
    this.writer.write(() => {
      this.purgeExpired.run(now);
      this.insertToken.run(hashSecret(token), grant.contractId, grant.clientId, grant.scopes.join(' '), grant.expiresAt, now, grant.staffId);
    });
  }

  findToken(token: string): TokenGrant | undefined {
    return this.findTokenByHash(hashSecret(token));
  }

  findTokenByHash(tokenHash: string): TokenGrant | undefined {
    const row = this.tokenByHash.get(tokenHash) as
      | { contract_id: string; client_id: string; scopes: string; expires_at: number; staff_id: number | null }
      | undefined;
    if (!row) return undefined;
    return {
      contractId: row.contract_id,
      clientId: row.client_id,
      scopes: splitScopes(row.scopes),
      expiresAt: row.expires_at,
      staffId: row.staff_id === null ? null : String(row.staff_id),
    };
  }
}

const splitScopes = (text: string) => text.split(' ').filter(Boolean) as Scope[];

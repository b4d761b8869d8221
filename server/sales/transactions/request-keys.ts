import { createHash } from 'node:crypto';
import type { Sqlite } from '../../db/open.js';

/** One key a registration is known by: the terminal's own, or the client's Idempotency-Key. */
export interface RequestKey {
  kind: 'terminal' | 'header';
  key: string;
  /** The field a 409 names. */
  field: string;
}

export interface KnownRequest {
  body_hash: string;
  transaction_head_id: number;
}

/**
 * The keys of a registration request: (store, terminal, terminalTranId) when the terminal sent
 * its transaction id, and the Idempotency-Key header when sent.
 */
export function requestKeys(body: { storeId: string; terminalId?: string; terminalTranId?: string }, idempotencyKey: string | undefined): RequestKey[] {
  const keys: RequestKey[] = [];
  if (body.terminalId !== undefined && body.terminalTranId !== undefined) {
    keys.push({ kind: 'terminal', key: `${Number(body.storeId)}/${Number(body.terminalId)}/${body.terminalTranId}`, field: 'terminalTranId' });
  }
  if (idempotencyKey !== undefined) keys.push({ kind: 'header', key: idempotencyKey, field: 'Idempotency-Key' });
  return keys;
}

/** SHA-256 of the body as JSON with sorted keys, so a resent body matches whatever its key order. */
export function bodyHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The registration keys already used; SQL only. */
export class RequestKeyRepo {
  private readonly byKey;
  private readonly insertKey;

  constructor(db: Sqlite) {
    this.byKey = db.prepare(
      'SELECT body_hash, transaction_head_id FROM transaction_request_keys WHERE contract_id = ? AND key_kind = ? AND request_key = ?',
    );
    this.insertKey = db.prepare(
      `INSERT INTO transaction_request_keys (contract_id, key_kind, request_key, body_hash, transaction_head_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
  }

  find(contractId: string, key: RequestKey): KnownRequest | undefined {
    return this.byKey.get(contractId, key.kind, key.key) as KnownRequest | undefined;
  }

  record(contractId: string, key: RequestKey, hash: string, transactionHeadId: number, now: number): void {
    this.insertKey.run(contractId, key.kind, key.key, hash, transactionHeadId, now);
  }
}

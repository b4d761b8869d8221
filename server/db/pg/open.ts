/**
 * Opening central's PostgreSQL database at start: the URL checked, the pool made, and one round
 * trip to prove the server is there, so `serve` and the CLI fail at once with one line (never a
 * stack trace, never the password) rather than on the first request.
 */
import type pg from 'pg';
import { createPool, describeDatabase, parseDatabaseUrl, POOL_DEFAULTS, type DatabaseTarget, type PoolOptions } from './connect.js';

export class DatabaseUnreachable extends Error {
  constructor(where: string, reason: string) {
    super(`cannot use PostgreSQL at ${where}: ${reason}`);
    this.name = 'DatabaseUnreachable';
  }
}

export interface OpenedPostgres {
  pool: pg.Pool;
  target: DatabaseTarget;
  /** The URL without its password: for the ready line and logs. */
  description: string;
}

/** What went wrong in words a person running `serve` can act on. */
function reasonOf(error: unknown, connectTimeoutMs: number): string {
  const e = error as { code?: string; message?: string };
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is PostgreSQL running and listening there?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host cannot be reached';
    case 'ECONNRESET':
      return 'the server closed the connection';
  }
  const message = String(e.message ?? error).split('\n')[0]!;
  if (/timeout/i.test(message)) return `no answer within ${connectTimeoutMs} ms`;
  // PostgreSQL's own refusals (database missing, authentication, permissions) name no password.
  return message;
}

export async function openPostgres(url: string, options: PoolOptions = {}): Promise<OpenedPostgres> {
  const target = parseDatabaseUrl(url);
  const description = describeDatabase(target);
  const pool = createPool(target, options);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DatabaseUnreachable(description, reasonOf(error, options.connectTimeoutMs ?? POOL_DEFAULTS.connectTimeoutMs));
  }
  return { pool, target, description };
}

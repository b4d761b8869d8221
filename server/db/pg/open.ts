/**
 * Opening central's PostgreSQL database at start: the URL checked, the pool made, and one round
 * trip to prove the server is there, so `serve` and the CLI fail at once with one line (never a
 * stack trace, never the password) rather than on the first request.
 */
import type pg from 'pg';
import { connectFailureReason, createPool, describeDatabase, parseDatabaseUrl, POOL_DEFAULTS, type DatabaseTarget, type PoolOptions } from './connect.js';

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

export async function openPostgres(url: string, options: PoolOptions = {}): Promise<OpenedPostgres> {
  const target = parseDatabaseUrl(url);
  const description = describeDatabase(target);
  const pool = createPool(target, options);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DatabaseUnreachable(description, connectFailureReason(error, options.connectTimeoutMs ?? POOL_DEFAULTS.connectTimeoutMs));
  }
  return { pool, target, description };
}

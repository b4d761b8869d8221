/**
 * The PostgreSQL database of a central instance: `POS_DATABASE_URL` / `--database` checked before
 * anything connects, and the pool that async work (migrations, the CSV export's cursor) uses.
 *
 * A bad URL is one line naming what is wrong and never the password: the URL itself is not echoed,
 * only its parts without the password (`describeDatabase`), as the `serve` ready line shows it.
 */
import pg from 'pg';

export class DatabaseUrlError extends Error {
  constructor(problem: string) {
    super(`database URL: ${problem} (expected postgres://user[:password]@host[:port]/database)`);
    this.name = 'DatabaseUrlError';
  }
}

export interface DatabaseTarget {
  host: string;
  port: number;
  database: string;
  user?: string;
  password?: string;
  /** libpq's sslmode, passed through to pg: disable, prefer, require, verify-ca, verify-full. */
  sslmode?: string;
  /** The URL as pg reads it (percent-encoding kept). */
  connectionString: string;
}

const SCHEMES = new Set(['postgres:', 'postgresql:']);
const SSL_MODES = new Set(['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify']);
const KNOWN_PARAMS = new Set(['sslmode', 'application_name']);

const decode = (part: string, what: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new DatabaseUrlError(`the ${what} has a broken %-escape`);
  }
};

/** Whether a --database / POS_DATABASE_URL value names PostgreSQL at all (else it is not ours). */
export const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//i.test(value.trim());

export function parseDatabaseUrl(value: string): DatabaseTarget {
  const text = value.trim();
  if (text === '') throw new DatabaseUrlError('it is empty');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
  if (!scheme) throw new DatabaseUrlError('it has no scheme');
  if (!SCHEMES.has(`${scheme.toLowerCase()}:`)) throw new DatabaseUrlError(`the scheme "${scheme}" is not postgres or postgresql`);
  if (!isPostgresUrl(text)) throw new DatabaseUrlError('"//" must follow the scheme');
  // Checked before URL parses it: URL's own errors repeat the input, password included.
  const authority = text.slice(text.indexOf('//') + 2).split(/[/?#]/)[0] ?? '';
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const [, hostText, portText] = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(hostPort) ?? [];
  if (!hostText) throw new DatabaseUrlError('it names no host');
  const validPort = (p: string) => /^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535;
  if (portText !== undefined && !validPort(portText)) throw new DatabaseUrlError('the port is not a number from 1 to 65535');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DatabaseUrlError('it is not a valid URL');
  }
  if (!url.hostname) throw new DatabaseUrlError('it names no host');
  const port = url.port === '' ? 5432 : Number(url.port);
  const path = url.pathname.replace(/^\//, '');
  if (path === '') throw new DatabaseUrlError('it names no database (add /<database> after the host)');
  if (path.includes('/')) throw new DatabaseUrlError('the database name has a "/" in it');
  for (const key of url.searchParams.keys()) {
    if (!KNOWN_PARAMS.has(key)) throw new DatabaseUrlError(`the parameter "${key}" is not supported (only ${[...KNOWN_PARAMS].join(', ')})`);
  }
  const sslmode = url.searchParams.get('sslmode') ?? undefined;
  if (sslmode !== undefined && !SSL_MODES.has(sslmode)) throw new DatabaseUrlError(`sslmode "${sslmode}" is not one of ${[...SSL_MODES].join(', ')}`);
  const user = url.username ? decode(url.username, 'user') : undefined;
  const password = url.password ? decode(url.password, 'password') : undefined;
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    database: decode(path, 'database name'),
    ...(user !== undefined ? { user } : {}),
    ...(password !== undefined ? { password } : {}),
    ...(sslmode !== undefined ? { sslmode } : {}),
    connectionString: text,
  };
}

/** The target as logs and the ready line show it: never the password. */
export function describeDatabase(target: DatabaseTarget): string {
  const user = target.user ? `${encodeURIComponent(target.user)}@` : '';
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return `postgres://${user}${host}:${target.port}/${encodeURIComponent(target.database)}`;
}

export interface PoolOptions {
  /** Most connections this process holds. */
  max?: number;
  /** Opening a connection gives up after this long (pg's connectionTimeoutMillis). */
  connectTimeoutMs?: number;
  /** PostgreSQL cancels a statement running longer (statement_timeout); 0 for none. */
  statementTimeoutMs?: number;
  /** A lock waited for longer fails the statement (lock_timeout); 0 for none. */
  lockTimeoutMs?: number;
  /** A session left idle inside a transaction is ended by PostgreSQL, so a stuck caller frees its locks. */
  idleInTransactionTimeoutMs?: number;
  /** How values come back (e.g. numeric as exact strings); pg's defaults otherwise. */
  types?: pg.CustomTypesConfig;
  /** An idle connection's error (the server restarted); the pool drops it and connects anew. */
  onIdleError?: (error: Error) => void;
}

export const POOL_DEFAULTS = {
  max: 10,
  connectTimeoutMs: 5000,
  statementTimeoutMs: 30_000,
  lockTimeoutMs: 10_000,
  idleInTransactionTimeoutMs: 60_000,
} as const;

export function createPool(target: DatabaseTarget, options: PoolOptions = {}): pg.Pool {
  const o = { ...POOL_DEFAULTS, ...options };
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: o.max,
    connectionTimeoutMillis: o.connectTimeoutMs,
    statement_timeout: o.statementTimeoutMs,
    lock_timeout: o.lockTimeoutMs,
    idle_in_transaction_session_timeout: o.idleInTransactionTimeoutMs,
    application_name: 'pos-backoffice',
    keepAlive: true,
    ...(o.types ? { types: o.types } : {}),
  });
  // Without a listener an idle client's error (PostgreSQL restarted) would crash the process.
  pool.on('error', o.onIdleError ?? (() => {}));
  return pool;
}

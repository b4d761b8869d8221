/**
 * The PostgreSQL database of a central instance: `POS_DATABASE_URL` / `--database` checked before
 * anything connects, and the pool that async work (migrations, the CSV export's cursor) uses.
 *
 * A bad URL is one line naming what is wrong and never the password: the URL itself is not echoed,
 * only its parts without the password (`describeDatabase`), as the `serve` ready line shows it.
 *
 * A primary with a standby (issue 24) is one URL listing both, as libpq takes it:
 * `postgres://user@primary:5432,standby:5432/pos?target_session_attrs=read-write`. `pg` reads one
 * host only, so the list is ours: each connection tries the hosts in order (`connectFirstUsable`)
 * and, with `read-write`, passes over a server that is read-only (a standby not yet promoted).
 * `any` (libpq's default) takes the first that answers. libpq's other values (read-only, primary,
 * standby, prefer-standby) are refused: central writes, so only a server it can write to is of use.
 */
import pg from 'pg';

export class DatabaseUrlError extends Error {
  constructor(problem: string) {
    super(`database URL: ${problem} (expected postgres://user[:password]@host[:port]/database)`);
    this.name = 'DatabaseUrlError';
  }
}

export interface DatabaseHost {
  host: string;
  port: number;
}

/** libpq's target_session_attrs, the values central can use. */
export type SessionAttrs = 'any' | 'read-write';

export interface DatabaseTarget {
  /** The first host of the list. */
  host: string;
  port: number;
  /** Every host of the URL, in its order (one for a plain URL). */
  hosts: DatabaseHost[];
  /** `read-write`: a connection to a read-only server (a standby) is passed over for the next host. */
  targetSessionAttrs: SessionAttrs;
  database: string;
  user?: string;
  password?: string;
  /** libpq's sslmode, passed through to pg: disable, prefer, require, verify-ca, verify-full. */
  sslmode?: string;
  /**
   * The URL as pg reads it (percent-encoding kept): the URL itself when it names one host and no
   * target_session_attrs, else the first host's entry of `hostUrls`.
   */
  connectionString: string;
  /** One URL a host, in the list's order, each naming that host alone (no target_session_attrs): what pg connects with. */
  hostUrls: string[];
}

const SCHEMES = new Set(['postgres:', 'postgresql:']);
const SSL_MODES = new Set(['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify']);
const KNOWN_PARAMS = new Set(['sslmode', 'application_name', 'target_session_attrs']);
const SESSION_ATTRS = new Set<string>(['any', 'read-write'] satisfies SessionAttrs[]);

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
  const afterScheme = text.indexOf('//') + 2;
  const authority = text.slice(afterScheme).split(/[/?#]/)[0] ?? '';
  const userInfo = authority.slice(0, authority.lastIndexOf('@') + 1);
  const rest = text.slice(afterScheme + authority.length);
  const validPort = (p: string) => /^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535;
  const hostList = authority.slice(authority.lastIndexOf('@') + 1).split(',');
  for (const hostPort of hostList) {
    const [, hostText, portText] = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(hostPort) ?? [];
    if (!hostText) throw new DatabaseUrlError(hostList.length > 1 ? 'a host of the list is empty' : 'it names no host');
    if (portText !== undefined && !validPort(portText)) throw new DatabaseUrlError('the port is not a number from 1 to 65535');
  }
  // Each host as a URL of its own: pg and URL read one host only.
  const single = (hostPort: string) => `${text.slice(0, afterScheme)}${userInfo}${hostPort}${rest}`;
  const urls: URL[] = [];
  for (const hostPort of hostList) {
    try {
      urls.push(new URL(single(hostPort)));
    } catch {
      throw new DatabaseUrlError('it is not a valid URL');
    }
  }
  const url = urls[0]!;
  if (urls.some((u) => !u.hostname)) throw new DatabaseUrlError('it names no host');
  const hosts = urls.map((u) => ({ host: u.hostname.replace(/^\[(.*)\]$/, '$1'), port: u.port === '' ? 5432 : Number(u.port) }));
  const path = url.pathname.replace(/^\//, '');
  if (path === '') throw new DatabaseUrlError('it names no database (add /<database> after the host)');
  if (path.includes('/')) throw new DatabaseUrlError('the database name has a "/" in it');
  for (const key of url.searchParams.keys()) {
    if (!KNOWN_PARAMS.has(key)) throw new DatabaseUrlError(`the parameter "${key}" is not supported (only ${[...KNOWN_PARAMS].join(', ')})`);
  }
  const sslmode = url.searchParams.get('sslmode') ?? undefined;
  if (sslmode !== undefined && !SSL_MODES.has(sslmode)) throw new DatabaseUrlError(`sslmode "${sslmode}" is not one of ${[...SSL_MODES].join(', ')}`);
  const attrs = url.searchParams.get('target_session_attrs');
  if (attrs !== null && !SESSION_ATTRS.has(attrs)) {
    throw new DatabaseUrlError(`target_session_attrs "${attrs}" is not one of ${[...SESSION_ATTRS].join(', ')} (central writes: read-write picks the primary)`);
  }
  const user = url.username ? decode(url.username, 'user') : undefined;
  const password = url.password ? decode(url.password, 'password') : undefined;
  // pg is given each host's URL without target_session_attrs, which is ours to apply.
  const [pathPart, ...queryParts] = rest.split('?');
  const query = queryParts.join('?').split('&').filter((p) => p !== '' && !/^target_session_attrs(=|$)/.test(p));
  const hostUrls = hostList.map((hostPort) => `${text.slice(0, afterScheme)}${userInfo}${hostPort}${pathPart}${query.length ? `?${query.join('&')}` : ''}`);
  return {
    host: hosts[0]!.host,
    port: hosts[0]!.port,
    hosts,
    targetSessionAttrs: (attrs ?? 'any') as SessionAttrs,
    database: decode(path, 'database name'),
    ...(user !== undefined ? { user } : {}),
    ...(password !== undefined ? { password } : {}),
    ...(sslmode !== undefined ? { sslmode } : {}),
    connectionString: hostList.length === 1 && attrs === null ? text : hostUrls[0]!,
    hostUrls,
  };
}

/** The target as logs and the ready line show it: never the password. */
export function describeDatabase(target: DatabaseTarget): string {
  const user = target.user ? `${encodeURIComponent(target.user)}@` : '';
  const hosts = target.hosts.map(describeHost).join(',');
  const attrs = target.targetSessionAttrs === 'any' ? '' : `?target_session_attrs=${target.targetSessionAttrs}`;
  return `postgres://${user}${hosts}/${encodeURIComponent(target.database)}${attrs}`;
}

const describeHost = ({ host, port }: DatabaseHost) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** What stopped a connection, in words a person running `serve` can act on (never the password). */
export function connectFailureReason(error: unknown, connectTimeoutMs: number): string {
  if (error instanceof NoUsableServer) return error.message;
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

/** No host of the URL could be used: each unreachable, or read-only where read-write is asked for. */
export class NoUsableServer extends Error {
  constructor(
    message: string,
    /** A standby answered: the primary may be being replaced (promote the standby). */
    readonly readOnlySeen: boolean,
  ) {
    super(message);
    this.name = 'NoUsableServer';
  }
}

/**
 * A connection to the first host of the list that answers and, with target_session_attrs
 * read-write, is not read-only (`SHOW transaction_read_only`, as libpq checks it): hosts are tried
 * in the URL's order on each call, as libpq does, so the primary listed first is taken again when
 * it is back. `open` connects to one host's URL (`hostUrls`). A URL of one host and `any` connects
 * as before and fails with pg's own error; otherwise a failure is a NoUsableServer naming each
 * host and why it was passed over.
 */
export async function connectFirstUsable<C extends pg.ClientBase>(
  target: DatabaseTarget,
  connectTimeoutMs: number,
  open: (url: string) => Promise<C>,
): Promise<{ client: C; host: DatabaseHost }> {
  if (target.hostUrls.length === 1 && target.targetSessionAttrs === 'any') return { client: await open(target.hostUrls[0]!), host: target.hosts[0]! };
  const passedOver: string[] = [];
  let readOnlySeen = false;
  for (const [i, url] of target.hostUrls.entries()) {
    const host = target.hosts[i]!;
    let client: C;
    try {
      client = await open(url);
    } catch (error) {
      passedOver.push(`${describeHost(host)} ${connectFailureReason(error, connectTimeoutMs)}`);
      continue;
    }
    if (target.targetSessionAttrs === 'any') return { client, host };
    try {
      const { rows } = await client.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
      if (rows[0]?.transaction_read_only === 'off') return { client, host };
      readOnlySeen = true;
      passedOver.push(`${describeHost(host)} is read-only (a standby)`);
    } catch (error) {
      passedOver.push(`${describeHost(host)} ${connectFailureReason(error, connectTimeoutMs)}`);
    }
    await (client as unknown as pg.Client).end().catch(() => {});
  }
  const wanted = target.targetSessionAttrs === 'read-write' ? 'read-write server' : 'server';
  throw new NoUsableServer(`no ${wanted} among ${target.hosts.length === 1 ? 'the host' : `the ${target.hosts.length} hosts`}: ${passedOver.join('; ')}`, readOnlySeen);
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
  const oneServer = target.hostUrls.length === 1 && target.targetSessionAttrs === 'any';
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: o.max,
    // With a host list the pool's timer would cut the whole search short: each host has its own (hostListClient).
    connectionTimeoutMillis: oneServer ? o.connectTimeoutMs : 0,
    ...(oneServer ? {} : { Client: hostListClient(target, o.connectTimeoutMs) }),
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

/**
 * The pool's client for a host list: before connecting, it finds the host to use with a probe
 * connection (connectFirstUsable), then connects to that host itself. The probe costs one more
 * connection per pool connection: the pool serves migrations at start and a CSV export's cursor,
 * a few connections in all (the requests' statements go through the worker, sync-worker.ts).
 */
function hostListClient(target: DatabaseTarget, connectTimeoutMs: number): typeof pg.Client {
  return class HostListClient extends pg.Client {
    private readonly probeConfig: pg.ClientConfig;

    constructor(config: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
      this.probeConfig = { ...config, connectionTimeoutMillis: connectTimeoutMs };
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
    override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
      const connected = (async () => {
        const { client, host } = await connectFirstUsable(target, connectTimeoutMs, async (url) => {
          const probe = new pg.Client({ ...this.probeConfig, connectionString: url });
          probe.on('error', () => {});
          try {
            await probe.connect();
          } catch (error) {
            probe.end().catch(() => {});
            throw error;
          }
          return probe;
        });
        await client.end().catch(() => {});
        this.host = host.host;
        this.port = host.port;
        await super.connect();
        return this as pg.Client;
      })();
      if (!callback) return connected;
      const answer = callback as (err: Error | null, c?: pg.Client) => void;
      connected.then((client) => answer(null, client), (error: Error) => answer(error));
    }
  };
}

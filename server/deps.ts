import type { FastifyServerOptions } from 'fastify';
import { systemClock, type Clock } from './clock.js';
import { IdAllocator } from './db/ids.js';
import { migrate } from './db/migrate.js';
import { openDatabase, type Sqlite } from './db/open.js';
import { openPostgresHandle } from './db/engine.js';
import { AddressAllowList } from './platform/http/addresses.js';
import { Writer } from './db/write.js';

export type Role = 'store' | 'central';

export interface AppConfig {
  role: Role;
  /** Id allocator node number: central 0, stores 1..999 (DESIGN §4). */
  node: number;
  /**
   * Check every response against its zod schema before sending. Tests turn it on so a
   * presenter that drifts from its schema fails loudly; the server sends the presenters'
   * typed objects with plain JSON.stringify (the check cost 5-7% of a simple GET).
   */
  checkResponses: boolean;
  /**
   * How long a request keeps retrying a write that another process's lock blocks before it
   * answers 503 with Retry-After (platform/http/busy.ts). Tests shorten it.
   */
  busyRetryMs: number;
  /** Failed password logins allowed per window (platform/auth/throttle.ts). Tests shorten the window. */
  loginThrottle: LoginThrottleConfig;
  /** The back-office UI at /ui (platform/http/ui.ts). */
  ui: UiConfig;
  /**
   * The base of the download URLs of CSV exports (`serve --public-url`, POS_PUBLIC_URL), e.g.
   * http://192.168.1.20:8080; unset: where the server listens (jobs/csv-export/downloads.ts).
   */
  publicUrl?: string;
  /** Where webhooks and callbacks may be sent from here (platform/http/receivers.ts). */
  receivers: ReceiverConfig;
  /** Requests a contract's clients and a store node may make (platform/http/rate-limits.ts). */
  rateLimits: RateLimitConfig;
}

/** An address a host name stands for, as dns.lookup answers with `all`. */
export interface ResolvedAddress {
  address: string;
  family: number;
}
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export interface ReceiverConfig {
  /**
   * Head office sends to public addresses only; these CIDRs, addresses and host names
   * (`serve --webhook-allow`, POS_WEBHOOK_ALLOW) open chosen internal receivers. A store PC
   * sends anywhere (its LAN is its own) and does not read it.
   */
  allow: readonly string[];
  /** Resolves a receiver's host name; dns.lookup unless given (a test makes a name resolve to 10.x). */
  resolve?: Resolve;
}

export interface RateLimitConfig {
  /** Reads (GET, HEAD) a contract's API clients may make per window, together; 0: no limit. */
  reads: number;
  /** Writes (POST, PUT, PATCH, DELETE) a contract's API clients may make per window, together; 0: no limit. */
  writes: number;
  /** Requests one store node may make to the sync endpoints per window, counted apart from the API; 0: no limit. */
  syncPerNode: number;
  windowMs: number;
  /**
   * Count in the database instead of this process's memory, for several central processes on
   * one database (`serve --rate-limit-shared`, POS_RATE_LIMIT_SHARED=1). The login throttle's
   * counters follow it (platform/auth/login-attempts.ts).
   */
  shared: boolean;
}

export interface UiConfig {
  /** Serve /ui to the LAN too (`serve --ui-lan`, POS_UI_LAN=1); by default only to this PC. */
  lan: boolean;
  /** The built UI's folder; default dist/ui beside the compiled server (platform/http/ui.ts). */
  dir?: string;
}

export interface LoginThrottleConfig {
  /** Failed logins of one username (in one contract) before its next attempts are refused. */
  perUsername: number;
  /** Failed logins from one client address before its next attempts are refused. */
  perAddress: number;
  /** The window the failures are counted in, and the longest a refusal lasts. */
  windowMs: number;
}

export const DEFAULT_BUSY_RETRY_MS = 5000;
/** The platform's limits at head office (50 reads and 20 writes a second per contract); none on a store PC, whose terminals are its own. */
export const defaultRateLimits = (role: Role): RateLimitConfig =>
  role === 'central' ? { reads: 50, writes: 20, syncPerNode: 50, windowMs: 1000, shared: false } : { reads: 0, writes: 0, syncPerNode: 0, windowMs: 1000, shared: false };
export const DEFAULT_LOGIN_THROTTLE: LoginThrottleConfig = { perUsername: 10, perAddress: 30, windowMs: 15 * 60 * 1000 };

/** What buildApp(deps) receives; tests build their own with a fixed clock. */
export interface AppDeps {
  db: Sqlite;
  writer: Writer;
  ids: IdAllocator;
  clock: Clock;
  config: AppConfig;
  logger: FastifyServerOptions['logger'];
}

export const defaultNode = (role: Role) => (role === 'central' ? 0 : 1);

/** Opens (and migrates) the database file and wires the shared parts around it. */
export function openDeps(options: {
  file: string;
  /**
   * Head office on PostgreSQL: the database's URL, prepared (reached and migrated) by
   * db/engine.ts's preparePostgres; `file` is then not opened.
   */
  postgresUrl?: string;
  role?: Role;
  node?: number;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  checkResponses?: boolean;
  /** The connection's busy timeout: the server's (0, it retries asynchronously) unless given. */
  busyTimeoutMs?: number;
  busyRetryMs?: number;
  loginThrottle?: Partial<LoginThrottleConfig>;
  ui?: Partial<UiConfig>;
  publicUrl?: string;
  /** Receivers head office may send to although they are not public (CIDRs, addresses, host names). */
  webhookAllow?: readonly string[];
  resolve?: Resolve;
  rateLimits?: Partial<RateLimitConfig>;
}): AppDeps {
  const role = options.role ?? 'store';
  const node = options.node ?? defaultNode(role);
  const clock = options.clock ?? systemClock;
  // A bad entry fails here, before anything is opened, not at the first delivery.
  new AddressAllowList(options.webhookAllow ?? []);
  const db = options.postgresUrl ? openPostgresHandle(options.postgresUrl, options.file) : openSqlite(options.file, options.busyTimeoutMs, clock);
  const config: AppConfig = {
    role,
    node,
    checkResponses: options.checkResponses ?? false,
    busyRetryMs: options.busyRetryMs ?? DEFAULT_BUSY_RETRY_MS,
    loginThrottle: { ...DEFAULT_LOGIN_THROTTLE, ...options.loginThrottle },
    ui: { lan: false, ...options.ui },
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    receivers: { allow: options.webhookAllow ?? [], ...(options.resolve ? { resolve: options.resolve } : {}) },
    rateLimits: { ...defaultRateLimits(role), ...options.rateLimits },
  };
  return { db, writer: new Writer(db), ids: new IdAllocator(db, node), clock, config, logger: options.logger ?? false };
}

function openSqlite(file: string, busyTimeoutMs: number | undefined, clock: Clock): Sqlite {
  const db = openDatabase(file, busyTimeoutMs === undefined ? {} : { busyTimeoutMs });
  try {
    migrate(db, undefined, clock.now());
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

import type { FastifyServerOptions } from 'fastify';
import { systemClock, type Clock } from './clock.js';
import { IdAllocator } from './db/ids.js';
import { migrate } from './db/migrate.js';
import { openDatabase, type Sqlite } from './db/open.js';
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
   * answers 503 with Retry-After (http/busy.ts). Tests shorten it.
   */
  busyRetryMs: number;
  /** Failed password logins allowed per window (resources/auth/throttle.ts). Tests shorten the window. */
  loginThrottle: LoginThrottleConfig;
  /** The back-office UI at /ui (http/ui.ts). */
  ui: UiConfig;
  /**
   * The base of the download URLs of CSV exports (`serve --public-url`, POS_PUBLIC_URL), e.g.
   * http://192.168.1.20:8080; unset: where the server listens (jobs/csv-export/downloads.ts).
   */
  publicUrl?: string;
}

export interface UiConfig {
  /** Serve /ui to the LAN too (`serve --ui-lan`, POS_UI_LAN=1); by default only to this PC. */
  lan: boolean;
  /** The built UI's folder; default dist/ui beside the compiled server (http/ui.ts). */
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
}): AppDeps {
  const role = options.role ?? 'store';
  const node = options.node ?? defaultNode(role);
  const clock = options.clock ?? systemClock;
  const db = openDatabase(options.file, options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs });
  try {
    migrate(db, undefined, clock.now());
  } catch (error) {
    db.close();
    throw error;
  }
  const config: AppConfig = {
    role,
    node,
    checkResponses: options.checkResponses ?? false,
    busyRetryMs: options.busyRetryMs ?? DEFAULT_BUSY_RETRY_MS,
    loginThrottle: { ...DEFAULT_LOGIN_THROTTLE, ...options.loginThrottle },
    ui: { lan: false, ...options.ui },
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
  };
  return { db, writer: new Writer(db), ids: new IdAllocator(db, node), clock, config, logger: options.logger ?? false };
}

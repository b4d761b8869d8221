/**
 * What the synchronous PostgreSQL client (sync-client.ts) throws. Two kinds:
 *
 * - `DatabaseUnavailable`: the server could not be reached, went away, or did not answer in time.
 *   The request did not fail because of what it asked; the HTTP layer answers 503 with
 *   Retry-After (like SQLite's DatabaseBusy, platform/http/busy.ts) and the client reconnects by
 *   itself on a later call.
 * - `PgQueryError`: PostgreSQL refused the statement (a constraint, a syntax error, a type). It
 *   carries the SQLSTATE so a repo or the dialect module can turn a unique violation into a
 *   ConflictError as it does with SQLite's SQLITE_CONSTRAINT codes.
 *
 * Both cross the thread boundary as plain objects (`SerializedPgError`) and are rebuilt here, so
 * the worker never has to send an Error instance.
 */

export type UnavailableReason = 'connection' | 'timeout';

export class DatabaseUnavailable extends Error {
  /** Seconds a client should wait before trying again (the Retry-After header). */
  readonly retryAfterSeconds = 1;

  constructor(
    message: string,
    readonly reason: UnavailableReason,
    /**
     * The connection went away after COMMIT was sent: the transaction may or may not have
     * committed, so the work must not simply be run again (a retry relies on idempotency keys).
     * False means nothing of the work was committed.
     */
    readonly commitUnknown = false,
    /** The SQLSTATE when PostgreSQL itself answered (57014 statement timeout, 57P01 shutdown, ...). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'DatabaseUnavailable';
  }
}

export class PgQueryError extends Error {
  constructor(
    message: string,
    /** SQLSTATE, e.g. 23505 unique violation, 25P02 statement in an aborted transaction. */
    readonly code: string | undefined,
    readonly detail?: string,
    readonly constraint?: string,
  ) {
    super(message);
    this.name = 'PgQueryError';
  }
}

export const isDatabaseUnavailable = (error: unknown): error is DatabaseUnavailable => error instanceof DatabaseUnavailable;

export type SerializedPgError =
  | { kind: 'unavailable'; reason: UnavailableReason; message: string; code?: string; /** No connection could be opened. */ connecting?: true }
  | { kind: 'query'; message: string; code?: string; detail?: string; constraint?: string };

/**
 * SQLSTATEs that mean "not now" rather than "not this": the connection classes (08), the
 * server shutting down or starting (57P01-57P03), too many connections (53300), and the
 * statement or lock waits that ran out (57014 statement_timeout, 55P03 lock_not_available).
 * Serialization failures and deadlocks (40001, 40P01) are the caller's to retry and stay
 * query errors.
 */
const TIMEOUT_CODES = new Set(['57014', '55P03']);
const CONNECTION_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Node's socket errors when the server is not there or drops the connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

interface PgLikeError {
  message?: unknown;
  code?: unknown;
  detail?: unknown;
  constraint?: unknown;
}

/** Whether an error from `pg` (or the socket under it) means the connection can no longer be used. */
export function breaksConnection(error: unknown): boolean {
  const code = (error as PgLikeError)?.code;
  if (typeof code === 'string') return SOCKET_CODES.has(code) || CONNECTION_CODES.has(code) || code.startsWith('08');
  // pg's own words for a connection that ended, timed out while connecting, or a client-side query timeout.
  const message = String((error as PgLikeError)?.message ?? '');
  return /Connection terminated|connection timeout|Query read timeout|Client has encountered a connection error|not queryable/i.test(message);
}

/** The worker's view of a failed call, ready to post to the main thread. */
export function serializePgError(error: unknown): SerializedPgError {
  const e = (error ?? {}) as PgLikeError;
  const message = typeof e.message === 'string' ? e.message : String(error);
  const code = typeof e.code === 'string' ? e.code : undefined;
  const withCode = code ? { code } : {};
  // Whatever stopped a connection from opening (refused, timed out, a wrong password, the server
  // still starting), the database cannot be used now: the HTTP layer's 503.
  if ((error as { connecting?: unknown })?.connecting === true) return { kind: 'unavailable', reason: 'connection', message, ...withCode, connecting: true };
  if (code !== undefined && TIMEOUT_CODES.has(code)) return { kind: 'unavailable', reason: 'timeout', message, code };
  if (/Query read timeout/i.test(message)) return { kind: 'unavailable', reason: 'timeout', message, ...withCode };
  if (breaksConnection(error)) return { kind: 'unavailable', reason: 'connection', message, ...withCode };
  return {
    kind: 'query',
    message,
    ...(code ? { code } : {}),
    ...(typeof e.detail === 'string' ? { detail: e.detail } : {}),
    ...(typeof e.constraint === 'string' ? { constraint: e.constraint } : {}),
  };
}

/** 08007 transaction_resolution_unknown: the worker's answer to a commit PostgreSQL warned about (sync-worker.ts committing). */
const RESOLUTION_UNKNOWN = '08007';

export function rebuildPgError(error: SerializedPgError, commitUnknown = false): Error {
  if (error.kind === 'unavailable') {
    return new DatabaseUnavailable(`the database is unavailable: ${error.message}`, error.reason, commitUnknown || error.code === RESOLUTION_UNKNOWN, error.code);
  }
  return new PgQueryError(error.message, error.code, error.detail, error.constraint);
}

/**
 * A synchronous PostgreSQL client, so the repos written for better-sqlite3 (synchronous
 * prepare/run/get/all and db.transaction(fn)) can run on PostgreSQL without becoming async.
 *
 * A worker thread (sync-worker.ts) owns one `pg` connection. `query` posts the statement to it on
 * a MessagePort and blocks this thread with Atomics.wait on a SharedArrayBuffer until the worker
 * has posted the answer, then takes the answer off the port with receiveMessageOnPort — the
 * technique of synckit and make-synchronous, without their generality.
 *
 * What that costs (docs: the PostgreSQL bridge): this thread's event loop stands still during
 * each statement, as it does during a better-sqlite3 statement, but for a network round trip
 * rather than a page read; and the process has one connection, so one transaction at a time.
 *
 * Failures never hang a call: every wait is bounded (`callTimeoutMs`); a worker that does not
 * answer in time is terminated and the call throws DatabaseUnavailable('timeout'); the next
 * call starts a new worker. A connection refused or lost, the server shutting down, and a
 * statement or lock timeout are DatabaseUnavailable too (the HTTP layer's 503 with Retry-After);
 * what PostgreSQL refuses is a PgQueryError with its SQLSTATE.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { parseDatabaseUrl } from './connect.js';
import { DatabaseUnavailable, PgQueryError, rebuildPgError } from './errors.js';
import { withArraysAsText } from './array-text.js';
import { numberPlaceholders, type SqlParams } from './placeholders.js';
import { SIGNAL_WAITING, type PgConnectionOptions, type PgRequest, type PgResponse, type PgResult, type WorkerInput } from './sync-protocol.js';

export type { PgResult } from './sync-protocol.js';

export interface PgSyncClientOptions extends Partial<Omit<PgConnectionOptions, 'connectionString'>> {
  connectionString: string;
  /**
   * The longest this thread waits for one statement's answer, whatever the worker is doing. By
   * default the connect timeout (once a host of the URL's list) and the statement timeout plus a
   * margin, so PostgreSQL's own limits fire first.
   */
  callTimeoutMs?: number;
  /**
   * After the server could not be reached, calls fail at once for this long instead of each
   * trying to connect again: with the event loop blocked during a call, every request of an
   * outage would otherwise stand still for the connect timeout in turn. The HTTP layer's
   * Retry-After is about as long.
   */
  reconnectPauseMs?: number;
}

/**
 * Short, because the whole process waits while a statement runs: a 30 s statement would stop
 * every request for 30 s. A caller with a long report raises them.
 */
const DEFAULTS = { connectTimeoutMs: 3000, statementTimeoutMs: 10_000, lockTimeoutMs: 3000, applicationName: 'pos-backoffice' };
const RECONNECT_PAUSE_MS = 1000;
/** Room for the worker to start (loading `pg`) and for pg's own timer, past PostgreSQL's limits. */
const CALL_TIMEOUT_MARGIN_MS = 5000;

/**
 * The compiled worker. From dist/ it is the file beside this one; run from the TypeScript sources
 * (vitest, tsx) it is the copy `npm run build` put in dist/, since worker_threads load only JS.
 */
export function syncWorkerFile(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return join(dirname(here), 'sync-worker.js');
  return fileURLToPath(new URL('../../../dist/server/db/pg/sync-worker.js', import.meta.url));
}

const statement = (text: string, connection?: number): Omit<Extract<PgRequest, { op: 'query' }>, 'id'> => ({
  op: 'query',
  statements: [{ text, values: [] }],
  ...(connection === undefined ? {} : { connection }),
});

/** How many hosts the URL lists (a primary and its standbys); 1 for a URL the worker will refuse. */
function hostCount(url: string): number {
  try {
    return parseDatabaseUrl(url).hosts.length;
  } catch {
    return 1;
  }
}

/** A statement kept for the next request (PgSyncClient.pending), or one asked for now. */
interface Pending {
  sql: string;
  params?: SqlParams;
  /** control: BEGIN, SAVEPOINT…; write: deferred by deferringWrites; asked: sent now, its answer read. */
  kind: 'control' | 'write' | 'asked';
  /** A deferred write's answer, once sent. */
  result?: PgResult;
}

/** A write deferWrite queued: `answer()` sends it (with what is queued before it) if not sent yet. */
export interface DeferredWrite {
  answer(): PgResult;
}

interface Thread {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
}

export class PgSyncClient {
  private readonly connection: PgConnectionOptions;
  private readonly callTimeoutMs: number;
  private readonly reconnectPauseMs: number;
  /** Until then (Date.now() ms) calls that would connect fail at once; 0 when the server answered last. */
  private unreachableUntil = 0;
  private thread: Thread | null = null;
  private nextId = 1;
  /** Nesting depth of transaction(); 0 outside any. */
  private depth = 0;
  /**
   * Statements not sent yet, in order: the transaction's BEGIN, SAVEPOINTs and RELEASEs (sent
   * with the next statement: they answer nothing anyone reads), and writes deferred by
   * deferringWrites. Only inside a transaction.
   */
  private pending: Pending[] = [];
  /** Depth of deferringWrites(). */
  private deferring = 0;
  /** The worker's connection the outermost transaction began on, and that worker. */
  private transactionConnection: number | undefined;
  private transactionThread: Thread | null = null;
  private closed = false;
  /** Requests sent to the worker (see `requests`). */
  private sent = 0;

  constructor(options: PgSyncClientOptions) {
    this.connection = { ...DEFAULTS, ...options };
    this.callTimeoutMs = options.callTimeoutMs ?? this.connection.connectTimeoutMs * hostCount(options.connectionString) + this.connection.statementTimeoutMs + CALL_TIMEOUT_MARGIN_MS;
    this.reconnectPauseMs = options.reconnectPauseMs ?? RECONNECT_PAUSE_MS;
  }

  /** Runs one statement (`?` or `@name` placeholders, as with better-sqlite3) and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: SqlParams): { rows: Row[]; rowCount: number } {
    return this.batch([{ sql, params }])[0] as { rows: Row[]; rowCount: number };
  }

  /**
   * Runs several statements in one hop to the worker, after the statements deferred so far (see
   * `pending`). They run in order and the first that fails ends the run with its error; outside
   * a transaction the ones before it stay committed, inside one PostgreSQL aborts the transaction
   * as for any failure. Inside a transaction the worker pipelines them: one round trip to
   * PostgreSQL for the lot.
   */
  batch(statements: readonly { sql: string; params?: SqlParams }[]): PgResult[] {
    return this.sendWith(statements.map((statement) => ({ ...statement, kind: 'asked' as const })));
  }

  /**
   * How many requests this client has sent its worker: each is one wait of this thread and, in a
   * transaction, one round trip to PostgreSQL (statements pipelined). For tests and diagnostics.
   */
  get requests(): number {
    return this.sent;
  }

  /** True while a transaction() is running. */
  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** True where deferWrite queues rather than runs: in a transaction, inside deferringWrites. */
  get defersWrites(): boolean {
    return this.depth > 0 && this.deferring > 0;
  }

  /**
   * Runs fn with its writes deferred (`deferWrite`): inside a transaction, a write fn makes is
   * sent with the next statement whose answer is read, or at the latest when fn returns, so a
   * run of writes and the read after them cost one round trip. A failed write therefore throws
   * from a later statement of fn, or when fn returns: use it where fn's caller handles any
   * failure of fn alike (central's set-based push, which rolls fn's savepoint back and applies
   * the records one by one), not around code that catches one statement's error to go on. A
   * nested transaction() inside fn sends the writes before its SAVEPOINT, so what fails before it
   * throws there, not from inside it; a nested deferringWrites leaves its writes to the outer one.
   */
  deferringWrites<T>(fn: () => T): T {
    this.deferring++;
    let result: T;
    try {
      result = fn();
    } catch (error) {
      // Sent all the same, as they would have been; the caller's rollback decides, fn's error is the one it gets.
      if (this.deferring === 1) {
        try {
          this.sendWrites();
        } catch {
          // fn's error is what the caller handles
        }
      }
      throw error;
    } finally {
      this.deferring--;
    }
    // Inside another deferringWrites they wait for the outer one's end.
    if (this.deferring === 0) this.sendWrites();
    return result;
  }

  /**
   * A write whose answer need not be read yet: in a transaction inside deferringWrites, queued
   * (its answer filled in when it is sent, which `answer()` forces); otherwise run now.
   */
  deferWrite(sql: string, params?: SqlParams): DeferredWrite {
    if (!this.defersWrites) {
      const result = this.query(sql, params);
      return { answer: () => result };
    }
    const entry: Pending = { sql, params, kind: 'write' };
    this.pending.push(entry);
    return {
      answer: () => {
        if (!entry.result) this.sendWrites();
        return entry.result!;
      },
    };
  }

  /**
   * Runs fn between BEGIN and COMMIT on the worker's connection, ROLLBACK when it throws; a
   * nested call is a savepoint, released or rolled back to on its own, as better-sqlite3 does.
   * fn must be synchronous: a promise would let the transaction's statements interleave with
   * other work on the one connection.
   *
   * A statement PostgreSQL refuses aborts the whole transaction (SQLite's only fails that
   * statement): to go on after a failure, run the attempt in a nested transaction().
   *
   * BEGIN, SAVEPOINT and RELEASE are deferred (`pending`): each goes with the next statement
   * sent, so they cost no round trip of their own; a transaction or savepoint that sent nothing
   * before it ended sends nothing at all.
   */
  transaction<T>(fn: () => T): T {
    const savepoint = `sync_client_${this.depth}`;
    const opening: Pending = { sql: this.depth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`, kind: 'control' };
    if (this.depth === 0) this.pending = [opening];
    else {
      this.pending.push(opening);
      // Writes deferred before the savepoint fail before it, not inside it.
      if (this.hasDeferredWrites()) this.sendPending();
    }
    this.depth++;
    let result: T;
    try {
      result = fn();
      if (typeof (result as { then?: unknown })?.then === 'function') throw new TypeError('transaction() takes a synchronous function; it returned a promise');
      if (this.depth > 1) {
        this.pending.push({ sql: `RELEASE SAVEPOINT ${savepoint}`, kind: 'control' });
        // fn's deferred writes fail here, inside fn's savepoint, so it is rolled back to below.
        if (this.hasDeferredWrites()) this.sendPending();
      }
    } catch (error) {
      this.depth--;
      this.rollback(savepoint, opening);
      throw error;
    }
    this.depth--;
    if (this.depth > 0) return result;
    if (this.pending[0] === opening) {
      // Nothing was sent since BEGIN: nothing to commit.
      this.endTransaction();
      return result;
    }
    try {
      this.sendWith([{ sql: 'COMMIT', kind: 'asked' }]);
    } catch (error) {
      // Lost, timed out (a synchronous standby's wait outlasts the client's timers: PostgreSQL
      // stops the statement timeout before COMMIT) or not confirmed: the COMMIT may have been done.
      if (error instanceof DatabaseUnavailable) {
        throw new DatabaseUnavailable(`${error.message} (while committing: the transaction may or may not have committed)`, error.reason, true, error.code);
      }
      throw error;
    } finally {
      this.endTransaction();
    }
    return result;
  }

  private rollback(savepoint: string, opening: Pending): void {
    const unsent = this.pending.indexOf(opening);
    if (unsent >= 0) {
      // Its BEGIN or SAVEPOINT was never sent: nothing of it reached PostgreSQL to undo.
      this.pending.length = unsent;
      if (this.depth === 0) this.endTransaction();
      return;
    }
    // Everything still deferred came after the savepoint (or BEGIN) was sent: undone with it.
    this.pending = [];
    try {
      if (this.depth > 0) {
        this.pending.push({ sql: `ROLLBACK TO SAVEPOINT ${savepoint}`, kind: 'control' }, { sql: `RELEASE SAVEPOINT ${savepoint}`, kind: 'control' });
      } else this.call(statement('ROLLBACK', this.transactionConnection));
    } catch (error) {
      // The connection is gone: PostgreSQL rolls back a transaction whose connection ends. Any
      // other failure is a real one and is not hidden behind the error that caused the rollback.
      if (!(error instanceof DatabaseUnavailable)) throw error;
    } finally {
      if (this.depth === 0) this.endTransaction();
    }
  }

  private endTransaction(): void {
    this.pending = [];
    this.transactionConnection = undefined;
    this.transactionThread = null;
  }

  private hasDeferredWrites(): boolean {
    return this.pending.some((entry) => entry.kind === 'write');
  }

  /** Sends the deferred writes (and the control statements among them), if any. */
  private sendWrites(): void {
    if (this.hasDeferredWrites()) this.sendPending();
  }

  private sendPending(): void {
    this.sendWith([]);
  }

  /**
   * Sends the deferred statements, then `asked`, in one request; answers the results of `asked`.
   * A deferred write's result is kept on its entry. The request that carries the transaction's
   * BEGIN learns the connection the transaction is on.
   */
  private sendWith(asked: readonly Pending[]): PgResult[] {
    const deferred = this.pending;
    this.pending = [];
    const all = [...deferred, ...asked];
    if (all.length === 0) return [];
    const begins = all[0]!.sql === 'BEGIN' && this.transactionConnection === undefined;
    const numbered = all.map(({ sql, params }) => {
      const query = numberPlaceholders(sql, params);
      withArraysAsText(query.values);
      return query;
    });
    const inTransaction = this.depth > 0 || asked.some((entry) => entry.sql === 'COMMIT');
    const request = { op: 'query' as const, statements: numbered, ...(inTransaction ? { inTransaction: true } : {}) };
    let response: Extract<PgResponse, { ok: true }>;
    try {
      response = this.call(begins ? request : { ...request, ...(inTransaction ? { connection: this.transactionConnection } : {}) }, begins);
    } catch (error) {
      const failedAt = (error as { failedAt?: number }).failedAt;
      const failed = failedAt === undefined ? undefined : all[failedAt];
      // A deferred write's failure names it (a statement asked for names itself: sqlite-shape.ts).
      if (error instanceof PgQueryError && failed?.kind === 'write') error.message += ` [in: ${failed.sql.replace(/\s+/g, ' ').trim().slice(0, 300)}]`;
      throw error;
    }
    deferred.forEach((entry, k) => {
      entry.result = response.results[k];
    });
    return response.results.slice(deferred.length);
  }

  /** Ends the connection and the worker; later calls throw. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.thread) return;
    try {
      this.send({ id: this.nextId++, op: 'close' }, Math.min(this.callTimeoutMs, this.connection.connectTimeoutMs));
    } catch {
      // A worker that cannot end its connection is terminated below; the socket closes with it.
    }
    this.stopThread();
  }

  private call(request: Omit<Extract<PgRequest, { op: 'query' }>, 'id'>, begins = false): Extract<PgResponse, { ok: true }> {
    if (this.closed) throw new Error('the PostgreSQL client is closed');
    // A worker replaced mid-transaction took the transaction's connection with it (rolled back).
    if (request.connection !== undefined && this.thread !== this.transactionThread) {
      throw new DatabaseUnavailable('the database connection was lost during the transaction, which was rolled back', 'connection');
    }
    if (request.connection === undefined && Date.now() < this.unreachableUntil) {
      throw new DatabaseUnavailable(`the database could not be reached; not trying again for ${this.reconnectPauseMs} ms after a failure`, 'connection');
    }
    let response: PgResponse;
    this.sent++;
    try {
      response = this.send({ ...request, id: this.nextId++ }, this.callTimeoutMs);
    } catch (error) {
      this.unreachableUntil = Date.now() + this.reconnectPauseMs;
      throw error;
    }
    if (begins && response.connection !== undefined) {
      // The transaction is open on that connection from now on, even if a statement after BEGIN failed.
      this.transactionConnection = response.connection;
      this.transactionThread = this.thread;
    }
    if (response.ok) {
      this.unreachableUntil = 0;
      return response;
    }
    // A connection that could not be opened; a lost one is tried again at once by the next call.
    if (response.error.kind === 'unavailable' && response.error.connecting) this.unreachableUntil = Date.now() + this.reconnectPauseMs;
    throw Object.assign(rebuildPgError(response.error), response.failedAt === undefined ? {} : { failedAt: response.failedAt });
  }

  /** Posts one request and sleeps until its answer or the timeout; a worker that did not answer is replaced. */
  private send(request: PgRequest, timeoutMs: number): PgResponse {
    const thread = this.thread ?? (this.thread = this.startThread());
    Atomics.store(thread.flag, 0, SIGNAL_WAITING);
    thread.port.postMessage(request);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || Atomics.wait(thread.flag, 0, SIGNAL_WAITING, left) === 'timed-out') {
        this.stopThread();
        throw new DatabaseUnavailable(`the database did not answer within ${timeoutMs} ms`, 'timeout');
      }
      const received = receiveMessageOnPort(thread.port);
      const response = received?.message as PgResponse | undefined;
      if (response?.id === request.id) return response;
      // Woken with no answer of this call queued (cannot happen while one call runs at a time):
      // wait again for the rest of the time.
      Atomics.store(thread.flag, 0, SIGNAL_WAITING);
    }
  }

  private startThread(): Thread {
    const file = syncWorkerFile();
    if (!existsSync(file)) throw new Error(`the PostgreSQL worker ${file} is missing; run npm run build`);
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const workerData: WorkerInput = { pgSyncClient: { port: port2, signal, options: this.connection } };
    // execArgv: [] — the parent's flags (`-e`, `--input-type`, a test runner's) would stop the
    // worker from starting, and its 'error' event cannot be seen while this thread waits.
    const worker = new Worker(file, { workerData, transferList: [port2], execArgv: [] });
    // The worker must not keep the process alive, nor its exit go unnoticed: the next call starts another.
    worker.unref();
    port1.unref();
    const thread: Thread = { worker, port: port1, flag: new Int32Array(signal) };
    worker.on('error', () => this.forget(thread));
    worker.on('exit', () => this.forget(thread));
    return thread;
  }

  private forget(thread: Thread): void {
    if (this.thread === thread) this.thread = null;
  }

  private stopThread(): void {
    const thread = this.thread;
    this.thread = null;
    if (!thread) return;
    thread.port.close();
    void thread.worker.terminate();
  }
}

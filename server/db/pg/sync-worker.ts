// The worker thread of the synchronous PostgreSQL client (sync-client.ts). It owns one `pg`
// connection, runs each statement the main thread posts, posts the answer and wakes the main
// thread, which sleeps in Atomics.wait meanwhile. One connection, one statement at a time: a
// transaction is a run of statements on it between BEGIN and COMMIT.
//
// It connects on the first statement and again after the connection broke, but never inside a
// transaction: a statement that names the connection its transaction began on fails when that
// connection is gone (PostgreSQL has rolled the transaction back), rather than run outside it.
// A URL listing a primary and its standby (`…@p:5432,s:5432/db?target_session_attrs=read-write`)
// is tried host by host on each connect (connect.ts connectFirstUsable): after the primary died
// and the standby was promoted, the next connect lands on the new primary by itself.
// Runs from the compiled file (dist/server/db/pg/sync-worker.js): worker_threads cannot load TypeScript.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { isMainThread, workerData } from 'node:worker_threads';
import { connectFirstUsable, parseDatabaseUrl, type DatabaseTarget } from './connect.js';
import { breaksConnection, serializePgError } from './errors.js';
import { SIGNAL_ANSWERED, type PgConnectionOptions, type PgRequest, type PgResponse, type PgResult, type WorkerInput } from './sync-protocol.js';
import { sqliteLikeTypes } from './type-parsers.js';
import { hasReturning } from '../dialect/sql-text.js';

/** pg's own timer on a statement, past PostgreSQL's: a server that stops answering mid-statement still ends the call. */
const CLIENT_TIMEOUT_MARGIN_MS = 2000;

const COMMIT = /^\s*COMMIT\s*;?\s*$/i;

/**
 * A write with parameters, answering no rows (INSERT, UPDATE, DELETE without RETURNING), is run
 * as a prepared statement named after its text: its connection parses and analyses it once, not
 * at every run (central's set-based inserts of sales lines name ~70 columns: their parse was a
 * good part of a push's work at PostgreSQL). With no result columns, a later change to its table
 * only makes PostgreSQL analyse it again, never refuse it. At most MAX_PREPARED a connection.
 */
const PREPARED_WRITE = /^\s*(INSERT|UPDATE|DELETE)\b/i;
const MAX_PREPARED = 300;

function preparedName(text: string): string {
  return `w_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
}

/** What a statement's pg result says, as the main thread reads it; of a text holding several statements (pg answers each), the last one's. */
function resultOf(answer: pg.QueryResult | pg.QueryResult[]): PgResult {
  const result = Array.isArray(answer) ? answer.at(-1)! : answer;
  return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
}

/**
 * Statements written to PostgreSQL at once (pg's pipeline mode: each its own Sync), their answers
 * read after: one round trip for the lot instead of one each, the saving that matters on a
 * client whose caller waits for every statement (a central push: ~25 statements, most of them
 * writes whose answers nothing reads before the next). Given a transaction's statements, running
 * them so is the same as one by one: after a failure PostgreSQL refuses the rest (the transaction
 * is aborted; a COMMIT among them rolls back) and the first failure, with its index, is the answer.
 *
 * `commitAt` is the statement that commits (its COMMIT, or the one statement run outside a
 * transaction), which must not be called done when PostgreSQL warned while it ran. With a
 * synchronous standby (synchronous_standby_names) a commit waits for the standby to flush the
 * transaction. statement_timeout does not cover that wait (PostgreSQL stops it before
 * committing): while the standby is away the client's query_timeout ends the call, an unknown
 * outcome (sync-client.ts). When the wait is cancelled (pg_cancel_backend, an operator's Ctrl-C),
 * PostgreSQL ends the commit without an error, with a WARNING only ("canceling wait for
 * synchronous replication … committed locally, but might not have been replicated"): reported as
 * done, a sale would be acknowledged that a promoted standby lacks. Any warning (SQLSTATE class
 * 01, checked by code: the text is translated with lc_messages) while it commits is therefore an
 * unknown outcome too, 08007 transaction_resolution_unknown: the caller gets DatabaseUnavailable
 * with commitUnknown (503), and the store's resend is applied once by the high-water mark.
 * Warnings of the statements before it are theirs.
 */
async function pipelined(
  client: pg.Client,
  statements: readonly { text: string; values: unknown[] }[],
  commitAt = statements.findIndex((statement) => COMMIT.test(statement.text)),
): Promise<PgResult[]> {
  let answered = 0;
  const warnings: string[] = [];
  // Notices arrive in order between the answers: one seen when all before the COMMIT answered is the COMMIT's.
  const onNotice = (notice: { code?: string; message?: string }) => {
    if (answered === commitAt && notice.code?.startsWith('01')) warnings.push(String(notice.message));
  };
  client.on('notice', onNotice);
  try {
    const outcomes = await Promise.all(
      statements.map(
        (statement) =>
          new Promise<{ result: pg.QueryResult } | { error: unknown }>((resolve) => {
            client.query(statement, (error: Error | null, result: pg.QueryResult) => {
              answered++;
              resolve(error ? { error } : { result });
            });
          }),
      ),
    );
    const failedAt = outcomes.findIndex((outcome) => 'error' in outcome);
    if (failedAt >= 0) throw Object.assign(asError((outcomes[failedAt] as { error: unknown }).error), { failedAt });
    if (warnings.length > 0) throw Object.assign(new Error(`the commit was not confirmed: ${warnings.join('; ')}`), { code: '08007', failedAt: commitAt });
    return outcomes.map((outcome) => resultOf((outcome as { result: pg.QueryResult }).result));
  } finally {
    client.off('notice', onNotice);
  }
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

class Connection {
  private client: pg.Client | null = null;
  /** Counts the connections opened; a transaction's statements carry the one it began on. */
  private opened = 0;
  private target: DatabaseTarget | null = null;

  /** The prepared writes' names of the open connection, by text (see PREPARED_WRITE). */
  private prepared = new Map<string, string>();

  constructor(private readonly options: PgConnectionOptions) {}

  /** The statement as pg runs it: a write named (prepared once a connection), anything else as it is. */
  private named(statement: { text: string; values: unknown[] }): { text: string; values: unknown[]; name?: string } {
    if (statement.values.length === 0 || !PREPARED_WRITE.test(statement.text) || hasReturning(statement.text)) return statement;
    let name = this.prepared.get(statement.text);
    if (!name) {
      if (this.prepared.size >= MAX_PREPARED) return statement;
      name = preparedName(statement.text);
      this.prepared.set(statement.text, name);
    }
    return { ...statement, name };
  }

  async run(request: Extract<PgRequest, { op: 'query' }>): Promise<PgResponse> {
    const client = await this.forStatement(request.connection);
    const connection = this.opened;
    const inTransaction = request.inTransaction ?? request.connection !== undefined;
    try {
      const statements = request.statements.map((statement) => this.named(statement));
      // Outside a transaction each statement commits by itself, and one that fails must stop the rest: one by one.
      if (inTransaction && statements.length > 1) return { id: request.id, ok: true, results: await pipelined(client, statements), connection };
      const results: PgResult[] = [];
      for (const [index, statement] of statements.entries()) {
        // A statement outside a transaction commits by itself: the same wait for the standby.
        const commits = !inTransaction || COMMIT.test(statement.text);
        try {
          results.push(commits ? (await pipelined(client, [statement], 0))[0]! : resultOf(await client.query(statement)));
        } catch (error) {
          throw Object.assign(asError(error), { failedAt: index });
        }
      }
      return { id: request.id, ok: true, results, connection };
    } catch (error) {
      if (breaksConnection(error) || /Query read timeout/.test(String((error as Error)?.message))) this.drop(client);
      throw Object.assign(asError(error), { connection });
    }
  }

  private async forStatement(transactionConnection: number | undefined): Promise<pg.Client> {
    if (transactionConnection !== undefined) {
      if (this.client && this.opened === transactionConnection) return this.client;
      throw Object.assign(new Error('the connection was lost during the transaction, which PostgreSQL rolled back'), { code: '08003' });
    }
    return this.client ?? (await this.open());
  }

  private async open(): Promise<pg.Client> {
    try {
      this.target ??= parseDatabaseUrl(this.options.connectionString);
      const { client } = await connectFirstUsable(this.target, this.options.connectTimeoutMs, (url) => this.connectTo(url));
      this.client = client;
      this.opened++;
      this.prepared = new Map();
      return client;
    } catch (error) {
      // Whatever stopped it (refused, timed out, the server starting up, only a standby answering), no usable server was reached.
      throw Object.assign(error instanceof Error ? error : new Error(String(error)), { connecting: true });
    }
  }

  /** A connection to one host's URL. */
  private async connectTo(url: string): Promise<pg.Client> {
    const o = this.options;
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: o.connectTimeoutMs,
      application_name: o.applicationName,
      keepAlive: true,
      // Statements sent before the answers of those ahead of them came back (pipelined() above);
      // one at a time otherwise, as before.
      pipeline: true,
      types: sqliteLikeTypes,
      ...(o.statementTimeoutMs > 0 ? { statement_timeout: o.statementTimeoutMs, query_timeout: o.statementTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS } : {}),
      ...(o.lockTimeoutMs > 0 ? { lock_timeout: o.lockTimeoutMs } : {}),
      // Our statements are unnamed, planned each time anyway; what this changes is PostgreSQL's
      // own cached plans, the foreign-key checks above all. Left generic, a check is planned for
      // good the first times it runs, when its parent table may still be small and never analysed
      // (a new central's first drain): a sale line's check of transactions then read every sale of
      // the contract through another index's contract prefix, ~1 ms a line at 5,000 sales instead
      // of ~25 us. Planned each time, it follows the table as it grows (without statistics, only
      // once the table looks big enough: ~4,000 sales). PostgreSQL 12+. A custom plan per check
      // costs ~20 us itself: central's set-based push (RecordStore.writeMany) gathers the parent
      // table's statistics when it has none and lets its checks reuse one plan each while it
      // writes (the dialect's tableStatistics and reusedCheckPlans; RESET after).
      options: '-c plan_cache_mode=force_custom_plan',
    });
    // A connection that dies while idle (the server stopped) reports here; the next statement opens another.
    client.on('error', () => this.drop(client));
    try {
      await client.connect();
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    return client;
  }

  drop(client: pg.Client): void {
    if (this.client === client) this.client = null;
    client.end().catch(() => {});
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => {});
  }
}

if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.pgSyncClient) {
  const { port, signal, options } = (workerData as WorkerInput).pgSyncClient;
  const flag = new Int32Array(signal);
  const connection = new Connection(options);
  const answer = (response: PgResponse) => {
    port.postMessage(response);
    Atomics.store(flag, 0, SIGNAL_ANSWERED);
    Atomics.notify(flag, 0);
  };
  port.on('message', (request: PgRequest) => {
    const work = request.op === 'close' ? connection.close().then(() => ({ id: request.id, ok: true as const, results: [], connection: 0 })) : connection.run(request);
    work.then(answer, (error: unknown) => {
      const { failedAt, connection: reached } = (error ?? {}) as { failedAt?: number; connection?: number };
      answer({ id: request.id, ok: false, error: serializePgError(error), ...(failedAt === undefined ? {} : { failedAt }), ...(reached === undefined ? {} : { connection: reached }) });
    });
  });
}

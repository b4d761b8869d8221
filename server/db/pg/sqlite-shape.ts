/**
 * The part of better-sqlite3's `Database` our repos use, over the synchronous PostgreSQL client
 * (sync-client.ts), so a repo written for SQLite runs unchanged on PostgreSQL (decisions.md,
 * "A synchronous client instead of async repos"). Only what server/ and sync/ call is here:
 *
 * - `prepare(sql)` → a statement with `run`, `get`, `all`, `pluck(toggle)`, `raw(toggle)`, `source`, `database`;
 *   `prepare` remembers the SQL text only (the client cuts each text once; PostgreSQL plans it per
 *   call), so a repo preparing its statements in its constructor costs nothing.
 * - `transaction(fn)` → a function running fn in one transaction, a nested call a savepoint, as
 *   better-sqlite3; its `.immediate()` / `.deferred()` / `.exclusive()` are the same transaction
 *   (see transaction below).
 * - `exec(sql)` (statements without parameters; BEGIN, COMMIT and the like refused: use
 *   `transaction`), `inTransaction`, `close()`.
 *
 * Not supported, each throwing an Error that names it (see NOT_SUPPORTED): `pragma` (SQLite's
 * settings; the PostgreSQL connection sets its own timeouts), `backup` (`pg_dump` backs up a head
 * office), `iterate` (a long read must not block the process on this client: cursor.ts's
 * `cursorBatches` in a worker, as the CSV export), `function` / `aggregate` / `table` (SQLite
 * user functions; a PostgreSQL function is written in a migration's .pg.sql part),
 * `loadExtension`, `serialize`, `unsafeMode`, `defaultSafeIntegers` and a statement's `expand`,
 * `columns`, `bind`, `safeIntegers`.
 *
 * Values come back as the client reads them (type-parsers.ts): what the SQLite code expects.
 */
import type { PgSyncClient } from './sync-client.js';
import { hasReturning, splitStatements } from '../dialect/sql-text.js';
import { bindArguments } from './sqlite-arguments.js';
import { PgQueryError } from './errors.js';

export interface RunResult {
  changes: number;
  /** Read only after a statement with RETURNING (see ShapeStatement.run). */
  readonly lastInsertRowid: number | bigint;
}

const NOT_SUPPORTED = {
  database: ['pragma', 'backup', 'function', 'aggregate', 'table', 'loadExtension', 'serialize', 'unsafeMode', 'defaultSafeIntegers'],
  statement: ['iterate', 'expand', 'columns', 'bind', 'safeIntegers'],
} as const;

const WHY: Readonly<Record<string, string>> = {
  pragma: 'PRAGMA is SQLite-only; the PostgreSQL connection sets its own timeouts',
  backup: 'back a PostgreSQL head office up with pg_dump',
  iterate: 'a long read must not block the process: read it with cursorBatches (server/db/pg/cursor.ts) in a worker',
  function: 'SQLite user functions do not exist on PostgreSQL: define it in a migration .pg.sql part',
  aggregate: 'SQLite user functions do not exist on PostgreSQL: define it in a migration .pg.sql part',
};

export function notSupported(what: string): Error {
  return new Error(`${what}() is not supported on PostgreSQL (server/db/pg/sqlite-shape.ts)${WHY[what] ? `: ${WHY[what]}` : ''}`);
}

/** BEGIN / COMMIT by hand would leave the client's transaction depth wrong (its savepoints, its connection pinning). */
const TRANSACTION_CONTROL = /^\s*(begin|commit|end|rollback|savepoint|release|start\s+transaction)\b/i;

export class ShapeStatement {
  private plucking = false;
  private rawRows = false;

  constructor(
    private readonly client: PgSyncClient,
    /** The SQL as written, as better-sqlite3's `source`. */
    readonly source: string,
    /** The shape that prepared it, as better-sqlite3's `database` (ContractRepo.list reads it). */
    readonly database: SqliteShape,
  ) {
    for (const name of NOT_SUPPORTED.statement) {
      Object.defineProperty(this, name, { value: () => { throw notSupported(name); }, enumerable: false });
    }
  }

  /** First column only, as better-sqlite3's pluck (turns raw off). */
  pluck(toggle = true): this {
    this.plucking = toggle;
    if (toggle) this.rawRows = false;
    return this;
  }

  /**
   * Rows as arrays of their values in column order (turns pluck off). Columns are read by name,
   * so a select naming one column twice (`a.id, b.id`) gives it once: alias them.
   */
  raw(toggle = true): this {
    this.rawRows = toggle;
    if (toggle) this.plucking = false;
    return this;
  }

  /**
   * `changes` is PostgreSQL's row count: rows inserted, updated (matched, as SQLite counts them) or
   * deleted; 0 for a conflict skipped by ON CONFLICT DO NOTHING. PostgreSQL has no rowid: our ids
   * come from the IdAllocator (server/db/ids.ts) and no repo reads `lastInsertRowid`; it is the
   * first column of the last row a RETURNING gave, and reading it after a statement without
   * RETURNING throws rather than answer a wrong id.
   */
  run(...args: unknown[]): RunResult {
    // Inside deferringWrites the write goes with the next statement sent; reading `changes` sends it now.
    const answer = this.client.defersWrites ? this.client.deferWrite(this.source, bindArguments(args)).answer : ((result) => () => result)(this.query(args));
    const returning = hasReturning(this.source);
    const source = this.source;
    return Object.defineProperties({} as RunResult, {
      changes: { enumerable: true, get: () => answer().rowCount },
      lastInsertRowid: {
        enumerable: returning,
        get(): number | bigint {
          if (!returning) throw new Error(`lastInsertRowid needs RETURNING on PostgreSQL (no rowid): ${source}`);
          const last = answer().rows.at(-1);
          return (last ? Object.values(last)[0] : 0) as number | bigint;
        },
      },
    });
  }

  get(...args: unknown[]): unknown {
    const row = this.query(args).rows[0];
    return row === undefined ? undefined : this.shape(row);
  }

  all(...args: unknown[]): unknown[] {
    return this.query(args).rows.map((row) => this.shape(row));
  }

  /** The statement with its arguments; a refusal names the statement (for the log, never a client's answer). */
  private query(args: unknown[]): { rows: Record<string, unknown>[]; rowCount: number } {
    try {
      return this.client.query(this.source, bindArguments(args));
    } catch (error) {
      // A deferred write's failure sent with this statement already names that write.
      if (error instanceof PgQueryError && !error.message.includes(' [in: ')) error.message += ` [in: ${this.source.replace(/\s+/g, ' ').trim().slice(0, 300)}]`;
      throw error;
    }
  }

  private shape(row: Record<string, unknown>): unknown {
    if (this.plucking) return Object.values(row)[0];
    if (this.rawRows) return Object.values(row);
    return row;
  }
}

/** A function running fn in a transaction, with better-sqlite3's lock-mode variants. */
export interface ShapeTransaction<A extends unknown[], T> {
  (...args: A): T;
  deferred(...args: A): T;
  immediate(...args: A): T;
  exclusive(...args: A): T;
}

export class SqliteShape {
  /**
   * better-sqlite3's `name` is the database file, which the server reads for its data dir (the
   * CSV exports, the backups folder beside it). Head office on PostgreSQL still has a data dir:
   * this is the file path the data dir would hold, never opened.
   */
  readonly name: string;

  constructor(
    private readonly client: PgSyncClient,
    dataDirFile = '',
  ) {
    this.name = dataDirFile;
    for (const name of NOT_SUPPORTED.database) {
      Object.defineProperty(this, name, { value: () => { throw notSupported(name); }, enumerable: false });
    }
  }

  prepare(sql: string): ShapeStatement {
    return new ShapeStatement(this.client, sql, this);
  }

  /** Statements without parameters, several separated by `;` (split as the migrations are, one hop to the worker). */
  exec(sql: string): this {
    const statements = splitStatements(sql);
    const control = statements.find((statement) => TRANSACTION_CONTROL.test(statement));
    if (control) throw new Error(`exec('${control}') is not supported on PostgreSQL (server/db/pg/sqlite-shape.ts): use transaction(fn), which the client tracks`);
    if (this.client.defersWrites) for (const statement of statements) this.client.deferWrite(statement);
    else this.client.batch(statements.map((statement) => ({ sql: statement })));
    return this;
  }

  /**
   * fn with its writes (run, exec) sent with the next statement read or when fn returns, not one
   * round trip each (PgSyncClient.deferringWrites, which says where that is safe).
   */
  deferringWrites<T>(fn: () => T): T {
    return this.client.deferringWrites(fn);
  }

  /**
   * fn inside the client's transaction: BEGIN … COMMIT, ROLLBACK when it throws, a nested call a
   * SAVEPOINT. `immediate` (the Writer's) and `exclusive` are the same as the plain call:
   * SQLite takes the whole file's write lock at BEGIN IMMEDIATE so a write cannot fail half-way
   * on a busy lock; PostgreSQL locks the rows a statement writes, when it writes them, and one
   * client is one connection running one transaction at a time.
   */
  transaction<A extends unknown[], T>(fn: (...args: A) => T): ShapeTransaction<A, T> {
    const run = (...args: A): T => this.client.transaction(() => fn(...args));
    return Object.assign(run, { deferred: run, immediate: run, exclusive: run });
  }

  get inTransaction(): boolean {
    return this.client.inTransaction;
  }

  close(): void {
    this.client.close();
  }
}

/**
 * The SQL that differs between the engines at run time, written once per engine (issue 23: each
 * query is written once; what differs lives in the dialect). A repo builds its statement with the
 * fragments of the dialect it was given; `sqliteDialect` (query-sqlite.ts) answers exactly the
 * fragments the repos have always used, so switching a repo to it changes no SQLite SQL;
 * `postgresDialect` (query-postgres.ts) answers the same rows on PostgreSQL (test/db/query-dialect.test.ts).
 *
 * Fragments take SQL text (a column, an expression, a placeholder `?` or `@name`), never values:
 * the values stay bound parameters.
 */

/** How the elements of a JSON list are compared with the column: the column's own type. */
export type ListElement = 'integer' | 'text';

export interface Dialect {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * `IN (…)` over the elements of a JSON array given as one bound parameter (`JSON.stringify(ids)`),
   * so a list of any length is one placeholder. An empty array matches nothing; a null element
   * matches nothing. 'integer' (an integer column): elements that are integers or strings of
   * decimal digits (the sync ids come as strings) match, anything else matches nothing. 'text' (a
   * text column): only string elements match, as on SQLite (the text '15' is not the number 15).
   */
  inJsonList(element: ListElement, param?: string): string;
  /** A FROM item: one row per element of the JSON array `expr`, its element as `<alias>.value`. */
  jsonEach(expr: string, alias: string): string;
  /**
   * The value at `path` (`$.key`, `$.a.b`, `$[0]`) of the JSON `expr` (a text column or a
   * jsonEach alias's value). `type` is what the JSON holds there: 'text' a JSON string, 'integer' a
   * JSON integer. SQLite answers the JSON's own type whatever `type` says; PostgreSQL answers NULL
   * for a value of another JSON type. Comparisons agree (SQLite never finds a text equal to a
   * number); selecting a path whose JSON type differs from row to row would not.
   */
  jsonField(expr: string, path: string, type: ListElement): string;
  /** A JSON array text of the values, in order (SQL NULL as null): one export row. */
  jsonArray(...exprs: string[]): string;
  /** The larger of two values, NULL when either is NULL (SQLite's scalar max). */
  greatestOf(a: string, b: string): string;
  /**
   * `INSERT … VALUES (…)` that does nothing when the row would break a unique key or the primary
   * key. `values` are SQL expressions, one per column (default: a `?` each).
   */
  insertOrIgnore(table: string, columns: readonly string[], values?: readonly string[]): string;
  /** A query answering one row when the table `name` exists (in the schema the queries use), none otherwise. */
  tableExists(name: string): string;
  /**
   * The column, kept from the planner's index choice: SQLite's `+column` (an index on it would
   * be the wrong one there). PostgreSQL's planner weighs its statistics and has no such hint.
   */
  unindexed(column: string): string;
  /** A text of decimal digits (our ids) as an integer, for ordering and joins: 64 bits on both. */
  integerOf(expr: string): string;
  // inventory
  /**
   * `expr LIKE pattern` with `\` escaping `%`, `_` and itself in the pattern, matching as SQLite's
   * LIKE does: ASCII letters in either case, every other character only itself ('é' is not 'É').
   */
  likeEscaped(expr: string, pattern: string): string;
  // sync
  /**
   * A query answering one row per column of the table `name`, in the table's column order, none
   * when there is no such table: at least `name`, `type` (SQLite's declared type; on PostgreSQL
   * the translated column's type named as SQLite declares it: INTEGER, TEXT, REAL, BLOB, else the
   * type's own name) and `pk` (the column's 1-based place in the primary key, 0 when not in it).
   */
  tableColumns(name: string): string;
  // sales (closings and their reports)
  /**
   * SUM of an integer expression, as an integer on both (a number): PostgreSQL's SUM of a bigint
   * is numeric, which would be read as a string. NULL over no rows, as SUM.
   */
  sumOfIntegers(expr: string): string;
  /**
   * An exact SUM of a TEXT decimal column ('-12.5', NULL counting nothing) as three SQL
   * expressions, no float anywhere: `whole`, an integer part, and `fraction`, a signed fraction
   * part in 10^-scale units, both 64-bit integers that decimalOfParts
   * (server/domain/closing-report.ts) puts together into the sum (SQLite sums the values' integer
   * parts and their fraction parts; PostgreSQL splits the numeric sum: the parts may differ, the
   * sum they make is the same); `finer`, an aggregate too, is above 0 when a value of the group
   * has more than `scale` decimals, whose fraction is cut: the sum is exact only when it is 0.
   * (SQLite counts those values in the text; PostgreSQL reads the scale of the numeric sum,
   * which is its finest value's, at no cost a row.)
   */
  decimalSum(expr: string, scale: number): { whole: string; fraction: string; finer: string };
  /**
   * In a grouped query that also selects MAX(maxOf): the value of `expr` in the row holding that
   * maximum (SQLite's bare column; PostgreSQL takes only aggregates or grouped columns).
   */
  bareOfMax(expr: string, maxOf: string): string;
  /**
   * A join keyword, followed by a table and its ON, that keeps the tables before it as the outer
   * loop on SQLite (its CROSS JOIN, which the planner never reorders); an inner JOIN on
   * PostgreSQL, whose planner picks the order (CROSS JOIN takes no ON there).
   */
  joinInOrder(): string;
  // sync drain (central's set-based push: sync/entities.ts RecordStore.writeMany)
  /**
   * A multi-row `INSERT INTO table (columns) … tail` of `rows` rows (`tail`: an ON CONFLICT
   * clause, or ''), and how its values are bound. 'rows': a `?` per value, row after row (SQLite's
   * `VALUES (…), (…)`; the text depends on `rows`). 'columns': one parameter per column, the array
   * of that column's values in row order, for any number of rows (PostgreSQL's unnest of typed
   * arrays: a column of 500 sales is one value to bind, parse and plan, not 500). `types` are the
   * columns' types as tableColumns names them.
   */
  insertRows(table: string, columns: readonly string[], types: readonly string[], rows: number, tail: string): { sql: string; layout: 'rows' | 'columns' };
  /**
   * For a table that the next statements check row by row (a parent whose key each new child's
   * foreign key looks up): `missing`, a query answering one row while the table has no planner
   * statistics of its columns (never analysed, as in a new head office's first drain), none once
   * it has them or when there is no such table; and `analyze`, the statement that gathers them. null where the planner needs none for that
   * (SQLite: an equality on a whole primary key takes that key).
   */
  tableStatistics(table: string): { missing: string; analyze: string } | null;
  /**
   * Statements around a set-based write whose foreign keys are checked row by row (the same parent
   * lookup thousands of times): `reuse` lets each check keep one plan for the statements that
   * follow in the transaction, `end` sets the connection's planning back (PostgreSQL: the client's
   * connection plans cached statements each time, server/db/pg/sync-worker.ts; the parents should
   * have statistics, tableStatistics, or the one plan may be a scan). A rollback past `reuse` undoes
   * it. null where checks are planned once anyway (SQLite).
   */
  reusedCheckPlans(): { reuse: string; end: string } | null;
  // claims across central processes (issue 24: webhook deliveries and events, scheduled jobs)
  /**
   * Ends a SELECT (after its ORDER BY and LIMIT) that picks work for one process to claim, in the
   * write transaction that then marks it taken: the rows of `alias` it answers stay locked until
   * that transaction ends, and rows another transaction holds locked are left out instead of
   * waited for (PostgreSQL's `FOR UPDATE OF alias SKIP LOCKED`: two processes picking at once get
   * different rows; a row marked and committed meanwhile is checked again and no longer matches).
   * '' on SQLite, whose IMMEDIATE write transaction already keeps every other writer out.
   */
  claimRowsOf(alias: string): string;
  // several central processes: push, pull and clock (issue 24, sync/central.ts, sync/hlc.ts)
  /**
   * Ends a SELECT of one row that the write transaction then changes, so that another process's
   * transaction wanting the same row waits until this one ends and then reads it as committed
   * (PostgreSQL's `FOR UPDATE`: a node's two pushes apply one after the other). '' on SQLite,
   * whose IMMEDIATE write transaction already keeps every other writer out.
   */
  forUpdate(): string;
  /**
   * Central's change log after a pull cursor, in the order its rows committed: `where`, a
   * condition on change_log's rows, and `order`, the ORDER BY list. `cursor` is a named
   * parameter (`@cursor`, it is used more than once) holding the seq of the last row the store
   * was given, 0 for none; `running` a named parameter holding the one value of the query
   * `running` answers, run just before (null: none to run, pass null). SQLite: `seq > cursor` by
   * seq (its one writer commits in seq order). PostgreSQL: only rows whose transaction ended
   * before the statement's snapshot (a txid below every id then running in this database: no row
   * can still appear before them), by (txid, seq), after the cursor's row; a cursor whose row is
   * gone continues from that row's txid_floor, so nothing is skipped (a few rows may come again).
   * Columns of migration 0043.
   */
  changeLogAfter(cursor: string, running: string): { running: string | null; where: string; order: string };
  /**
   * The hybrid clock's slots (sync/hlc.ts): `count` processes at most mint at once, each its own
   * counters (those leaving its slot's remainder modulo `count`); `claim`, a query answering
   * one row, `slot` (0 to count - 1, held for this connection's session when possible) and
   * `session` (the session's number); `session`, an expression answering that number, which
   * changes when the connection was opened again (the slot's claim went with the old one).
   * SQLite: one slot (1, 0 and 0: one writer).
   */
  hlcSlots(): { count: number; claim: string; session: string };
  // scheduled jobs once across central processes (issue 24, server/jobs/job-runs.ts)
  /**
   * A query answering one row, `locked`: 1 when this transaction now holds the lock named `name`
   * (a plain name) until it ends, 0 when another transaction holds it; it never waits
   * (PostgreSQL's pg_try_advisory_xact_lock: a process must not stand still while another's long
   * job runs). SQLite: always 1, its IMMEDIATE write transaction is already the one writer.
   */
  tryLockOf(name: string): string;
  // chain benchmark (issue 24): keys looked up by index
  /**
   * inJsonList for the last column of an index whose other columns are matched by equality
   * (`contract_id = ? AND movement_id ${inJsonKeys('integer')}`): the same rows, but on PostgreSQL
   * as `= ANY (ARRAY(...))`, which probes the index for each key whatever the table's statistics
   * (as IN (SELECT ...) it is a semi-join, planned on statistics: without them, a scan of the
   * contract's rows each time). SQLite: inJsonList's text.
   */
  inJsonKeys(element: ListElement, param?: string): string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A name that goes into SQL text as it is (tables, columns, aliases, JSON keys). */
export function sqlName(name: string): string {
  if (!NAME.test(name)) throw new RangeError(`not a plain SQL name: ${JSON.stringify(name)}`);
  return name;
}

/** A JSON path as SQLite writes it, read as its steps: `$.a[0].b` → ['a', 0, 'b']. */
export function jsonPathSteps(path: string): (string | number)[] {
  const steps: (string | number)[] = [];
  const step = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/y;
  if (!path.startsWith('$')) throw new RangeError(`a JSON path starts with $: ${JSON.stringify(path)}`);
  step.lastIndex = 1;
  while (step.lastIndex < path.length) {
    const at = step.lastIndex;
    const m = step.exec(path);
    if (!m) throw new RangeError(`unsupported JSON path ${JSON.stringify(path)} at ${at}`);
    steps.push(m[1] !== undefined ? m[1] : Number(m[2]));
  }
  if (steps.length === 0) throw new RangeError(`a JSON path names at least one step: ${JSON.stringify(path)}`);
  return steps;
}

export function insertValues(columns: readonly string[], values: readonly string[] | undefined): string {
  if (columns.length === 0) throw new RangeError('an insert names at least one column');
  const exprs = values ?? columns.map(() => '?');
  if (exprs.length !== columns.length) throw new RangeError(`${columns.length} columns but ${exprs.length} values`);
  return `(${columns.map(sqlName).join(', ')}) VALUES (${exprs.join(', ')})`;
}

/** The scale of a decimalSum's fraction part: a whole number of decimals whose units stay within 64 bits. */
export function sumScale(scale: number): number {
  if (!Number.isInteger(scale) || scale < 1 || scale > 15) throw new RangeError(`a decimal sum's scale is 1 to 15 decimals: ${scale}`);
  return scale;
}

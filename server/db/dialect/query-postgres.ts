/**
 * The run-time query fragments on PostgreSQL, answering the rows SQLite answers
 * (test/db/query-dialect.test.ts runs each on both engines).
 */
import { insertValues, jsonPathSteps, sqlName, sumScale, type Dialect } from './query.js';

/** A fragment that repeats an expression must not repeat a positional `?` (it would take two values). */
function once(expr: string): string {
  if (expr.includes('?')) throw new RangeError(`this fragment repeats its operand: give a column or a named @parameter, not ${JSON.stringify(expr)}`);
  return expr;
}

export const postgresDialect: Dialect = {
  engine: 'postgres',
  inJsonList: (element, param = '?') =>
    element === 'text'
      ? // Only strings: SQLite's text column never equals a JSON number element ('15' is not 15).
        `IN (SELECT element #>> '{}' FROM json_array_elements(${param}::json) AS list(element) WHERE json_typeof(element) = 'string')`
      : // Cast only what is a bigint: SQLite compares any other element and finds nothing, where a
        // bare cast would fail the statement. CASE keeps the test before the casts.
        `IN (SELECT value::bigint FROM json_array_elements_text(${param}::json) WHERE CASE WHEN value ~ '^[-+]?[0-9]{1,19}$' THEN value::numeric BETWEEN -9223372036854775808 AND 9223372036854775807 ELSE false END)`,
  // Named again so the alias's one column is `value` whatever the function's own column is called.
  jsonEach: (expr, alias) => `json_array_elements((${expr})::json) AS ${sqlName(alias)}(value)`,
  jsonField: (expr, path, type) => {
    const at = `'{${jsonPathSteps(path).join(',')}}'`;
    const json = `(${once(expr)})::json`;
    // SQLite's json_extract answers a JSON string as text and a number as a number, and text never
    // equals a number there: the other JSON types read as NULL here, so '12' does not find 12.
    return type === 'text'
      ? `(CASE WHEN json_typeof(${json} #> ${at}) = 'string' THEN ${json} #>> ${at} END)`
      : `(CASE WHEN json_typeof(${json} #> ${at}) = 'number' AND (${json} #>> ${at}) ~ '^-?[0-9]{1,18}$' THEN (${json} #>> ${at})::bigint END)`;
  },
  // The text has a space after each comma ([1, "a", null]) where SQLite's has none: the same JSON.
  jsonArray: (...exprs) => `json_build_array(${exprs.join(', ')})::text`,
  // greatest() skips NULLs; SQLite's max(a, b) is NULL when either is.
  greatestOf: (a, b) => `(CASE WHEN (${once(a)}) IS NULL OR (${once(b)}) IS NULL THEN NULL ELSE greatest(${a}, ${b}) END)`,
  insertOrIgnore: (table, columns, values) => `INSERT INTO ${sqlName(table)} ${insertValues(columns, values)} ON CONFLICT DO NOTHING`,
  // Named "1" as SQLite names the column of `SELECT 1`, so the row is the same object.
  tableExists: (name) => `SELECT 1 AS "1" FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = '${sqlName(name)}'`,
  unindexed: (column) => sqlName(column),
  // PostgreSQL's integer is 32 bits: an id of a busy head office passes 2^31.
  integerOf: (expr) => `CAST(${expr} AS bigint)`,
  // inventory
  // LIKE is case-sensitive here; ILIKE under the "C" collation folds ASCII letters only, as SQLite.
  likeEscaped: (expr, pattern) => `(${expr}) COLLATE "C" ILIKE ${pattern} ESCAPE '\\'`,
  // sync
  // The catalog, read as PRAGMA table_info answers: the migrations' INTEGER columns are bigint here, TEXT text.
  tableColumns: (name) =>
    `SELECT a.attname::text AS name,
            CASE WHEN a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype) THEN 'INTEGER'
                 WHEN a.atttypid = 'text'::regtype THEN 'TEXT'
                 WHEN a.atttypid IN ('float4'::regtype, 'float8'::regtype) THEN 'REAL'
                 WHEN a.atttypid = 'bytea'::regtype THEN 'BLOB'
                 ELSE upper(format_type(a.atttypid, a.atttypmod)) END AS type,
            COALESCE((SELECT CAST(k.n AS integer) FROM pg_catalog.pg_index i CROSS JOIN unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
                       WHERE i.indrelid = a.attrelid AND i.indisprimary AND k.attnum = a.attnum), 0) AS pk
       FROM pg_catalog.pg_attribute a
      WHERE a.attrelid = to_regclass('${sqlName(name)}') AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`,
  // sales (closings and their reports)
  // SUM(bigint) is numeric; the sum of a day's thousandths is far inside 64 bits (SQLite's limit too).
  sumOfIntegers: (expr) => `CAST(SUM(${expr}) AS bigint)`,
  // numeric is exact: one SUM of the values (one cast a value; PostgreSQL computes the repeated
  // aggregate once), split by trunc and mod (the sign of the sum) after summing. Per-value trunc
  // and mod cost three casts a value and took most of a 20,000-sale closing report's time.
  decimalSum: (c, scale) => {
    const sum = `SUM(CAST(${once(c)} AS numeric))`;
    return {
      whole: `CAST(trunc(${sum}) AS bigint)`,
      // 0 over NULLs only, as SQLite's CASE counts it (a group of NULLs sums to 0 there, not NULL).
      fraction: `CAST(COALESCE(trunc(mod(${sum}, 1) * 1${'0'.repeat(sumScale(scale))}), 0) AS bigint)`,
      // A numeric sum keeps the scale of its finest value (trailing zeros of the text included,
      // as SQLite counts them): no work a row, where counting in each text cost three string
      // functions a value.
      finer: `CASE WHEN scale(${sum}) > ${scale} THEN 1 ELSE 0 END`,
    };
  },
  // The first of the group's values ordered by maxOf, largest first.
  bareOfMax: (expr, maxOf) => `(array_agg(${once(expr)} ORDER BY ${once(maxOf)} DESC))[1]`,
  joinInOrder: () => 'JOIN',
  // sync drain
  // One array a column: the arrays are bound as text ('{…}', NULL for null) and cast to the
  // column's type, which the insert takes by assignment (a bigint array fills an integer column).
  insertRows: (table, columns, types, _rows, tail) => {
    if (types.length !== columns.length) throw new RangeError(`${columns.length} columns but ${types.length} types`);
    const arrays = types.map((type) => `CAST(? AS ${ARRAY_TYPES[type] ?? arrayOf(type)}[])`);
    return { sql: `INSERT INTO ${sqlName(table)} (${columns.map(sqlName).join(', ')}) SELECT * FROM unnest(${arrays.join(', ')})${tail}`, layout: 'columns' };
  },
  // Column statistics (pg_stats; an ANALYZE of an empty table makes none, one rolled back none
  // either). Without them the planner takes `contract_id = $1` for a rare value, so a foreign-key
  // check (contract_id, id) may pick any index on the contract prefix over the primary key, and
  // read every row of the contract for each row it checks.
  tableStatistics: (table) => ({
    missing:
      `SELECT 1 AS missing WHERE to_regclass('${sqlName(table)}') IS NOT NULL AND NOT EXISTS ` +
      `(SELECT 1 FROM pg_catalog.pg_stats WHERE schemaname = current_schema() AND tablename = '${sqlName(table)}')`,
    analyze: `ANALYZE ${sqlName(table)}`,
  }),
  // PostgreSQL's own choice (auto): custom plans for a check's first five runs, then one generic
  // plan while it costs no more. Each custom plan of a check cost ~20 us, more than the check.
  // RESET goes back to the connection's setting (its startup options), LOCAL ends with the transaction.
  // enable_seqscan off while they are planned: the one plan kept is made from statistics taken
  // when the parent table may have been a page or two (a new central's first pushes), where a
  // scan is cheapest; kept for the rest of the connection's life (until the table is analysed
  // again), that scan then read the whole of a growing table for each row checked (~130 us a
  // check at 16,000 sales instead of ~2 us). A check always has its key's index.
  reusedCheckPlans: () => ({ reuse: 'SET LOCAL plan_cache_mode = auto; SET LOCAL enable_seqscan = off', end: 'RESET plan_cache_mode; RESET enable_seqscan' }),
  // claims across central processes (issue 24). OF: only the claimed table's rows are locked
  // (not the joined ones, and a LEFT JOIN's nullable side could not be).
  claimRowsOf: (alias) => `FOR UPDATE OF ${sqlName(alias)} SKIP LOCKED`,
  // several central processes (issue 24)
  forUpdate: () => 'FOR UPDATE',
  // Ended: below the snapshot's xmax and not among its running ids, but for the ids running in
  // another database when the pull began (`running`, read by the statement before: one read in the
  // same statement would come after its snapshot, and one ended in between would hold the pull
  // back; the snapshot's xmin counts the whole server's transactions, so another database's long
  // write would hold every pull back). The cursor's row's place (txid, seq); a cursor whose row
  // is gone: the txid_floor of the row before it, which no later row's txid is below; 0, the
  // start. txid > 0 picks the partial index; the bound is a row comparison too, `(txid, seq) <
  // (ended, 0)`: as `txid < ended` the planner took it with txid > 0 for a narrow range, read
  // every row after the cursor by bitmap and sorted them (36 ms a page for a store 40,000 rows
  // behind, against 0.4 ms in index order).
  changeLogAfter: (cursor, running) => ({
    running: `SELECT COALESCE(array_agg(backend_xid)::text, '{}') AS running FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM current_database()`,
    where:
      `txid > 0 AND (txid, seq) < ((SELECT COALESCE((SELECT min(x) FROM pg_snapshot_xip(s) AS x WHERE x::xid <> ALL (CAST(${once(running)} AS xid[]))), ` +
      `pg_snapshot_xmax(s))::text::bigint FROM pg_current_snapshot() AS s), 0) AND (txid, seq) > (` +
      `COALESCE((SELECT c.txid FROM change_log c WHERE c.seq = ${once(cursor)}), ` +
      `(SELECT p.txid_floor FROM change_log p WHERE p.seq < ${cursor} ORDER BY p.seq DESC LIMIT 1), 0), ${cursor})`,
    order: 'txid, seq',
  }),
  hlcSlots: () => ({ count: 100, claim: 'SELECT sync_hlc_claim() AS slot, pg_backend_pid() AS session', session: 'pg_backend_pid()' }),
  // scheduled jobs once across central processes (issue 24): the two-key form, our locks' own space.
  tryLockOf: (name) => `SELECT CAST(pg_try_advisory_xact_lock(hashtext('pos_jobs'), hashtext('${sqlName(name)}')) AS integer) AS locked`,
  // chain benchmark (issue 24): keys looked up by index, the same list as inJsonList's
  inJsonKeys: (element, param) => `= ANY (ARRAY(${postgresDialect.inJsonList(element, param).replace(/^IN \(/, '').replace(/\)$/, '')}))`,
};

/** The element type of a column's array, from the type tableColumns names (SQLite's words for the common ones). */
const ARRAY_TYPES: Readonly<Record<string, string>> = { INTEGER: 'bigint', TEXT: 'text', REAL: 'double precision', BLOB: 'bytea' };

/** Another type as the catalog names it (`NUMERIC(12,3)`, `CHARACTER VARYING(20)`, `JSONB`): letters, digits, spaces, parentheses and commas only. */
function arrayOf(type: string): string {
  if (!/^[A-Za-z][A-Za-z0-9 ]*(\([0-9, ]+\))?$/.test(type)) throw new RangeError(`not a column type: ${JSON.stringify(type)}`);
  return type;
}

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
  // numeric is exact: trunc and mod (the sign of the value) split it as SQLite's text cut does.
  decimalSum: (c, scale) => {
    const value = `CAST(${once(c)} AS numeric)`;
    return {
      whole: `CAST(SUM(trunc(${value})) AS bigint)`,
      // 0 for a NULL value, as SQLite's CASE counts it (a group of NULLs sums to 0 there, not NULL).
      fraction: `CAST(SUM(COALESCE(trunc(mod(${value}, 1) * 1${'0'.repeat(sumScale(scale))}), 0)) AS bigint)`,
      finer: `(CASE WHEN scale(${value}) > ${scale} THEN 1 ELSE 0 END)`,
    };
  },
  // The first of the group's values ordered by maxOf, largest first.
  bareOfMax: (expr, maxOf) => `(array_agg(${once(expr)} ORDER BY ${once(maxOf)} DESC))[1]`,
  joinInOrder: () => 'JOIN',
};

/** The run-time query fragments on SQLite: exactly what the repos have written all along. */
import { insertValues, jsonPathSteps, sqlName, sumScale, type Dialect } from './query.js';

export const sqliteDialect: Dialect = {
  engine: 'sqlite',
  // The elements take the column's affinity in the comparison, so '12' finds 12 in an INTEGER column.
  inJsonList: (_element, param = '?') => `IN (SELECT value FROM json_each(${param}))`,
  jsonEach: (expr, alias) => `json_each(${expr}) ${sqlName(alias)}`,
  jsonField: (expr, path) => {
    jsonPathSteps(path); // the same paths as on PostgreSQL, refused alike
    return `json_extract(${expr}, '${path}')`;
  },
  jsonArray: (...exprs) => `json_array(${exprs.join(', ')})`,
  greatestOf: (a, b) => `max(${a}, ${b})`,
  insertOrIgnore: (table, columns, values) => `INSERT OR IGNORE INTO ${sqlName(table)} ${insertValues(columns, values)}`,
  tableExists: (name) => `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '${sqlName(name)}'`,
  unindexed: (column) => `+${sqlName(column)}`,
  // SQLite's INTEGER is 64 bits.
  integerOf: (expr) => `CAST(${expr} AS INTEGER)`,
  // inventory
  likeEscaped: (expr, pattern) => `${expr} LIKE ${pattern} ESCAPE '\\'`,
  // sync
  tableColumns: (name) => `PRAGMA table_info(${sqlName(name)})`,
  // sales (closings and their reports)
  sumOfIntegers: (expr) => `SUM(${expr})`,
  // The text cut at its point: CAST to INTEGER keeps the digits before it (toward zero), and the
  // first `scale` digits after it, padded with zeros, are the fraction's units, with the sign.
  decimalSum: (c, scale) => {
    const decimalsOf = `CASE WHEN instr(${c}, '.') > 0 THEN length(${c}) - instr(${c}, '.') ELSE 0 END`;
    return {
      whole: `SUM(CAST(${c} AS INTEGER))`,
      fraction:
        `SUM(CASE WHEN instr(${c}, '.') > 0 THEN (CASE WHEN substr(${c}, 1, 1) = '-' THEN -1 ELSE 1 END) * ` +
        `CAST(substr(substr(${c}, instr(${c}, '.') + 1) || '${'0'.repeat(sumScale(scale))}', 1, ${scale}) AS INTEGER) ELSE 0 END)`,
      finer: `SUM(${decimalsOf} > ${scale})`,
    };
  },
  bareOfMax: (expr) => expr,
  joinInOrder: () => 'CROSS JOIN',
  // sync drain
  insertRows: (table, columns, _types, rows, tail) => {
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    return { sql: `INSERT INTO ${sqlName(table)} (${columns.map(sqlName).join(', ')}) VALUES ${Array.from({ length: rows }, () => tuple).join(', ')}${tail}`, layout: 'rows' };
  },
  tableStatistics: () => null,
  reusedCheckPlans: () => null,
  // claims across central processes (issue 24): the write transaction is the claim
  claimRowsOf: (alias) => {
    sqlName(alias); // the same names as on PostgreSQL, refused alike
    return '';
  },
  // several central processes (issue 24): one writer commits in seq order and mints alone
  forUpdate: () => '',
  changeLogAfter: (cursor) => ({ running: null, where: `seq > ${cursor}`, order: 'seq' }),
  hlcSlots: () => ({ count: 1, claim: 'SELECT 0 AS slot, 0 AS session', session: '0' }),
  // scheduled jobs once across central processes (issue 24)
  tryLockOf: (name) => {
    sqlName(name); // the same names as on PostgreSQL, refused alike
    return 'SELECT 1 AS locked';
  },
  // chain benchmark (issue 24): keys looked up by index
  inJsonKeys: (element, param) => sqliteDialect.inJsonList(element, param),
};

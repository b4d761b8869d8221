/** The run-time query fragments on SQLite: exactly what the repos have written all along. */
import { insertValues, jsonPathSteps, sqlName, type Dialect } from './query.js';

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
};

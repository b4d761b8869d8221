import type { Sqlite } from '../../db/open.js';
import { orderBy, type RowRef } from '../../db/sql.js';
import { fetchSize, offsetOf, type Page } from '../../http/paging.js';

/** One condition of a list: SQL with one `?` (a fixed text, never client input) and its value; skipped when undefined. */
export type Condition = [sql: string, value: string | number | undefined];

/**
 * One page of a contract's rows under conditions that may be ranges (`sum_date >= ?`), which
 * selectPage's equality filters cannot express; same ordering and look-ahead row.
 */
export function selectFilteredPage<T, F extends string>(
  db: Sqlite,
  ref: RowRef,
  contractId: string,
  conditions: Condition[],
  page: Page<F>,
  sortColumns: Record<F, string>,
): T[] {
  const used = conditions.filter(([, value]) => value !== undefined) as [string, string | number][];
  const where = ['contract_id = ?', ...used.map(([sql]) => sql)].join(' AND ');
  const sql = `SELECT * FROM ${ref.table} WHERE ${where} ${orderBy(page.sort, sortColumns, ref.key)} LIMIT ? OFFSET ?`;
  return db.prepare(sql).all(contractId, ...used.map(([, value]) => value), fetchSize(page), offsetOf(page)) as T[];
}

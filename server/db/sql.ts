import { fetchSize, offsetOf, type Page, type SortKey, type UpdRange } from '../platform/http/paging.js';
import { InvalidInput } from '../domain/errors.js';
import type { Sqlite } from './open.js';

/**
 * ORDER BY for a list: the client's sort keys mapped to columns, then `tiebreak` so that
 * pages are stable. Only mapped columns reach the SQL text, never client input. NULLs are placed
 * as SQLite places them (first ascending, last descending), written out so PostgreSQL, which
 * does the opposite, answers the same order; SQLite's plan is unchanged (its default order).
 */
export function orderBy<F extends string>(keys: SortKey<F>[], columns: Record<F, string>, tiebreak: string): string {
  const parts = keys.map((k) => `${columns[k.field]} ${k.desc ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}`);
  if (!keys.some((k) => columns[k.field] === tiebreak)) parts.push(`${tiebreak} ASC`);
  return `ORDER BY ${parts.join(', ')}`;
}

/**
 * `SET a = @a, b = @b` for the keys present in a PATCH, through a fixed field → column map
 * (client keys never reach the SQL text). Returns null when nothing maps.
 */
export function setClause(patch: Record<string, unknown>, columns: Record<string, string>): string | null {
  const sets = Object.keys(patch)
    .filter((k) => patch[k] !== undefined && columns[k])
    .map((k) => `${columns[k]} = @${k}`);
  return sets.length ? sets.join(', ') : null;
}

/** Identifies one contract-scoped row: its table and key column. */
export interface RowRef {
  table: string;
  key: string;
}

/**
 * PATCH: `UPDATE table SET <mapped keys>, upd_at = now` on one contract-scoped row. Returns
 * false (and writes nothing) when no key of `values` maps to a column.
 */
export function updateRow(
  db: Sqlite,
  ref: RowRef,
  contractId: string,
  id: string | number,
  values: Record<string, unknown>,
  columns: Record<string, string>,
  now: number,
): boolean {
  const set = setClause(values, columns);
  if (!set) return false;
  db.prepare(`UPDATE ${ref.table} SET ${set}, upd_at = @now WHERE contract_id = @contractId AND ${ref.key} = @id`).run({
    ...values,
    now,
    contractId,
    id,
  });
  return true;
}

/**
 * One page of a contract's rows: equality filters (column → value; undefined means not
 * filtered), the update-time range when the list's query has one (masterListQuery), the
 * client's sort then the key as tiebreak, and the look-ahead row of paging.
 */
export function selectPage<T, F extends string>(
  db: Sqlite,
  ref: RowRef,
  contractId: string,
  filters: Record<string, string | number | undefined>,
  page: Page<F> & UpdRange,
  sortColumns: Record<F, string>,
): T[] {
  const conditions = Object.entries(filters).map(([column, value]): Condition => [`${column} = ?`, value]);
  return selectFilteredPage<T, F>(db, ref, contractId, [...conditions, ...updConditions(page)], page, sortColumns);
}

/** `upd_at` bounds of a master list; a range whose end is before its start is the client's mistake. */
export function updConditions(range: UpdRange): Condition[] {
  const from = range['upd_date_time-from'];
  const to = range['upd_date_time-to'];
  if (from !== undefined && to !== undefined && to < from) {
    throw InvalidInput.field('upd_date_time-to', 'must not be earlier than upd_date_time-from');
  }
  return [
    ['upd_at >= ?', from],
    ['upd_at <= ?', to],
  ];
}

/** One condition of a list: SQL with one `?` (a fixed text, never client input) and its value; skipped when undefined. */
export type Condition = [sql: string, value: string | number | undefined];

/**
 * One page of a contract's rows under conditions that may be ranges (`sum_date >= ?`), which
 * equality filters cannot express; the client's sort then the key, and the look-ahead row.
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

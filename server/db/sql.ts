import type { SortKey } from '../http/paging.js';

/**
 * ORDER BY for a list: the client's sort keys mapped to columns, then `tiebreak` so that
 * pages are stable. Only mapped columns reach the SQL text, never client input.
 */
export function orderBy<F extends string>(keys: SortKey<F>[], columns: Record<F, string>, tiebreak: string): string {
  const parts = keys.map((k) => `${columns[k.field]} ${k.desc ? 'DESC' : 'ASC'}`);
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

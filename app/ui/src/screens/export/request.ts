import type { paths } from '../../api/schema';
import { addDays, zonedInstant, zonedIso } from '../../shared/zoned';
import { EXPORT_COLUMNS, type ExportColumn, type ExportSortKey } from './columns';

export type ExportBody = paths['/{contract_id}/pos/transactions/details/out_file_async']['post']['requestBody']['content']['application/json'];
export type ExportProgress = paths['/{contract_id}/pos/transactions/details/out_file_async/{request_code}']['get']['responses'][200]['content']['application/json'];

/** What the form holds; the date-times are wall clock in the contract's zone (`YYYY-MM-DDTHH:mm:ss`, as datetime-local gives them). */
export interface ExportForm {
  from: string;
  to: string;
  /** '' for every store. */
  storeId: string;
  /** '' for every division; 1 (normal) and 10 (hold) are the ones 4.11 filters on. */
  headDivision: '' | '1' | '10';
  sortKey: ExportSortKey;
  sortDesc: boolean;
  columns: readonly ExportColumn[];
}

/** The last 7 days of the contract's calendar, today included, every column, by transaction. */
export function defaultForm(today: string): ExportForm {
  return {
    from: `${addDays(today, -6)}T00:00:00`,
    to: `${today}T23:59:59`,
    storeId: '',
    headDivision: '',
    sortKey: 'transactionHeadId',
    sortDesc: false,
    columns: EXPORT_COLUMNS,
  };
}

const WALL = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/**
 * A datetime-local value in the contract's zone as the API's date-time (`…+09:00`). Anything
 * else (empty, half typed) is sent as it is: the server's message then names the field.
 */
export function wallToIso(value: string, zone: string): string {
  const m = WALL.exec(value);
  if (!m) return value;
  return zonedIso(zonedInstant(m[1]!, m[2]!, zone) + Number(m[3] ?? 0) * 1000, zone);
}

/** The chosen columns in the file's order, each once. */
export const orderedColumns = (chosen: Iterable<ExportColumn>): ExportColumn[] => {
  const set = new Set(chosen);
  return EXPORT_COLUMNS.filter((c) => set.has(c));
};

/** The 4.11 body of the form: `fields` only when some columns are left out (omitted means all). */
export function exportBody(form: ExportForm, zone: string): ExportBody {
  const columns = orderedColumns(form.columns);
  return {
    transactionDateTimeFrom: wallToIso(form.from, zone),
    transactionDateTimeTo: wallToIso(form.to, zone),
    sort: form.sortDesc ? `${form.sortKey}:desc` : form.sortKey,
    ...(columns.length < EXPORT_COLUMNS.length ? { fields: columns.join(',') } : {}),
    ...(form.storeId ? { storeId: form.storeId } : {}),
    ...(form.headDivision ? { transactionHeadDivision: form.headDivision } : {}),
  };
}

/** An export still being made (its progress is asked for again). */
export const inProgress = (p: ExportProgress | null | undefined): boolean => !p || p.status === 'queued' || p.status === 'running';

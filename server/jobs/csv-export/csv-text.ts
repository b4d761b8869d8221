// A batch of export rows to CSV text: what both threads of an export run (worker.ts reads the rows
// and turns some batches into CSV itself, csv-thread.ts turns the others). Nothing here touches
// the database or the file.
import type { Options as CsvOptions } from 'csv-stringify';
import { stringify } from 'csv-stringify/sync';
import { formatDateTime } from '../../domain/time.js';

/**
 * Every field in double quotes (spec 4.11), inner quotes doubled; NULL and '' as "" too; LF after
 * every record, the last one included.
 */
const CSV_OPTIONS = { quoted: true, quoted_empty: true, record_delimiter: 'unix', eof: true } satisfies CsvOptions;

/**
 * Rows per csv-stringify call. A call keeps each record it builds as a tree of concatenated
 * strings until it joins them at its end, so a scavenge in the middle of a call copies all of
 * them: ten rows at a time keep that small, which lets the threads run on small young
 * generations (with a 100-row call and a 1 MB semi-space the same work took three times as long).
 */
const STRINGIFY_ROWS = 10;

/** The header record. */
export const csvHeader = (names: readonly string[]): string => stringify([names], CSV_OPTIONS);

/**
 * Turns a batch of rows, given as the JSON text of an array of rows (each the JSON array
 * ExportQuery.jsonSql answers), into CSV text: the date-times (epoch ms at `timeColumns`) in
 * `zone` as every read answers them, then csv-stringify's sync API, a few rows at a time (the
 * library's quoting, without a stream step per row).
 */
export function batchToCsv(timeColumns: readonly number[], zone: string): (json: string) => string {
  // The lines of one sale follow one another with the same times: each is formatted once.
  const lastMs = timeColumns.map(() => NaN);
  const lastText = timeColumns.map(() => '');
  return (json) => {
    const rows = JSON.parse(json) as unknown[][];
    for (const row of rows) {
      for (let k = 0; k < timeColumns.length; k++) {
        const i = timeColumns[k]!;
        const ms = row[i] as number | null;
        if (ms === null) continue;
        if (ms !== lastMs[k]) {
          lastMs[k] = ms;
          lastText[k] = formatDateTime(ms, zone);
        }
        row[i] = lastText[k];
      }
    }
    const parts: string[] = [];
    for (let i = 0; i < rows.length; i += STRINGIFY_ROWS) parts.push(stringify(rows.slice(i, i + STRINGIFY_ROWS), CSV_OPTIONS));
    return parts.join('');
  };
}

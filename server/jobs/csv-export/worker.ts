// The CSV export's worker thread (issue 13): its own read-only connection on the database file
// (WAL lets it read while the server writes), the export query iterated row by row, batches of
// rows through csv-stringify and gzip into a file. Nothing holds more than a batch and a block,
// so memory stays flat however many lines the export has. It runs from the compiled file
// (dist/server/jobs/csv-export/worker.js): worker_threads cannot load TypeScript.
import Database from 'better-sqlite3';
import type { Options as CsvOptions } from 'csv-stringify';
import { stringify } from 'csv-stringify/sync';
import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createGzip } from 'node:zlib';
import { formatDateTime } from '../../domain/time.js';
import { exportQuery } from '../../resources/transaction-exports/repo.js';
import type { ExportBody } from '../../resources/transaction-exports/schema.js';

export interface WorkerInput {
  dbFile: string;
  contractId: string;
  /** The contract's zone: date-times are written as every read answers them. */
  zone: string;
  body: ExportBody;
  /** The finished file; written as `<file>.part` and renamed when complete. */
  outFile: string;
  /** A progress message every this many rows. */
  progressEvery: number;
}

export type WorkerMessage =
  | { type: 'total'; total: number }
  | { type: 'progress'; rows: number }
  | { type: 'done'; rows: number; bytes: number }
  | { type: 'error'; message: string };

/** gzip level of the file (the benchmark's baseline is `gzip -6`). */
export const GZIP_LEVEL = 6;
/** The worker connection's SQLite page cache, KiB. */
const CACHE_KIB = 1024;
/** Rows handed to csv-stringify at a time, and about how many characters go to gzip at once. */
const BATCH_ROWS = 100;
const BLOCK_CHARS = 64 * 1024;
/**
 * Every field in double quotes (spec 4.11), inner quotes doubled; NULL and '' as "" too; LF after
 * every record, the last one included.
 */
const CSV_OPTIONS = { quoted: true, quoted_empty: true, record_delimiter: 'unix', eof: true } satisfies CsvOptions;

/** Writes the export's file, posting the total, progress and the end (0 rows: nothing matched, no file). */
export async function writeExport(input: WorkerInput, post: (message: WorkerMessage) => void): Promise<void> {
  const db = new Database(input.dbFile, { readonly: true, fileMustExist: true });
  const part = `${input.outFile}.part`;
  try {
    db.pragma('busy_timeout = 5000');
    // A small page cache (better-sqlite3's default is 16 MB, and the sort of ORDER BY may hold as
    // much again before it spills to a temp file): the export reads each page about once.
    db.pragma(`cache_size = -${CACHE_KIB}`);
    const query = exportQuery(input.contractId, input.body);
    // One read transaction: the count and the rows see the same snapshot.
    db.exec('BEGIN');
    const total = db.prepare(query.countSql).pluck().get(query.params) as number;
    post({ type: 'total', total });
    if (total === 0) {
      db.exec('COMMIT');
      post({ type: 'done', rows: 0, bytes: 0 });
      return;
    }
    const times = query.columns.flatMap((c, i) => (c.kind === 'time' ? [i] : []));
    const gzip = createGzip({ level: GZIP_LEVEL });
    const written = pipeline(gzip, createWriteStream(part, { mode: 0o600 }));
    // Should the pipeline fail, a writer waiting for 'drain' must not wait for ever.
    const failed = written.then(() => new Promise<never>(() => {}));
    failed.catch(() => {}); // seen through `written` below
    // csv-stringify's sync API on batches of rows: the library's quoting, without a stream step
    // per row (a quarter faster here than its stream, with less garbage); gzip gets big blocks.
    let block = [stringify([query.columns.map((c) => c.name)], CSV_OPTIONS)];
    let blockChars = block[0]!.length;
    let batch: unknown[][] = [];
    let rows = 0;
    // The lines of one sale follow one another with the same times: each is formatted once.
    const lastMs = times.map(() => NaN);
    const lastText = times.map(() => '');
    for (const row of db.prepare(query.sql).raw(true).iterate(query.params) as IterableIterator<unknown[]>) {
      for (let k = 0; k < times.length; k++) {
        const i = times[k]!;
        const ms = row[i] as number | null;
        if (ms === null) continue;
        if (ms !== lastMs[k]) {
          lastMs[k] = ms;
          lastText[k] = formatDateTime(ms, input.zone);
        }
        row[i] = lastText[k];
      }
      batch.push(row);
      rows += 1;
      if (batch.length === BATCH_ROWS) {
        const text = stringify(batch, CSV_OPTIONS);
        batch = [];
        block.push(text);
        blockChars += text.length;
        if (blockChars >= BLOCK_CHARS) {
          const chunk = block.join('');
          block = [];
          blockChars = 0;
          if (!gzip.write(chunk)) await Promise.race([once(gzip, 'drain'), failed]);
        }
      }
      if (rows % input.progressEvery === 0) post({ type: 'progress', rows });
    }
    if (batch.length) block.push(stringify(batch, CSV_OPTIONS));
    gzip.end(block.join(''));
    await written;
    db.exec('COMMIT');
    renameSync(part, input.outFile);
    post({ type: 'done', rows, bytes: statSync(input.outFile).size });
  } catch (error) {
    rmSync(part, { force: true });
    throw error;
  } finally {
    db.close();
  }
}

if (!isMainThread && parentPort && (workerData as { csvExport?: WorkerInput } | null)?.csvExport) {
  const port = parentPort;
  writeExport((workerData as { csvExport: WorkerInput }).csvExport, (m) => port.postMessage(m)).catch((error: unknown) => {
    port.postMessage({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies WorkerMessage);
  });
}

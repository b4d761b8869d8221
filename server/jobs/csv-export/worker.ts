// The CSV export's worker thread (issue 13): its own read-only connection on the database file
// (WAL lets it read while the server writes), the export query iterated row by row, batches of
// rows to CSV text (here and in a second thread, csv-thread.ts) and through gzip into a file.
// Nothing holds more than a few batches and gzip's buffer, so memory stays flat however many
// lines the export has. It runs from the compiled file (dist/server/jobs/csv-export/worker.js):
// worker_threads cannot load TypeScript.
import Database from 'better-sqlite3';
import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createGzip, type ZlibOptions } from 'node:zlib';
import { exportQuery } from '../../sales/exports/repo.js';
import type { ExportBody } from '../../sales/exports/schema.js';
import { batchToCsv, csvHeader } from './csv-text.js';
import { CsvThread } from './csv-thread.js';

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
/**
 * Rows turned into CSV at a time (by this thread or the CSV thread), or fewer when their JSON
 * reaches BATCH_CHARS (rows of long texts): a batch lives in both threads' heaps at once.
 */
const BATCH_ROWS = 100;
const BATCH_CHARS = 256 * 1024;
/**
 * Bytes gzip may hold before a write waits for it: a few batches, so the reading goes on while
 * the thread pool compresses them, and few enough that their buffers die young.
 */
const GZIP_BUFFER_BYTES = 128 * 1024;
/** Batches made and not yet written before the reading waits for the CSV thread's oldest. */
const MAX_PENDING = 8;

/** A batch's CSV text, or null while the CSV thread makes it (`ready` settles then). */
interface Pending {
  csv: string | null;
  ready?: Promise<void>;
}

/** Writes the export's file, posting the total, progress and the end (0 rows: nothing matched, no file). */
export async function writeExport(input: WorkerInput, post: (message: WorkerMessage) => void): Promise<void> {
  const db = new Database(input.dbFile, { readonly: true, fileMustExist: true });
  const part = `${input.outFile}.part`;
  let thread: CsvThread | null = null;
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
    const toCsv = batchToCsv(times, input.zone);
    thread = new CsvThread(times, input.zone);
    // zlib passes stream options on to its Transform (its typings list only zlib's own).
    const gzip = createGzip({ level: GZIP_LEVEL, writableHighWaterMark: GZIP_BUFFER_BYTES } as ZlibOptions);
    const written = pipeline(gzip, createWriteStream(part, { mode: 0o600 }));
    // Should the pipeline fail, a writer waiting for 'drain' must not wait for ever.
    const failed = written.then(() => new Promise<never>(() => {}));
    failed.catch(() => {}); // seen through `written` below
    const write = async (text: string) => {
      if (!gzip.write(text)) await Promise.race([once(gzip, 'drain'), failed]);
    };
    // The batches in file order; the head is written as soon as its text is there.
    const pending: Pending[] = [];
    const writeReady = async (all: boolean) => {
      while (pending.length) {
        const head = pending[0]!;
        if (head.csv === null) {
          if (!all && pending.length < MAX_PENDING) return;
          await head.ready;
        }
        pending.shift();
        await write(head.csv!);
      }
    };
    const flush = async (batch: string[]) => {
      // Each row is the JSON text of its values (query.jsonSql), so a batch is one JSON array.
      const json = `[${batch.join(',')}]`;
      if (thread!.free) {
        const slot: Pending = { csv: null };
        slot.ready = thread!.send(json).then((csv) => {
          slot.csv = csv;
        });
        slot.ready.catch(() => {}); // a failure is thrown where the slot is awaited
        pending.push(slot);
      } else {
        pending.push({ csv: toCsv(json) });
      }
      await writeReady(false);
      // One turn of the event loop: the CSV thread's answers and gzip's completions come in.
      await nextTurn();
    };
    await write(csvHeader(query.columns.map((c) => c.name)));
    let batch: string[] = [];
    let batchChars = 0;
    let rows = 0;
    for (const json of db.prepare(query.jsonSql).pluck(true).iterate(query.params) as IterableIterator<string>) {
      batch.push(json);
      batchChars += json.length;
      rows += 1;
      if (batch.length === BATCH_ROWS || batchChars >= BATCH_CHARS) {
        await flush(batch);
        batch = [];
        batchChars = 0;
      }
      if (rows % input.progressEvery === 0) post({ type: 'progress', rows });
    }
    if (batch.length) await flush(batch);
    await writeReady(true);
    gzip.end();
    await written;
    db.exec('COMMIT');
    renameSync(part, input.outFile);
    post({ type: 'done', rows, bytes: statSync(input.outFile).size });
  } catch (error) {
    rmSync(part, { force: true });
    throw error;
  } finally {
    await thread?.close();
    db.close();
  }
}

if (!isMainThread && parentPort && (workerData as { csvExport?: WorkerInput } | null)?.csvExport) {
  const port = parentPort;
  writeExport((workerData as { csvExport: WorkerInput }).csvExport, (m) => port.postMessage(m)).catch((error: unknown) => {
    port.postMessage({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies WorkerMessage);
  });
}

// The CSV export's worker thread (issue 13): its own read-only connection on the database file
// (WAL lets it read while the server writes), or on central's PostgreSQL a cursor of its own
// connection (issue 23), the export query read row by row, batches of rows to CSV text (here and in a second thread, csv-thread.ts) and through gzip into a file.
// Nothing holds more than a few batches and gzip's buffer, so memory stays flat however many
// lines the export has. It runs from the compiled file (dist/server/jobs/csv-export/worker.js):
// worker_threads cannot load TypeScript.
import Database from 'better-sqlite3';
import type pg from 'pg';
import { once } from 'node:events';
import { createReadStream, createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createGzip, type Gzip, type ZlibOptions } from 'node:zlib';
import { postgresDialect } from '../../db/dialect/query-postgres.js';
import { sqliteDialect } from '../../db/dialect/query-sqlite.js';
import { createPool, parseDatabaseUrl } from '../../db/pg/connect.js';
import { cursorBatches } from '../../db/pg/cursor.js';
import { numberPlaceholders } from '../../db/pg/placeholders.js';
import { sqliteLikeTypes } from '../../db/pg/type-parsers.js';
import { exportQuery, type ExportQuery } from '../../sales/exports/repo.js';
import type { ExportBody } from '../../sales/exports/schema.js';
import { batchToCsv, csvHeader } from './csv-text.js';
import { CsvThread } from './csv-thread.js';

export interface WorkerInput {
  /** Where the rows are read: the SQLite file `dbFile`, or central's PostgreSQL at `postgresUrl`. */
  engine: 'sqlite' | 'postgres';
  dbFile: string;
  /** The database's URL when `engine` is postgres (its password included: never posted back or logged). */
  postgresUrl?: string;
  contractId: string;
  /** The contract's zone: date-times are written as every read answers them. */
  zone: string;
  body: ExportBody;
  /** The finished file; written as `<file>.part` and renamed when complete. */
  outFile: string;
  /** A progress message every this many rows. */
  progressEvery: number;
  /**
   * The export and the runner that owns it (runner.ts). On PostgreSQL the finished file is also
   * stored in the database under this owner (transaction_export_chunks), so any central process
   * can serve its download.
   */
  stored?: { exportId: string; owner: string };
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
/** Rows fetched from a PostgreSQL cursor at a time (one batch turned while the next is fetched). */
const CURSOR_ROWS = 500;
/**
 * Bytes gzip may hold before a write waits for it: a few batches, so the reading goes on while
 * the thread pool compresses them, and few enough that their buffers die young.
 */
const GZIP_BUFFER_BYTES = 128 * 1024;
/** Batches made and not yet written before the reading waits for the CSV thread's oldest. */
const MAX_PENDING = 8;
/**
 * Bytes of the file in one chunk stored in the database (base64 text, a third more). A download
 * from the database reads one chunk per statement on the server's synchronous connection, which
 * holds the event loop while it runs: 256 KiB took ~9 ms a chunk on the loaded 2-core machine,
 * 1 MiB ~35 ms, for the same total (a 64 MiB file in 2-2.5 s either way).
 */
export const CHUNK_BYTES = 256 * 1024;

/** A batch's CSV text, or null while the CSV thread makes it (`ready` settles then). */
interface Pending {
  csv: string | null;
  ready?: Promise<void>;
}

/** The export's file as it is written: the rows' JSON in, gzip'd CSV out (`<file>.part` until it is complete). */
class ExportFile {
  rows = 0;
  private readonly part: string;
  private readonly thread: CsvThread;
  private readonly toCsv: (json: string) => string;
  private readonly gzip: Gzip;
  private readonly written: Promise<void>;
  private readonly failed: Promise<never>;
  /** The batches in file order; the head is written as soon as its text is there. */
  private readonly pending: Pending[] = [];
  private batch: string[] = [];
  private batchChars = 0;

  private constructor(
    private readonly input: WorkerInput,
    query: ExportQuery,
    private readonly post: (message: WorkerMessage) => void,
  ) {
    this.part = `${input.outFile}.part`;
    const times = query.columns.flatMap((c, i) => (c.kind === 'time' ? [i] : []));
    this.toCsv = batchToCsv(times, input.zone);
    this.thread = new CsvThread(times, input.zone);
    // zlib passes stream options on to its Transform (its typings list only zlib's own).
    this.gzip = createGzip({ level: GZIP_LEVEL, writableHighWaterMark: GZIP_BUFFER_BYTES } as ZlibOptions);
    this.written = pipeline(this.gzip, createWriteStream(this.part, { mode: 0o600 }));
    // Should the pipeline fail, a writer waiting for 'drain' must not wait for ever.
    this.failed = this.written.then(() => new Promise<never>(() => {}));
    this.failed.catch(() => {}); // seen through `written` in end()
    this.written.catch(() => {}); // likewise, when the export fails before end()
  }

  /** A new file, its header written. */
  static async open(input: WorkerInput, query: ExportQuery, post: (message: WorkerMessage) => void): Promise<ExportFile> {
    const file = new ExportFile(input, query, post);
    await file.write(csvHeader(query.columns.map((c) => c.name)));
    return file;
  }

  private async write(text: string): Promise<void> {
    if (!this.gzip.write(text)) await Promise.race([once(this.gzip, 'drain'), this.failed]);
  }

  private async writeReady(all: boolean): Promise<void> {
    const pending = this.pending;
    while (pending.length) {
      const head = pending[0]!;
      if (head.csv === null) {
        if (!all && pending.length < MAX_PENDING) return;
        await head.ready;
      }
      pending.shift();
      await this.write(head.csv!);
    }
  }

  /**
   * Takes one row (the JSON text of its values, query.jsonSql); true when its batch is full:
   * then `flush()` before the next row.
   */
  add(json: string): boolean {
    this.batch.push(json);
    this.batchChars += json.length;
    this.rows += 1;
    if (this.rows % this.input.progressEvery === 0) this.post({ type: 'progress', rows: this.rows });
    return this.batch.length === BATCH_ROWS || this.batchChars >= BATCH_CHARS;
  }

  /** The batch to CSV (in the CSV thread while it is free, else here) and what is ready to the file. */
  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    // Each row is a JSON array, so a batch is one JSON array.
    const json = `[${this.batch.join(',')}]`;
    this.batch = [];
    this.batchChars = 0;
    if (this.thread.free) {
      const slot: Pending = { csv: null };
      slot.ready = this.thread.send(json).then((csv) => {
        slot.csv = csv;
      });
      slot.ready.catch(() => {}); // a failure is thrown where the slot is awaited
      this.pending.push(slot);
    } else {
      this.pending.push({ csv: this.toCsv(json) });
    }
    await this.writeReady(false);
    // One turn of the event loop: the CSV thread's answers and gzip's completions come in.
    await nextTurn();
  }

  /** The last rows written and the file complete (not yet under its name). */
  async end(): Promise<void> {
    await this.flush();
    await this.writeReady(true);
    this.gzip.end();
    await this.written;
  }

  /** The complete file, before publish() puts it under its name. */
  get partFile(): string {
    return this.part;
  }

  /** Under its name: the size in bytes. */
  publish(): number {
    renameSync(this.part, this.input.outFile);
    return statSync(this.input.outFile).size;
  }

  /** Stops the CSV thread; a file not published is removed. */
  async close(): Promise<void> {
    this.gzip.destroy();
    rmSync(this.part, { force: true });
    await this.thread.close();
  }
}

/** Writes the export's file, posting the total, progress and the end (0 rows: nothing matched, no file). */
export async function writeExport(input: WorkerInput, post: (message: WorkerMessage) => void): Promise<void> {
  if (input.engine === 'postgres') await writeFromPostgres(input, post);
  else await writeFromSqlite(input, post);
}

/** SQLite: the worker's own read-only connection on the database file (WAL lets it read while the server writes). */
async function writeFromSqlite(input: WorkerInput, post: (message: WorkerMessage) => void): Promise<void> {
  const db = new Database(input.dbFile, { readonly: true, fileMustExist: true });
  let file: ExportFile | null = null;
  try {
    db.pragma('busy_timeout = 5000');
    // A small page cache (better-sqlite3's default is 16 MB, and the sort of ORDER BY may hold as
    // much again before it spills to a temp file): the export reads each page about once.
    db.pragma(`cache_size = -${CACHE_KIB}`);
    const query = exportQuery(input.contractId, input.body, sqliteDialect);
    // One read transaction: the count and the rows see the same snapshot.
    db.exec('BEGIN');
    const total = db.prepare(query.countSql).pluck().get(query.params) as number;
    post({ type: 'total', total });
    if (total === 0) {
      db.exec('COMMIT');
      post({ type: 'done', rows: 0, bytes: 0 });
      return;
    }
    file = await ExportFile.open(input, query, post);
    for (const json of db.prepare(query.jsonSql).pluck(true).iterate(query.params) as IterableIterator<string>) {
      if (file.add(json)) await file.flush();
    }
    await file.end();
    db.exec('COMMIT');
    post({ type: 'done', rows: file.rows, bytes: file.publish() });
  } finally {
    await file?.close();
    db.close();
  }
}

/**
 * PostgreSQL (central): the same query through a server-side cursor on a connection of the
 * worker's own, in one READ ONLY transaction whose snapshot the count and every batch see
 * (db/pg/cursor.ts). The worker holds a batch or two of rows, as it holds a few on SQLite.
 */
async function writeFromPostgres(input: WorkerInput, post: (message: WorkerMessage) => void): Promise<void> {
  if (!input.postgresUrl) throw new Error('the CSV worker was given no PostgreSQL URL');
  const query = exportQuery(input.contractId, input.body, postgresDialect);
  const count = numberPlaceholders(query.countSql, query.params);
  const select = numberPlaceholders(query.jsonSql, query.params);
  const pool = createPool(parseDatabaseUrl(input.postgresUrl), { max: 1, types: sqliteLikeTypes });
  let total = 0;
  const batches = cursorBatches<Record<string, string>>(pool, select.text, select.values, {
    batchSize: CURSOR_ROWS,
    // An export of a busy month reads for minutes: no statement timeout (none on SQLite either).
    statementTimeoutMs: 0,
    first: async (client) => {
      const { rows } = await client.query<Record<string, number>>(count.text, count.values);
      total = Object.values(rows[0]!)[0]!;
    },
  })[Symbol.asyncIterator]();
  let file: ExportFile | null = null;
  try {
    // The count, then the first batch.
    let next = await batches.next();
    post({ type: 'total', total });
    if (total === 0) {
      post({ type: 'done', rows: 0, bytes: 0 });
      return;
    }
    file = await ExportFile.open(input, query, post);
    while (!next.done) {
      // The next batch is fetched while this one is turned into CSV.
      const coming = batches.next();
      coming.catch(() => {}); // thrown where it is awaited below
      const rows = next.value;
      const column = rows.length ? Object.keys(rows[0]!)[0]! : '';
      for (const row of rows) if (file.add(row[column]!)) await file.flush();
      next = await coming;
    }
    await file.end();
    if (input.stored) await storeChunks(pool, input.contractId, input.stored.exportId, input.stored.owner, file.partFile);
    post({ type: 'done', rows: file.rows, bytes: file.publish() });
  } finally {
    // Stopped early (an error): the cursor is closed and its transaction ended.
    await batches.return?.(undefined).catch(() => {});
    await file?.close();
    await pool.end().catch(() => {});
  }
}

/**
 * Stores the complete file in the database (central on PostgreSQL, several processes behind one
 * URL): its chunks in order, in one transaction on the worker's own connection, so the server's
 * connection is never held by the upload and a download sees all of the file or none of it. An
 * owner's earlier chunks of the export go first (it ran it before). Refused when the export is no
 * longer this owner's (another process took it over): the runner then records nothing.
 */
export async function storeChunks(pool: pg.Pool, contractId: string, exportId: string, owner: string, file: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const owned = await client.query("SELECT 1 FROM transaction_exports WHERE contract_id = $1 AND export_id = $2 AND owner = $3 AND status = 'running'", [
      contractId,
      exportId,
      owner,
    ]);
    if (owned.rowCount !== 1) throw new Error(`the export ${exportId} is no longer run by ${owner} (another process took it over)`);
    await client.query('DELETE FROM transaction_export_chunks WHERE export_id = $1 AND owner = $2', [exportId, owner]);
    let seq = 0;
    for await (const bytes of createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
      await client.query('INSERT INTO transaction_export_chunks (export_id, owner, seq, data) VALUES ($1, $2, $3, $4)', [
        exportId,
        owner,
        seq++,
        (bytes as Buffer).toString('base64'),
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

if (!isMainThread && parentPort && (workerData as { csvExport?: WorkerInput } | null)?.csvExport) {
  const port = parentPort;
  writeExport((workerData as { csvExport: WorkerInput }).csvExport, (m) => port.postMessage(m)).catch((error: unknown) => {
    port.postMessage({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies WorkerMessage);
  });
}

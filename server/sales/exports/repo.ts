import type { Sqlite } from '../../db/open.js';
import type { SortKey } from '../../platform/http/paging.js';
import { parseDateTime } from '../../domain/time.js';
import { CSV_COLUMNS, type CsvColumn, type ExportSort } from './columns.js';
import type { ExportBody, ExportStatus } from './schema.js';
import { dialectOf } from '../../db/engine.js';
import type { Dialect } from '../../db/dialect/query.js';
import { sqliteDialect } from '../../db/dialect/query-sqlite.js';

/** A row of transaction_exports. */
export interface ExportRow {
  contract_id: string;
  request_code: string;
  export_id: string;
  body: string;
  body_hash: string;
  callback_url: string | null;
  state: string;
  status: ExportStatus;
  attempts: number;
  rows_written: number;
  total_rows: number | null;
  file_name: string | null;
  file_bytes: number | null;
  message: string;
  error: string | null;
  requested_at: number;
  started_at: number | null;
  finished_at: number | null;
  expires_at: number | null;
  file_deleted_at: number | null;
  /** The runner that claimed it (running) or finished it (its file's chunks are under this owner). */
  owner: string | null;
  /** When its owner last said it still runs it; null once finished or released. */
  heartbeat_at: number | null;
}

/** The entity name export rows are reported under (writer.changed); not in the sync registry. */
export const EXPORT_ENTITY = 'transaction_export';

/** How an export ended, as the runner records it. */
export type ExportOutcome =
  | { status: 'succeeded'; rows: number; fileName: string; fileBytes: number; expiresAt: number }
  | { status: 'failed'; message: 'no data' | '500 internal error'; error: string | null; rows: number };

/** A running export's owner stopped (parameters staleBefore and deadOwners, interrupted()). */
const INTERRUPTED = `(heartbeat_at IS NULL OR heartbeat_at < @staleBefore
  OR substr(owner, 1, length(CAST(@deadOwners AS TEXT))) = CAST(@deadOwners AS TEXT))`;

/** SQL of the export requests (the main thread's side). Call the writes inside writer.write. */
export class TransactionExportRepo {
  constructor(private readonly db: Sqlite) {}

  find(contractId: string, requestCode: string): ExportRow | undefined {
    return this.db.prepare('SELECT * FROM transaction_exports WHERE contract_id = ? AND request_code = ?').get(contractId, requestCode) as ExportRow | undefined;
  }

  byFileName(fileName: string): ExportRow | undefined {
    return this.db.prepare('SELECT * FROM transaction_exports WHERE file_name = ?').get(fileName) as ExportRow | undefined;
  }

  byExportId(exportId: string): ExportRow | undefined {
    return this.db.prepare('SELECT * FROM transaction_exports WHERE export_id = ?').get(exportId) as ExportRow | undefined;
  }

  insert(row: Pick<ExportRow, 'contract_id' | 'request_code' | 'export_id' | 'body' | 'body_hash' | 'callback_url' | 'state' | 'requested_at'>): void {
    this.db
      .prepare(
        `INSERT INTO transaction_exports (contract_id, request_code, export_id, body, body_hash, callback_url, state, requested_at)
         VALUES (@contract_id, @request_code, @export_id, @body, @body_hash, @callback_url, @state, @requested_at)`,
      )
      .run(row);
  }

  /** The oldest export waiting to run (first come, first served). */
  nextQueued(): ExportRow | undefined {
    return this.db.prepare(`SELECT * FROM transaction_exports WHERE status = 'queued' ORDER BY requested_at, ${dialectOf(this.db).integerOf('export_id')} LIMIT 1`).get() as
      | ExportRow
      | undefined;
  }

  /**
   * Exports left running whose owner stopped: its heartbeat is older than `staleBefore`, or was
   * cleared (a runner that stopped gracefully, a row from before owners were recorded), or its
   * owner's name begins with `deadOwners` (an earlier process of the data dir now starting).
   */
  interrupted(staleBefore: number, deadOwners: string | null = null): ExportRow[] {
    return this.db
      .prepare(`SELECT * FROM transaction_exports WHERE status = 'running' AND ${INTERRUPTED} ORDER BY requested_at`)
      .all({ staleBefore, deadOwners }) as ExportRow[];
  }

  /**
   * Makes `owner` the owner of an interrupted export (as interrupted() finds it): false when it is
   * no longer so (another process took it over first, or its owner beat again), so one takes it.
   */
  takeOver(exportId: string, owner: string, now: number, staleBefore: number, deadOwners: string | null = null): boolean {
    return (
      this.db
        .prepare(`UPDATE transaction_exports SET owner = @owner, heartbeat_at = @now WHERE export_id = @exportId AND status = 'running' AND ${INTERRUPTED}`)
        .run({ owner, now, exportId, staleBefore, deadOwners }).changes === 1
    );
  }

  /** True while `owner` runs the export (nobody took it over). */
  owns(exportId: string, owner: string): boolean {
    return this.db.prepare("SELECT 1 FROM transaction_exports WHERE export_id = ? AND owner = ? AND status = 'running'").get(exportId, owner) !== undefined;
  }

  /** The owner still runs it: its heartbeat now. False when it lost the export (taken over). */
  heartbeat(exportId: string, owner: string, now: number): boolean {
    return this.db.prepare("UPDATE transaction_exports SET heartbeat_at = ? WHERE export_id = ? AND owner = ? AND status = 'running'").run(now, exportId, owner).changes === 1;
  }

  /** A runner that stops leaves its export running without a heartbeat: the next runner takes it over at once. */
  release(exportId: string, owner: string): void {
    this.db.prepare("UPDATE transaction_exports SET heartbeat_at = NULL WHERE export_id = ? AND owner = ? AND status = 'running'").run(exportId, owner);
  }

  /** Back to the queue, from scratch (its partial file is written again), owned by nobody. */
  requeue(exportId: string): void {
    this.db
      .prepare(
        "UPDATE transaction_exports SET status = 'queued', rows_written = 0, total_rows = NULL, started_at = NULL, owner = NULL, heartbeat_at = NULL WHERE export_id = ?",
      )
      .run(exportId);
  }

  /**
   * Claims a queued export for this process: false when it is no longer queued (another central
   * process on the same database took it first), so each export runs once. Its heartbeat begins.
   */
  markRunning(exportId: string, now: number, owner: string | null = null): boolean {
    return (
      this.db
        .prepare(
          "UPDATE transaction_exports SET status = 'running', attempts = attempts + 1, rows_written = 0, started_at = ?, owner = ?, heartbeat_at = ? WHERE export_id = ? AND status = 'queued'",
        )
        .run(now, owner, now, exportId).changes === 1
    );
  }

  progress(exportId: string, rows: number, total: number | null): void {
    this.db
      .prepare("UPDATE transaction_exports SET rows_written = ?, total_rows = COALESCE(?, total_rows) WHERE export_id = ? AND status = 'running'")
      .run(rows, total, exportId);
  }

  finish(exportId: string, outcome: ExportOutcome, now: number): void {
    if (outcome.status === 'succeeded') {
      this.db
        .prepare(
          `UPDATE transaction_exports SET status = 'succeeded', message = '', rows_written = ?, total_rows = ?, file_name = ?, file_bytes = ?,
             finished_at = ?, expires_at = ?, error = NULL, heartbeat_at = NULL WHERE export_id = ?`,
        )
        .run(outcome.rows, outcome.rows, outcome.fileName, outcome.fileBytes, now, outcome.expiresAt, exportId);
    } else {
      this.db
        .prepare("UPDATE transaction_exports SET status = 'failed', message = ?, error = ?, rows_written = ?, finished_at = ?, heartbeat_at = NULL WHERE export_id = ?")
        .run(outcome.message, outcome.error, outcome.rows, now, exportId);
    }
  }

  /** Files whose download URL has expired and that are still on disk. */
  expiredFiles(now: number): Pick<ExportRow, 'export_id' | 'file_name'>[] {
    return this.db
      .prepare('SELECT export_id, file_name FROM transaction_exports WHERE file_name IS NOT NULL AND file_deleted_at IS NULL AND expires_at < ?')
      .all(now) as Pick<ExportRow, 'export_id' | 'file_name'>[];
  }

  /** Marks the file gone and deletes its chunks (every owner's) from the database. */
  markFileDeleted(exportId: string, now: number): void {
    this.db.prepare('UPDATE transaction_exports SET file_deleted_at = ? WHERE export_id = ?').run(now, exportId);
    this.deleteChunks(exportId);
  }

  /** The file's chunks in the database (all owners', or one owner's). */
  deleteChunks(exportId: string, owner?: string): void {
    if (owner === undefined) this.db.prepare('DELETE FROM transaction_export_chunks WHERE export_id = ?').run(exportId);
    else this.db.prepare('DELETE FROM transaction_export_chunks WHERE export_id = ? AND owner = ?').run(exportId, owner);
  }

  /** One chunk of a finished export's file as stored by its owner's worker (base64), or undefined past the last. */
  chunk(exportId: string, owner: string, seq: number): string | undefined {
    return this.db.prepare('SELECT data FROM transaction_export_chunks WHERE export_id = ? AND owner = ? AND seq = ?').pluck().get(exportId, owner, seq) as
      | string
      | undefined;
  }

  /** The contract's time zone (date-times in the CSV are written in it). */
  zoneOf(contractId: string): string {
    return (this.db.prepare('SELECT time_zone FROM contracts WHERE contract_id = ?').pluck().get(contractId) as string | undefined) ?? 'Asia/Tokyo';
  }

  /** The per-installation key download URLs are signed with (made by migration 0028). */
  signingKey(): Buffer {
    const key = this.db.prepare('SELECT signing_key FROM transaction_export_key WHERE singleton = 1').pluck().get() as string;
    return Buffer.from(key, 'hex');
  }
}

// --- the export query (run by the worker on its own read-only connection) -----------------------

const SORT_COLUMNS: Record<ExportSort, string> = {
  transactionHeadId: 't.transaction_head_id',
  transactionDetailId: 'd.transaction_detail_id',
  transactionDetailDivision: 'd.transaction_detail_division',
  transactionDateTime: 't.transaction_at',
  transactionHeadDivision: 't.transaction_head_division',
  storeId: 't.store_id',
  terminalId: 't.terminal_id',
  customerId: 't.customer_id',
  terminalTranId: 't.terminal_tran_id',
  terminalTranDateTime: 't.terminal_tran_at',
  sumDate: 't.sum_date',
  updDateTime: 't.upd_at',
};
const TIEBREAK = ['t.transaction_head_id', 'd.transaction_detail_id'];

export interface ExportQuery {
  /** The rows, one per detail line, with the columns in `columns` order (the benchmark's baseline runs it). */
  sql: string;
  /**
   * The same rows in the same order, each as one JSON array of its values, for the worker:
   * better-sqlite3 on Node 20 stores a raw row's values into a JS array one generic property
   * store at a time, which cost more than the whole query, and JSON.parse builds the same arrays
   * natively. TEXT comes as strings, NULL as null, the date-times as numbers (epoch ms, formatted
   * in the contract's zone by the worker) and the integer ids already as their decimal text, as
   * String() would write them (ids are far below 2^53), which spares csv-stringify a conversion.
   */
  jsonSql: string;
  /** How many rows `sql` gives. */
  countSql: string;
  /** Named parameters of all three. */
  params: Record<string, string | number>;
  columns: readonly CsvColumn[];
}

/**
 * The one query of an export: detail lines joined to their header, the request's filters, its
 * sort (through the fixed key → column map, then head id and line id so the order is total), and
 * the columns asked for. Client text never reaches the SQL: only mapped names and parameters.
 * `dialect` is the engine's the worker reads from: the JSON of a row differs in spacing only
 * (JSON.parse reads the same values), so the file is byte for byte the same on both
 * (test/db/query-dialect-csv.test.ts). PostgreSQL takes at most 100 arguments per
 * function call, json_build_array's too: the export has 74 columns.
 */
export function exportQuery(contractId: string, body: ExportBody, dialect: Dialect = sqliteDialect): ExportQuery {
  const byName = new Map(CSV_COLUMNS.map((c) => [c.name, c]));
  // `fields` in the order given, each once.
  const columns = body.fields ? [...new Set(body.fields)].map((n) => byName.get(n)!) : CSV_COLUMNS;
  const where = ['t.contract_id = @contractId'];
  const params: Record<string, string | number> = { contractId };
  const cond = (sql: string, name: string, value: string | number | undefined) => {
    if (value === undefined) return;
    where.push(sql);
    params[name] = value;
  };
  const time = (v: string | undefined) => (v === undefined ? undefined : parseDateTime(v)!);
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  cond('t.transaction_head_id >= @headIdFrom', 'headIdFrom', num(body.transactionHeadIdFrom));
  cond('t.transaction_head_id <= @headIdTo', 'headIdTo', num(body.transactionHeadIdTo));
  cond('t.transaction_at >= @transactionAtFrom', 'transactionAtFrom', time(body.transactionDateTimeFrom));
  cond('t.transaction_at <= @transactionAtTo', 'transactionAtTo', time(body.transactionDateTimeTo));
  cond('t.transaction_head_division = @headDivision', 'headDivision', body.transactionHeadDivision);
  cond('t.store_id = @storeId', 'storeId', num(body.storeId));
  cond('t.terminal_tran_at >= @terminalTranAtFrom', 'terminalTranAtFrom', time(body.terminalTranDateTimeFrom));
  cond('t.terminal_tran_at <= @terminalTranAtTo', 'terminalTranAtTo', time(body.terminalTranDateTimeTo));
  cond('t.sum_date = @sumDate', 'sumDate', body.sumDate);
  cond('t.sum_date >= @sumDateFrom', 'sumDateFrom', body.sumDateFrom);
  cond('t.sum_date <= @sumDateTo', 'sumDateTo', body.sumDateTo);
  if (body.customerSaleDivision !== undefined) where.push(body.customerSaleDivision === '1' ? 't.customer_id IS NOT NULL' : 't.customer_id IS NULL');
  cond('t.upd_at >= @updAtFrom', 'updAtFrom', time(body.updDateTimeFrom));
  cond('t.upd_at <= @updAtTo', 'updAtTo', time(body.updDateTimeTo));

  // NULLs first ascending and last descending, as SQLite sorts them (PostgreSQL's default is the
  // reverse); on SQLite this is its default order, written out, and the same plan.
  const order = (body.sort ?? []).map((k: SortKey<ExportSort>) => `${SORT_COLUMNS[k.field]} ${k.desc ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}`);
  const sorted = new Set((body.sort ?? []).map((k) => SORT_COLUMNS[k.field]));
  for (const column of TIEBREAK) if (!sorted.has(column)) order.push(`${column} ASC`);

  const from = `FROM transactions t JOIN transaction_details d ON d.contract_id = t.contract_id AND d.transaction_head_id = t.transaction_head_id
    WHERE ${where.join(' AND ')}`;
  const refs = columns.map((c) => `${c.table === 'header' ? 't' : 'd'}.${c.column}`);
  const values = refs.map((ref, i) => (columns[i]!.kind === 'int' ? `CAST(${ref} AS TEXT)` : ref));
  const rest = `${from} ORDER BY ${order.join(', ')}`;
  return {
    sql: `SELECT ${refs.join(', ')} ${rest}`,
    jsonSql: `SELECT ${dialect.jsonArray(...values)} ${rest}`,
    countSql: `SELECT COUNT(*) ${from}`,
    params,
    columns,
  };
}

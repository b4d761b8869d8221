import { parse } from 'csv-parse/sync';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/clock.js';
import { createPool, parseDatabaseUrl } from '../../server/db/pg/connect.js';
import { cursorBatches } from '../../server/db/pg/cursor.js';
import { sqliteLikeTypes } from '../../server/db/pg/type-parsers.js';
import { openDeps, type AppDeps } from '../../server/deps.js';
import { engineOf, postgresUrlOf } from '../../server/db/engine.js';
import { workerFile } from '../../server/jobs/csv-export/runner.js';
import type { WorkerInput, WorkerMessage } from '../../server/jobs/csv-export/worker.js';
import { CSV_COLUMNS, EXPORT_SORT, type ExportSort } from '../../server/sales/exports/columns.js';
import type { ExportBody } from '../../server/sales/exports/schema.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { testDatabase, type TestDatabase } from '../helpers/engine.js';
import { startPostgres } from '../helpers/postgres.js';
import { ensureDistBuilt } from '../ui/support/build.js';

/**
 * The CSV export's query on both engines (issue 23): the same rows in a SQLite data dir and in a
 * PostgreSQL database, exported by the real worker (dist/), give the same file byte for byte:
 * whatever the sort (NULLs first ascending, last descending, as SQLite orders them), the fields
 * and the filters; texts with quotes, line breaks, control characters, backslashes and non-ASCII
 * letters; ids past 2^31.
 */
const CONTRACT = 'csv-engines';
const FROM = Date.parse('2026-11-01T00:00:00+09:00');
const SALES = 240;
const BIG = 5_000_000_000; // past PostgreSQL's 32-bit integer

/** Texts that JSON escapes differently per engine or CSV must quote. */
const TEXTS = [
  'Tee "Basic", white',
  'お茶\n500ml',
  'line\r\nbreak',
  'tab\there',
  'back\\slash \\n not a break',
  'ctl \u0001\u001f\u007f end',
  'emoji 😀 and é',
  '\u2028 separators \u2029',
  '',
  'null',
  '007',
  '[1,2,"x"]',
  'trailing  ',
  'B',
  'a',
  '<tag>&amp;',
];

/** A deterministic sequence (the same data on both engines). */
function* numbers(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2147483648;
    yield Math.floor(x / 65536); // the high bits: the low ones of this generator repeat with short periods
  }
}

interface Sale {
  head: Record<string, string | number | null>;
  lines: Record<string, string | number | null>[];
}

function makeSales(): Sale[] {
  const r = numbers(42);
  const pick = <T>(list: readonly T[]) => list[r.next().value % list.length]!;
  const maybe = <T>(value: T, oneIn = 3): T | null => (r.next().value % oneIn === 0 ? null : value);
  const sales: Sale[] = [];
  for (let s = 0; s < SALES; s++) {
    const id = s % 5 === 0 ? BIG + s : 1000 + s;
    // Few distinct times, so sorts by them have ties the tiebreak orders.
    const at = FROM + (r.next().value % 6) * 3_600_000;
    const sumDate = maybe(pick(['2026-11-01', '2026-11-02', '2026-11-10']));
    const head = {
      contract_id: CONTRACT,
      transaction_head_id: id,
      transaction_at: at,
      transaction_head_division: pick(['1', '1', '10']),
      cancel_division: '0',
      total: 1000,
      rounding_division: '0',
      cash_total: 1000,
      credit_total: 0,
      deposit: 1000,
      deposit_cash: 1000,
      deposit_credit: 0,
      change: 0,
      store_id: pick([1, 2]),
      terminal_id: maybe(pick([1, 2, BIG])),
      customer_id: maybe(pick([77, 8, BIG + 1]), 2),
      terminal_tran_id: maybe(pick(['T-1', 't-2', 'T-10', 'é', ''])),
      terminal_tran_at: at - (r.next().value % 3) * 1000,
      sum_division: sumDate === null ? '0' : '2',
      sum_date: sumDate,
      dispose_division: '0',
      upd_at: at + (r.next().value % 2) * 60_000,
      ins_at: at,
    };
    const lines = Array.from({ length: 1 + (r.next().value % 6) }, (_, i) => ({
      contract_id: CONTRACT,
      transaction_head_id: id,
      transaction_detail_id: i + 1,
      parent_transaction_detail_id: maybe(1, 4),
      transaction_detail_division: pick(['1', '1', '2']),
      product_id: maybe(pick([5, BIG + 2])),
      product_code: maybe(pick(TEXTS)),
      product_name: pick(TEXTS),
      tax_division: '0',
      price: maybe(pick(['1200', '-0.5', '123.456789', '0'])),
      sales_price: pick(['1200', '150', '0.000001', '99999999.99']),
      quantity: pick(['1', '2', '-1', '0.5']),
      cost: maybe('10.12345678'),
      category_id: maybe(3),
      category_name: maybe(pick(TEXTS)),
      sales_division: '0',
      product_division: '0',
      point_not_applicable: '0',
      calc_discount: '0',
      tax_rate: '10',
      standard_tax_rate: '10',
      reduce_tax_member_price: maybe('8.5'),
      print_receipt_product_name: maybe(pick(TEXTS), 4),
    }));
    sales.push({ head, lines });
  }
  return sales;
}

const insertSql = (table: string, row: Record<string, unknown>) =>
  `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row).map((k) => `@${k}`).join(', ')})`;

function load(deps: AppDeps, sales: readonly Sale[]): void {
  const clock = deps.clock;
  new ContractRepo(deps.db, deps.writer, clock).create({ contractId: CONTRACT, name: 'CSV engines', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
  deps.writer.write(() => {
    for (const storeId of [1, 2]) {
      deps.db.prepare("INSERT INTO stores (contract_id, store_id, store_name, division, ins_at, upd_at) VALUES (?, ?, ?, '1', 0, 0)").run(CONTRACT, storeId, `Store ${storeId}`);
    }
    for (const sale of sales) {
      deps.db.prepare(insertSql('transactions', sale.head)).run(sale.head);
      for (const line of sale.lines) deps.db.prepare(insertSql('transaction_details', line)).run(line);
    }
  });
}

interface Exported {
  messages: WorkerMessage[];
  /** The .csv.gz as written, or null when nothing matched. */
  gz: Buffer | null;
}

/** One export by the compiled worker, as the runner starts it. */
async function runExport(deps: AppDeps, outDir: string, name: string, body: ExportBody): Promise<Exported> {
  const postgresUrl = postgresUrlOf(deps.db);
  const input: WorkerInput = {
    engine: engineOf(deps.db),
    dbFile: deps.db.name,
    ...(postgresUrl ? { postgresUrl } : {}),
    contractId: CONTRACT,
    zone: 'Asia/Tokyo',
    body,
    outFile: join(outDir, `${name}.csv.gz`),
    progressEvery: 100,
  };
  const messages: WorkerMessage[] = [];
  const worker = new Worker(workerFile(), { workerData: { csvExport: input } });
  worker.on('message', (m: WorkerMessage) => messages.push(m));
  await new Promise<void>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', () => resolve());
  });
  const done = messages.at(-1);
  if (done?.type !== 'done') throw new Error(`the export ${name} on ${input.engine} did not finish: ${JSON.stringify(done)}`);
  return { messages, gz: done.rows === 0 ? null : readFileSync(input.outFile) };
}

const range = { transactionDateTimeFrom: '2026-11-01T00:00:00+09:00', transactionDateTimeTo: '2026-11-01T23:59:59+09:00' };
const sort = (...keys: [ExportSort, 'asc' | 'desc'][]) => keys.map(([field, dir]) => ({ field, desc: dir === 'desc' }));

/** Exports that differ in what the engines could answer differently. */
const BODIES: Record<string, ExportBody> = {
  all: { ...range } as ExportBody,
  ...Object.fromEntries(
    EXPORT_SORT.flatMap((key) => [
      [`${key}-asc`, { ...range, sort: sort([key, 'asc']) }],
      [`${key}-desc`, { ...range, sort: sort([key, 'desc']) }],
    ]),
  ),
  twoKeys: { ...range, sort: sort(['customerId', 'desc'], ['terminalTranId', 'asc'], ['transactionDetailId', 'desc']) },
  fields: { ...range, fields: ['printReceiptProductName', 'customerId', 'productName', 'transactionHeadId', 'updDateTime', 'price', 'terminalId'], sort: sort(['sumDate', 'asc']) },
  store: { ...range, storeId: '2', customerSaleDivision: '1' },
  nonMembers: { ...range, customerSaleDivision: '0', transactionHeadDivision: '10' },
  sumDates: { ...range, sumDateFrom: '2026-11-02', sumDateTo: '2026-11-10' },
  sumDate: { ...range, sumDate: '2026-11-01' },
  headIds: { ...range, transactionHeadIdFrom: '1100', transactionHeadIdTo: String(BIG + 100) },
  times: {
    ...range,
    terminalTranDateTimeFrom: '2026-11-01T01:00:00+09:00',
    terminalTranDateTimeTo: '2026-11-01T03:59:59+09:00',
    updDateTimeFrom: '2026-11-01T02:00:00+09:00',
    updDateTimeTo: '2026-11-01T05:00:00+09:00',
  },
  nothing: { ...range, storeId: '999' },
} as unknown as Record<string, ExportBody>;

describe('the CSV export gives the same file on SQLite and PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pos-csv-engines-'));
  const clock = new FixedClock(new Date('2026-11-22T01:00:00Z'));
  let pgDatabase: TestDatabase;
  let sqlite: AppDeps;
  let postgres: AppDeps;

  beforeAll(async () => {
    await ensureDistBuilt();
    pgDatabase = await testDatabase('postgres');
    for (const engine of ['sqlite', 'postgres']) mkdirSync(join(dir, engine));
    sqlite = openDeps({ file: join(dir, 'sqlite', 'pos.sqlite'), clock });
    postgres = openDeps({ file: join(dir, 'postgres', 'pos.sqlite'), postgresUrl: pgDatabase.postgresUrl!, clock });
    const sales = makeSales();
    load(sqlite, sales);
    load(postgres, sales);
  }, 300_000);

  afterAll(async () => {
    sqlite?.db.close();
    postgres?.db.close();
    await pgDatabase?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every sort key either way, fields, filters: the same gzip bytes, the same total and progress', async () => {
    const records = (gz: Buffer | null) => (gz ? (parse(gunzipSync(gz)) as string[][]).length - 1 : 0);
    const empty: string[] = [];
    for (const [name, body] of Object.entries(BODIES)) {
      const [onSqlite, onPostgres] = await Promise.all([runExport(sqlite, dir, `${name}-sqlite`, body), runExport(postgres, dir, `${name}-postgres`, body)]);
      // The CSV first (a readable difference), then the file itself.
      expect(onPostgres.gz && gunzipSync(onPostgres.gz).toString('utf8'), name).toBe(onSqlite.gz && gunzipSync(onSqlite.gz).toString('utf8'));
      expect(onPostgres.gz?.equals(onSqlite.gz!) ?? onSqlite.gz === null, name).toBe(true);
      // The count and the rows are one snapshot: total, progress and done agree.
      expect(onPostgres.messages, name).toEqual(onSqlite.messages);
      const total = onSqlite.messages[0];
      expect(total).toEqual({ type: 'total', total: records(onSqlite.gz) });
      if (!onSqlite.gz) empty.push(name);
    }
    // Every export but `nothing` has rows; the full one every column.
    expect(empty).toEqual(['nothing']);
    const all = gunzipSync((await runExport(postgres, dir, 'all-again', BODIES.all!)).gz!).toString('utf8');
    expect(all.split('\n')[0]!.split(',')).toHaveLength(CSV_COLUMNS.length);
    expect(all).toContain('"ctl \u0001\u001f\u007f end"');
    expect(all).toContain('"Tee ""Basic"", white"');
    expect(all).toContain(`"${BIG}"`);
  }, 300_000);
});

describe('cursorBatches with `first`: one snapshot for what it reads first and every batch', () => {
  it('a row committed after the count is not among the rows', async () => {
    const cluster = await startPostgres();
    const url = await cluster.createDatabase();
    const pool: pg.Pool = createPool(parseDatabaseUrl(url), { max: 2, types: sqliteLikeTypes });
    const other: pg.Pool = createPool(parseDatabaseUrl(url), { max: 1 });
    try {
      await pool.query('CREATE TABLE t (n bigint PRIMARY KEY)');
      await pool.query('INSERT INTO t SELECT g FROM generate_series(1, 1000) g');
      let counted = -1;
      let rows = 0;
      const batches = cursorBatches<{ n: number }>(pool, 'SELECT n FROM t ORDER BY n', [], {
        batchSize: 100,
        first: async (client) => {
          counted = (await client.query<{ count: number }>('SELECT count(*) AS count FROM t')).rows[0]!.count;
          // Committed by another connection between the count and the cursor's first row.
          await other.query('INSERT INTO t SELECT g FROM generate_series(1001, 1500) g');
        },
      });
      for await (const batch of batches) rows += batch.length;
      expect(counted).toBe(1000);
      expect(rows).toBe(1000);
      expect((await pool.query('SELECT count(*)::int AS n FROM t')).rows[0].n).toBe(1500);
    } finally {
      await pool.end();
      await other.end();
    }
  }, 120_000);
});

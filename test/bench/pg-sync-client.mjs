// Benchmark of the synchronous PostgreSQL client (server/db/pg/sync-client.ts, issue 23): what a
// statement costs when the main thread blocks on a worker that owns the connection, against `pg`
// used the ordinary way (each query awaited before the next), and a small write transaction
// against SQLite (WAL, synchronous=FULL, as the store opens it). Prints numbers; asserts nothing.
//
//   npm run build && node test/bench/pg-sync-client.mjs [--rounds 3] [--count 3000]
//   POS_BENCH_DATABASE_URL=postgres://... node test/bench/pg-sync-client.mjs   (an existing server)
//
// Without POS_BENCH_DATABASE_URL it starts a throwaway cluster (Debian's initdb/pg_ctl, as the
// postgres user when run as root) with fsync on, as a head office would run it.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startCluster } from './pg-cluster.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const DIST = pathToFileURL(resolve(ROOT, process.env.POS_BENCH_DIST ?? 'dist')).href;
const { PgSyncClient } = await import(`${DIST}/server/db/pg/sync-client.js`);

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, count: { type: 'string', default: '3000' } } });
const ROUNDS = Number(values.rounds);
const COUNT = Number(values.count);
const ROWS_PER_TX = 10;
/** What central's push apply does per sale on SQLite: about 8 statements (counted in sync-drain), in batches. */
const STATEMENTS_PER_SALE = 8;
const SALES_PER_BATCH = 100;

const cluster = await startCluster();
const url = cluster.url;

try {
  const bridge = new PgSyncClient({ connectionString: url });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const sqliteDir = mkdtempSync(join(tmpdir(), 'pos-bench-sqlite-'));
  const sqlite = new Database(join(sqliteDir, 'bench.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');

  const table = 'CREATE TABLE IF NOT EXISTS bench_rows (id bigint PRIMARY KEY, tx bigint NOT NULL, amount numeric NOT NULL, note text)';
  bridge.query('DROP TABLE IF EXISTS bench_rows');
  bridge.query(table);
  sqlite.exec(table.replace('numeric', 'TEXT').replace(/bigint/g, 'INTEGER'));
  const insert = 'INSERT INTO bench_rows (id, tx, amount, note) VALUES (?, ?, ?, ?)';
  const insertPg = 'INSERT INTO bench_rows (id, tx, amount, note) VALUES ($1, $2, $3, $4)';
  const sqliteInsert = sqlite.prepare(insert);
  let nextId = 1;
  const rowOf = (tx) => [nextId++, tx, '1234.50', 'a line of a sale'];

  const cases = {
    'SELECT 1, bridge (sync)': () => perSecond(COUNT, () => bridge.query('SELECT 1')),
    'SELECT 1, pg awaited one at a time': () => perSecondAsync(COUNT, () => client.query('SELECT 1')),
    [`${ROWS_PER_TX}-row insert transaction, bridge`]: () =>
      perSecond(COUNT / 10, (i) => bridge.transaction(() => { for (let r = 0; r < ROWS_PER_TX; r++) bridge.query(insert, rowOf(i)); })),
    [`${ROWS_PER_TX}-row insert transaction, pg awaited`]: () =>
      perSecondAsync(COUNT / 10, async (i) => {
        await client.query('BEGIN');
        for (let r = 0; r < ROWS_PER_TX; r++) await client.query(insertPg, rowOf(i));
        await client.query('COMMIT');
      }),
    [`${ROWS_PER_TX}-row insert transaction, SQLite (WAL, synchronous=FULL)`]: () =>
      perSecond(COUNT / 10, sqlite.transaction((i) => { for (let r = 0; r < ROWS_PER_TX; r++) sqliteInsert.run(rowOf(i)); })),
    [`drain-like: ${SALES_PER_BATCH} sales x ${STATEMENTS_PER_SALE} inserts per transaction, bridge (sales/s)`]: () =>
      salesPerSecond(rowOf, (sales) => bridge.transaction(() => sales.forEach((sale) => sale.forEach((row) => bridge.query(insert, row))))),
    ['drain-like, bridge batch() per sale (sales/s)']: () =>
      salesPerSecond(rowOf, (sales) => bridge.transaction(() => sales.forEach((sale) => bridge.batch(sale.map((row) => ({ sql: insert, params: row })))))),
    ['drain-like, bridge, one multi-row INSERT per table per batch (sales/s)']: () =>
      salesPerSecond(rowOf, (sales) =>
        bridge.transaction(() => {
          // Statement k of every sale goes into the k-th multi-row INSERT: 8 statements per batch, not per sale.
          for (let k = 0; k < STATEMENTS_PER_SALE; k++) {
            const rows = sales.map((sale) => sale[k]);
            bridge.query(`INSERT INTO bench_rows (id, tx, amount, note) VALUES ${rows.map(() => '(?, ?, ?, ?)').join(', ')}`, rows.flat());
          }
        }),
      ),
    ['drain-like, pg awaited (sales/s)']: () =>
      salesPerSecond(rowOf, async (sales) => {
        await client.query('BEGIN');
        for (const sale of sales) for (const row of sale) await client.query(insertPg, row);
        await client.query('COMMIT');
      }),
    ['drain-like, SQLite WAL synchronous=FULL (sales/s)']: () =>
      salesPerSecond(rowOf, sqlite.transaction((sales) => sales.forEach((sale) => sale.forEach((row) => sqliteInsert.run(row))))),
    'single-row INSERT inside one open transaction, bridge (statements/s)': () => {
      bridge.query('BEGIN');
      const rate = perSecond(COUNT, (i) => bridge.query(insert, rowOf(i)));
      bridge.query('COMMIT');
      return rate;
    },
  };

  console.log(`pg-sync-client bench: ${ROUNDS} rounds, ${COUNT} calls (${COUNT / 10} transactions) per case; median of rounds, per second`);
  const results = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(cases)) results[name].push(await run());
  }
  for (const [name, rates] of Object.entries(results)) {
    const sorted = [...rates].sort((a, b) => a - b);
    console.log(`  ${name.padEnd(66)} ${String(Math.round(sorted[Math.floor(sorted.length / 2)])).padStart(7)}   (rounds: ${rates.map(Math.round).join(', ')})`);
  }
  const median = (name) => [...results[name]].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
  const sqliteDrain = median('drain-like, SQLite WAL synchronous=FULL (sales/s)');
  console.log(`  drain-like / SQLite: bridge ${(median(`drain-like: ${SALES_PER_BATCH} sales x ${STATEMENTS_PER_SALE} inserts per transaction, bridge (sales/s)`) / sqliteDrain).toFixed(2)}, ` +
    `bridge batch() ${(median('drain-like, bridge batch() per sale (sales/s)') / sqliteDrain).toFixed(2)}, ` +
    `bridge multi-row ${(median('drain-like, bridge, one multi-row INSERT per table per batch (sales/s)') / sqliteDrain).toFixed(2)}, ` +
    `pg awaited ${(median('drain-like, pg awaited (sales/s)') / sqliteDrain).toFixed(2)}`);
  console.log(`  bridge / pg awaited: SELECT 1 ${(median('SELECT 1, bridge (sync)') / median('SELECT 1, pg awaited one at a time')).toFixed(2)}, ` +
    `transaction ${(median(`${ROWS_PER_TX}-row insert transaction, bridge`) / median(`${ROWS_PER_TX}-row insert transaction, pg awaited`)).toFixed(2)}; ` +
    `bridge / SQLite transaction ${(median(`${ROWS_PER_TX}-row insert transaction, bridge`) / median(`${ROWS_PER_TX}-row insert transaction, SQLite (WAL, synchronous=FULL)`)).toFixed(2)}`);
  console.log(`  load average during the run: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (2 cores shared)`);

  bridge.query('DROP TABLE bench_rows');
  bridge.close();
  await client.end();
  sqlite.close();
  rmSync(sqliteDir, { recursive: true, force: true });
} finally {
  cluster?.stop();
}

/** Sales per second through applyBatch(sales), each call a push batch of SALES_PER_BATCH sales of STATEMENTS_PER_SALE rows. */
async function salesPerSecond(rowOf, applyBatch) {
  const batches = Math.max(1, Math.round((COUNT * 2) / (SALES_PER_BATCH * STATEMENTS_PER_SALE)));
  let elapsed = 0n;
  for (let b = 0; b < batches; b++) {
    const sales = Array.from({ length: SALES_PER_BATCH }, (_, i) => Array.from({ length: STATEMENTS_PER_SALE }, () => rowOf(b * SALES_PER_BATCH + i)));
    const started = process.hrtime.bigint();
    await applyBatch(sales);
    elapsed += process.hrtime.bigint() - started;
  }
  return (batches * SALES_PER_BATCH) / (Number(elapsed) / 1e9);
}

function perSecond(n, fn) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn(i);
  return n / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function perSecondAsync(n, fn) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn(i);
  return n / (Number(process.hrtime.bigint() - started) / 1e9);
}

// Benchmark: a daily closing (POST /daily_summaries, spec 4.15) over 20,000 settled
// transactions of one store and 4 registers. Target: under 1 s. The baseline in the same run
// is the bare SQL of a closing on the same rows: one UPDATE ... RETURNING that marks them
// closed and a sum of their cash, nothing else. Each round closes, is timed, releases the
// closing (POST .../release, not timed) and times the bare SQL on the same rows.
//
// Issue 23: the same closing at head office (role central) on SQLite and on PostgreSQL (a throwaway
// cluster, fsync on; POS_BENCH_DATABASE_URL names an existing server instead), one against the
// other. Target: within 2 x the SQLite head office's closing. `--engine sqlite` skips it (as does a machine without
// PostgreSQL).
//
//   npm run bench                       (runs this after the HTTP scenarios)
//   node test/bench/closing.mjs --count 20000 --rounds 3 [--engine sqlite|both]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const DIST = '../../dist/server';
const TARGET_MS = 1000;
const TERMINALS = 4;

const TARGET_PG_RATIO = 2;
const { values } = parseArgs({ options: { count: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' }, engine: { type: 'string', default: 'both' } } });
if (!['sqlite', 'both'].includes(values.engine)) throw new Error('--engine must be sqlite or both');
const COUNT = Number(values.count);
const ROUNDS = Number(values.rounds);
if (!(COUNT >= TERMINALS) || !(ROUNDS >= 1)) throw new Error('--count must be at least 4 and --rounds at least 1');

const { openDeps } = await import(`${DIST}/deps.js`);
const { buildApp } = await import(`${DIST}/app.js`);
// Served as main.js serves it: with the sync module (outbox rows in every write).
const { syncModule } = await import(`${DIST}/../sync/module.js`);
const { ContractRepo } = await import(`${DIST}/platform/contracts/repo.js`);
const { AuthRepo } = await import(`${DIST}/platform/auth/repo.js`);
const { ALL_SCOPES } = await import(`${DIST}/platform/http/scopes.js`);
const { formatDate } = await import(`${DIST}/domain/time.js`);
const { CASH_EFFECT_SQL } = await import(`${DIST}/sales/closing/cash-counts.js`);
const { engineOf, preparePostgres } = await import(`${DIST}/db/engine.js`);
const { postgresInstalled, startCluster, createDatabase } = await import('./pg-cluster.mjs');

const CONTRACT = 'bench';
const zone = 'Asia/Tokyo';
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => x.toFixed(1);

await closingBench('sqlite', 'store');
if (values.engine === 'both' && (process.env.POS_BENCH_DATABASE_URL || postgresInstalled())) {
  // PostgreSQL is head office's engine: it is compared with head office on SQLite (a store's
  // closing also writes an outbox row per closed sale, which head office does not).
  const sqlite = await closingBench('sqlite', 'central');
  const cluster = await startCluster();
  try {
    const url = await createDatabase(cluster.url, 'bench_closing');
    await preparePostgres(url, new Date());
    const postgres = await closingBench('postgres', 'central', url);
    const ratio = postgres / sqlite;
    console.log(`  head office's closing, PostgreSQL / SQLite time: ${ratio.toFixed(2)}; target: within ${TARGET_PG_RATIO} x -> ${ratio <= TARGET_PG_RATIO ? 'met' : 'NOT met'}`);
    if (ratio > TARGET_PG_RATIO) process.exitCode = 2;
  } finally {
    cluster.stop();
  }
} else if (values.engine === 'both') {
  console.log('[closing] on PostgreSQL: not run (PostgreSQL is not installed: apt-get install postgresql)');
}

/** The closing scenario on a fresh database of `engine`; answers the median of our closing, in ms. */
async function closingBench(engine, role, postgresUrl) {
const dir = mkdtempSync(join(tmpdir(), 'pos-bench-closing-'));
const deps = openDeps({ file: join(dir, 'closing.sqlite'), role, ...(postgresUrl ? { postgresUrl } : {}) });
try {
  const contracts = new ContractRepo(deps.db, deps.writer, deps.clock);
  contracts.create({ contractId: CONTRACT, name: 'Bench contract', plan: 'retail_business', timeZone: zone });
  new AuthRepo(deps.db, deps.writer, deps.clock).createClient({ clientId: 'bench', contractId: CONTRACT, secret: 'bench-secret-0123456789', scopes: ALL_SCOPES });
  const app = await buildApp(deps, [syncModule]);
  const token = (
    await app.inject({ method: 'POST', url: `/app/${CONTRACT}/token`, payload: 'grant_type=client_credentials', headers: { authorization: `Basic ${Buffer.from('bench:bench-secret-0123456789').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' } })
  ).json().access_token;
  const api = async (method, path, body) => {
    const res = await app.inject({ method, url: `/${CONTRACT}/pos${path}`, headers: { authorization: `Bearer ${token}` }, ...(body ? { payload: body } : {}) });
    if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  // One real sale per register through the API, then copies of those rows up to COUNT
  // (a bulk fixture: 20,000 POSTs would only measure registration again).
  const { storeId } = await api('POST', '/stores', { storeName: 'Bench' });
  const terminalIds = [];
  for (let i = 0; i < TERMINALS; i++) terminalIds.push((await api('POST', '/terminals', { storeId, terminalName: `Register ${i + 1}` }))[0].terminalId);
  const saleTime = new Date(deps.clock.now().getTime() - 60_000).toISOString();
  const seeds = [];
  for (const terminalId of terminalIds) {
    const sale = await api('POST', '/transactions', {
      storeId,
      terminalId,
      transactionHeadDivision: '1',
      terminalTranDateTime: saleTime,
      depositCash: '2000',
      details: [
        { transactionDetailId: '1', salesPrice: '1280', quantity: '1' },
        { transactionDetailId: '2', salesPrice: '150', quantity: '3' },
      ],
    });
    seeds.push(Number(sale.transactionHeadId));
  }
  copyTransactions(deps.db, seeds, COUNT - seeds.length);
  // A head office that has taken its stores' sales for a while has its tables' statistics
  // (autovacuum's ANALYZE); the bulk copy is a minute old and has none, which no real closing meets.
  if (engine === 'postgres') deps.db.exec('ANALYZE');
  for (const terminalId of terminalIds) await api('POST', '/adjustments', { storeId, terminalId });
  const settled = Number(deps.db.prepare(`SELECT COUNT(*) AS n FROM transactions WHERE contract_id = ? AND sum_division = '1'`).get(CONTRACT).n);
  if (settled !== COUNT) throw new Error(`${settled} settled transactions, expected ${COUNT}`);

  const sumDate = formatDate(deps.clock.now().getTime(), zone);
  const cashInfo = { preparationCash: '30000', saving: '0', tenThousandYen: '3' };
  const bareClose = deps.db.prepare(
    `UPDATE transactions SET sum_division = '2', sum_date = @sumDate, upd_at = @now
     WHERE contract_id = @contract AND store_id = @storeId AND sum_division = '1'
     RETURNING terminal_id, ${CASH_EFFECT_SQL} AS cash`,
  );
  const bareUndo = deps.db.prepare(`UPDATE transactions SET sum_division = '1', sum_date = NULL WHERE contract_id = ? AND sum_date = ?`);

  const ours = [];
  const bare = [];
  for (let round = 0; round < ROUNDS; round++) {
    let start = process.hrtime.bigint();
    const answer = await api('POST', '/daily_summaries', { sumDate, storeId, cashInfo });
    ours.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (answer.terminalIdList.length !== TERMINALS) throw new Error(`closing named ${answer.terminalIdList.length} terminals`);
    await api('POST', `/daily_summaries/${storeId}/${sumDate}/release`);

    start = process.hrtime.bigint();
    deps.db.transaction(() => {
      const rows = bareClose.all({ sumDate, now: Date.now(), contract: CONTRACT, storeId: Number(storeId) });
      let cash = 0;
      const terminals = new Set();
      for (const r of rows) {
        cash += Number(r.cash);
        terminals.add(r.terminal_id);
      }
      if (rows.length !== COUNT || terminals.size !== TERMINALS || !(cash > 0)) throw new Error(`bare closing saw ${rows.length} rows`);
    })();
    bare.push(Number(process.hrtime.bigint() - start) / 1e6);
    bareUndo.run(CONTRACT, sumDate);
  }

  console.log(`\n[closing, ${engine}, ${role}] POST /{contract}/pos/daily_summaries over ${COUNT.toLocaleString('en')} settled transactions (${TERMINALS} registers), ${ROUNDS} round(s)`);
  console.log(`  ours: ${ours.map(ms).join(', ')} ms  (median ${ms(median(ours))} ms)`);
  console.log(`  bare: ${bare.map(ms).join(', ')} ms  (median ${ms(median(bare))} ms; UPDATE ... RETURNING + cash sum only)`);
  console.log(`  ratio bare/ours time: ${(median(bare) / median(ours)).toFixed(2)}; target: ours under ${TARGET_MS} ms -> ${median(ours) < TARGET_MS ? 'met' : 'NOT met'}`);
  await app.close();
  if (engine === 'sqlite' && role === 'store' && median(ours) >= TARGET_MS) process.exitCode = 2;
  return median(ours);
} finally {
  deps.db.close();
  rmSync(dir, { recursive: true, force: true });
}
}

/** Copies the seed transactions (header and lines) under fresh ids until `extra` more exist. */
function copyTransactions(db, seedIds, extra) {
  // The bench reads the schema as each engine lists it (bench code, not a repo).
  const columnsOf = (table) =>
    engineOf(db) === 'sqlite'
      ? db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all()
      : db.prepare('SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position').pluck().all(table);
  const header = columnsOf('transactions').filter((c) => c !== 'transaction_head_id');
  const detail = columnsOf('transaction_details').filter((c) => c !== 'transaction_head_id');
  const copyHeader = db.prepare(
    `INSERT INTO transactions (transaction_head_id, ${header.join(', ')})
     SELECT ?, ${header.join(', ')} FROM transactions WHERE contract_id = ? AND transaction_head_id = ?`,
  );
  const copyDetails = db.prepare(
    `INSERT INTO transaction_details (transaction_head_id, ${detail.join(', ')})
     SELECT ?, ${detail.join(', ')} FROM transaction_details WHERE contract_id = ? AND transaction_head_id = ?`,
  );
  // Ids above anything the allocator will mint in this run (its node suffix is 001).
  let id = 900_000_000;
  db.transaction(() => {
    for (let i = 0; i < extra; i++) {
      const seed = seedIds[i % seedIds.length];
      copyHeader.run(id, CONTRACT, seed);
      copyDetails.run(id, CONTRACT, seed);
      id++;
    }
  })();
}

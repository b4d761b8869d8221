// Benchmark (issue 11): 50,000 transactions queued in a linked store's outbox while central is
// down, then central comes up on 127.0.0.1 and the store's agent drains the outbox (push batches
// of 500 over HTTP, applied at central in one transaction per batch). Reports the drain time and
// transactions per second, against the raw insert of the same records into a fresh central
// database in the same run (the registry's generic writer, one transaction per 500, no HTTP, no
// high-water mark, no HLC). Targets: at least 2,000 transactions/s and a ratio of at least 0.3.
//
// Issue 23: the same drain again with central on PostgreSQL (a throwaway cluster, fsync on, started
// here; POS_BENCH_DATABASE_URL names an existing server instead), printed against the SQLite
// central of the same run. Targets: at least 0.5 x the SQLite central's transactions/s and at
// least 1,500/s. `--engine sqlite` skips it (and it is skipped where PostgreSQL is not installed).
//
//   npm run bench                                   (runs this after the closing benchmark)
//   node test/bench/sync-drain.mjs --count 50000 [--engine sqlite|both]
//   POS_BENCH_DIST=.test-dist node test/bench/sync-drain.mjs   (another compiled copy)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { loadSyncModules } from './sync-modules.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const DIST = pathToFileURL(resolve(ROOT, process.env.POS_BENCH_DIST ?? 'dist')).href;
const TARGET_TPS = 2000;
const TARGET_RATIO = 0.3;
const TARGET_PG_TPS = 1500;
const TARGET_PG_RATIO = 0.5;
const NODE = 5;
const CONTRACT = 'bench';

const { values } = parseArgs({ options: { count: { type: 'string', default: '50000' }, engine: { type: 'string', default: 'both' } } });
if (!['sqlite', 'both'].includes(values.engine)) throw new Error('--engine must be sqlite or both');
const COUNT = Number(values.count);
if (!(COUNT >= 1)) throw new Error('--count must be at least 1');

const { openDeps, buildApp, syncModule, ContractRepo, AuthRepo, ALL_SCOPES, NodeRepo, syncContext, LinkRepo, SyncAgent, entityNamed, RecordStore, preparePostgres } = await loadSyncModules(DIST);
const { postgresInstalled, startCluster, createDatabase } = await import('./pg-cluster.mjs');

const dir = mkdtempSync(join(tmpdir(), 'pos-bench-sync-'));
const open = (name, role, node, postgresUrl) => {
  const deps = openDeps({ file: join(dir, `${name}.sqlite`), role, node, ...(postgresUrl ? { postgresUrl } : {}) });
  new ContractRepo(deps.db, deps.writer, deps.clock).create({ contractId: CONTRACT, name: 'Bench', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
  return deps;
};
/** A linked store with COUNT sales in its outbox, drained into a new central on `engine`. */
async function drainInto(engine, postgresUrl) {
  // The store: one real sale through the API, then copies of its rows and outbox row up to COUNT.
  const store = open(`store-${engine}`, 'store', NODE);
  closers.push(() => store.db.close());
  new AuthRepo(store.db, store.writer, store.clock).createClient({ clientId: 'bench', contractId: CONTRACT, secret: 'bench-secret-0123456789', scopes: ALL_SCOPES });
  const storeApp = await buildApp(store, [syncModule]);
  closers.push(() => storeApp.close());
  const token = (
    await storeApp.inject({ method: 'POST', url: `/app/${CONTRACT}/token`, payload: 'grant_type=client_credentials', headers: { authorization: `Basic ${Buffer.from('bench:bench-secret-0123456789').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' } })
  ).json().access_token;
  const api = async (method, path, body) => {
    const res = await storeApp.inject({ method, url: `/${CONTRACT}/pos${path}`, headers: { authorization: `Bearer ${token}` }, ...(body ? { payload: body } : {}) });
    if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const { storeId } = await api('POST', '/stores', { storeName: 'Bench' });
  const terminalId = (await api('POST', '/terminals', { storeId, terminalName: 'R1' }))[0].terminalId;
  const sale = await api('POST', '/transactions', {
    storeId, terminalId, transactionHeadDivision: '1', terminalTranDateTime: new Date(Date.now() - 60_000).toISOString(),
    details: [
      { transactionDetailId: '1', salesPrice: '1280', quantity: '1' },
      { transactionDetailId: '2', salesPrice: '150', quantity: '3' },
    ],
  });
  const seed = store.db.prepare("SELECT * FROM outbox WHERE entity = 'transaction' AND entity_id = ?").get(sale.transactionHeadId);
  const record = new RecordStore(store.db).read(entityNamed('transaction'), CONTRACT, String(sale.transactionHeadId)); // sales rows are read at push time
  const def = entityNamed('transaction');
  const records = [];
  const copy = store.db.transaction(() => {
    const storeRecords = new RecordStore(store.db);
    const insert = store.db.prepare('INSERT INTO outbox (node, contract_id, entity, entity_id, op, hlc, row, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const ctx = syncContext(store);
    for (let i = 1; i < COUNT; i++) {
      const id = `${900000 + i}${String(NODE).padStart(3, '0')}`;
      const r = {
        row: { ...record.row, transaction_head_id: Number(id) },
        children: Object.fromEntries(Object.entries(record.children).map(([t, rows]) => [t, rows.map((c) => ({ ...c, transaction_head_id: Number(id) }))])),
      };
      storeRecords.write(def, CONTRACT, id, r);
      insert.run(NODE, CONTRACT, 'transaction', id, 'insert', ctx.hlc.now(), JSON.stringify(r), Date.now());
      records.push([id, r]);
    }
  });
  copy();
  records.push([String(sale.transactionHeadId), record]);
  const queued = store.db.prepare("SELECT count(*) AS n FROM outbox WHERE entity = 'transaction'").get().n;
  if (queued !== COUNT) throw new Error(`${queued} transactions queued, expected ${COUNT}`);

  // Central comes up; the store links and drains.
  const central = open(`central-${engine}`, 'central', 0, postgresUrl);
  closers.push(() => central.db.close());
  const centralApp = await buildApp(central, [syncModule]);
  closers.push(() => centralApp.close());
  const url = await centralApp.listen({ host: '127.0.0.1', port: 0 });
  const { secret } = new NodeRepo(syncContext(central)).add(CONTRACT, NODE);
  new LinkRepo(store).link({ contractId: CONTRACT, centralUrl: url, node: NODE, secret });
  const agent = new SyncAgent(store, { batchItems: 500 });
  const t0 = performance.now();
  const drained = await agent.drain(CONTRACT, 100_000);
  const drainMs = performance.now() - t0;
  const atCentral = Number(central.db.prepare('SELECT count(*) AS n FROM transactions').get().n);
  if (atCentral !== COUNT) throw new Error(`${atCentral} transactions at central (${engine}), expected ${COUNT}`);
  return { drainMs, drained, storeId, terminalId, store, def, records };

}

const closers = [];
let cluster;
try {
  const { drainMs, drained, storeId, terminalId, store, def, records } = await drainInto('sqlite');

  // Baseline: the same records written straight into a fresh central database, 500 per transaction.
  const raw = open('raw', 'central', 0);
  closers.push(() => raw.db.close());
  const rawRecords = new RecordStore(raw.db);
  for (const [entity, id] of [['store', String(storeId)], ['terminal', String(terminalId)]]) {
    const d = entityNamed(entity);
    const r = new RecordStore(store.db).read(d, CONTRACT, id);
    raw.db.transaction(() => rawRecords.write(d, CONTRACT, id, r))();
  }
  const batch = raw.db.transaction((items) => {
    for (const [id, r] of items) rawRecords.write(def, CONTRACT, id, JSON.parse(JSON.stringify(r)));
  });
  const t1 = performance.now();
  for (let i = 0; i < records.length; i += 500) batch(records.slice(i, i + 500));
  const rawMs = performance.now() - t1;

  const tps = (COUNT / drainMs) * 1000;
  const rawTps = (COUNT / rawMs) * 1000;
  const ratio = tps / rawTps;

  // Central on PostgreSQL: the same store and sales, the same drain.
  let postgres = null;
  if (values.engine === 'both' && (process.env.POS_BENCH_DATABASE_URL || postgresInstalled())) {
    cluster = await startCluster();
    const url = await createDatabase(cluster.url, 'bench_sync_drain');
    await preparePostgres(url, new Date());
    const pgRun = await drainInto('postgres', url);
    const pgTps = (COUNT / pgRun.drainMs) * 1000;
    postgres = {
      drainMs: Math.round(pgRun.drainMs),
      tps: Math.round(pgTps),
      ratioToSqliteCentral: Number((pgTps / tps).toFixed(3)),
      targets: { tps: TARGET_PG_TPS, ratioToSqliteCentral: TARGET_PG_RATIO },
      ok: pgTps >= TARGET_PG_TPS && pgTps / tps >= TARGET_PG_RATIO,
    };
  }
  const result = {
    scenario: 'sync-drain',
    transactions: COUNT,
    pushedItems: drained.pushed,
    rounds: drained.rounds,
    drainMs: Math.round(drainMs),
    tps: Math.round(tps),
    rawMs: Math.round(rawMs),
    rawTps: Math.round(rawTps),
    ratio: Number(ratio.toFixed(3)),
    targets: { tps: TARGET_TPS, ratio: TARGET_RATIO },
    ok: tps >= TARGET_TPS && ratio >= TARGET_RATIO && (postgres?.ok ?? true),
    postgres,
  };
  console.log(JSON.stringify(result));
  console.log(`sync-drain: ${COUNT} transactions drained in ${(drainMs / 1000).toFixed(2)} s = ${Math.round(tps)}/s; raw insert ${Math.round(rawTps)}/s; ratio ${ratio.toFixed(3)} (targets >= ${TARGET_TPS}/s, >= ${TARGET_RATIO})`);
  if (postgres) {
    console.log(`sync-drain, central on PostgreSQL: ${COUNT} transactions drained in ${(postgres.drainMs / 1000).toFixed(2)} s = ${postgres.tps}/s; ${postgres.ratioToSqliteCentral} x the SQLite central (targets >= ${TARGET_PG_TPS}/s, >= ${TARGET_PG_RATIO} x)`);
  } else if (values.engine === 'both') {
    console.log('sync-drain, central on PostgreSQL: not run (PostgreSQL is not installed: apt-get install postgresql)');
  }
  if (!result.ok) process.exitCode = 2;
} finally {
  for (const close of closers.reverse()) await close();
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}

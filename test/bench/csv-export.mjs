// Benchmark: the transaction detail CSV export (spec 4.11, issue 13 item 7) over 1,000,000
// detail lines (200,000 transactions x 5 lines), against a bare baseline in the same run:
// `sqlite3 -csv -header` running the same query (the rows and order our worker reads, with its
// parameters; the worker reads each row as one json_array) piped through `gzip -6`. Ours is timed
// from the request to the 6.3 notice at a receiver on 127.0.0.1 (the server is the real CLI
// `serve`, started through the bin's #! line as installed, as a child process, so its webhook worker
// delivers the notice; its passes run every second), first alone (the ratio), then again while
// autocannon loads GET /categories/{id} (its latency); the server's peak RSS is read from
// /proc/<pid>/status (VmHWM).
// Targets: ours <= 2 x baseline; peak RSS <= 200 MB; p99 of the GET during the export <= 50 ms.
// Issue 23: then the same data on PostgreSQL (a throwaway cluster, fsync on; POS_BENCH_DATABASE_URL
// names an existing server instead) and `serve --role central --database URL`: its export alone,
// against ours on SQLite (target within 2 x), its file byte for byte the same CSV, and its peak
// RSS. `--engine sqlite` skips it (as does a machine without PostgreSQL).
//
//   npm run bench                              (compiles to dist/ first; this runs last)
//   node test/bench/csv-export.mjs [--transactions 200000] [--lines 5] [--connections 10] [--check] [--keep] [--dist DIR] [--engine sqlite|both]
import autocannon from 'autocannon';
import pg from 'pg';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { createHash } from 'node:crypto';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RESULTS_DIR = join(ROOT, 'test/bench/results');
const SQLITE3 = '/usr/bin/sqlite3';
const CONTRACT = 'bench';
const SECRET = 'bench-secret-0123456789abcdef';
const TARGET_RATIO = 2;
const TARGET_RSS_MB = 200;
const TARGET_P99_MS = 50;
const DAY = 24 * 3600 * 1000;

const { values } = parseArgs({
  options: {
    transactions: { type: 'string', default: '200000' },
    lines: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    check: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    // Another compiled copy (build/compile.mjs --out-dir DIR), e.g. while dist/ is being rebuilt.
    dist: { type: 'string', default: 'dist' },
    engine: { type: 'string', default: 'both' },
  },
});
if (!['sqlite', 'both'].includes(values.engine)) throw new Error('--engine must be sqlite or both');
const TARGET_PG_RATIO = 2;
const DIST = join(ROOT, values.dist, 'server');
const TRANSACTIONS = Number(values.transactions);
const LINES = Number(values.lines);
const CONNECTIONS = Number(values.connections);
if (!(TRANSACTIONS >= 1) || !(LINES >= 1 && LINES <= 999) || !(CONNECTIONS >= 1)) throw new Error('bad --transactions, --lines or --connections');
if (!existsSync(join(DIST, 'jobs/csv-export/worker.js'))) throw new Error('dist/ has no CSV worker: run npm run build (npm run bench does)');
if (!existsSync(SQLITE3)) throw new Error(`${SQLITE3} is not installed`);

const dist = (path) => import(join(DIST, path));
const { openDeps } = await dist('deps.js');
const { buildApp } = await dist('app.js');
// Served as main.js serves it: with the sync module (outbox rows in every write).
const { syncModule } = await dist('../sync/module.js');
const { ContractRepo } = await dist('platform/contracts/repo.js');
const { AuthRepo } = await dist('platform/auth/repo.js');
const { ALL_SCOPES } = await dist('platform/http/scopes.js');
const { exportQuery } = await dist('sales/exports/repo.js');
const { StaffLoginRepo } = await dist('platform/auth/staff-logins.js');
const { hashPasswordSync } = await dist('platform/auth/password.js');
const { engineOf, preparePostgres } = await dist('db/engine.js');
const { postgresInstalled, startCluster, createDatabase } = await import('./pg-cluster.mjs');
const STAFF_CODE = 'bench-staff';
const STAFF_PASSWORD = 'bench-password-1';

const dir = mkdtempSync(join(tmpdir(), 'pos-bench-csv-'));
const dataDir = join(dir, 'data');
const dbFile = join(dataDir, 'pos.sqlite');
let server;
let receiver;
let pgServer;
let cluster;
const ms = (x) => `${x.toFixed(0)} ms`;
const step = (text) => console.log(`  ${new Date().toISOString().slice(11, 19)} ${text}`);
/** The 1-minute load average: the ratio is fair only while nothing else competes for the 2 cores. */
const load1 = () => Number(loadavg()[0].toFixed(2));

try {
  console.log(`\n[csv-export] ${(TRANSACTIONS * LINES).toLocaleString('en')} detail lines (${TRANSACTIONS.toLocaleString('en')} transactions x ${LINES}); load average ${load1()} before it starts`);
  const now = Date.now();
  // The copies lie in the 30 days before the last hour; the export asks for 31 days up to now - 1 h.
  const range = { from: now - 31 * DAY - 3600_000, to: now - 3600_000 };
  const { categoryId } = await makeData(range);
  step(`data ready: ${(statSync(dbFile).size / 1e6).toFixed(0)} MB database`);

  const body = {
    transactionDateTimeFrom: new Date(range.from).toISOString(),
    transactionDateTimeTo: new Date(range.to).toISOString(),
  };

  // --- baseline: the same query through sqlite3 -csv | gzip -6 --------------------------------
  const query = exportQuery(CONTRACT, { ...body });
  const sql = inline(query.sql, query.params);
  const baselineFile = join(dir, 'baseline.csv.gz');
  let start = process.hrtime.bigint();
  execFileSync('sh', ['-c', `"${SQLITE3}" -csv -header "$DB" "$SQL" | gzip -6 > "$OUT"`], {
    env: { ...process.env, DB: dbFile, SQL: sql, OUT: baselineFile },
    stdio: ['ignore', 'ignore', 'inherit'],
    maxBuffer: 1 << 20,
  });
  const baselineMs = Number(process.hrtime.bigint() - start) / 1e6;
  const baselineLines = await countLines(createReadStream(baselineFile));
  step(`baseline: ${ms(baselineMs)}, ${baselineLines.toLocaleString('en')} lines, ${(statSync(baselineFile).size / 1e6).toFixed(1)} MB gzip (load average ${load1()})`);

  // --- ours: the real server (CLI serve) as a child process ------------------------------------
  server = await startServe();
  const origin = server.url;
  const token = await getToken(origin);
  receiver = await startReceiver();
  const rssAtStart = statusMb(server.pid, 'VmRSS');
  // Staff log in to the back office all day: each password check (scrypt, 16 MB, on one of
  // libuv's four threads) must leave nothing resident behind it, so the export is measured after some.
  await staffLogins(origin, 8);
  const rssAfterLogins = statusMb(server.pid, 'VmRSS');
  step(`server RSS ${rssAtStart} MB at start, ${rssAfterLogins} MB after 8 staff password logins (4 at a time)`);
  /** Requests an export and waits for its notice; the time is request -> notice. */
  const timedExport = async (code) => {
    const begin = process.hrtime.bigint();
    const res = await fetch(`${origin}/${CONTRACT}/pos/transactions/details/out_file_async`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'request-code': code },
      body: JSON.stringify({ ...body, callbackUrl: receiver.url, state: 'bench' }),
    });
    if (res.status !== 200) throw new Error(`export request answered ${res.status}: ${await res.text()}`);
    const notice = await receiver.notice(code);
    const took = Number(process.hrtime.bigint() - begin) / 1e6;
    if (notice.status !== 'success') throw new Error(`the export failed: ${JSON.stringify(notice)}`);
    return { ms: took, notice };
  };

  // 1. The export alone, as the baseline ran: the ratio.
  const alone = await timedExport('bench-alone');
  const hwmAlone = vmHwmMb(server.pid);
  step(`ours alone: ${ms(alone.ms)} request -> notice; server peak RSS so far ${hwmAlone} MB (load average ${load1()})`);
  const download = await fetch(alone.notice.file_url);
  if (download.status !== 200) throw new Error(`download answered ${download.status}`);
  const ourFile = join(dir, 'ours.csv.gz');
  writeFileSync(ourFile, Buffer.from(await download.arrayBuffer()));
  const ourLines = await countLines(createReadStream(ourFile));
  if (ourLines !== baselineLines) throw new Error(`our file has ${ourLines} lines, the baseline ${baselineLines}`);

  // 2. The GET alone, for reference (warm-up, then 5 s measured).
  const category = { url: `${origin}/${CONTRACT}/pos/categories/${categoryId}`, headers: { authorization: `Bearer ${token}` } };
  await load(category, 2);
  const idle = await load(category, 5);
  step(`GET /categories/{id} alone: ${idle.requests.average.toFixed(0)} req/s, p99 ${idle.latency.p99} ms`);

  // 3. The export again while autocannon loads the GET: its latency, and the peak RSS.
  const rss = sampleRss(server.pid);
  const loadDuring = autocannon({ ...category, connections: CONNECTIONS, duration: 3600 });
  const loadDone = new Promise((resolve, reject) => loadDuring.once('done', resolve).once('error', reject));
  await new Promise((resolve) => setTimeout(resolve, 500)); // the load is running before the request
  const loaded = await timedExport('bench-loaded');
  loadDuring.stop();
  const during = await loadDone;
  const rssSamples = rss.stop();
  const hwm = vmHwmMb(server.pid);
  step(`ours under load: ${ms(loaded.ms)} request -> notice`);

  const ratio = alone.ms / baselineMs;
  const errors = during.errors + during.non2xx + during.timeouts;
  const result = {
    lines: TRANSACTIONS * LINES,
    baselineMs: Math.round(baselineMs),
    oursMs: Math.round(alone.ms),
    ratio: Number(ratio.toFixed(2)),
    oursUnderLoadMs: Math.round(loaded.ms),
    baselineGzipBytes: statSync(baselineFile).size,
    oursGzipBytes: statSync(ourFile).size,
    peakRssMb: hwm,
    peakRssAfterExportAloneMb: hwmAlone,
    rssAtStartMb: rssAtStart,
    rssAfterLoginsMb: rssAfterLogins,
    rssMaxSampledUnderLoadMb: Math.max(...rssSamples),
    loadAverageAtEnd: load1(),
    getAlone: { rps: Math.round(idle.requests.average), p99: idle.latency.p99 },
    getDuringExport: { rps: Math.round(during.requests.average), p50: during.latency.p50, p99: during.latency.p99, max: during.latency.max, errors, connections: CONNECTIONS },
  };
  console.log(`  baseline (sqlite3 -csv | gzip -6): ${ms(baselineMs)}   ours (request -> notice, alone): ${ms(alone.ms)}   ratio ${ratio.toFixed(2)} (target <= ${TARGET_RATIO}) -> ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`);
  console.log(`  files: baseline ${(result.baselineGzipBytes / 1e6).toFixed(1)} MB, ours ${(result.oursGzipBytes / 1e6).toFixed(1)} MB (ours quotes every field)`);
  console.log(
    `  server peak RSS (VmHWM): ${hwm} MB (target <= ${TARGET_RSS_MB}) -> ${hwm <= TARGET_RSS_MB ? 'met' : 'NOT met'}; ${rssAtStart} MB at start, ${rssAfterLogins} MB after the logins, ${hwmAlone} MB after the export alone`,
  );
  console.log(
    `  GET /categories/{id} during the export (${CONNECTIONS} connections): ${result.getDuringExport.rps} req/s, p50 ${during.latency.p50} ms, p99 ${during.latency.p99} ms, max ${during.latency.max} ms, ${errors} errors (target p99 <= ${TARGET_P99_MS} ms) -> ${during.latency.p99 <= TARGET_P99_MS ? 'met' : 'NOT met'}; the export took ${ms(loaded.ms)} under that load`,
  );
  console.log('  (the machine has 2 cores, shared by the server, its export worker, autocannon, the receiver and whatever else runs on it)');
  // --- ours with head office on PostgreSQL: the same data, the same request ----------------------
  if (values.engine === 'both' && (process.env.POS_BENCH_DATABASE_URL || postgresInstalled())) {
    await server.stop();
    server = undefined;
    cluster = await startCluster();
    const url = await createDatabase(cluster.url, 'bench_csv_export');
    await preparePostgres(url, new Date());
    await makeData(range, url);
    step('data ready on PostgreSQL');
    // Head office: its limits off for the bench's requests, the receiver on this machine allowed.
    pgServer = await startServe(['--role', 'central', '--database', url, '--rate-reads', '0', '--rate-writes', '0', '--webhook-allow', '127.0.0.1/32']);
    const pgToken = await getToken(pgServer.url);
    const pgExport = async (code) => {
      const begin = process.hrtime.bigint();
      const res = await fetch(`${pgServer.url}/${CONTRACT}/pos/transactions/details/out_file_async`, {
        method: 'POST',
        headers: { authorization: `Bearer ${pgToken}`, 'content-type': 'application/json', 'request-code': code },
        body: JSON.stringify({ ...body, callbackUrl: receiver.url, state: 'bench' }),
      });
      if (res.status !== 200) throw new Error(`export request (PostgreSQL) answered ${res.status}: ${await res.text()}`);
      const notice = await receiver.notice(code);
      if (notice.status !== 'success') throw new Error(`the export (PostgreSQL) failed: ${JSON.stringify(notice)}`);
      return { ms: Number(process.hrtime.bigint() - begin) / 1e6, notice };
    };
    const pgAlone = await pgExport('bench-pg-alone');
    const pgHwm = vmHwmMb(pgServer.pid);
    const pgDownload = await fetch(pgAlone.notice.file_url);
    if (pgDownload.status !== 200) throw new Error(`download (PostgreSQL) answered ${pgDownload.status}`);
    const pgFile = join(dir, 'ours-postgres.csv.gz');
    writeFileSync(pgFile, Buffer.from(await pgDownload.arrayBuffer()));
    const same = (await csvDigest(pgFile)) === (await csvDigest(ourFile));
    const pgRatio = pgAlone.ms / alone.ms;
    result.postgres = { oursMs: Math.round(pgAlone.ms), ratioToSqlite: Number(pgRatio.toFixed(2)), sameCsv: same, peakRssMb: pgHwm };
    console.log(
      `  on PostgreSQL (serve --role central --database): ${ms(pgAlone.ms)} request -> notice, ${pgRatio.toFixed(2)} x ours on SQLite (target <= ${TARGET_PG_RATIO}) -> ${pgRatio <= TARGET_PG_RATIO ? 'met' : 'NOT met'}; the same CSV byte for byte: ${same ? 'yes' : 'NO'}; server peak RSS ${pgHwm} MB`,
    );
    if (!same) process.exitCode = 1;
    else if (values.check && pgRatio > TARGET_PG_RATIO) process.exitCode = 2;
  } else if (values.engine === 'both') {
    console.log('  on PostgreSQL: not run (PostgreSQL is not installed: apt-get install postgresql)');
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'latest-csv-export.json'), `${JSON.stringify(result, null, 2)}\n`);
  if (errors) process.exitCode = 1;
  else if (values.check && process.exitCode === undefined && (ratio > TARGET_RATIO || hwm > TARGET_RSS_MB || during.latency.p99 > TARGET_P99_MS)) process.exitCode = 2;
} finally {
  await receiver?.close();
  if (server) await server.stop();
  if (pgServer) await pgServer.stop();
  cluster?.stop();
  if (values.keep) console.log(`  kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

/** A fresh data dir: a contract, an API client, masters and one real 5-line sale through the API, copied by SQL. */
async function makeData(range, postgresUrl) {
  const deps = openDeps({ file: postgresUrl ? join(dir, 'pg-data', 'pos.sqlite') : dbFile, role: 'store', ...(postgresUrl ? { postgresUrl } : {}) });
  try {
    new ContractRepo(deps.db, deps.writer, deps.clock).create({ contractId: CONTRACT, name: 'Bench', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
    new AuthRepo(deps.db, deps.writer, deps.clock).createClient({ clientId: 'bench', contractId: CONTRACT, secret: SECRET, scopes: ALL_SCOPES });
    const app = await buildApp(deps, [syncModule]);
    const auth = await app.inject({
      method: 'POST',
      url: `/app/${CONTRACT}/token`,
      payload: 'grant_type=client_credentials',
      headers: { authorization: `Basic ${Buffer.from(`bench:${SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    });
    const api = async (method, path, payload) => {
      const res = await app.inject({ method, url: `/${CONTRACT}/pos${path}`, headers: { authorization: `Bearer ${auth.json().access_token}` }, payload });
      if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
      const json = res.json();
      return Array.isArray(json) ? json[0] : json;
    };
    const { storeId } = await api('POST', '/stores', { storeName: 'Bench' });
    const { terminalId } = await api('POST', '/terminals', { storeId, terminalName: 'Register 1' });
    const { categoryId } = await api('POST', '/categories', { categoryName: 'Goods' });
    const { staffId } = await api('POST', '/staffs', { staffName: 'Bench Staff', staffCode: STAFF_CODE });
    new StaffLoginRepo(deps.db, deps.writer, deps.clock).set(CONTRACT, staffId, hashPasswordSync(STAFF_PASSWORD), []);
    const products = [];
    for (let i = 1; i <= LINES; i++) {
      products.push(await api('POST', '/products', { categoryId, productCode: `P-${i}`, productName: `Product "${i}", size M`, price: String(100 * i) }));
    }
    const seed = await api('POST', '/transactions', {
      storeId,
      terminalId,
      transactionHeadDivision: '1',
      terminalTranDateTime: new Date().toISOString(),
      customerId: '12',
      details: products.map((p, i) => ({ transactionDetailId: String(i + 1), productId: p.productId, salesPrice: p.price, quantity: String(1 + (i % 3)) })),
    });
    await app.close();

    // The schema as each engine lists it (bench code, not a repo).
    const columnsOf = (table) =>
      engineOf(deps.db) === 'sqlite'
        ? deps.db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all()
        : deps.db.prepare('SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position').pluck().all(table);
    const times = ['transaction_head_id', 'transaction_at', 'terminal_tran_at', 'upd_at', 'ins_at'];
    const header = columnsOf('transactions').filter((c) => !times.includes(c));
    const detail = columnsOf('transaction_details').filter((c) => c !== 'transaction_head_id');
    const stepMs = Math.floor((30 * DAY) / TRANSACTIONS);
    const series = `WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ${TRANSACTIONS - 1})`;
    // 64-bit on both engines (PostgreSQL would take the parameters for 32-bit integers).
    const at = 'CAST(@start AS BIGINT) + s.n * CAST(@step AS BIGINT)';
    const copies = [
      {
        sql: `INSERT INTO transactions (${times.join(', ')}, ${header.join(', ')})
           ${series} SELECT 900000000 + s.n, ${at}, ${at} - 5000, ${at}, ${at}, ${header.map((c) => `t.${c}`).join(', ')}
           FROM s, transactions t WHERE t.contract_id = @contract AND t.transaction_head_id = @seed`,
        params: { start: range.from + DAY, step: stepMs, contract: CONTRACT, seed: Number(seed.transactionHeadId) },
      },
      {
        sql: `INSERT INTO transaction_details (transaction_head_id, ${detail.join(', ')})
           ${series} SELECT 900000000 + s.n, ${detail.map((c) => `d.${c}`).join(', ')}
           FROM s, transaction_details d WHERE d.contract_id = @contract AND d.transaction_head_id = @seed`,
        params: { contract: CONTRACT, seed: Number(seed.transactionHeadId) },
      },
    ];
    if (postgresUrl) {
      // A million rows take longer than the server's statement timeout (10 s, for requests): the
      // bench's bulk copy runs on a plain connection of its own, then refreshes the statistics.
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query('BEGIN');
        for (const c of copies) await client.query(inline(c.sql, c.params));
        await client.query('COMMIT');
        await client.query('ANALYZE');
      } finally {
        await client.end();
      }
    } else {
      deps.db.transaction(() => {
        for (const c of copies) deps.db.prepare(c.sql).run(c.params);
      })();
    }
    const lines = Number(deps.db.prepare('SELECT COUNT(*) FROM transaction_details WHERE transaction_head_id >= 900000000').pluck().get());
    if (lines !== TRANSACTIONS * LINES) throw new Error(`made ${lines} lines`);
    if (!postgresUrl) deps.db.pragma('wal_checkpoint(TRUNCATE)');
    return { categoryId };
  } finally {
    deps.db.close();
  }
}

/** The query's named parameters written into it, for the sqlite3 shell (numbers and quoted strings only). */
function inline(sql, params) {
  return sql.replace(/@(\w+)/g, (_m, name) => {
    const v = params[name];
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string') return `'${v.replaceAll("'", "''")}'`;
    throw new Error(`parameter ${name} has no value`);
  });
}

/** The SHA-256 of a gzip file's content, read as a stream (the files are hundreds of MB unzipped). */
async function csvDigest(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file).pipe(createGunzip())) hash.update(chunk);
  return hash.digest('hex');
}

async function countLines(stream) {
  let lines = 0;
  for await (const chunk of stream.pipe(createGunzip())) for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  return lines;
}

function startServe(extra = []) {
  // Run as the installed bin runs it, through its #! line: the Node flags there (the young
  // generation's size) are part of the server as shipped.
  const child = spawn(join(DIST, '..', 'main.js'), ['serve', '--data-dir', extra.length ? join(dir, 'pg-data') : dataDir, '--host', '127.0.0.1', '--port', '0', ...extra], {
    env: { ...process.env, POS_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // No server outlives the benchmark, however it ends.
  process.once('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (!line) return;
      clearTimeout(timer);
      child.stdout.resume();
      const ready = JSON.parse(line);
      resolve({
        url: ready.url,
        pid: child.pid,
        async stop() {
          if (child.exitCode !== null) return;
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
          await once(child, 'exit');
          clearTimeout(killer);
        },
      });
    });
  });
}

async function getToken(origin) {
  const res = await fetch(`${origin}/app/${CONTRACT}/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`bench:${SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return (await res.json()).access_token;
}

/** The 6.3 receiver: `notice(code)` resolves with the query parameters of that request's notice. */
async function startReceiver() {
  const waiting = new Map();
  const arrived = new Map();
  const srv = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200).end('ok');
      const query = Object.fromEntries(new URL(req.url, 'http://x').searchParams);
      arrived.set(query.request_code, query);
      waiting.get(query.request_code)?.(query);
    });
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  return {
    url: `http://127.0.0.1:${srv.address().port}/csv-done`,
    notice: (code) => arrived.get(code) ?? new Promise((resolve) => waiting.set(code, resolve)),
    close: () => new Promise((resolve) => srv.close(() => resolve())),
  };
}

function load(request, seconds) {
  return autocannon({ ...request, connections: CONNECTIONS, duration: seconds });
}

/** `count` password logins through the back-office UI's public client, four at a time. */
async function staffLogins(origin, count) {
  const login = async () => {
    const res = await fetch(`${origin}/app/${CONTRACT}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', client_id: 'backoffice-ui', username: STAFF_CODE, password: STAFF_PASSWORD }).toString(),
    });
    if (res.status !== 200) throw new Error(`staff login: ${res.status} ${await res.text()}`);
  };
  for (let done = 0; done < count; done += 4) await Promise.all(Array.from({ length: Math.min(4, count - done) }, login));
}

/** A memory figure of /proc/<pid>/status in MB (VmRSS, VmHWM: the peak resident set). */
function statusMb(pid, key) {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

function vmHwmMb(pid) {
  return statusMb(pid, 'VmHWM');
}

function sampleRss(pid) {
  const samples = [];
  const timer = setInterval(() => samples.push(statusMb(pid, 'VmRSS')), 100);
  return {
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

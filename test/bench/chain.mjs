// Benchmark (issue 24): a chain. A load generator acts as NODES store nodes (NODES `node add`s at
// central), each pushing its sales through the real sync protocol (POST /sync/{contract}/push with
// the node's credentials, the body exactly as a store's agent builds it: compact cells by the
// batch's column lists), all at once, against central as real `serve --role central` processes:
// on PostgreSQL with 1 and with 2 processes (two processes on one database, with
// --rate-limit-shared, the generator alternating its requests between them as a round-robin
// balancer would), and on SQLite. Meanwhile head office reads a store's sales of the last 31 days
// every REPORT_EVERY_MS (GET /{contract}/pos/transactions?store_id=…&transaction_date_time-from=…
// &transaction_date_time-to=…&limit=1000, every page: the list a head office reads a store's
// month from; the spec's 31-day bound is that of the CSV export, 4.11).
//
// A node behaves as a store's agent and scheduler: its sales arrive at --rate / --nodes a second
// in its outbox, and a round pushes the whole outbox (up to 500 items) --interval ms after the
// last round began (at once while a full batch is left), so at 2,000 sales/s offered by 200
// nodes every 2 s a push carries ~20 sales. A sale is what a store's outbox holds after POST
// /transactions of a 3-line sale paid by card: one `transaction` (header, 3 lines, 1 other
// payment) and 3 `stock_movement`s. The template is made once by a real store (SQLite, in this
// process) linked to a throwaway central: its agent's push body is captured, and each node's sales
// are copies with the node's ids, store, terminal, times, sequence and HLC.
//
// Prints per configuration: sustained sales/s (acknowledged in the measured window) against the
// offered rate, pushes/s, push p50/p99, a sale's time from its outbox to central's answer (p99),
// report p99, lost (acknowledged but absent at central) and doubled (a sale's rows or stock moved
// more than once, or more sales than sent), checked by SQL after the run; central's and
// PostgreSQL's CPU and the CPU milliseconds a sale costs them (what matters on a shared machine).
// The bare baseline of the same run is the same batches written straight into the same engine
// (the registry's writer, one transaction per batch, no HTTP, no checks, one connection).
//
// Targets (2-core machine): >= 1,500 sales/s on PostgreSQL, push p99 <= 2 s, report p99 <= 1 s,
// 0 lost, 0 doubled (reported; exit 2 with --check; exit 1 on anything lost or doubled).
//
//   npm run bench                                   (runs this last)
//   node test/bench/chain.mjs [--quick] [--duration 40] [--nodes 200] [--rate 2000] [--interval 2000]
//                             [--only postgres-1,postgres-2,sqlite] [--check]
//   node test/bench/chain.mjs --cpu-prof            (central's profiles into test/bench/results/profiles/)
//   POS_BENCH_DIST=.test-dist node test/bench/chain.mjs   (another compiled copy)
//   POS_BENCH_DATABASE_URL=postgres://… node test/bench/chain.mjs   (an existing server instead of a throwaway cluster)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { postgresInstalled, startCluster, createDatabase } from './pg-cluster.mjs';
import { loadSyncModules } from './sync-modules.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const DIST_DIR = resolve(ROOT, process.env.POS_BENCH_DIST ?? 'dist');
const DIST = pathToFileURL(DIST_DIR).href;
const TARGETS = { pgSalesPerSecond: 1500, pushP99Ms: 2000, reportP99Ms: 1000 };
const CONTRACT = 'chain';
const HO_CLIENT = { id: 'head-office', secret: 'head-office-secret-0123456789' };
/** Head office's report loop: one report every this many ms (a few people at head office), all pages of it. */
const REPORT_EVERY_MS = 100;
/** Pages of 500 the pull probe reads after the load. */
const PULL_PAGES = 10;
const DAY_MS = 24 * 3600 * 1000;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    duration: { type: 'string' },
    nodes: { type: 'string', default: '200' },
    rate: { type: 'string', default: '2000' },
    interval: { type: 'string', default: '2000' },
    only: { type: 'string' },
    check: { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n'));
  process.exit(0);
}
const DURATION_S = Number(values.duration ?? (values.quick ? 8 : 40));
const WARMUP_S = values.quick ? 2 : 5;
const NODES = Number(values.nodes);
/** Sales a second arriving in the stores' outboxes together; the agents' round interval; a push's most items (the agent's batchItems). */
const RATE = Number(values.rate);
const INTERVAL_MS = Number(values.interval);
const MAX_ITEMS = 500;
if (!(NODES >= 1 && NODES <= 999)) throw new Error('--nodes must be 1..999');
if (!(RATE > 0)) throw new Error('--rate must be a number of sales a second');
if (!(INTERVAL_MS >= 10)) throw new Error('--interval must be at least 10 (ms)');
if (!(DURATION_S >= 1)) throw new Error('--duration must be at least 1 (seconds)');
const ALL_CONFIGS = [
  { name: 'postgres-1', engine: 'postgres', processes: 1 },
  { name: 'postgres-2', engine: 'postgres', processes: 2 },
  { name: 'sqlite', engine: 'sqlite', processes: 1 },
];
const wanted = values.only ? values.only.split(',') : ALL_CONFIGS.map((c) => c.name);
for (const w of wanted) if (!ALL_CONFIGS.some((c) => c.name === w)) throw new Error(`--only: unknown configuration ${w}`);
const pgAvailable = Boolean(process.env.POS_BENCH_DATABASE_URL) || postgresInstalled();
const CONFIGS = ALL_CONFIGS.filter((c) => wanted.includes(c.name) && (c.engine === 'sqlite' || pgAvailable));

const { openDeps, buildApp, syncModule, ContractRepo, AuthRepo, ALL_SCOPES, NodeRepo, syncContext, LinkRepo, SyncAgent, entityNamed, expandCompact, RecordStore, preparePostgres } = await loadSyncModules(DIST);

/** Setting up head office's masters in this process is not throttled (the served processes keep their limits). */
const SETUP_LIMITS = { rateLimits: { reads: 0, writes: 0, syncPerNode: 0 } };
const pad = (n, width) => String(n).padStart(width, '0');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
const basic = (user, secret) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

const PRODUCTS = [
  { productName: 'Coffee beans 200 g', price: '1280', quantity: '1' },
  { productName: 'Drip bag', price: '150', quantity: '2' },
  { productName: 'Mug', price: '1800', quantity: '1' },
];
const UNITS_PER_SALE = PRODUCTS.reduce((n, p) => n + Number(p.quantity), 0);

/** An app (in this process) on a central or store database, with the head office API client and a token for it. */
async function appOn(deps) {
  const app = await buildApp(deps, [syncModule]);
  const res = await app.inject({
    method: 'POST',
    url: `/app/${CONTRACT}/token`,
    payload: 'grant_type=client_credentials',
    headers: { authorization: basic(HO_CLIENT.id, HO_CLIENT.secret), 'content-type': 'application/x-www-form-urlencoded' },
  });
  const token = res.json().access_token;
  const api = async (method, path, body) => {
    const r = await app.inject({ method, url: `/${CONTRACT}/pos${path}`, headers: { authorization: `Bearer ${token}` }, ...(body ? { payload: body } : {}) });
    if (r.statusCode !== 200) throw new Error(`${method} ${path}: ${r.statusCode} ${r.body}`);
    return r.json();
  };
  return { app, api };
}

/** A contract, its head office client, and the masters a sale names (through the API): `stores` stores with a terminal each. */
async function chainMasters(deps, stores) {
  new ContractRepo(deps.db, deps.writer, deps.clock).create({ contractId: CONTRACT, name: 'Chain', plan: 'retail_business', timeZone: 'Asia/Tokyo', settings: { maxSalesTerminals: stores + 10 } });
  new AuthRepo(deps.db, deps.writer, deps.clock).createClient({ clientId: HO_CLIENT.id, contractId: CONTRACT, secret: HO_CLIENT.secret, scopes: ALL_SCOPES });
  const { app, api } = await appOn(deps);
  const { categoryId } = await api('POST', '/categories', { categoryName: 'Coffee' });
  const productIds = [];
  for (const [i, p] of PRODUCTS.entries()) productIds.push((await api('POST', '/products', { productName: p.productName, price: p.price, productCode: `P${i + 1}`, categoryId })).productId);
  const { paymentMethodId } = await api('POST', '/payment_methods', { paymentMethodCode: 'CARD', paymentMethodName: 'Card', paymentDivision: '1' });
  const shops = [];
  for (let i = 1; i <= stores; i++) {
    const { storeId } = await api('POST', '/stores', { storeName: `Store ${i}` });
    const [{ terminalId }] = await api('POST', '/terminals', { storeId, terminalName: 'Register 1' });
    shops.push({ storeId: Number(storeId), terminalId: Number(terminalId) });
  }
  return { app, api, productIds: productIds.map(Number), paymentMethodId: Number(paymentMethodId), shops };
}

/**
 * One sale as a store's agent pushes it: a real store (node 999, SQLite) linked to a throwaway
 * central registers a 3-line card sale through POST /transactions; its agent's push body is
 * captured by a stand-in central. Answers the batch's column lists and the sale's items.
 */
async function saleTemplate(dir) {
  const central = openDeps({ file: join(dir, 'template-central.sqlite'), role: 'central', node: 0, ...SETUP_LIMITS });
  const masters = await chainMasters(central, 1);
  const url = await masters.app.listen({ host: '127.0.0.1', port: 0 });
  const { secret } = new NodeRepo(syncContext(central)).add(CONTRACT, 999);
  const store = openDeps({ file: join(dir, 'template-store.sqlite'), role: 'store', node: 999 });
  new ContractRepo(store.db, store.writer, store.clock).create({ contractId: CONTRACT, name: 'Chain', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
  new AuthRepo(store.db, store.writer, store.clock).createClient({ clientId: HO_CLIENT.id, contractId: CONTRACT, secret: HO_CLIENT.secret, scopes: ALL_SCOPES });
  new LinkRepo(store).link({ contractId: CONTRACT, centralUrl: url, node: 999, secret });
  const agent = new SyncAgent(store, { batchItems: 500 });
  await agent.drain(CONTRACT, 20);
  const { app: storeApp, api } = await appOn(store);
  store.db.prepare('DELETE FROM outbox').run();
  const [shop] = masters.shops;
  const total = PRODUCTS.reduce((s, p) => s + Number(p.price) * Number(p.quantity), 0);
  await api('POST', '/transactions', {
    storeId: String(shop.storeId),
    terminalId: String(shop.terminalId),
    transactionHeadDivision: '1',
    terminalTranId: '1',
    terminalTranDateTime: new Date().toISOString(),
    details: PRODUCTS.map((p, i) => ({ transactionDetailId: String(i + 1), productId: String(masters.productIds[i]), salesPrice: p.price, quantity: p.quantity })),
    depositOthers: [{ no: '1', paymentMethodId: String(masters.paymentMethodId), depositOthers: String(total) }],
  });
  let captured;
  const standIn = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      captured = body;
      res.statusCode = 503; // nothing acknowledged: the agent keeps its outbox
      res.end('{}');
    });
  });
  await new Promise((r) => standIn.listen(0, '127.0.0.1', r));
  store.db.prepare('UPDATE sync_links SET central_url = ?').run(`http://127.0.0.1:${standIn.address().port}`);
  await agent.push(CONTRACT).catch(() => {});
  standIn.close();
  await storeApp.close();
  await masters.app.close();
  store.db.close();
  central.db.close();
  const body = JSON.parse(captured);
  const entities = body.items.map((i) => i.entity).join(',');
  if (entities !== 'transaction,stock_movement,stock_movement,stock_movement') throw new Error(`the sale's outbox pushed ${entities}`);
  return { tables: body.tables, items: body.items, productIds: masters.productIds, paymentMethodId: masters.paymentMethodId };
}

/**
 * Makes each node's sales from the template (the node's ids, store, terminal, times, seqs and
 * HLCs): `sale(n, shop, state)` answers one sale's items as pushed (the outbox's rows of it, in
 * seq order), `body(n, state, items)` a push of them.
 */
function salesFactory(template, productIds) {
  const col = (table, name) => {
    const i = template.tables[table].indexOf(name);
    if (i < 0) throw new Error(`no column ${table}.${name} in the template`);
    return i;
  };
  const T = Object.fromEntries(['transaction_head_id', 'transaction_at', 'store_id', 'terminal_id', 'terminal_tran_id', 'terminal_tran_at', 'transaction_uuid', 'upd_at', 'ins_at'].map((c) => [c, col('transactions', c)]));
  const D = { head: col('transaction_details', 'transaction_head_id'), product: col('transaction_details', 'product_id') };
  const P = { head: col('transaction_deposit_others', 'transaction_head_id') };
  const M = Object.fromEntries(['movement_id', 'store_id', 'product_id', 'transaction_head_id', 'target_at', 'moved_at'].map((c) => [c, col('stock_movements', c)]));
  const productOf = new Map(template.productIds.map((id, i) => [id, productIds[i]]));
  const [sale, ...movements] = template.items;
  const tablesText = JSON.stringify(template.tables);
  return {
    itemsPerSale: template.items.length,
    sale(n, shop, state) {
      const node = pad(n, 3);
      const now = Date.now();
      const saleNo = ++state.sales;
      const id = Number(`${saleNo}${node}`);
      const row = [...sale.cells.row];
      row[T.transaction_head_id] = id;
      row[T.store_id] = shop.storeId;
      row[T.terminal_id] = shop.terminalId;
      row[T.terminal_tran_id] = String(saleNo);
      row[T.transaction_uuid] = `${pad(saleNo, 9)}${pad(n, 4)}`;
      for (const c of ['transaction_at', 'terminal_tran_at', 'upd_at', 'ins_at']) row[T[c]] = now;
      const children = {
        transaction_details: sale.cells.children.transaction_details.map((d) => {
          const r = [...d];
          r[D.head] = id;
          r[D.product] = productOf.get(d[D.product]);
          return r;
        }),
        transaction_deposit_others: sale.cells.children.transaction_deposit_others.map((d) => {
          const r = [...d];
          r[P.head] = id;
          return r;
        }),
        transaction_coupons: [],
      };
      const hlc = () => `${pad(now, 15)}-${pad(++state.hlc % 1_000_000, 6)}-${node}`;
      const items = [`{"seq":${++state.seq},"entity":"transaction","id":"${id}","hlc":"${hlc()}","op":"insert","cells":${JSON.stringify({ row, children })}}`];
      movements.forEach((m, j) => {
        const r = [...m.cells.row];
        const movementId = `${saleNo * 4 + j}${node}`;
        r[M.movement_id] = Number(movementId);
        r[M.store_id] = shop.storeId;
        r[M.product_id] = productOf.get(m.cells.row[M.product_id]);
        r[M.transaction_head_id] = id;
        r[M.target_at] = now;
        r[M.moved_at] = now;
        items.push(`{"seq":${++state.seq},"entity":"stock_movement","id":"${movementId}","hlc":"${hlc()}","op":"insert","cells":{"row":${JSON.stringify(r)}}}`);
      });
      return { id, at: now, items, lastSeq: state.seq };
    },
    body(n, state, items) {
      return `{"node":${n},"installation":"${state.installation}","tables":${tablesText},"items":[${items.join(',')}]}`;
    },
  };
}

// --- HTTP ------------------------------------------------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
function call(url, method, path, headers, body) {
  return new Promise((res) => {
    const started = performance.now();
    const req = httpRequest(`${url}${path}`, { method, agent, headers: { ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}), ...headers }, timeout: 60_000 }, (r) => {
      const chunks = [];
      r.on('data', (c) => chunks.push(c));
      r.on('end', () => res({ status: r.statusCode, headers: r.headers, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
      r.on('error', (e) => res({ status: 0, error: e.message, ms: performance.now() - started }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => res({ status: 0, error: e.message, ms: performance.now() - started }));
    req.end(body);
  });
}

// --- central processes ----------------------------------------------------------------------

const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

function serveCentral(dataDir, databaseUrl, { profileDir, name, extra = [] }) {
  mkdirSync(dataDir, { recursive: true });
  const execArgv = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=chain-${name}.cpuprofile`] : [];
  const args = [...execArgv, join(DIST_DIR, 'main.js'), 'serve', '--role', 'central', '--port', '0', '--data-dir', dataDir, ...(databaseUrl ? ['--database', databaseUrl] : []), ...extra];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, POS_LOG_LEVEL: 'warn' } });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`central ${name} did not get ready: ${err}`)), 60_000);
    child.stdout.on('data', (c) => {
      out += c;
      const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (line && timer) {
        clearTimeout(timer);
        res({ child, url: JSON.parse(line).url, stderr: () => err });
      }
    });
    child.once('exit', (code) => rej(new Error(`central ${name} exited ${code}: ${err}`)));
  });
}

async function stopCentral(c) {
  if (c.child.exitCode !== null || c.child.signalCode !== null) return;
  const exited = new Promise((r) => c.child.once('exit', r));
  c.child.kill('SIGTERM');
  const t = setTimeout(() => c.child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(t);
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}
/** CPU seconds used so far by the PostgreSQL server listening on `port` (its postmaster and the processes it started, alive now). */
function postgresCpuSeconds(port) {
  if (!port) return NaN;
  const stats = [];
  let postmaster;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      stats.push({ pid: Number(pid), ppid: Number(stat[1]), cpu: (Number(stat[11]) + Number(stat[12])) / 100 });
      if (!postmaster) {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        if (cmd[0].endsWith('/bin/postgres') && cmd.includes('-p') && cmd[cmd.indexOf('-p') + 1] === String(port)) postmaster = Number(pid);
      }
    } catch {
      // gone meanwhile
    }
  }
  if (!postmaster) return NaN;
  return stats.filter((s) => s.pid === postmaster || s.ppid === postmaster).reduce((n, s) => n + s.cpu, 0);
}
/** The whole machine's busy and total CPU time so far (/proc/stat), in clock ticks. */
function machineCpu() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + f[4];
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

// --- one configuration ------------------------------------------------------------------------

async function runConfig(config, template, clusterUrl, dir) {
  const cdir = join(dir, config.name);
  mkdirSync(cdir, { recursive: true });
  let databaseUrl;
  let deps;
  if (config.engine === 'postgres') {
    databaseUrl = await createDatabase(clusterUrl, `bench_chain_${config.name.replace('-', '_')}`);
    await preparePostgres(databaseUrl, new Date());
    deps = openDeps({ file: join(cdir, 'unused.sqlite'), role: 'central', node: 0, postgresUrl: databaseUrl, ...SETUP_LIMITS });
  } else {
    mkdirSync(join(cdir, 'p1'), { recursive: true });
    deps = openDeps({ file: join(cdir, 'p1', 'pos.sqlite'), role: 'central', node: 0, ...SETUP_LIMITS });
  }
  // Masters and nodes, as head office sets them up before the stores link.
  const setupStarted = performance.now();
  const masters = await chainMasters(deps, NODES);
  const nodes = new NodeRepo(syncContext(deps));
  const factory = salesFactory(template, masters.productIds);
  const stores = masters.shops.map((shop, i) => {
    const n = i + 1;
    const { secret } = nodes.add(CONTRACT, n, `Store ${n}`);
    return { n, shop, auth: basic(n, secret), state: { sales: 0, seq: 0, hlc: 0, installation: randomBytes(16).toString('hex') }, phase: Math.random(), acked: [], sent: 0, backlog: 0 };
  });
  await masters.app.close();
  deps.db.close();
  const setupMs = performance.now() - setupStarted;

  const profileDir = values['cpu-prof'] ? join(import.meta.dirname, 'results', 'profiles') : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const centrals = [];
  try {
    for (let p = 1; p <= config.processes; p++) {
      const extra = config.processes > 1 ? ['--rate-limit-shared'] : [];
      centrals.push(await serveCentral(join(cdir, `p${p}`), databaseUrl, { profileDir, name: `${config.name}-p${p}`, extra }));
    }
    const urls = centrals.map((c) => c.url);
    let rr = 0;
    const target = () => urls[rr++ % urls.length];
    const tokenRes = await call(urls[0], 'POST', `/app/${CONTRACT}/token`, { authorization: basic(HO_CLIENT.id, HO_CLIENT.secret), 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials');
    if (tokenRes.status !== 200) throw new Error(`token: ${tokenRes.status} ${tokenRes.body}`);
    const hoAuth = `Bearer ${JSON.parse(tokenRes.body).access_token}`;

    const t0 = performance.now() + WARMUP_S * 1000;
    const t1 = t0 + DURATION_S * 1000;
    const pushes = []; // { ms, sales } of the pushes begun in the window (all attempts of a refused one counted in its time)
    let acknowledged = 0; // sales acknowledged in the window
    const lags = []; // ms from a sale's arrival in its outbox to central's acknowledgement, in the window
    const failures = new Map();
    let deadLetters = 0;
    const fail = (what) => failures.set(what, (failures.get(what) ?? 0) + 1);

    // Each node behaves as a store's agent and scheduler (sync/agent.ts, sync/scheduler.ts): its
    // sales arrive at RATE / NODES a second into its outbox; a round pushes the whole outbox (up
    // to MAX_ITEMS items) INTERVAL_MS after the last round began, or at once while a full batch is
    // left; a refused push (503 while the database is away, 429) is sent again as it was.
    const perNode = RATE / NODES;
    const storeLoop = async (s) => {
      const begun = performance.now();
      let made = 0;
      const outbox = [];
      const arrive = () => {
        const due = Math.floor(((performance.now() - begun) / 1000) * perNode + s.phase);
        while (made < due) {
          outbox.push(factory.sale(s.n, s.shop, s.state));
          made++;
        }
      };
      let lastStart = begun - Math.random() * INTERVAL_MS;
      while (performance.now() < t1) {
        arrive();
        const full = outbox.length * factory.itemsPerSale >= MAX_ITEMS;
        if (!full) {
          const wait = Math.max(lastStart + INTERVAL_MS - performance.now(), outbox.length ? 0 : (1 - (((performance.now() - begun) / 1000) * perNode + s.phase - made)) / perNode * 1000);
          if (wait > 0 || !outbox.length) {
            await sleep(Math.max(1, Math.min(wait, t1 - performance.now() + 1)));
            continue;
          }
        }
        const batch = outbox.slice(0, Math.max(1, Math.floor(MAX_ITEMS / factory.itemsPerSale)));
        const body = factory.body(s.n, s.state, batch.flatMap((sale) => sale.items));
        const lastSeq = batch[batch.length - 1].lastSeq;
        lastStart = performance.now();
        s.sent += batch.length;
        for (let attempt = 0; ; attempt++) {
          const r = await call(target(), 'POST', `/sync/${CONTRACT}/push`, { authorization: s.auth }, body);
          const end = performance.now();
          if (r.status === 200) {
            const answer = JSON.parse(r.body);
            deadLetters += answer.deadLetters.length;
            if (answer.acked >= lastSeq) {
              outbox.splice(0, batch.length);
              for (const sale of batch) s.acked.push(sale.id);
              // Throughput: what was acknowledged in the window; latency: the pushes begun in it.
              if (end >= t0 && end <= t1) acknowledged += batch.length;
              if (lastStart >= t0 && lastStart <= t1) {
                pushes.push({ ms: end - lastStart, sales: batch.length });
                const nowMs = Date.now();
                for (const sale of batch) lags.push(nowMs - sale.at);
              }
            } else {
              fail(`acked ${answer.acked} < ${lastSeq}`);
              return;
            }
            break;
          }
          fail(r.status === 0 ? `socket: ${r.error}` : `HTTP ${r.status} ${r.body.slice(0, 120)}`);
          if (attempt >= 20) {
            fail('gave up a batch after 20 attempts');
            return;
          }
          await sleep(Math.min(2000, Number(r.headers?.['retry-after'] ?? 0.2) * 1000));
        }
      }
      s.backlog = outbox.length + Math.max(0, Math.floor(((t1 - begun) / 1000) * perNode + s.phase) - made);
    };

    const reports = [];
    let reportRows = 0;
    const reportLoop = async () => {
      let i = 0;
      while (performance.now() < t1) {
        const started = performance.now();
        const s = stores[i++ % stores.length];
        const now = Date.now();
        const from = new Date(now - 30 * DAY_MS).toISOString().replace(/\.\d+Z$/, 'Z');
        const to = new Date(now + DAY_MS).toISOString().replace(/\.\d+Z$/, 'Z');
        let path = `/${CONTRACT}/pos/transactions?store_id=${s.shop.storeId}&transaction_date_time-from=${encodeURIComponent(from)}&transaction_date_time-to=${encodeURIComponent(to)}&limit=1000`;
        let ok = true;
        for (let page = 0; path && page < 100; page++) {
          const r = await call(target(), 'GET', path, { authorization: hoAuth });
          if (r.status !== 200) {
            fail(`report HTTP ${r.status} ${String(r.body ?? r.error).slice(0, 120)}`);
            ok = false;
            break;
          }
          reportRows += JSON.parse(r.body).length;
          const next = /<([^>]+)>;\s*rel="?next"?/.exec(r.headers.link ?? '');
          path = next ? new URL(next[1], 'http://x').pathname + new URL(next[1], 'http://x').search : undefined;
        }
        const end = performance.now();
        if (ok && started >= t0 && started <= t1) reports.push(end - started);
        await sleep(Math.max(0, REPORT_EVERY_MS - (end - started)));
      }
    };

    const pgPort = databaseUrl ? new URL(databaseUrl).port : undefined;
    const cpuAt = () => ({ centrals: centrals.map((c) => cpuSeconds(c.child.pid)), postgres: postgresCpuSeconds(pgPort), machine: machineCpu(), self: process.cpuUsage() });
    let cpu0;
    const marker = sleep(WARMUP_S * 1000).then(() => (cpu0 = cpuAt()));
    let cpu1;
    const marker1 = sleep((WARMUP_S + DURATION_S) * 1000).then(() => (cpu1 = cpuAt()));
    await Promise.all([...stores.map(storeLoop), reportLoop(), marker, marker1]);
    const drainedMs = performance.now() - t1;

    // What a store's pull costs now: every store pulls the contract's change log, the stock
    // balance entries of every other store's sales included. One node pulls from the start, pages of 500.
    let pulledRows = 0;
    let pullMs = 0;
    for (let cursor = 0, page = 0; page < PULL_PAGES; page++) {
      const r = await call(urls[page % urls.length], 'GET', `/sync/${CONTRACT}/pull?cursor=${cursor}&limit=500`, { authorization: stores[0].auth });
      if (r.status !== 200) {
        fail(`pull HTTP ${r.status} ${String(r.body ?? r.error).slice(0, 120)}`);
        break;
      }
      const answer = JSON.parse(r.body);
      pulledRows += answer.items.length;
      pullMs += r.ms;
      cursor = answer.cursor;
      if (!answer.more) break;
    }

    for (const c of centrals) await stopCentral(c);
    const centralErrors = centrals.map((c) => c.stderr()).join('').trim();

    // What central holds, by SQL.
    const acked = stores.flatMap((s) => s.acked);
    const sent = stores.reduce((n, s) => n + s.sent, 0);
    const held = await heldAtCentral(config, databaseUrl, join(cdir, 'p1', 'pos.sqlite'));
    const changeLogRows = held.changeLogRows;
    const lost = acked.filter((id) => !held.ids.has(id)).length;
    // A sale is doubled when its rows are there more than once or its stock moved more than once.
    const expectedMovements = held.ids.size * template.items.length - held.ids.size;
    const doubled = Math.max(0, held.transactionRows - held.ids.size) + Math.max(0, held.movementRows - expectedMovements) + Math.max(0, held.unitsTaken - held.ids.size * UNITS_PER_SALE);
    const moreThanSent = Math.max(0, held.ids.size - sent);

    const pushMs = pushes.map((p) => p.ms).sort((a, b) => a - b);
    const lagMs = lags.sort((a, b) => a - b);
    const reportMs = reports.sort((a, b) => a - b);
    const salesInWindow = acknowledged;
    const mach = { busy: cpu1.machine.busy - cpu0.machine.busy, total: cpu1.machine.total - cpu0.machine.total };
    const selfCpuS = (cpu1.self.user - cpu0.self.user + cpu1.self.system - cpu0.self.system) / 1e6;
    return {
      config: config.name,
      engine: config.engine,
      processes: config.processes,
      nodes: NODES,
      offeredPerSecond: RATE,
      seconds: DURATION_S,
      salesPerSecond: Math.round(salesInWindow / DURATION_S),
      pushesPerSecond: Math.round(pushes.length / DURATION_S),
      salesPerPush: Number((pushes.reduce((n, p) => n + p.sales, 0) / Math.max(1, pushes.length)).toFixed(1)),
      lagP99Ms: Math.round(percentile(lagMs, 99)),
      backlogAtEnd: stores.reduce((n, s) => n + s.backlog, 0),
      pushP50Ms: Math.round(percentile(pushMs, 50)),
      pushP99Ms: Math.round(percentile(pushMs, 99)),
      pushMaxMs: Math.round(pushMs[pushMs.length - 1] ?? NaN),
      reports: reportMs.length,
      reportP50Ms: Math.round(percentile(reportMs, 50)),
      reportP99Ms: Math.round(percentile(reportMs, 99)),
      reportRowsAvg: reports.length ? Math.round(reportRows / Math.max(1, reports.length)) : 0,
      // Balance entries every store pulls, per sale and at the sustained rate (pushes of ~salesPerPush sales).
      balanceRowsPerSale: held.ids.size ? Number((changeLogRows / held.ids.size).toFixed(2)) : undefined,
      changeLogRowsPerSecond: held.ids.size ? Math.round((changeLogRows / held.ids.size) * (salesInWindow / DURATION_S)) : undefined,
      pullRowsPerSecond: pullMs ? Math.round((pulledRows / pullMs) * 1000) : undefined,
      sent,
      acked: acked.length,
      atCentral: held.ids.size,
      lost,
      doubled: doubled + moreThanSent,
      deadLetters,
      failures: Object.fromEntries(failures),
      centralCpu: centrals.map((c, i) => Number(((cpu1.centrals[i] - cpu0.centrals[i]) / DURATION_S).toFixed(2))),
      postgresCpu: config.engine === 'postgres' ? Number(((cpu1.postgres - cpu0.postgres) / DURATION_S).toFixed(2)) : undefined,
      // CPU time a sale costs central (its processes and PostgreSQL): what the machine's 2 cores allow when nothing else runs.
      cpuMsPerSale: salesInWindow
        ? Number(((1000 * (cpu1.centrals.reduce((a, b) => a + b, 0) - cpu0.centrals.reduce((a, b) => a + b, 0) + (config.engine === 'postgres' ? cpu1.postgres - cpu0.postgres : 0))) / salesInWindow).toFixed(3))
        : undefined,
      generatorCpu: Number((selfCpuS / DURATION_S).toFixed(2)),
      machineBusy: Number((mach.busy / mach.total).toFixed(2)),
      setupMs: Math.round(setupMs),
      drainAfterWindowMs: Math.round(drainedMs),
      centralStderr: centralErrors ? centralErrors.slice(0, 2000) : undefined,
      databaseUrl,
    };
  } finally {
    for (const c of centrals) await stopCentral(c).catch(() => {});
  }
}

async function heldAtCentral(config, databaseUrl, file) {
  const sql = {
    ids: 'SELECT transaction_head_id AS id FROM transactions WHERE contract_id = $1',
    transactions: 'SELECT count(*) AS n FROM transactions WHERE contract_id = $1',
    movements: 'SELECT count(*) AS n FROM stock_movements WHERE contract_id = $1',
    // Each sale takes UNITS_PER_SALE from its store's stock: what the stock rows say was taken.
    units: 'SELECT -sum(CAST(stock_amount AS NUMERIC)) AS n FROM stock WHERE contract_id = $1',
    // The balance entries the sales logged for every store to pull.
    changeLog: "SELECT count(*) AS n FROM change_log WHERE contract_id = $1 AND op = 'balance'",
  };
  if (config.engine === 'postgres') {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      const q = async (s) => (await c.query(s, [CONTRACT])).rows;
      return {
        ids: new Set((await q(sql.ids)).map((r) => Number(r.id))),
        transactionRows: Number((await q(sql.transactions))[0].n),
        movementRows: Number((await q(sql.movements))[0].n),
        unitsTaken: Number((await q(sql.units))[0].n ?? 0),
        changeLogRows: Number((await q(sql.changeLog))[0].n),
      };
    } finally {
      await c.end();
    }
  }
  const db = new Database(file, { readonly: true });
  try {
    const q = (s) => db.prepare(s.replace('$1', '?')).all(CONTRACT);
    return {
      ids: new Set(q(sql.ids).map((r) => Number(r.id))),
      transactionRows: Number(q(sql.transactions)[0].n),
      movementRows: Number(q(sql.movements)[0].n),
      unitsTaken: Number(q(sql.units)[0].n ?? 0),
      changeLogRows: Number(q(sql.changeLog)[0].n),
    };
  } finally {
    db.close();
  }
}

/**
 * The bare baseline: the same batches written straight into a fresh database of the engine by
 * the registry's set-based writer (RecordStore.writeMany, each entity's records of a batch
 * together), one transaction per batch, in this process, on one connection: no HTTP, no
 * authentication, no checks, no high-water mark, no stock quantities, no HLC, no change log.
 */
async function bareBaseline(engine, template, clusterUrl, dir) {
  let deps;
  const cdir = join(dir, `bare-${engine}`);
  mkdirSync(cdir, { recursive: true });
  if (engine === 'postgres') {
    const url = await createDatabase(clusterUrl, `bench_chain_bare`);
    await preparePostgres(url, new Date());
    deps = openDeps({ file: join(cdir, 'unused.sqlite'), role: 'central', node: 0, postgresUrl: url, ...SETUP_LIMITS });
  } else {
    deps = openDeps({ file: join(cdir, 'pos.sqlite'), role: 'central', node: 0, ...SETUP_LIMITS });
  }
  try {
    const masters = await chainMasters(deps, Math.min(NODES, 20));
    await masters.app.close();
    const factory = salesFactory(template, masters.productIds);
    const records = new RecordStore(deps.db);
    const defs = { transaction: entityNamed('transaction'), stock_movement: entityNamed('stock_movement') };
    const states = masters.shops.map(() => ({ sales: 0, seq: 0, hlc: 0, installation: '0'.repeat(32) }));
    const write = deps.db.transaction((items, tables) => {
      for (const [entity, def] of Object.entries(defs)) {
        const mine = items.filter((item) => item.entity === entity);
        records.writeMany(def, CONTRACT, mine.map((item) => ({ id: item.id, record: expandCompact(def, tables, item.cells) })));
      }
    });
    const seconds = Math.min(DURATION_S, values.quick ? 3 : 10);
    let writingMs = 0;
    let sales = 0;
    // A batch as the agents' pushes carry at the offered rate.
    const BARE_SALES_PER_BATCH = Math.max(1, Math.min(Math.floor(MAX_ITEMS / factory.itemsPerSale), Math.round((RATE / NODES) * (INTERVAL_MS / 1000))));
    for (let b = 0; writingMs < seconds * 1000; b++) {
      const k = b % masters.shops.length;
      const batch = Array.from({ length: BARE_SALES_PER_BATCH }, () => factory.sale(k + 1, masters.shops[k], states[k]));
      const body = JSON.parse(factory.body(k + 1, states[k], batch.flatMap((sale) => sale.items)));
      const started = performance.now();
      deps.writer.write(() => write(body.items, body.tables));
      writingMs += performance.now() - started;
      sales += BARE_SALES_PER_BATCH;
    }
    return Math.round(sales / (writingMs / 1000));
  } finally {
    deps.db.close();
  }
}

// --- main --------------------------------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'pos-bench-chain-'));
let cluster;
const watchdog = setTimeout(() => {
  console.error('chain: watchdog: the run took too long; stopping');
  for (const c of children) c.kill('SIGKILL');
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}, (CONFIGS.length * (DURATION_S + WARMUP_S + 150) + 300) * 1000);
watchdog.unref();
try {
  if (CONFIGS.some((c) => c.engine === 'postgres')) cluster = await startCluster();
  const template = await saleTemplate(dir);
  const results = [];
  const bare = {};
  for (const config of CONFIGS) {
    if (!(config.engine in bare)) bare[config.engine] = await bareBaseline(config.engine, template, cluster?.url, dir);
    const r = await runConfig(config, template, cluster?.url, dir);
    r.bareSalesPerSecond = bare[config.engine];
    r.ratioToBare = Number((r.salesPerSecond / r.bareSalesPerSecond).toFixed(3));
    const pgTarget = config.engine === 'postgres' ? r.salesPerSecond >= TARGETS.pgSalesPerSecond : true;
    r.ok = pgTarget && r.pushP99Ms <= TARGETS.pushP99Ms && r.reportP99Ms <= TARGETS.reportP99Ms && r.lost === 0 && r.doubled === 0 && Object.keys(r.failures).length === 0;
    results.push(r);
    const { databaseUrl, centralStderr, ...shown } = r;
    console.log(JSON.stringify(shown));
    if (centralStderr) console.log(`  central's stderr: ${centralStderr.split('\n').slice(0, 5).join(' | ')}`);
    console.log(
      `chain ${r.config}: ${r.salesPerSecond} sales/s of ${r.offeredPerSecond} offered (${r.pushesPerSecond} pushes/s of ~${r.salesPerPush}, ${NODES} nodes, ${DURATION_S} s, backlog ${r.backlogAtEnd}); ` +
        `push p50 ${r.pushP50Ms} ms p99 ${r.pushP99Ms} ms; sale to central p99 ${r.lagP99Ms} ms; report p99 ${r.reportP99Ms} ms (${r.reports} reports, ~${r.reportRowsAvg} sales each); ` +
        `lost ${r.lost}, doubled ${r.doubled}; change log ${r.changeLogRowsPerSecond} balance rows/s, a store pulls ${r.pullRowsPerSecond} rows/s; bare ${r.bareSalesPerSecond}/s, ratio ${r.ratioToBare}; central cpu ${r.centralCpu.join('+')}${r.postgresCpu === undefined ? '' : `, PostgreSQL cpu ${r.postgresCpu}`}, ${r.cpuMsPerSale} cpu-ms/sale, machine ${Math.round(r.machineBusy * 100)}% busy` +
        `${r.ok ? '' : '  BELOW TARGET'}`,
    );
  }
  if (!pgAvailable) console.log('chain, central on PostgreSQL: not run (PostgreSQL is not installed: apt-get install postgresql)');
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, 'results', 'latest-chain.json'), JSON.stringify({ targets: TARGETS, results: results.map(({ databaseUrl, ...r }) => r) }, null, 2));
  console.log(
    `chain targets: >= ${TARGETS.pgSalesPerSecond} sales/s on PostgreSQL, push p99 <= ${TARGETS.pushP99Ms} ms, report p99 <= ${TARGETS.reportP99Ms} ms, 0 lost, 0 doubled: ` +
      (results.every((r) => r.ok) ? 'met' : `not met by ${results.filter((r) => !r.ok).map((r) => r.config).join(', ')}`),
  );
  if (values.check && !results.every((r) => r.ok)) process.exitCode = 2;
  if (results.some((r) => r.lost > 0 || r.doubled > 0)) process.exitCode = 1;
} finally {
  clearTimeout(watchdog);
  for (const c of children) c.kill('SIGKILL');
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}

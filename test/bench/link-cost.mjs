// What a link to head office costs the store per sale, in CPU time (issue 11): the same sales
// registered over HTTP on an unlinked store and on a linked one whose scheduler pushes them to a
// central in another process, each run until the outbox is empty, so the linked figure holds
// every bit of the store's own sync work (outbox rows, reading, serialising, sending, acks).
// CPU time of the store process per sale is far less sensitive to other load than req/s.
//   node test/bench/link-cost.mjs [--sales N] [--rounds R] [--shipped-schedule]
// Unlinked and linked runs alternate R times (default 3); the medians give the ratio, so one
// round disturbed by other load on the box does not decide it.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { saleBody, mastersByApi } from './sales.mjs';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const { values } = parseArgs({ options: { sales: { type: 'string', default: '3000' }, rounds: { type: 'string', default: '3' }, child: { type: 'string' }, 'shipped-schedule': { type: 'boolean', default: false } } });
const SHIPPED = values['shipped-schedule'];
const SALES = Number(values.sales);
const CONCURRENCY = 8;

async function storeRun(linked) {
  const dir = mkdtempSync(join(tmpdir(), 'pos-linkcost-'));
  const { openDeps } = await import(`${DIST}server/deps.js`);
  const { buildApp } = await import(`${DIST}server/app.js`);
  const { syncModule } = await import(`${DIST}sync/module.js`);
  const { ContractRepo } = await import(`${DIST}server/platform/contracts/repo.js`);
  const { AuthRepo } = await import(`${DIST}server/platform/auth/repo.js`);
  const { ALL_SCOPES } = await import(`${DIST}server/platform/http/scopes.js`);
  const deps = openDeps({ file: join(dir, 'store.sqlite'), role: 'store' });
  new ContractRepo(deps.db, deps.writer, deps.clock).create({ contractId: 'bench', name: 'Bench', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
  new AuthRepo(deps.db, deps.writer, deps.clock).createClient({ clientId: 'c', contractId: 'bench', secret: 's', scopes: ALL_SCOPES });
  const app = await buildApp(deps, [syncModule]);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${app.server.address().port}`;
  const tok = await (await fetch(`${origin}/app/bench/token`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from('c:s').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })).json();
  const headers = { authorization: `Bearer ${tok.access_token}`, 'content-type': 'application/json' };
  const api = async (method, path, body) => {
    const res = await fetch(`${origin}/bench/pos${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const template = JSON.stringify(saleBody(await mastersByApi(api)));
  let central;
  let stop = async () => {};
  const depth = deps.db.prepare('SELECT count(*) AS n FROM outbox');
  if (linked) {
    const main = `${DIST}main.js`;
    const centralDir = mkdtempSync(join(tmpdir(), 'pos-linkcost-central-'));
    const cli = (...args) => execFileSync(process.execPath, [main, ...args, '--data-dir', centralDir], { encoding: 'utf8' });
    cli('contract', 'create', '--id', 'bench', '--plan', 'retail_business');
    const { secret } = JSON.parse(cli('node', 'add', '--contract', 'bench', '--node', String(deps.ids.node)));
    central = spawn(process.execPath, [main, 'serve', '--role', 'central', '--port', '0', '--data-dir', centralDir], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, POS_LOG_LEVEL: 'warn' } });
    // Central stands for another machine: on this box it yields the cores to the store (as in sales.mjs).
    setPriority(central.pid, 19);
    const url = await new Promise((resolve) => {
      let out = '';
      central.stdout.on('data', (c) => {
        out += c;
        const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
        if (line) resolve(JSON.parse(line).url);
      });
    });
    const { LinkRepo } = await import(`${DIST}sync/link.js`);
    const { startSyncScheduler } = await import(`${DIST}sync/scheduler.js`);
    new LinkRepo(deps).link({ contractId: 'bench', centralUrl: url, node: deps.ids.node, secret });
    // --shipped-schedule: the scheduler as it ships (rounds every 2 s while there is work);
    // otherwise every 200 ms, ten times as many rounds, each with its fixed costs.
    stop = startSyncScheduler(deps, app.log, SHIPPED ? {} : { intervalMs: 200, busyMs: 20 });
    while (depth.get().n > 0) await new Promise((r) => setTimeout(r, 50)); // masters pushed before measuring
  }
  // The load comes from the parent process, so this process's CPU time is the store's alone.
  const started = process.cpuUsage();
  const t0 = performance.now();
  process.send({ type: 'ready', origin, headers, template });
  await new Promise((resolve) => process.once('message', resolve));
  while (linked && depth.get().n > 0) await new Promise((r) => setTimeout(r, 20));
  const cpu = process.cpuUsage(started);
  const wallMs = performance.now() - t0;
  await stop();
  await app.close();
  deps.db.close();
  central?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  return { cpuUsPerSale: (cpu.user + cpu.system) / SALES, userUsPerSale: cpu.user / SALES, systemUsPerSale: cpu.system / SALES, wallMs };
}

if (values.child) {
  process.send({ type: 'result', ...(await storeRun(values.child === 'linked')) });
  process.exit(0);
}

/** Sends the sales from this process, CONCURRENCY at a time, each with its own terminalTranId. */
async function load({ origin, headers, template }, kind) {
  let next = 0;
  const worker = async () => {
    while (next < SALES) {
      const seq = ++next;
      const res = await fetch(`${origin}/bench/pos/transactions`, { method: 'POST', headers, body: template.replace('{{seq}}', `${kind}${seq}`) });
      if (res.status !== 200) throw new Error(`sale ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const { fork } = await import('node:child_process');
const run = (kind) => new Promise((resolve, reject) => {
  const c = fork(fileURLToPath(import.meta.url), ['--child', kind, '--sales', String(SALES), ...(SHIPPED ? ['--shipped-schedule'] : [])], { execArgv: process.env.LINK_COST_PROF ? ['--cpu-prof', `--cpu-prof-name=link-cost-${kind}.cpuprofile`] : [] });
  c.on('message', (msg) => {
    if (msg.type === 'ready') load(msg, kind).then(() => c.send({ type: 'sent' }), reject);
    else resolve(msg);
  });
  c.on('exit', (code) => code && reject(new Error(`${kind} exited ${code}`)));
});
const ROUNDS = Math.max(1, Number(values.rounds) || 1);
const split = (r) => `${r.cpuUsPerSale.toFixed(0)} µs (user ${r.userUsPerSale.toFixed(0)}, system ${r.systemUsPerSale.toFixed(0)})`;
const runs = { unlinked: [], linked: [] };
for (let round = 1; round <= ROUNDS; round++) {
  const unlinked = await run('unlinked');
  const linked = await run('linked');
  runs.unlinked.push(unlinked);
  runs.linked.push(linked);
  console.log(`  round ${round}: CPU per sale unlinked ${split(unlinked)}, linked ${split(linked)}; ratio ${(unlinked.cpuUsPerSale / linked.cpuUsPerSale).toFixed(2)}`);
}
const median = (list) => {
  const sorted = list.map((r) => r.cpuUsPerSale).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const [u, l] = [median(runs.unlinked), median(runs.linked)];
console.log(`link-cost: ${SALES} sales x ${ROUNDS} rounds (sync rounds ${SHIPPED ? 'as shipped, every 2 s' : 'every 200 ms'}), median CPU per sale unlinked ${u.toFixed(0)} µs, linked ${l.toFixed(0)} µs (pushed to central until the outbox was empty)`);
console.log(`link-cost ratio unlinked/linked CPU per sale (medians): ${(u / l).toFixed(2)} (target >= 0.85)`);

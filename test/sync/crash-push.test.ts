import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../server/platform/http/scopes.js';
import { AuthRepo } from '../../server/platform/auth/repo.js';
import { NodeRepo } from '../../sync/central.js';
import { syncContext } from '../../sync/context.js';
import { LinkRepo } from '../../sync/link.js';
import { CONTRACT, count, freePort, makeInstance, saleTotals, type Instance } from './helpers.js';

/**
 * The store process SIGKILLed mid-push (issue 11): the compiled server runs as a linked store in
 * its own process; it is killed as soon as central has taken its first batches, restarted on the
 * same data: central holds each sale exactly once and nothing committed at the store is missing.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const OUT = '.test-dist-sync';
const MAIN = join(ROOT, OUT, 'main.js');
const SALES = 300;

function serveStore(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, POS_LOG_LEVEL: 'error', POS_SYNC_BATCH_ITEMS: '10', POS_SYNC_INTERVAL_MS: '50', POS_SYNC_BACKOFF_MAX_MS: '200' },
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve did not get ready: ${out}`)), 20000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (line) {
        clearTimeout(timer);
        resolve({ child, url: (JSON.parse(line) as { url: string }).url });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill('SIGKILL');
  });

describe('a store killed in the middle of a push', () => {
  let central: Instance;
  let store: Instance;
  beforeAll(() => {
    execFileSync(process.execPath, [join(ROOT, 'build', 'compile.mjs'), '--out-dir', OUT], { cwd: ROOT, stdio: 'pipe' });
  }, 180000);
  afterAll(async () => {
    await central?.close();
    await store?.close();
    rmSync(join(ROOT, OUT), { recursive: true, force: true });
  });

  it('central holds each record exactly once after SIGKILL and restart; nothing committed is missing', async () => {
    central = await makeInstance('central', 0);
    const port = await freePort();
    await central.up(port);
    const { secret } = new NodeRepo(syncContext(central.deps)).add(CONTRACT, 8);
    const shop = (await central.ok('POST', '/stores', { storeName: 'Main' })).storeId;

    // The store's data dir, prepared in-process (contract, client, link), then served by the compiled CLI.
    store = await makeInstance('store', 8);
    new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl: `http://127.0.0.1:${port}`, node: 8, secret });
    const clientId = randomBytes(8).toString('hex');
    const clientSecret = randomBytes(16).toString('hex');
    new AuthRepo(store.deps.db, store.deps.writer, store.clock).createClient({ clientId, contractId: CONTRACT, secret: clientSecret, scopes: ALL_SCOPES });
    const file = join(store.dir, 'pos.sqlite');
    store.deps.db.close();
    store.deps.db = new Database(file, { readonly: true }); // the test only reads it from here on

    let first = await serveStore(store.dir);
    const tokenRes = await fetch(`${first.url}/app/${CONTRACT}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    const api = (url: string, method: string, path: string, body?: unknown) =>
      fetch(`${url}/${CONTRACT}/pos${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const wait = async (check: () => boolean | Promise<boolean>, ms = 20_000) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        if (await check()) return true;
        await new Promise((r) => setTimeout(r, 5));
      }
      return false;
    };
    expect(await wait(async () => (await api(first.url, 'GET', `/stores/${shop}`)).status === 200)).toBe(true);
    const terminal = ((await (await api(first.url, 'POST', '/terminals', { storeId: shop, terminalName: 'R1' })).json()) as { terminalId: string }[])[0]!.terminalId;
    expect(await wait(() => count(store.deps, 'SELECT count(*) FROM outbox') === 0)).toBe(true);

    // Central goes down; a day of sales queues up at the store.
    await central.down();
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    for (let i = 0; i < SALES; i++) {
      const res = await api(first.url, 'POST', '/transactions', {
        transactionHeadDivision: '1', storeId: shop, terminalId: terminal, terminalTranDateTime: at,
        details: [{ transactionDetailId: '1', transactionDetailDivision: '1', productName: 'Item', salesPrice: String(100 + i), quantity: '1', taxDivision: '2' }],
      });
      expect(res.status).toBe(200);
    }
    const queued = count(store.deps, 'SELECT count(*) FROM outbox');
    expect(queued).toBe(SALES);

    // Central comes back; the store is killed as soon as central has taken part of the outbox.
    const hwm = () => count(central.deps, 'SELECT high_water FROM sync_nodes WHERE node = 8');
    const before = hwm();
    await central.up(port);
    expect(await wait(() => hwm() > before)).toBe(true);
    await killed(first.child);
    const atKill = count(central.deps, 'SELECT count(*) FROM transactions');
    expect(atKill).toBeLessThan(SALES);

    first = await serveStore(store.dir);
    try {
      expect(await wait(() => count(store.deps, 'SELECT count(*) FROM outbox') === 0)).toBe(true);
    } finally {
      await killed(first.child);
    }
    expect(saleTotals(central.deps)).toEqual(saleTotals(store.deps));
    expect(count(central.deps, 'SELECT count(*) FROM transactions')).toBe(SALES);
    expect(count(central.deps, 'SELECT count(DISTINCT transaction_head_id) FROM transaction_details')).toBe(SALES);
    expect(count(central.deps, 'SELECT count(*) FROM dead_letters')).toBe(0);
  }, 120_000);
});

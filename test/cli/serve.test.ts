import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestVersion, loadMigrations, migrate } from '../../server/db/migrate.js';
import { openDatabase } from '../../server/db/open.js';

// The CLI as a user runs it: compiled, in its own process, on a real data directory.
const ROOT = join(import.meta.dirname, '..', '..');
const OUT = '.test-dist';
const MAIN = join(ROOT, OUT, 'main.js');

interface Ready {
  ready: true;
  url: string;
  role: string;
  contracts: {
    contractId: string;
    plan: string;
    baseUrl: string;
    tokenUrl: string;
    clientId: string;
    clientSecret: string;
    staffUsername: string;
    staffPassword: string;
  }[];
}

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: 20000 });
  return { code: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
}

/** Starts `serve`, resolves with its ready line; the child is killed by the caller. */
function serve(args: string[]): Promise<{ child: ChildProcess; ready: Ready }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve did not get ready: ${out} ${err}`)), 15000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (line) {
        clearTimeout(timer);
        resolve({ child, ready: JSON.parse(line) as Ready });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });

async function token(c: Ready['contracts'][number], body = 'grant_type=client_credentials&scope=pos.stores:read pos.products:read pos.customers:read'): Promise<string> {
  const res = await fetch(c.tokenUrl, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('pos-backoffice CLI', () => {
  let dataDir: string;
  beforeAll(() => {
    execFileSync(process.execPath, [join(ROOT, 'build', 'compile.mjs'), '--out-dir', OUT], { cwd: ROOT, stdio: 'pipe' });
    dataDir = mkdtempSync(join(tmpdir(), 'pos-cli-'));
  }, 120000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serve --demo creates the demo contracts once, prints URLs and credentials, and reuses the data', async () => {
    const first = await serve(['--demo', '--port', '0', '--data-dir', dataDir]);
    const { ready } = first;
    expect(ready.role).toBe('store');
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.contracts.map((c) => [c.contractId, c.plan])).toEqual([
      ['demo-retail', 'retail_business'],
      ['demo-food', 'food_business'],
      ['demo-premium', 'premium_plus'],
    ]);
    const retail = ready.contracts[0]!;
    expect(retail.baseUrl).toBe(`${ready.url}/demo-retail/pos`);
    expect(retail.tokenUrl).toBe(`${ready.url}/app/demo-retail/token`);

    const bearer = await token(retail);
    const stores = await fetch(`${retail.baseUrl}/stores`, { headers: { authorization: `Bearer ${bearer}` } });
    expect(stores.status).toBe(200);
    const firstStores = (await stores.json()) as { storeId: string }[];
    expect(firstStores.length).toBe(2);
    const get = async (c: Ready['contracts'][number], bearerToken: string, path: string) => {
      const res = await fetch(`${c.baseUrl}${path}`, { headers: { authorization: `Bearer ${bearerToken}` } });
      expect(res.status, path).toBe(200);
      return res.json() as Promise<Record<string, string>[]>;
    };
    const deepest = await get(retail, bearer, '/categories?level=3');
    expect(deepest.map((c) => c.categoryName)).toEqual(['T-shirts', 'Shirts']);
    const one = (await get(retail, bearer, `/categories/${deepest[0]!.categoryId}?fields=categoryName,level`)) as unknown as Record<string, string>;
    expect(one).toEqual({ categoryName: 'T-shirts', level: '3' });
    const food = ready.contracts[1]!;
    const foodToken = await token(food);
    expect((await get(food, foodToken, '/customer_groups')).map((g) => g.label)).toEqual(['Men', 'Women', 'Family', 'Under 20', '20s', '30s', '40s', '50 and over']);
    expect((await get(food, foodToken, '/customer_group_sections')).map((g) => g.customerGroupSectionLabel)).toEqual(['Customer group', 'Age group']);
    await demoDataOfIssue3(ready);
    expect(await stop(first.child)).toBe(0);

    const second = await serve(['--demo', '--port', '0', '--data-dir', dataDir]);
    expect(second.ready.contracts.map((c) => [c.clientId, c.clientSecret])).toEqual(ready.contracts.map((c) => [c.clientId, c.clientSecret]));
    const again = await fetch(`${second.ready.contracts[0]!.baseUrl}/stores`, {
      headers: { authorization: `Bearer ${await token(second.ready.contracts[0]!)}` },
    });
    expect(await again.json()).toEqual(firstStores);
    expect(await stop(second.child)).toBe(0);
  });

  /** Every endpoint of issue 3 has something to show on the demo contract whose plan allows it. */
  async function demoDataOfIssue3(ready: Ready) {
    const [retail, food, premium] = ready.contracts as [Ready['contracts'][number], Ready['contracts'][number], Ready['contracts'][number]];
    const call = async (c: Ready['contracts'][number], bearer: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${c.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    };
    const all = (c: Ready['contracts'][number]) => token(c, 'grant_type=client_credentials');
    const ok = async (c: Ready['contracts'][number], bearer: string, path: string) => {
      const res = await call(c, bearer, 'GET', path);
      expect(res.status, path).toBe(200);
      return res.body as Record<string, unknown>[];
    };

    const r = await all(retail);
    const [store] = (await ok(retail, r, '/stores')) as { storeId: string }[];
    expect((await ok(retail, r, '/terminals')).length).toBeGreaterThanOrEqual(3);
    expect((await ok(retail, r, '/payment_terminals')).length).toBe(1);
    expect((await ok(retail, r, '/products')).length).toBeGreaterThan(0);
    expect((await ok(retail, r, '/products/reserve_item_labels')).length).toBeGreaterThan(0);
    expect((await ok(retail, r, '/staff_ranks')).length).toBe(3);
    const budgets = await ok(retail, r, `/budget?store_id=${store!.storeId}`);
    expect(budgets.length).toBeGreaterThan(0);

    const f = await all(food);
    const [foodStore] = (await ok(food, f, '/stores')) as { storeId: string }[];
    expect((await ok(food, f, `/menu_conditions/stores/${foodStore!.storeId}`)).length).toBeGreaterThan(0);
    expect((await ok(food, f, '/topping_groups')).length).toBe(3);
    expect((await ok(food, f, '/tables')).length).toBeGreaterThan(0);
    const reservations = (await ok(food, f, '/reservations')) as { id: string; tableUseId: string | null }[];
    expect(reservations.length).toBe(4);
    expect(reservations.some((x) => x.tableUseId)).toBe(true);

    // A staff member logs in (grant_type=password) and updates a staff record (4.4, premium plus only).
    const p = await token(premium, `grant_type=password&username=${premium.staffUsername}&password=${premium.staffPassword}`);
    const [staff] = (await ok(premium, p, '/staffs')) as { staffId: string }[];
    expect(await call(premium, p, 'PATCH', `/staffs/${staff!.staffId}`, { memo: 'checked' })).toEqual({ status: 200, body: { staffId: staff!.staffId } });
  }

  it('manages contracts and clients with JSON output', () => {
    const dir = ['--data-dir', dataDir];
    const created = cli(['contract', 'create', '--id', 'shop-9', '--plan', 'premium', '--name', 'Shop Nine', ...dir]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(created.stdout)).toEqual({
      contractId: 'shop-9', name: 'Shop Nine', plan: 'premium', timeZone: 'Asia/Tokyo',
      settings: {
        memberHeadOfficeLinkage: false,
        catCctLinkage: false,
        maxSalesTerminals: 10,
        maxSelfCheckoutTerminals: 0,
        maxSmartIdEngines: 0,
        taxRounding: '1',
        discountRoundingDivision: '0',
        inventoryApproval: false,
        shippedShipmentEditForbidden: false,
        orderSplitUnit: '0',
      },
    });

    expect(cli(['contract', 'create', '--id', 'shop-9', '--plan', 'premium', ...dir])).toEqual({ code: 1, stdout: '', stderr: 'pos-backoffice: contract shop-9 already exists' });
    expect(JSON.parse(cli(['contract', 'set-plan', '--id', 'shop-9', '--plan', 'food_business', ...dir]).stdout).plan).toBe('food_business');
    const set = cli(['contract', 'set', '--id', 'shop-9', '--member-head-office-linkage', 'on', '--max-self-checkout-terminals', '3', ...dir]);
    expect(JSON.parse(set.stdout).settings).toEqual({
      memberHeadOfficeLinkage: true,
      catCctLinkage: false,
      maxSalesTerminals: 10,
      maxSelfCheckoutTerminals: 3,
      maxSmartIdEngines: 0,
      taxRounding: '1',
      discountRoundingDivision: '0',
      inventoryApproval: false,
      shippedShipmentEditForbidden: false,
      orderSplitUnit: '0',
    });
    const inventory = cli(['contract', 'set', '--id', 'shop-9', '--inventory-approval', 'on', '--shipped-shipment-edit', 'forbidden', '--order-split-unit', 'supplier', ...dir]);
    expect(JSON.parse(inventory.stdout).settings).toMatchObject({ inventoryApproval: true, shippedShipmentEditForbidden: true, orderSplitUnit: '2' });
    const rounding = cli(['contract', 'set', '--id', 'shop-9', '--tax-rounding', 'half-up', '--discount-rounding', 'up', ...dir]);
    expect(JSON.parse(rounding.stdout).settings).toMatchObject({ taxRounding: '0', discountRoundingDivision: '2' });
    expect(cli(['contract', 'set', '--id', 'shop-9', '--tax-rounding', 'bankers', ...dir])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--tax-rounding must be half-up, down or up, got "bankers"'),
    });
    expect(JSON.parse(cli(['contract', 'set', '--id', 'shop-9', '--cat-cct-linkage', 'on', ...dir]).stdout).settings).toMatchObject({ memberHeadOfficeLinkage: true, catCctLinkage: true });
    expect(cli(['contract', 'set', '--id', 'nope', '--cat-cct-linkage', 'on', ...dir])).toMatchObject({ code: 1, stderr: 'pos-backoffice: contract nope does not exist' });
    expect(cli(['contract', 'set-plan', '--id', 'nope', '--plan', 'premium', ...dir])).toMatchObject({ code: 1, stderr: 'pos-backoffice: contract nope does not exist' });

    const client = JSON.parse(cli(['client', 'create', '--contract', 'shop-9', '--scopes', 'pos.stores:read', ...dir]).stdout);
    expect(Object.keys(client)).toEqual(['clientId', 'clientSecret']);
    expect(cli(['client', 'create', '--contract', 'nope', ...dir])).toMatchObject({ code: 1, stderr: 'pos-backoffice: contract nope does not exist' });

    const seeded = JSON.parse(cli(['seed', '--contract', 'shop-9', ...dir]).stdout);
    expect(seeded).toMatchObject({ contractId: 'shop-9', seeded: true, categories: 6, customerGroups: 8 }); // food_business by now
    expect(seeded.stores).toHaveLength(2);
    expect(JSON.parse(cli(['seed', '--contract', 'shop-9', ...dir]).stdout)).toMatchObject({ seeded: false });
  });

  it('exits 2 with a one-line reason on bad arguments', () => {
    const r = cli(['contract', 'create', '--id', 'x', '--plan', 'gold', '--data-dir', dataDir]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^pos-backoffice: --plan must be one of/);
    expect(cli(['--help']).stdout).toMatch(/^usage: pos-backoffice/);
  });

  it('refuses a database written by a newer version and leaves it untouched', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pos-newer-'));
    expect(cli(['contract', 'create', '--id', 'a', '--plan', 'premium', '--data-dir', dir]).code).toBe(0);
    const db = new Database(join(dir, 'pos.sqlite'));
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 'x')").run();
    db.close();
    const r = cli(['contract', 'create', '--id', 'b', '--plan', 'premium', '--data-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^pos-backoffice: the database is at migration 9999, newer than this build knows \(\d+\); refusing to open it/);
    const after = new Database(join(dir, 'pos.sqlite'), { readonly: true });
    expect(after.prepare('SELECT contract_id FROM contracts').all()).toEqual([{ contract_id: 'a' }]);
    after.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says so when the port is taken', async () => {
    const running = await serve(['--port', '0', '--data-dir', dataDir]);
    const port = new URL(running.ready.url).port;
    const r = cli(['serve', '--port', port, '--data-dir', dataDir]);
    expect(r).toMatchObject({ code: 1, stderr: `pos-backoffice: port ${port} on 127.0.0.1 is already in use` });
    await stop(running.child);
  });

  it('a stop asked while serve is still starting is kept: it starts, then closes cleanly (exit 0), never a kill', async () => {
    // A data dir one migration behind: serve prints {"migrating":true,...} before it migrates,
    // well inside its start, where a stop used to kill it outright.
    const upgrade = mkdtempSync(join(tmpdir(), 'pos-cli-upgrade-'));
    const older = latestVersion() - 1;
    const db = openDatabase(join(upgrade, 'pos.sqlite'));
    migrate(db, loadMigrations().filter((m) => m.version <= older));
    db.close();
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--data-dir', upgrade], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    let out = '';
    let asked = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!asked && out.includes('{"migrating":true')) {
        asked = true;
        child.kill('SIGTERM');
      }
    });
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(out).toContain('{"ready":true');
    const migrated = new Database(join(upgrade, 'pos.sqlite'), { readonly: true });
    expect(migrated.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(latestVersion());
    migrated.close();
    rmSync(upgrade, { recursive: true, force: true });
  }, 60_000);
});

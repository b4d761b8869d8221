import Database from 'better-sqlite3';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../ui/support/build.js';
import { cli, startCentral, type Central } from '../ui/support/central.js';
import { freePort } from './helpers.js';

/**
 * `link` checks with head office before it saves anything (issue 20 item 1), and records a
 * one-shot command makes on a never-served data dir reach central (item 2): a real central
 * process (`serve --role central`, dist/) and the store's CLI as the operator runs it.
 */

const MAIN = join(ROOT, 'dist/main.js');
const CONTRACT = 'c1';

/** Runs the store's CLI; exit status, JSON lines and stderr. */
function run(dataDir: string, args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args, '--data-dir', dataDir], { cwd: ROOT, encoding: 'utf8', timeout: 40_000, env: { ...process.env, POS_LOG_LEVEL: 'warn' } });
  const json = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);
  return { status: r.status, json, stderr: r.stderr };
}

/** What a data dir holds of links, contracts and the installation: "nothing saved" means all empty. */
function saved(dataDir: string) {
  const db = new Database(join(dataDir, 'pos.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return {
      links: db.prepare('SELECT count(*) FROM sync_links').pluck().get(),
      contracts: db.prepare('SELECT contract_id FROM contracts ORDER BY contract_id').pluck().all(),
      installation: db.prepare('SELECT count(*) FROM sync_installation').pluck().get(),
    };
  } finally {
    db.close();
  }
}

describe('link checks with a real central before it saves', () => {
  let central: Central;
  let shop: string;

  beforeAll(async () => {
    central = await startCentral({ contractId: CONTRACT, plan: 'retail_business', node: 5 });
    cli(central.dataDir, ['node', 'add', '--contract', CONTRACT, '--node', '6']);
    cli(central.dataDir, ['node', 'revoke', '--contract', CONTRACT, '--node', '6']);
  }, 300_000);
  afterAll(async () => {
    await central?.dispose();
  });
  beforeEach(() => {
    shop = mkdtempSync(join(tmpdir(), 'pos-link-shop-'));
    // A data dir that exists but holds nothing yet (the migrations made its tables).
    expect(run(shop, ['sync', 'status']).status).toBe(0);
  });
  afterEach(() => rmSync(shop, { recursive: true, force: true }));

  const link = (node: number, secret: string, ...extra: string[]) =>
    run(shop, ['link', '--central', central.url, '--contract', CONTRACT, '--node', String(node), '--secret', secret, ...extra]);

  const refused = (result: ReturnType<typeof run>, reason: string) => {
    expect(result.status).toBe(1);
    expect(result.json).toEqual([]);
    expect(result.stderr).toBe(`pos-backoffice: ${reason}\n`);
    expect(saved(shop)).toEqual({ links: 0, contracts: [], installation: 0 });
  };

  it('a wrong secret, an unknown node, a revoked node and an unknown contract: exit 1, the reason in one line, nothing saved', () => {
    refused(link(5, 'nsec_wrong'), `central refused the link (401): the secret does not match node 5 of contract ${CONTRACT}`);
    refused(link(9, central.secret), `central refused the link (401): node 9 of contract ${CONTRACT} is not registered at central (pos-backoffice node add)`);
    refused(
      run(shop, ['link', '--central', central.url, '--contract', 'zz', '--node', '5', '--secret', central.secret]),
      'central refused the link (401): contract zz does not exist at central',
    );
    // Revocation is told only to the holder of the secret; anyone else hears the secret is wrong.
    refused(link(6, 'nsec_wrong'), `central refused the link (401): the secret does not match node 6 of contract ${CONTRACT}`);
  });

  it('a revoked node is named as revoked to the holder of its secret', async () => {
    const [added] = cli(central.dataDir, ['node', 'add', '--contract', CONTRACT, '--node', '7']);
    cli(central.dataDir, ['node', 'revoke', '--contract', CONTRACT, '--node', '7']);
    refused(link(7, String(added!.secret)), `central refused the link (401): node 7 of contract ${CONTRACT} was revoked at central`);
  });

  it('a node number another installation already pushes with: refused with 409, nothing saved', async () => {
    const [added] = cli(central.dataDir, ['node', 'add', '--contract', CONTRACT, '--node', '8']);
    const push = await fetch(`${central.url}/sync/${CONTRACT}/push`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`8:${added!.secret}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ node: 8, installation: 'a'.repeat(32), items: [] }),
    });
    expect(push.status).toBe(200);
    refused(
      link(8, String(added!.secret)),
      `central refused the link (409): [installation] node 8 of contract ${CONTRACT} is in use by another installation (a data dir set up again?); revoke it and add this store under a new node number`,
    );
  });

  it('central unreachable: exit 1 saying so; --offline saves the link unchecked', async () => {
    const port = await freePort();
    const down = `http://127.0.0.1:${port}`;
    const result = run(shop, ['link', '--central', down, '--contract', CONTRACT, '--node', '5', '--secret', central.secret]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^pos-backoffice: central ${down} cannot be reached \\(.*ECONNREFUSED.*\\); check the address, or link with --offline to save the link unchecked\\n$`));
    expect(saved(shop)).toEqual({ links: 0, contracts: [], installation: 0 });

    // Offline, the contract must already be here (there is no central to take it from).
    const noContract = run(shop, ['link', '--central', down, '--contract', CONTRACT, '--node', '5', '--secret', central.secret, '--offline']);
    expect(noContract.stderr).toBe(`pos-backoffice: contract ${CONTRACT} does not exist\n`);
    expect(run(shop, ['contract', 'create', '--id', CONTRACT, '--plan', 'retail_business']).status).toBe(0);
    const offline = run(shop, ['link', '--central', down, '--contract', CONTRACT, '--node', '5', '--secret', central.secret, '--offline']);
    expect(offline.status).toBe(0);
    expect(offline.json).toEqual([
      { contractId: CONTRACT, central: down, node: 5, linked: true, checked: false, note: 'saved unchecked (--offline): the first push checks it; serve this data dir as node 5' },
    ]);
    expect(saved(shop)).toMatchObject({ links: 1, contracts: [CONTRACT] });
  });

  it('a store contract whose plan or time zone differs from central’s is refused with the difference named', () => {
    expect(run(shop, ['contract', 'create', '--id', CONTRACT, '--plan', 'food_business', '--time-zone', 'Europe/Paris']).status).toBe(0);
    const result = link(5, central.secret);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `pos-backoffice: contract ${CONTRACT} differs from central's: plan food_business here, retail_business at central; time zone Europe/Paris here, Asia/Tokyo at central; ` +
        "link from a fresh data dir, which takes central's contract (or change this plan with pos-backoffice contract set-plan)\n",
    );
    expect(saved(shop)).toEqual({ links: 0, contracts: [CONTRACT], installation: 0 });
  });

  it('success on a data dir without the contract: central’s contract (id, name, plan, zone) and the clock skew printed, the contract taken from central', () => {
    const result = link(5, central.secret);
    expect(result.status).toBe(0);
    expect(result.json).toHaveLength(1);
    const [linked] = result.json;
    expect(linked).toMatchObject({
      contractId: CONTRACT,
      central: central.url,
      node: 5,
      linked: true,
      checked: true,
      contract: { contractId: CONTRACT, name: CONTRACT, plan: 'retail_business', timeZone: 'Asia/Tokyo' },
      contractCreated: true,
      note: 'serve this data dir as node 5',
    });
    expect(Math.abs(linked!.clockSkewMs)).toBeLessThan(5000);
    expect(linked!.warning).toBeUndefined();
    expect(saved(shop)).toEqual({ links: 1, contracts: [CONTRACT], installation: 1 });
    // Linking again (same installation) is accepted, and the contract is kept, not made twice.
    expect(link(5, central.secret).json[0]).toMatchObject({ checked: true, contractCreated: false });
  });
});

describe('records a one-shot command makes reach central (issue 20 item 2)', () => {
  let central: Central;
  let shop: string;
  let store: ChildProcess | undefined;

  beforeAll(async () => {
    central = await startCentral({ contractId: CONTRACT, plan: 'retail_business', node: 5 });
  }, 300_000);
  afterAll(async () => {
    await central?.dispose();
  });
  beforeEach(() => {
    shop = mkdtempSync(join(tmpdir(), 'pos-cli-outbox-'));
  });
  afterEach(async () => {
    if (store && store.exitCode === null) {
      store.kill('SIGTERM');
      await new Promise((r) => store!.once('exit', r));
    }
    rmSync(shop, { recursive: true, force: true });
  });

  it('masters seeded by CLI on a never-served linked data dir are in the outbox, and serving it pushes them to central', async () => {
    expect(link().status).toBe(0);
    const seeded = run(shop, ['seed', '--contract', CONTRACT]);
    expect(seeded.status).toBe(0);
    const outbox = () => {
      const db = new Database(join(shop, 'pos.sqlite'), { readonly: true });
      try {
        return db.prepare("SELECT count(*) FROM outbox WHERE entity = 'store'").pluck().get() as number;
      } finally {
        db.close();
      }
    };
    expect(outbox()).toBeGreaterThan(0);
    const storesHere = storeNames(shop);
    expect(storesHere.length).toBeGreaterThan(0);

    store = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--data-dir', shop], { cwd: ROOT, stdio: 'ignore', env: { ...process.env, POS_LOG_LEVEL: 'warn' } });
    const deadline = Date.now() + 30_000;
    // The store deletes its outbox rows once central's answer is in, a moment after central has them.
    while (Date.now() < deadline && (storeNames(central.dataDir).length < storesHere.length || outbox() > 0)) await new Promise((r) => setTimeout(r, 200));
    expect(storeNames(central.dataDir)).toEqual(storesHere);
    expect(outbox()).toBe(0);
  }, 60_000);

  it('central’s node seeding logs a stock row once, however many nodes are added', () => {
    const hq = central.dataDir;
    const db = new Database(join(hq, 'pos.sqlite'));
    const logged = () => db.prepare("SELECT count(*) FROM change_log WHERE entity = 'stock'").pluck().get() as number;
    try {
      // A stock row central holds only by merging pushed movements: written as a balance, with its
      // balance entry in the change log and no version (sync/balances.ts StockBalances).
      db.prepare("INSERT INTO stock (contract_id, store_id, product_id, stock_amount, ins_at, upd_at) VALUES (?, 1005, 2005, '3', 0, 0)").run(CONTRACT);
      db.prepare(
        `INSERT INTO change_log (contract_id, entity, entity_id, op, hlc, origin_node, row, created_at)
         VALUES (?, 'stock', '1005/2005', 'balance', '000000000000001-000000-000', 0, NULL, 0)`,
      ).run(CONTRACT);
      expect(logged()).toBe(1);
      cli(hq, ['node', 'add', '--contract', CONTRACT, '--node', '20']);
      cli(hq, ['node', 'add', '--contract', CONTRACT, '--node', '21']);
      expect(logged()).toBe(1);
    } finally {
      db.close();
    }
  });

  const link = () => run(shop, ['link', '--central', central.url, '--contract', CONTRACT, '--node', '5', '--secret', central.secret]);
});

function storeNames(dataDir: string): string[] {
  const db = new Database(join(dataDir, 'pos.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT store_name FROM stores WHERE contract_id = ? ORDER BY store_name').pluck().all(CONTRACT) as string[];
  } finally {
    db.close();
  }
}

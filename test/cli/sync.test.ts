import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { CommandError, parseCommand, runCommand, UsageError } from '../helpers/modules.js';
import { testDatabase, type TestDatabase } from '../helpers/engine.js';

/** The sync commands (issue 11) as main runs them: parse, then run on real data dirs. */

const parse = (line: string) => parseCommand(line.split(' ').filter(Boolean), {});
const usage = (line: string) => {
  try {
    parse(line);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`"${line}" was accepted`);
};

describe('sync command lines', () => {
  it('parses node, link, unlink and sync commands', () => {
    expect(parse('node add --contract c1 --node 12 --name Shibuya')).toEqual({ name: 'node add', dataDir: './data', contract: 'c1', node: 12, nodeName: 'Shibuya' });
    expect(parse('node list')).toEqual({ name: 'node list', dataDir: './data' });
    expect(parse('node revoke --contract c1 --node 12')).toEqual({ name: 'node revoke', dataDir: './data', contract: 'c1', node: 12 });
    expect(parse('link --central https://hq.example --contract c1 --node 3 --secret s --insecure')).toEqual({
      name: 'link', dataDir: './data', central: 'https://hq.example', contract: 'c1', node: 3, secret: 's', insecure: true, offline: false,
    });
    expect(parse('unlink --contract c1')).toEqual({ name: 'unlink', dataDir: './data', contract: 'c1' });
    expect(parse('sync status')).toEqual({ name: 'sync status', dataDir: './data' });
    expect(parse('sync dead-letters --contract c1 --retry 4')).toEqual({ name: 'sync dead-letters', dataDir: './data', contract: 'c1', retry: 4 });
  });

  it('refuses bad sync command lines with a one-line reason', () => {
    expect(usage('node add --contract c1')).toBe('--node is required');
    expect(usage('node add --contract c1 --node 0')).toBe('--node must be an integer from 1 to 999, got "0"');
    expect(usage('node revoke --node 3')).toBe('--contract is required');
    expect(usage('link --contract c1 --node 3 --secret s')).toBe('--central is required');
    expect(usage('link --central https://x --contract c1 --node 3')).toBe('--secret is required');
    expect(usage('sync dead-letters --contract c1 --retry 1 --discard 2')).toBe('give --retry or --discard, not both');
    expect(usage('sync dead-letters --contract c1 --retry x')).toBe('--retry must be an integer from 1 to 9007199254740991, got "x"');
    expect(usage('unlink --contract c1 --node 3')).toBe('unlink does not take --node');
    expect(usage('sync go')).toBe('unknown command "sync go"; run pos-backoffice --help');
  });
});

/** Head office (hq) on the test engine: its data dir's SQLite file, or PostgreSQL named by POS_DATABASE_URL; the shop always on SQLite. */
describe('sync commands on data dirs', () => {
  let hq: string;
  let hqDatabase: TestDatabase;
  let shop: string;
  const closers: (() => Promise<void>)[] = [];
  const run = async (dir: string, line: string[]) => {
    const out: string[] = [];
    const env = dir === hq && hqDatabase.postgresUrl ? { POS_DATABASE_URL: hqDatabase.postgresUrl } : {};
    const stop = await runCommand(parseCommand([...line, '--data-dir', dir], env), { out: (l) => out.push(l) });
    if (stop) closers.push(stop);
    return out.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)); // serve adds human lines (ui: ...)
  };
  const failure = async (dir: string, line: string[]) => {
    try {
      await run(dir, line);
    } catch (error) {
      expect(error).toBeInstanceOf(CommandError);
      return (error as Error).message;
    }
    throw new Error(`${line.join(' ')} succeeded`);
  };

  beforeEach(async () => {
    process.env.POS_LOG_LEVEL = 'silent';
    hq = mkdtempSync(join(tmpdir(), 'pos-sync-hq-'));
    hqDatabase = await testDatabase();
    shop = mkdtempSync(join(tmpdir(), 'pos-sync-shop-'));
    await run(hq, ['contract', 'create', '--id', 'c1', '--plan', 'retail_business']);
    await run(shop, ['contract', 'create', '--id', 'c1', '--plan', 'retail_business']);
    // The first PostgreSQL database of a run may wait for dist/ to be built and the cluster to start.
  }, 180_000);
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await hqDatabase.drop();
    rmSync(hq, { recursive: true, force: true });
    rmSync(shop, { recursive: true, force: true });
  });

  it('node add prints a secret once (kept hashed); node list and node revoke', async () => {
    const [added] = await run(hq, ['node', 'add', '--contract', 'c1', '--node', '5', '--name', 'Shop 5']);
    expect(added).toMatchObject({ contractId: 'c1', node: 5, name: 'Shop 5' });
    expect(added.secret).toMatch(/^nsec_[\w-]{32}$/);
    expect(await failure(hq, ['node', 'add', '--contract', 'c1', '--node', '5'])).toBe('node 5 of contract c1 already exists; revoke it first');
    expect(await failure(hq, ['node', 'add', '--contract', 'nope', '--node', '5'])).toBe('contract nope does not exist');
    const list = await run(hq, ['node', 'list']);
    expect(list).toEqual([{ contractId: 'c1', node: 5, name: 'Shop 5', revoked: false, highWater: 0, lastPushAt: null, lastPullAt: null }]);
    expect(JSON.stringify(list)).not.toContain(added.secret);
    expect(await run(hq, ['node', 'revoke', '--contract', 'c1', '--node', '5'])).toEqual([{ contractId: 'c1', node: 5, revoked: true }]);
    expect(await failure(hq, ['node', 'revoke', '--contract', 'c1', '--node', '5'])).toBe('node 5 of contract c1 does not exist or is already revoked');
    // A node number is never given out twice: ids carry it.
    expect(await failure(hq, ['node', 'add', '--contract', 'c1', '--node', '5'])).toBe(
      'node 5 of contract c1 was used before and revoked; its ids are at head office, so add the store under a new node number',
    );
  });

  it('link refuses plain http to a public address unless --insecure; unlink', async () => {
    // --offline: the address rules are judged before any request (the check with central: test/sync/link-check.test.ts).
    const link = (central: string, ...extra: string[]) => ['link', '--central', central, '--contract', 'c1', '--node', '5', '--secret', 's', '--offline', ...extra];
    expect(await failure(shop, link('http://hq.example.com'))).toBe('--central http://hq.example.com is plain http to a public address; use https, or --insecure to allow it');
    expect(await failure(shop, link('ftp://hq.example.com'))).toBe('--central must be an http(s) URL, got "ftp:"');
    expect(await failure(shop, link('http://8.8.8.8:8080'))).toMatch(/plain http to a public address/);
    for (const ok of ['https://hq.example.com/', 'http://127.0.0.1:9000', 'http://192.168.1.20:8080', 'http://10.0.0.5', 'http://172.20.1.1', 'http://[::1]:80', 'http://localhost:8080']) {
      const [linked] = await run(shop, link(ok));
      expect(linked).toMatchObject({ contractId: 'c1', node: 5, linked: true });
    }
    expect((await run(shop, link('http://hq.example.com', '--insecure')))[0].central).toBe('http://hq.example.com');
    expect(await run(shop, ['unlink', '--contract', 'c1'])).toEqual([{ contractId: 'c1', linked: false }]);
    expect(await failure(shop, ['unlink', '--contract', 'c1'])).toBe('contract c1 is not linked');
    expect(await failure(shop, ['link', '--central', 'https://x.example', '--contract', 'zz', '--node', '5', '--secret', 's', '--offline'])).toBe('contract zz does not exist');
  });

  it('webhook add names a receiver as the API does: at head office a private one is refused unless POS_WEBHOOK_ALLOW opens it; a store PC takes it', async () => {
    const add = ['webhook', 'add', '--contract', 'c1', '--url', 'http://10.0.0.1/hooks', '--events', 'pos:payment-method-groups'];
    await run(hq, ['serve', '--role', 'central', '--port', '0']);
    expect(await failure(hq, add)).toBe(
      '[url] the receiver 10.0.0.1 is a private address; head office sends webhooks and callbacks only to public addresses, unless its operator allows the receiver',
    );
    // Allowed receivers in a test stay on this machine: no event is raised here, and none would leave it.
    const local = ['webhook', 'add', '--contract', 'c1', '--url', 'http://127.0.0.1:9/hooks', '--events', 'pos:payment-method-groups'];
    expect(await failure(hq, local)).toMatch(/^\[url\] the receiver 127\.0\.0\.1 is a loopback address; /);
    process.env.POS_WEBHOOK_ALLOW = '127.0.0.0/8';
    try {
      expect((await run(hq, local))[0]).toMatchObject({ url: 'http://127.0.0.1:9/hooks' });
      process.env.POS_WEBHOOK_ALLOW = '10.0.0.0/99';
      expect(await failure(hq, add)).toMatch(/^POS_WEBHOOK_ALLOW: /);
    } finally {
      delete process.env.POS_WEBHOOK_ALLOW;
    }
    expect((await run(shop, add))[0]).toMatchObject({ url: 'http://10.0.0.1/hooks' });
  });

  it('two served data dirs: the store pulls central’s masters and pushes its sales by itself; sync status shows it', async () => {
    const [central] = await run(hq, ['serve', '--role', 'central', '--port', '0']);
    const [added] = await run(hq, ['node', 'add', '--contract', 'c1', '--node', '5']);
    const [client] = await run(hq, ['client', 'create', '--contract', 'c1']);
    const token = await tokenOf(central.url, client);
    const hqApi = (method: string, path: string, body?: unknown) =>
      fetch(`${central.url}/c1/pos${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const storeId = ((await (await hqApi('POST', '/stores', { storeName: 'Main' })).json()) as { storeId: string }).storeId;

    await run(shop, ['link', '--central', central.url, '--contract', 'c1', '--node', '5', '--secret', added.secret]);
    expect(await failure(shop, ['serve', '--port', '0', '--node', '6'])).toBe('this data dir is linked to central as node 5; serve it with --node 5 or without --node');
    const [served] = await run(shop, ['serve', '--port', '0']);
    const [shopClient] = await run(shop, ['client', 'create', '--contract', 'c1']);
    const shopToken = await tokenOf(served.url, shopClient);
    const shopApi = (method: string, path: string, body?: unknown) =>
      fetch(`${served.url}/c1/pos${path}`, { method, headers: { authorization: `Bearer ${shopToken}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });

    // The scheduler's first round pulls the store master.
    await until(async () => (await shopApi('GET', `/stores/${storeId}`)).status === 200);
    const terminal = ((await (await shopApi('POST', '/terminals', { storeId, terminalName: 'R1' })).json()) as { terminalId: string }[])[0]!.terminalId;
    expect(terminal.endsWith('005')).toBe(true);
    const sale = await shopApi('POST', '/transactions', {
      transactionHeadDivision: '1', storeId, terminalId: terminal, terminalTranDateTime: new Date().toISOString(),
      details: [{ transactionDetailId: '1', transactionDetailDivision: '1', productName: 'Tea', salesPrice: '300', quantity: '1', taxDivision: '2' }],
    });
    expect(sale.status).toBe(200);
    const saleId = ((await sale.json()) as { transactionHeadId: string }).transactionHeadId;
    // A local change brings the next round forward: the sale reaches central by itself.
    await until(async () => (await hqApi('GET', `/transactions/${saleId}`)).status === 200);

    const [status] = await run(shop, ['sync', 'status']);
    expect(status).toMatchObject({ role: 'store', contractId: 'c1', linked: true, node: 5, online: true, outboxDepth: 0, deadLetters: 0 });
    const apiStatus = (await (await shopApi('GET', '/sync/status')).json()) as Record<string, unknown>;
    expect(apiStatus).toMatchObject({ role: 'store', linked: true, online: true, outboxDepth: 0 });
    const [hqStatus] = await run(hq, ['sync', 'status', '--contract', 'c1']);
    expect(hqStatus).toMatchObject({ role: 'central', deadLetters: 0, nodes: [{ node: 5, revoked: false }] });
    expect(hqStatus.nodes[0].highWater).toBeGreaterThan(0);
    expect(await run(hq, ['sync', 'dead-letters', '--contract', 'c1'])).toEqual([]);
    expect(await failure(hq, ['sync', 'dead-letters', '--contract', 'c1', '--retry', '9'])).toBe('dead letter 9 does not exist in contract c1');
  }, 30_000);

  it('a demo store linked later pushes everything the demo made (its stores, registers and sales) without a dead letter', async () => {
    await run(hq, ['contract', 'create', '--id', 'demo-retail', '--plan', 'retail_business']);
    const [central] = await run(hq, ['serve', '--role', 'central', '--port', '0']);
    const [added] = await run(hq, ['node', 'add', '--contract', 'demo-retail', '--node', '1']);
    const [served] = await run(shop, ['serve', '--port', '0', '--demo']);
    expect(served.contracts.map((c: { contractId: string }) => c.contractId)).toContain('demo-retail');
    const [before] = await run(shop, ['sync', 'status', '--contract', 'demo-retail']);
    expect(before.outboxDepth).toBeGreaterThan(50);
    await run(shop, ['link', '--central', central.url, '--contract', 'demo-retail', '--node', '1', '--secret', added.secret]);
    await until(async () => (await run(shop, ['sync', 'status', '--contract', 'demo-retail']))[0].outboxDepth === 0, 20_000);
    const [hqStatus] = await run(hq, ['sync', 'status', '--contract', 'demo-retail']);
    expect(hqStatus.deadLetters).toBe(0);
    const sql = "SELECT count(*) AS n FROM transactions WHERE contract_id = 'demo-retail'";
    const sales = async (dir: string) => {
      if (dir === hq && hqDatabase.postgresUrl) {
        const client = new pg.Client({ connectionString: hqDatabase.postgresUrl });
        await client.connect();
        try {
          return Number((await client.query(sql)).rows[0].n);
        } finally {
          await client.end();
        }
      }
      const db = new Database(join(dir, 'pos.sqlite'), { readonly: true });
      try {
        return (db.prepare(sql).get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    expect(await sales(hq)).toBe(await sales(shop));
    expect(await sales(shop)).toBeGreaterThan(0);
  }, 40_000);
});

async function tokenOf(url: string, client: { clientId: string; clientSecret: string }): Promise<string> {
  const res = await fetch(`${url}/app/c1/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Polls a condition every 100 ms for at most 10 s. */
async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../helpers/modules.js';
import { openDeps, type AppDeps } from '../../../server/deps.js';
import { PLANS } from '../../../server/domain/plans.js';
import { RIGHTS } from '../../../server/platform/http/rights.js';
import { ALL_SCOPES } from '../../../server/platform/http/scopes.js';
import { AuthRepo } from '../../../server/platform/auth/repo.js';
import { ContractRepo } from '../../../server/platform/contracts/repo.js';
import { SyncAgent } from '../../../sync/agent.js';
import { freePort } from '../../sync/helpers.js';
import { cli, startCentral, type Central } from '../../ui/support/central.js';
import { problem } from '../../helpers/app.js';
import { testDatabase } from '../../helpers/engine.js';

/**
 * The first run's setup API (issue 21): a store data dir without a contract, the PC itself only,
 * one of two ways (head office, or a shop on its own), then never again (409).
 */

const SHOP = {
  contractId: 'my-shop',
  contractName: '山田商店',
  plan: 'retail_business',
  timeZone: 'Asia/Tokyo',
  storeName: '本店',
  staffName: '山田 太郎',
  staffCode: 'OWNER1',
  password: 'first-pass-1',
  terminalName: 'レジ1',
};

interface Store {
  app: FastifyInstance;
  deps: AppDeps;
  dir: string;
  close(): Promise<void>;
}

/** A store server on a fresh data dir, as the first start finds it: migrated, no contract. */
async function freshStore(options: { uiLan?: boolean } = {}): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-setup-'));
  const deps = openDeps({ file: join(dir, 'pos.sqlite'), checkResponses: true, ui: { lan: options.uiLan ?? false } });
  const app = await buildApp(deps);
  return {
    app,
    deps,
    dir,
    async close() {
      await app.close();
      deps.db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const LAN_PC = '192.168.1.20';
const send = (store: Store, method: 'GET' | 'POST', url: string, body?: object, remoteAddress = '127.0.0.1') =>
  store.app.inject({ method, url, remoteAddress, ...(body ? { payload: body } : {}) });

const counts = (deps: AppDeps) =>
  Object.fromEntries(
    ['contracts', 'stores', 'staffs', 'staff_logins', 'terminals', 'api_clients', 'outbox', 'sync_links', 'sync_installation'].map((t) => [
      t,
      deps.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get(),
    ]),
  );
const NOTHING = { contracts: 0, stores: 0, staffs: 0, staff_logins: 0, terminals: 0, api_clients: 0, outbox: 0, sync_links: 0, sync_installation: 0 };

async function passwordToken(store: Store, contractId: string, username: string, password: string): Promise<LightMyRequestResponse> {
  return store.app.inject({
    method: 'POST',
    url: `/app/${contractId}/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', client_id: 'backoffice-ui', username, password }).toString(),
  });
}

describe('setup: answered on this PC only, and only before a contract exists', () => {
  let store: Store;
  beforeEach(async () => {
    store = await freshStore();
  });
  afterEach(() => store.close());

  it('GET /setup says setup is needed, with the real plan list and the default zone', async () => {
    const res = await send(store, 'GET', '/setup');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ needed: true, plans: [...PLANS], defaultTimeZone: 'Asia/Tokyo', firstPull: null });
  });

  it('a request from another address is refused with 403, even with the UI open to the LAN, and nothing is made', async () => {
    const lan = await freshStore({ uiLan: true });
    try {
      for (const s of [store, lan]) {
        for (const [method, url, body] of [
          ['GET', '/setup', undefined],
          ['POST', '/setup/shop', SHOP],
          // Refused before the body is looked at.
          ['POST', '/setup/shop', { nonsense: true }],
          ['POST', '/setup/head_office', { centralUrl: 'http://127.0.0.1:1', contractId: 'c1', node: '5', secret: 'nsec_x' }],
        ] as const) {
          expect(problem(await send(s, method, url, body, LAN_PC), 403)).toEqual({
            type: 'about:blank',
            title: 'Forbidden',
            status: 403,
            detail: 'setup is done on the store PC itself: open the back office on that PC',
          });
        }
        expect(counts(s.deps)).toEqual(NOTHING);
      }
      // IPv6 loopback and the IPv4-mapped form are this PC.
      expect((await send(store, 'GET', '/setup', undefined, '::1')).statusCode).toBe(200);
      expect((await send(store, 'GET', '/setup', undefined, '::ffff:127.0.0.1')).statusCode).toBe(200);
    } finally {
      await lan.close();
    }
  });

  it('once a contract exists (the CLI made it) both ways answer 409 and GET /setup says it is not needed', async () => {
    new ContractRepo(store.deps.db, store.deps.writer, store.deps.clock).create({ contractId: 'cli-made', name: 'CLI', plan: 'standard', timeZone: 'Asia/Tokyo' });
    const conflict = { type: 'about:blank', title: 'Conflict', status: 409, detail: 'this server is set up already (it has a contract): log in instead' };
    expect(problem(await send(store, 'POST', '/setup/shop', SHOP), 409)).toEqual(conflict);
    expect(problem(await send(store, 'POST', '/setup/head_office', { centralUrl: 'http://127.0.0.1:1', contractId: 'c1', node: '5', secret: 'nsec_x' }), 409)).toEqual(conflict);
    // Whatever is sent: the server is set up, not the form wrong.
    expect(problem(await send(store, 'POST', '/setup/shop', {}), 409)).toEqual(conflict);
    expect((await send(store, 'GET', '/setup')).json()).toMatchObject({ needed: false, firstPull: null });
  });

  it('head office runs no setup API: it is set up with the command line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pos-setup-central-'));
    const database = await testDatabase();
    const deps = openDeps({ file: join(dir, 'pos.sqlite'), ...(database.postgresUrl ? { postgresUrl: database.postgresUrl } : {}), role: 'central' });
    const app = await buildApp(deps);
    try {
      expect((await app.inject({ method: 'GET', url: '/setup' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'POST', url: '/setup/shop', payload: SHOP })).statusCode).toBe(404);
    } finally {
      await app.close();
      deps.db.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('setup (b): a shop on its own', () => {
  let store: Store;
  beforeEach(async () => {
    store = await freshStore();
  });
  afterEach(() => store.close());

  it('makes the contract, store, staff login with every right, register and API client; the staff member logs in; then 409', async () => {
    const res = await send(store, 'POST', '/setup/shop', SHOP);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      contract: { contractId: 'my-shop', name: '山田商店', plan: 'retail_business', timeZone: 'Asia/Tokyo' },
      storeId: '1001',
      staffId: '1001',
      staffCode: 'OWNER1',
      terminalId: '1001',
      client: { clientId: expect.stringMatching(/^[0-9a-f]{32}$/), clientSecret: expect.stringMatching(/^[\w-]{43}$/), scopes: [...ALL_SCOPES] },
      tokenPath: '/app/my-shop/token',
      basePath: '/my-shop/pos',
    });
    expect(counts(store.deps)).toMatchObject({ contracts: 1, stores: 1, staffs: 1, staff_logins: 1, terminals: 1, api_clients: 1 });
    const staff = store.deps.db.prepare('SELECT staff_name, staff_code, admin_flag FROM staffs').get();
    expect(staff).toEqual({ staff_name: '山田 太郎', staff_code: 'OWNER1', admin_flag: 1 });
    expect(store.deps.db.prepare('SELECT rights FROM staff_logins').pluck().get()).toBe(RIGHTS.join(' '));
    expect(store.deps.db.prepare('SELECT store_id, terminal_name FROM terminals').get()).toEqual({ store_id: 1001, terminal_name: 'レジ1' });
    // The secret is stored hashed only; it is in the answer once.
    expect(store.deps.db.prepare('SELECT secret_hash FROM api_clients').pluck().get()).not.toContain(body.client.clientSecret);

    // The staff member logs in with the code and password; the terminals' client gets a token.
    const login = await passwordToken(store, 'my-shop', 'OWNER1', 'first-pass-1');
    expect(login.statusCode).toBe(200);
    const staffs = await store.app.inject({ method: 'GET', url: '/my-shop/pos/staffs', headers: { authorization: `Bearer ${login.json().access_token}` } });
    expect(staffs.statusCode).toBe(200);
    const basic = Buffer.from(`${body.client.clientId}:${body.client.clientSecret}`).toString('base64');
    const app = await store.app.inject({
      method: 'POST',
      url: '/app/my-shop/token',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    expect(app.statusCode).toBe(200);

    expect((await send(store, 'GET', '/setup')).json()).toEqual({ needed: false, plans: [...PLANS], defaultTimeZone: 'Asia/Tokyo', firstPull: null });
    expect(problem(await send(store, 'POST', '/setup/shop', { ...SHOP, contractId: 'second' }), 409).detail).toBe('this server is set up already (it has a contract): log in instead');
    expect(counts(store.deps)).toMatchObject({ contracts: 1, stores: 1, staffs: 1 });
  });

  it('the time zone defaults to Asia/Tokyo', async () => {
    const { timeZone: _zone, ...withoutZone } = SHOP;
    const res = await send(store, 'POST', '/setup/shop', withoutZone);
    expect(res.statusCode).toBe(200);
    expect(res.json().contract.timeZone).toBe('Asia/Tokyo');
  });

  it('each field is checked, and the problem names it', async () => {
    const cases: [object, string][] = [
      [{ ...SHOP, contractId: '-bad id' }, '[contractId] must be 1 to 64 letters, digits, _ or -, starting with a letter or digit'],
      [{ ...SHOP, contractName: '  ' }, '[contractName] must not be empty'],
      [{ ...SHOP, plan: 'gold' }, '[plan] must be one of standard, premium, premium_plus, food_business, retail_business, enterprise'],
      [{ ...SHOP, timeZone: 'Mars/Olympus' }, '[timeZone] is not a known IANA time zone'],
      [{ ...SHOP, storeName: '' }, '[storeName] must not be empty'],
      [{ ...SHOP, staffCode: 'ＯＷＮＥＲ' }, '[staffCode] must be 1 to 20 half-width alphanumerics or symbols'],
      [{ ...SHOP, password: 'short' }, '[password] must be at least 8 characters'],
      [{ ...SHOP, terminalName: 'x'.repeat(86) }, '[terminalName] must be at most 85 characters'],
      [{ ...SHOP, extra: 1 }, '[extra] is not a known field'],
    ];
    for (const [body, detail] of cases) {
      expect(problem(await send(store, 'POST', '/setup/shop', body), 400)).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
    }
    const { staffName: _name, password: _password, ...missing } = SHOP;
    expect(problem(await send(store, 'POST', '/setup/shop', missing), 400).detail).toBe('[staffName] is required; [password] is required');
    expect(counts(store.deps)).toEqual(NOTHING);
  });

  it('is one transaction: a failure part-way (the register) leaves nothing, and the form can be sent again', async () => {
    // A real database refusing the register row, after the contract, store, staff and login were written.
    store.deps.db.exec("CREATE TRIGGER refuse_terminal BEFORE INSERT ON terminals BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    const res = await send(store, 'POST', '/setup/shop', SHOP);
    expect(problem(res, 500)).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'the server could not complete the request; it has been logged' });
    expect(counts(store.deps)).toEqual(NOTHING);
    expect((await send(store, 'GET', '/setup')).json().needed).toBe(true);

    store.deps.db.exec('DROP TRIGGER refuse_terminal');
    expect((await send(store, 'POST', '/setup/shop', SHOP)).statusCode).toBe(200);
    expect(counts(store.deps)).toMatchObject({ contracts: 1, stores: 1, staffs: 1, staff_logins: 1, terminals: 1, api_clients: 1 });
  });
});

describe('setup (a): connect to head office, against a real central process', () => {
  const CONTRACT = 'hq-chain';
  let central: Central;
  let store: Store;

  beforeAll(async () => {
    central = await startCentral({ contractId: CONTRACT, plan: 'food_business', node: 5 });
    // Head office's staff member with a back-office login: it reaches the store with the masters.
    const [client] = cli(central.dataDir, ['client', 'create', '--contract', CONTRACT]);
    const token = await (
      await fetch(`${central.url}/app/${CONTRACT}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${client!.clientId}:${client!.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      })
    ).json();
    const made = await fetch(`${central.url}/${CONTRACT}/pos/staffs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ staffName: '本部 花子', staffCode: 'HQ01' }),
    });
    const staffId = (await made.json()).staffId as string;
    cli(central.dataDir, ['staff-password', 'set', '--contract', CONTRACT, '--staff', staffId, '--password', 'hq-pass-01', '--rights', RIGHTS.join(',')]);
  }, 300_000);
  afterAll(async () => {
    await central?.dispose();
  });
  beforeEach(async () => {
    store = await freshStore();
  });
  afterEach(() => store.close());

  const headOffice = (values: Partial<Record<'centralUrl' | 'contractId' | 'node' | 'secret', string>> = {}) =>
    send(store, 'POST', '/setup/head_office', { centralUrl: central.url, contractId: CONTRACT, node: '5', secret: central.secret, ...values });
  const refused = async (res: LightMyRequestResponse, detail: string) => {
    expect(problem(res, 400)).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
    expect(counts(store.deps)).toEqual(NOTHING);
  };

  it('what central refuses is shown on the field at fault, and nothing is saved', async () => {
    await refused(await headOffice({ secret: 'nsec_wrong' }), `[secret] central refused the link (401): the secret does not match node 5 of contract ${CONTRACT}`);
    await refused(await headOffice({ node: '9' }), `[node] central refused the link (401): node 9 of contract ${CONTRACT} is not registered at central (pos-backoffice node add)`);
    await refused(await headOffice({ contractId: 'nope' }), '[contractId] central refused the link (401): contract nope does not exist at central');
    await refused(await headOffice({ centralUrl: 'http://hq.example.com' }), '[centralUrl] --central http://hq.example.com is plain http to a public address; use https, or --insecure to allow it');
    await refused(await headOffice({ centralUrl: 'hq' }), '[centralUrl] --central "hq" is not a URL');
    await refused(await headOffice({ node: '0' }), '[node] must be a node number from 1 to 999');
  });

  it('an unreachable central is named on the address, without the command line’s --offline advice', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const res = await headOffice({ centralUrl: down });
    const body = problem(res, 400);
    expect(body.detail).toMatch(new RegExp(`^\\[centralUrl\\] central ${down} cannot be reached \\(.*ECONNREFUSED.*\\); check the address$`));
    expect(counts(store.deps)).toEqual(NOTHING);
  });

  it('links with central’s contract, mints as the linked node at once, pulls the staff logins, and the head-office staff member logs in', async () => {
    const res = await headOffice();
    expect(res.statusCode).toBe(200);
    const linked = res.json();
    expect(linked).toEqual({ contract: { contractId: CONTRACT, name: CONTRACT, plan: 'food_business', timeZone: 'Asia/Tokyo' }, node: 5, clockSkewMs: expect.any(Number) });
    expect(counts(store.deps)).toMatchObject({ contracts: 1, sync_links: 1, sync_installation: 1 });
    expect(problem(await headOffice(), 409).detail).toBe('this server is set up already (it has a contract): log in instead');

    // Before the first pull: linked, nothing received yet.
    expect((await send(store, 'GET', '/setup')).json()).toEqual({
      needed: false,
      plans: [...PLANS],
      defaultTimeZone: 'Asia/Tokyo',
      firstPull: {
        contractId: CONTRACT,
        contractName: CONTRACT,
        centralUrl: central.url,
        node: 5,
        online: false,
        lastPullAt: null,
        caughtUp: false,
        lastError: null,
        received: { stores: 0, staffs: 0, staffLogins: 0, products: 0 },
      },
    });

    // The serving store's scheduler does this within 2 s; here the agent runs it once.
    await new SyncAgent(store.deps).drain(CONTRACT);
    const progress = (await send(store, 'GET', '/setup')).json().firstPull;
    expect(progress).toMatchObject({ online: true, caughtUp: true, lastError: null, received: { staffs: 1, staffLogins: 1 } });
    expect(progress.lastPullAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const login = await passwordToken(store, CONTRACT, 'HQ01', 'hq-pass-01');
    expect(login.statusCode).toBe(200);

    // This server was serving as node 1: what it makes now carries node 5 (ids, outbox, clock).
    expect(store.deps.ids.node).toBe(5);
    const auth = new AuthRepo(store.deps.db, store.deps.writer, store.deps.clock);
    auth.createClient({ clientId: 'terminals', contractId: CONTRACT, secret: 'terminal-secret-1', scopes: ALL_SCOPES });
    const token = (
      await store.app.inject({
        method: 'POST',
        url: `/app/${CONTRACT}/token`,
        headers: { authorization: `Basic ${Buffer.from('terminals:terminal-secret-1').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials',
      })
    ).json().access_token;
    const made = await store.app.inject({ method: 'POST', url: `/${CONTRACT}/pos/stores`, headers: { authorization: `Bearer ${token}` }, payload: { storeName: 'Branch' } });
    expect(made.statusCode).toBe(200);
    expect(made.json().storeId).toMatch(/005$/);
    expect(store.deps.db.prepare("SELECT node, hlc FROM outbox WHERE entity = 'store'").get()).toEqual({ node: 5, hlc: expect.stringMatching(/-005$/) });
  });
});

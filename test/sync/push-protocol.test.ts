import { entityNamed, RecordStore } from '../../sync/entities.js';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SyncAgent } from '../../sync/agent.js';
import { NodeRepo } from '../../sync/central.js';
import { syncContext } from '../../sync/context.js';
import { LinkRepo } from '../../sync/link.js';
import { syncStatus, type StoreSyncStatus } from '../../sync/status.js';
import { CONTRACT, count, makeInstance, type Instance } from './helpers.js';

/** The push protocol at central: high-water mark, dead letters, node authentication. */

let central: Instance;
let store: Instance;
let agent: SyncAgent;
let secret: string;
let shop: string;
let terminal: string;

const basic = (node: number, s: string) => `Basic ${Buffer.from(`${node}:${s}`).toString('base64')}`;
const push = (body: unknown, auth = basic(4, secret)) =>
  fetch(`${central.url}/sync/${CONTRACT}/push`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: auth }, body: JSON.stringify(body) });
// A sales record's outbox row carries no copy: it travels as it stands when pushed (sync/write-hooks.ts).
const records = () => new RecordStore(store.deps.db);
const outboxItems = () =>
  (store.deps.db.prepare('SELECT seq, entity, entity_id AS id, op, hlc, row FROM outbox ORDER BY seq').all() as { seq: number; entity: string; id: string; row: string | null }[]).map(
    (r) => ({ ...r, row: r.row === null ? records().read(entityNamed(r.entity)!, CONTRACT, r.id) : JSON.parse(r.row) }),
  );

const sale = async (amount: string) =>
  (
    await store.ok('POST', '/transactions', {
      transactionHeadDivision: '1',
      storeId: shop,
      terminalId: terminal,
      terminalTranDateTime: '2026-11-22T10:00:00+09:00',
      details: [{ transactionDetailId: '1', transactionDetailDivision: '1', productName: 'Item', salesPrice: amount, quantity: '1', taxDivision: '2' }],
    })
  ).transactionHeadId as string;

beforeEach(async () => {
  central = await makeInstance('central', 0);
  store = await makeInstance('store', 4);
  await central.up();
  secret = new NodeRepo(syncContext(central.deps)).add(CONTRACT, 4).secret;
  shop = (await central.ok('POST', '/stores', { storeName: 'Main' })).storeId;
  new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl: central.url!, node: 4, secret });
  agent = new SyncAgent(store.deps);
  await agent.drain(CONTRACT);
  terminal = (await store.ok('POST', '/terminals', { storeId: shop, terminalName: 'R1' }))[0].terminalId;
  await agent.drain(CONTRACT);
});
afterEach(async () => {
  await store.close();
  await central.close();
});

describe('push at central', () => {
  it('a resent batch is acknowledged without being applied twice (answer lost, then the agent sends it again)', async () => {
    const id = await sale('500');
    const items = outboxItems();
    // The batch reaches central but the store never hears the answer: its outbox still holds it.
    const first = await push({ node: 4, items });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ acked: items.at(-1)!.seq, applied: 1, skipped: 0, deadLetters: [] });
    // The same seq again, even with another body, is not applied.
    const tampered = items.map((i) => ({ ...i, row: { ...i.row, row: { ...i.row.row, total: 999999 } } }));
    expect(await (await push({ node: 4, items: tampered })).json()).toMatchObject({ applied: 0, skipped: 1 });
    const r = await agent.drain(CONTRACT);
    expect(r.pushed).toBe(1);
    const totalOf = (i: Instance) => count(i.deps, 'SELECT total FROM transactions WHERE transaction_head_id = ?', id);
    expect(totalOf(central)).toBe(totalOf(store));
    expect(totalOf(central)).not.toBe(999999);
    expect(count(central.deps, 'SELECT count(*) FROM transactions')).toBe(1);
    expect(count(store.deps, 'SELECT count(*) FROM outbox')).toBe(0);
  });

  it('pushes take turns: a read that arrives behind twenty pushes is answered before most of them', async () => {
    const base = records().read(entityNamed('transaction')!, CONTRACT, await sale('100'))!;
    const nodes = Array.from({ length: 20 }, (_, k) => 20 + k);
    const secrets = nodes.map((n) => new NodeRepo(syncContext(central.deps)).add(CONTRACT, n).secret);
    // 40 sales a push (a body read in one go), each of its own node (one node never pushes twice at once).
    const batchOf = (node: number) => ({
      node,
      items: Array.from({ length: 40 }, (_, j) => {
        const id = `${900000 + j}${String(node).padStart(3, '0')}`;
        const row = { row: { ...base.row, transaction_head_id: Number(id) }, children: Object.fromEntries(Object.entries(base.children!).map(([t, rows]) => [t, rows.map((r) => ({ ...r, transaction_head_id: Number(id) }))])) };
        return { seq: j + 1, entity: 'transaction', id, op: 'insert', hlc: syncContext(store.deps).hlc.now(), row };
      }),
    });
    const bodies = nodes.map(batchOf);
    const token = await central.token();
    // The client in a thread of its own: this thread is the server's, blocked while a push writes.
    const client = new Worker(
      `const { parentPort, workerData: w } = require('node:worker_threads');
      const done = [];
      const send = (name, url, init) => fetch(url, init).then(async (r) => { await r.arrayBuffer(); done.push(name); return r.status; });
      const pushes = w.bodies.map((body, k) => send('push', w.url + '/sync/' + w.contract + '/push', { method: 'POST', headers: { 'content-type': 'application/json', authorization: w.auths[k] }, body }));
      setTimeout(() => {
        const before = done.length;
        const read = send('read', w.url + '/' + w.contract + '/pos/stores', { headers: { authorization: 'Bearer ' + w.token } });
        Promise.all([...pushes, read]).then((statuses) => parentPort.postMessage({ statuses, done, before }));
      }, 30);`,
      { eval: true, workerData: { url: central.url, contract: CONTRACT, token, bodies: bodies.map((b) => JSON.stringify(b)), auths: nodes.map((n, k) => basic(n, secrets[k]!)) } },
    );
    const { statuses, done, before } = await new Promise<{ statuses: number[]; done: string[]; before: number }>((resolve, reject) => client.once('message', resolve).once('error', reject));
    await client.terminate();
    expect(statuses).toEqual(Array(nodes.length + 1).fill(200));
    expect(count(central.deps, 'SELECT count(*) FROM transactions')).toBe(nodes.length * 40);
    // Sent while most pushes were still unanswered, answered in the loop's turn after the push
    // being written (or the one after it), not after every push received.
    expect(nodes.length - before).toBeGreaterThanOrEqual(10);
    expect(done.indexOf('read') - before).toBeLessThanOrEqual(2);
  });

  it('a poison item goes to dead letters with its reason and the items behind it arrive', async () => {
    const before = await sale('100');
    // A record that is not the node's own (another node's id suffix): central refuses it.
    const hlc = syncContext(store.deps).hlc.now();
    store.deps.db
      .prepare("INSERT INTO outbox (node, contract_id, entity, entity_id, op, hlc, row, created_at) VALUES (4, ?, 'transaction', '77009', 'insert', ?, ?, 0)")
      .run(CONTRACT, hlc, JSON.stringify({ row: { transaction_head_id: 77009 } }));
    store.deps.db
      .prepare("INSERT INTO outbox (node, contract_id, entity, entity_id, op, hlc, row, created_at) VALUES (4, ?, 'gadget', '1004', 'insert', ?, ?, 0)")
      .run(CONTRACT, hlc, '{"row":{}}');
    const after = [await sale('200'), await sale('300')];
    await agent.drain(CONTRACT);
    for (const id of [before, ...after]) expect(count(central.deps, 'SELECT count(*) FROM transactions WHERE transaction_head_id = ?', id)).toBe(1);
    expect(count(store.deps, 'SELECT count(*) FROM outbox')).toBe(0);
    expect((syncStatus(store.deps, CONTRACT) as StoreSyncStatus).deadLetters).toBe(2);

    const dead = await central.ok('GET', '/sync/dead_letters');
    expect(dead.map((d: { id: string; reason: string; status: string }) => [d.id, d.reason, d.status])).toEqual([
      ['77009', 'transaction 77009 was not made by node 4: its id must end in 004', 'open'],
      ['1004', 'unknown entity "gadget"', 'open'],
    ]);
    const retried = await central.ok('POST', `/sync/dead_letters/${dead[0].deadLetterId}/retry`);
    expect(retried).toMatchObject({ status: 'open', reason: 'transaction 77009 was not made by node 4: its id must end in 004' });
    expect(await central.ok('DELETE', `/sync/dead_letters/${dead[1].deadLetterId}`)).toMatchObject({ status: 'discarded' });
    expect(await central.ok('GET', '/sync/dead_letters?status=open')).toHaveLength(1);
    expect((await central.api('POST', '/sync/dead_letters/999/retry')).json().detail).toBe('[dead_letter_id] dead letter 999 does not exist');
  });

  it('a sale travels compact (values by the batch’s column lists); one that does not fit its columns is a dead letter, the rest arrive', async () => {
    const def = entityNamed('transaction')!;
    // The agent's own push: the central copy equals the store's row, column for column.
    const first = await sale('460');
    await agent.drain(CONTRACT);
    const read = (deps: Instance['deps']) => new RecordStore(deps.db).read(def, CONTRACT, first);
    expect(read(central.deps)).toEqual(read(store.deps));

    const good = await sale('400');
    const bad = await sale('450');
    const tables = records().compactColumns(def);
    const item = (id: string, seq: number) => {
      const { seq: _s, ...r } = outboxItems().find((i) => i.id === id)!;
      return { ...r, seq, row: undefined, cells: records().readCompact(def, CONTRACT, id) };
    };
    const seqs = outboxItems().map((i) => i.seq);
    const broken = item(bad, seqs[1]!);
    broken.cells!.row = broken.cells!.row.slice(1);
    const answer = (await (await push({ node: 4, tables, items: [item(good, seqs[0]!), broken] })).json()) as any;
    expect(answer).toMatchObject({ acked: seqs[1], applied: 1 });
    expect(answer.deadLetters.map((d: { reason: string }) => d.reason)).toEqual([`a transactions row has ${tables.transactions!.length - 1} values for ${tables.transactions!.length} columns`]);
    expect(count(central.deps, 'SELECT count(*) FROM transaction_details WHERE transaction_head_id = ?', good)).toBe(1);
    // Without the column list the batch names, a compact item cannot be read either.
    const noColumns = (await (await push({ node: 4, items: [{ ...item(bad, seqs[1]! + 100) }] })).json()) as any;
    expect(noColumns.deadLetters[0].reason).toBe('the batch lists no columns for transactions');
  });

  it('a dead letter whose cause is fixed is applied on retry', async () => {
    // A sale for a store central does not know yet (made at the store, its store row never pushed).
    const id = await sale('700');
    const items = outboxItems().map((i) => ({ ...i, row: { ...i.row, row: { ...i.row.row, store_id: 99004 } } }));
    const answer = (await (await push({ node: 4, items })).json()) as any;
    expect(answer.deadLetters).toHaveLength(1);
    expect(answer.deadLetters[0].reason).toMatch(/^transaction \d+ cannot be written: FOREIGN KEY constraint failed$/);
    central.deps.db.prepare("INSERT INTO stores (contract_id, store_id, store_name, division, ins_at, upd_at) VALUES (?, 99004, 'Late', 1, 0, 0)").run(CONTRACT);
    expect(await central.ok('POST', `/sync/dead_letters/${answer.deadLetters[0].deadLetterId}/retry`)).toMatchObject({ status: 'retried' });
    expect(count(central.deps, 'SELECT store_id FROM transactions WHERE transaction_head_id = ?', id)).toBe(99004);
  });

  it('refuses unknown, wrong or revoked node credentials, and a node pushing as another', async () => {
    expect((await push({ node: 4, items: [] }, basic(4, 'wrong'))).status).toBe(401);
    expect((await push({ node: 4, items: [] }, 'Bearer x')).status).toBe(401);
    expect((await push({ node: 4, items: [] }, basic(5, secret))).status).toBe(401);
    const as5 = await push({ node: 5, items: [] });
    expect(as5.status).toBe(403);
    expect(((await as5.json()) as any).detail).toBe('[node] node 4 cannot push for node 5');
    const unordered = await push({ node: 4, items: [{ seq: 9, entity: 'x', id: '1', op: 'insert', hlc: 'x', row: null }, { seq: 8, entity: 'x', id: '1', op: 'insert', hlc: 'x', row: null }] });
    expect(unordered.status).toBe(400);
    expect(new NodeRepo(syncContext(central.deps)).revoke(CONTRACT, 4)).toBe(true);
    expect((await push({ node: 4, items: [] })).status).toBe(401);
    expect((await fetch(`${central.url}/sync/${CONTRACT}/pull`, { headers: { authorization: basic(4, secret) } })).status).toBe(401);
  });

  it('a node number is one installation: a data dir set up again with the same secret is refused before anything applies; a revoked number is never given out again', async () => {
    const first = await sale('800');
    await agent.drain(CONTRACT);
    // The same store PC, reinstalled: a fresh database, the old node number and secret.
    const again = await makeInstance('store', 4);
    try {
      new LinkRepo(again.deps).link({ contractId: CONTRACT, centralUrl: central.url!, node: 4, secret });
      const twin = new SyncAgent(again.deps);
      await twin.pull(CONTRACT); // masters may be read
      const till = (await again.ok('POST', '/terminals', { storeId: shop, terminalName: 'R1 again' }))[0].terminalId;
      const reused = (await again.ok('POST', '/transactions', {
        transactionHeadDivision: '1',
        storeId: shop,
        terminalId: till,
        terminalTranDateTime: '2026-11-22T11:00:00+09:00',
        details: [{ transactionDetailId: '1', transactionDetailDivision: '1', productName: 'Other', salesPrice: '1', quantity: '1', taxDivision: '2' }],
      })) as { transactionHeadId: string };
      // Its ids start again from 1: the sale's id may be one central already holds.
      await expect(twin.push(CONTRACT)).rejects.toThrow(/central answered 409 .*node 4 of contract .* is in use by another installation/);
      expect((syncStatus(again.deps, CONTRACT) as StoreSyncStatus).lastError).toMatch(/in use by another installation/);
      expect(count(central.deps, "SELECT count(*) FROM transaction_details WHERE transaction_head_id = ? AND product_name = 'Other'", reused.transactionHeadId)).toBe(0);
      expect(count(again.deps, 'SELECT count(*) FROM outbox WHERE entity = ?', 'transaction')).toBe(1);
    } finally {
      await again.close();
    }
    // The original installation goes on; unlinking and linking again keeps its installation id.
    const links = new LinkRepo(store.deps);
    const id = links.installationId();
    links.unlink(CONTRACT);
    links.link({ contractId: CONTRACT, centralUrl: central.url!, node: 4, secret });
    expect(links.installationId()).toBe(id);
    await sale('900');
    expect((await agent.drain(CONTRACT)).pushed).toBe(1);
    expect(count(central.deps, 'SELECT count(*) FROM transactions WHERE transaction_head_id = ?', first)).toBe(1);

    const nodes = new NodeRepo(syncContext(central.deps));
    nodes.revoke(CONTRACT, 4);
    expect(() => nodes.add(CONTRACT, 4)).toThrow(`node 4 of contract ${CONTRACT} was used before and revoked; its ids are at head office, so add the store under a new node number`);
  });

  it('central documents its sync endpoints in OpenAPI', async () => {
    const doc = (await (await fetch(`${central.url}/docs/json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/sync/{contract_id}/push', '/sync/{contract_id}/pull', '/{contract_id}/pos/sync/status']));
  });
});

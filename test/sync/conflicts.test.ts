import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SyncAgent } from '../../sync/agent.js';
import { CentralSync, NodeRepo } from '../../sync/central.js';
import { syncContext } from '../../sync/context.js';
import { LinkRepo } from '../../sync/link.js';
import { CONTRACT, count, makeInstance, type Instance } from './helpers.js';

/** Masters both ways: central's edits reach the store; the same record edited on both sides: the later HLC wins on both. */

let central: Instance;
let store: Instance;
let agent: SyncAgent;
let category: string;

beforeEach(async () => {
  central = await makeInstance('central', 0);
  store = await makeInstance('store', 3);
  await central.up();
  const { secret } = new NodeRepo(syncContext(central.deps)).add(CONTRACT, 3);
  category = (await central.ok('POST', '/categories', { categoryName: 'Drinks' })).categoryId;
  new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl: central.url!, node: 3, secret });
  agent = new SyncAgent(store.deps);
  await agent.drain(CONTRACT);
});
afterEach(async () => {
  await store.close();
  await central.close();
});

const nameAt = async (i: Instance) => (await i.ok('GET', `/categories/${category}`)).categoryName;
const conflicts = (i: Instance) => i.deps.db.prepare('SELECT entity, entity_id, winner_hlc, loser_hlc, loser_row FROM sync_conflicts').all() as { loser_row: string }[];

describe('masters', () => {
  it('an edit at central reaches the store; a new master made at central too', async () => {
    expect(await nameAt(store)).toBe('Drinks');
    await central.ok('PATCH', `/categories/${category}`, { categoryName: 'Cold drinks' });
    const food = (await central.ok('POST', '/categories', { categoryName: 'Food' })).categoryId;
    const r = await agent.drain(CONTRACT);
    expect(r.pulled).toBe(2);
    expect(await nameAt(store)).toBe('Cold drinks');
    expect((await store.ok('GET', `/categories/${food}`)).categoryName).toBe('Food');
    expect((await central.api('DELETE', `/categories/${food}`)).statusCode).toBe(204);
    await agent.drain(CONTRACT);
    expect(count(store.deps, 'SELECT count(*) FROM categories WHERE category_id = ?', food)).toBe(0);
  });

  it('masters written at central without the hooks (an older build, a one-shot command) are seeded into the change log', async () => {
    central.deps.db
      .prepare("INSERT INTO categories (contract_id, category_id, category_name, level, ins_at, upd_at) VALUES (?, 77000, 'Old', 1, 0, 0)")
      .run(CONTRACT);
    expect(new CentralSync(syncContext(central.deps)).seed(CONTRACT)).toBe(1);
    expect(new CentralSync(syncContext(central.deps)).seed(CONTRACT)).toBe(0);
    await agent.drain(CONTRACT);
    expect((await store.ok('GET', '/categories/77000')).categoryName).toBe('Old');
  });

  it('a master made at the store reaches central through the same path', async () => {
    const local = (await store.ok('POST', '/categories', { categoryName: 'Store-made' })).categoryId as string;
    expect(local.endsWith('003')).toBe(true);
    await agent.drain(CONTRACT);
    expect((await central.ok('GET', `/categories/${local}`)).categoryName).toBe('Store-made');
    expect(count(central.deps, 'SELECT count(*) FROM change_log WHERE entity_id = ? AND origin_node = 3', local)).toBe(1);
  });

  it('edited on both sides, central later: central’s version wins on both after one round; the loser is logged', async () => {
    store.clock.advance(10_000);
    await store.ok('PATCH', `/categories/${category}`, { categoryName: 'Store edit' });
    central.clock.advance(20_000);
    await central.ok('PATCH', `/categories/${category}`, { categoryName: 'Central edit' });
    await agent.syncOnce(CONTRACT);
    expect(await nameAt(central)).toBe('Central edit');
    expect(await nameAt(store)).toBe('Central edit');
    expect(conflicts(central).map((c) => JSON.parse(c.loser_row).row.category_name)).toEqual(['Store edit']);
    expect(count(store.deps, 'SELECT count(*) FROM outbox')).toBe(0);
    // Head office reads the record's lost versions over the API.
    const log = await central.ok('GET', `/sync/conflicts?entity=category&id=${category}`);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ entity: 'category', id: category, loser: { row: { category_name: 'Store edit' } } });
    expect(log[0].winnerHlc > log[0].loserHlc).toBe(true);
    expect(await central.ok('GET', '/sync/conflicts?entity=category&id=999')).toEqual([]);
    expect((await central.api('GET', '/sync/conflicts?limit=0')).statusCode).toBe(400);
  });

  it('edited on both sides, the store later: the store’s version wins on both after one round', async () => {
    central.clock.advance(10_000);
    await central.ok('PATCH', `/categories/${category}`, { categoryName: 'Central edit' });
    store.clock.advance(20_000);
    await store.ok('PATCH', `/categories/${category}`, { categoryName: 'Store edit' });
    await agent.syncOnce(CONTRACT);
    expect(await nameAt(central)).toBe('Store edit');
    expect(await nameAt(store)).toBe('Store edit');
    // The store kept its pending edit against central's older one and logged central's as the loser.
    expect(conflicts(store).map((c) => JSON.parse(c.loser_row).row.category_name)).toEqual(['Central edit']);
    // Another store pulling later gets the winner (central logged the store's push).
    await agent.drain(CONTRACT);
    expect(await nameAt(store)).toBe('Store edit');
  });

  it('a pulled master the store cannot apply becomes a store-side dead letter; the pages behind it apply; retry over the API', async () => {
    // A terminal of a store this store does not have (e.g. its store row was refused here).
    const hlc = syncContext(central.deps).hlc.now();
    const row = { row: { terminal_id: 42000, store_id: 424000, terminal_name: 'Far', use_stop_division: '0', ins_at: 0, upd_at: 0 } };
    central.deps.db
      .prepare("INSERT INTO change_log (contract_id, entity, entity_id, op, hlc, origin_node, row, created_at) VALUES (?, 'terminal', '42000', 'insert', ?, 0, ?, 0)")
      .run(CONTRACT, hlc, JSON.stringify(row));
    await central.ok('PATCH', `/categories/${category}`, { categoryName: 'After the poison' });
    await agent.drain(CONTRACT);
    expect(await nameAt(store)).toBe('After the poison');
    const [dead] = await store.ok('GET', '/sync/dead_letters');
    expect(dead).toMatchObject({ direction: 'pull', entity: 'terminal', id: '42000', status: 'open' });
    expect(dead.reason).toMatch(/FOREIGN KEY constraint failed/);
    expect((await store.ok('GET', '/sync/status')).deadLetters).toBe(1);
    store.deps.db.prepare("INSERT INTO stores (contract_id, store_id, store_name, division, ins_at, upd_at) VALUES (?, 424000, 'Far', 1, 0, 0)").run(CONTRACT);
    expect(await store.ok('POST', `/sync/dead_letters/${dead.deadLetterId}/retry`)).toMatchObject({ status: 'retried' });
    expect((await store.ok('GET', '/terminals/42000')).terminalName).toBe('Far');
    expect((await store.ok('GET', '/sync/status')).deadLetters).toBe(0);
  });
});

describe('the sync lists', () => {
  it('refuse an unknown query parameter with a 400 naming it, like every other list', async () => {
    for (const instance of [central, store]) {
      for (const path of ['/sync/dead_letters?status=open&verbose=1', '/sync/conflicts?entity=category&verbose=1']) {
        const res = await instance.api('GET', path);
        expect(res.statusCode, path).toBe(400);
        expect(res.headers['content-type'], path).toBe('application/problem+json; charset=utf-8');
        expect(res.json(), path).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail: '[verbose] is not a known field' });
      }
    }
  });
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postgresUrlOf } from '../../server/db/engine.js';
import { openDeps, type AppDeps } from '../../server/deps.js';
import { SyncAgent } from '../../sync/agent.js';
import { CentralSync, NodeRepo, type PushedItem } from '../../sync/central.js';
import { ChangeLog } from '../../sync/change-log.js';
import { syncContext } from '../../sync/context.js';
import { entityNamed, RecordStore } from '../../sync/entities.js';
import { LinkRepo } from '../../sync/link.js';
import { onPostgres } from '../helpers/engine.js';
import { ROOT } from '../helpers/serve-child.js';
import { CONTRACT, count, makeInstance, type Instance } from './helpers.js';

/**
 * Several central processes on one database (issue 24): a node's batch applies once and in
 * sequence whichever process takes it (the node's row locked while it applies), and the pull
 * cursor never passes over a change another process committed after a newer one. On PostgreSQL
 * the second process is a real second connection: a child process holding the node's row, or a
 * second app on the same database whose transaction stays open while the first commits and
 * pulls. The same pulls run on SQLite, where the one writer commits in seq order.
 */

const NODE = 4;
const category = entityNamed('category')!;

let central: Instance;
let store: Instance;
let agent: SyncAgent;
let categories: string[];
const others: { deps: AppDeps; dir: string }[] = [];

const sync = (deps: AppDeps) => new CentralSync(syncContext(deps));
const nameAt = async (i: Instance, id: string) => (await i.ok('GET', `/categories/${id}`)).categoryName as string;

/** Another central process's connection to central's database (PostgreSQL), with its own clock slot. */
function secondProcess(): AppDeps {
  const dir = mkdtempSync(join(tmpdir(), 'pos-central-two-'));
  const deps = openDeps({ file: join(dir, 'pos.sqlite'), postgresUrl: postgresUrlOf(central.deps.db)!, role: 'central', node: 0, clock: central.clock });
  others.push({ deps, dir });
  return deps;
}

/** A master change as central's hooks log it: category `id` renamed, at this process's clock. */
function logRename(deps: AppDeps, id: string, name: string): void {
  const record = new RecordStore(deps.db).read(category, CONTRACT, id)!;
  new ChangeLog(syncContext(deps)).append(CONTRACT, 'category', id, 'update', syncContext(deps).hlc.now(), 0, { ...record, row: { ...record.row, category_name: name } });
}

beforeEach(async () => {
  central = await makeInstance('central', 0);
  store = await makeInstance('store', NODE);
  await central.up();
  const { secret } = new NodeRepo(syncContext(central.deps)).add(CONTRACT, NODE);
  categories = [];
  for (const name of ['Drinks', 'Food', 'Sweets']) categories.push((await central.ok('POST', '/categories', { categoryName: name })).categoryId);
  new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl: central.url!, node: NODE, secret });
  agent = new SyncAgent(store.deps);
  await agent.drain(CONTRACT);
});
afterEach(async () => {
  for (const o of others.splice(0)) {
    o.deps.db.close();
    rmSync(o.dir, { recursive: true, force: true });
  }
  await store.close();
  await central.close();
});

describe('the pull cursor in commit order', () => {
  it.skipIf(!onPostgres)('a change committed later than a newer one is pulled, not passed over: nothing past a transaction still open, then both', async () => {
    const [drinks, food] = categories as [string, string];
    const cursor = new LinkRepo(store.deps).get(CONTRACT)!.pullCursor;
    const other = secondProcess();
    const lastSeqOf = (id: string) => central.deps.db.prepare("SELECT max(seq) FROM change_log WHERE entity = 'category' AND entity_id = ?").pluck().get(id) as number;
    let whileOpen: ReturnType<CentralSync['pull']> | undefined;
    // The other process logs its change first (the lower seq) and keeps its transaction open while
    // this one logs a change, commits and pulls: all on one thread, each on its own connection.
    other.writer.write(() => {
      logRename(other, drinks, 'Drinks (other process)');
      central.deps.writer.write(() => logRename(central.deps, food, 'Food (this process)'));
      whileOpen = sync(central.deps).pull(CONTRACT, NODE, cursor, 100);
    });
    // By seq the committed change came after the open one's: a cursor past it would never go back.
    expect(lastSeqOf(food)).toBeGreaterThan(lastSeqOf(drinks));
    expect(whileOpen).toEqual({ items: [], cursor, more: false });
    const after = sync(central.deps).pull(CONTRACT, NODE, cursor, 100);
    expect(after.items.map((i) => [i.id, (i.row as { row: { category_name: string } }).row.category_name])).toEqual([
      [drinks, 'Drinks (other process)'],
      [food, 'Food (this process)'],
    ]);
    expect(after.cursor).toBe(lastSeqOf(food));
    expect(sync(central.deps).pull(CONTRACT, NODE, after.cursor, 100).items).toEqual([]);
    // The store's own pull gets both.
    await agent.drain(CONTRACT);
    expect(await nameAt(store, drinks)).toBe('Drinks (other process)');
    expect(await nameAt(store, food)).toBe('Food (this process)');
  });

  it('pages follow one another without a gap or a repeat, and a cursor whose row was removed goes on without skipping', async () => {
    const [drinks, food, sweets] = categories as [string, string, string];
    const seqs: number[] = [];
    for (let round = 0; round < 4; round++) {
      for (const id of [drinks, food, sweets]) {
        central.deps.writer.write(() => logRename(central.deps, id, `${id} ${round}`));
        seqs.push(central.deps.db.prepare('SELECT max(seq) FROM change_log').pluck().get() as number);
      }
    }
    const start = new LinkRepo(store.deps).get(CONTRACT)!.pullCursor;
    const pulled: number[] = [];
    let cursor = start;
    for (let page = 0; page < 10; page++) {
      const answer = sync(central.deps).pull(CONTRACT, NODE, cursor, 5);
      pulled.push(...answer.items.map((i) => i.seq));
      cursor = answer.cursor;
      if (!answer.more) break;
    }
    expect(pulled).toEqual(seqs);
    // The row a store's cursor names is deleted by hand: the next pull still brings every later change.
    const named = seqs[5]!;
    central.deps.db.prepare('DELETE FROM change_log WHERE seq = ?').run(named);
    const resumed = sync(central.deps).pull(CONTRACT, NODE, named, 100).items.map((i) => i.seq);
    expect(resumed.filter((s) => s > named)).toEqual(seqs.slice(6));
    expect(new Set(resumed).size).toBe(resumed.length);
  });
});

describe('a node pushing to two processes at once', () => {
  /** Sales of the store, as its outbox will push them. */
  const sales = async (n: number): Promise<PushedItem[]> => {
    const shop = (await central.ok('POST', '/stores', { storeName: 'Main' })).storeId as string;
    await agent.drain(CONTRACT);
    const terminal = (await store.ok('POST', '/terminals', { storeId: shop, terminalName: 'R1' }))[0].terminalId as string;
    await agent.drain(CONTRACT);
    const transaction = entityNamed('transaction')!;
    const items: PushedItem[] = [];
    for (let k = 0; k < n; k++) {
      const id = (
        await store.ok('POST', '/transactions', {
          transactionHeadDivision: '1',
          storeId: shop,
          terminalId: terminal,
          terminalTranDateTime: '2026-11-22T10:00:00+09:00',
          details: [{ transactionDetailId: '1', transactionDetailDivision: '1', productName: 'Tea', salesPrice: '300', quantity: '1', taxDivision: '2' }],
        })
      ).transactionHeadId as string;
      items.push({ seq: 1000 + k, entity: 'transaction', id, op: 'insert', hlc: syncContext(store.deps).hlc.now(), row: new RecordStore(store.deps.db).read(transaction, CONTRACT, id) });
    }
    return items;
  };
  const highWater = () => count(central.deps, 'SELECT high_water FROM sync_nodes WHERE contract_id = ? AND node = ?', CONTRACT, NODE);

  it.skipIf(!onPostgres)('the second waits on the node’s row while the first applies the batch, then finds it applied and skips it', async () => {
    const items = await sales(3);
    const holder = await holdNodeRow(postgresUrlOf(central.deps.db)!, 'commit', 1002);
    // Blocks on the row until the other process commits its batch (high-water 1002).
    const result = sync(central.deps).push(CONTRACT, NODE, items);
    expect(await holder.ended).toContain('committed');
    expect(result).toMatchObject({ acked: 1002, applied: 0, skipped: 3, deadLetters: [] });
    expect(highWater()).toBe(1002);
  });

  it.skipIf(!onPostgres)('a process killed mid-batch leaves nothing: the one that waited applies the whole batch', async () => {
    const items = await sales(3);
    const holder = await holdNodeRow(postgresUrlOf(central.deps.db)!, 'die', 1002);
    const result = sync(central.deps).push(CONTRACT, NODE, items);
    expect(await holder.ended).toContain('waiter seen');
    expect(result).toMatchObject({ acked: 1002, applied: 3, skipped: 0, deadLetters: [] });
    expect(count(central.deps, 'SELECT count(*) FROM transactions WHERE contract_id = ?', CONTRACT)).toBe(3);
    // Sent again (the store never heard the answer): acknowledged, not applied twice.
    expect(sync(central.deps).push(CONTRACT, NODE, items)).toMatchObject({ acked: 1002, applied: 0, skipped: 3 });
    expect(count(central.deps, 'SELECT count(*) FROM transactions WHERE contract_id = ?', CONTRACT)).toBe(3);
  });

  it('one batch after the other on the same process: each item once, in sequence', async () => {
    const items = await sales(4);
    expect(sync(central.deps).push(CONTRACT, NODE, items.slice(0, 3))).toMatchObject({ acked: 1002, applied: 3, skipped: 0 });
    expect(sync(central.deps).push(CONTRACT, NODE, items)).toMatchObject({ acked: 1003, applied: 1, skipped: 3 });
    expect(count(central.deps, 'SELECT count(*) FROM transactions WHERE contract_id = ?', CONTRACT)).toBe(4);
    expect(highWater()).toBe(1003);
  });
});

/**
 * Another central process in the middle of the node's batch, in a child process (this thread
 * blocks while the push waits): it locks the node's row as a push does, moves the high-water
 * mark, waits until another session waits on a lock in the database, then commits ('commit':
 * the batch applied there) or kills itself ('die': PostgreSQL rolls its transaction back).
 * `ended` is what it printed.
 */
async function holdNodeRow(url: string, end: 'commit' | 'die', highWater: number): Promise<{ ended: Promise<string> }> {
  const script = `
    import pg from 'pg';
    const c = new pg.Client({ connectionString: ${JSON.stringify(url)} });
    await c.connect();
    await c.query('BEGIN');
    await c.query('SELECT 1 FROM sync_nodes WHERE contract_id = $1 AND node = $2 FOR UPDATE', [${JSON.stringify(CONTRACT)}, ${NODE}]);
    await c.query('UPDATE sync_nodes SET high_water = $3 WHERE contract_id = $1 AND node = $2', [${JSON.stringify(CONTRACT)}, ${NODE}, ${highWater}]);
    console.log('locked');
    let seen = false;
    for (let i = 0; i < 2000 && !seen; i++) {
      const r = await c.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()");
      seen = r.rowCount > 0;
      if (!seen) await new Promise((r) => setTimeout(r, 5));
    }
    console.log(seen ? 'waiter seen' : 'no waiter');
    if (${JSON.stringify(end)} === 'die') process.kill(process.pid, 'SIGKILL');
    await c.query('COMMIT');
    console.log('committed');
    await c.end();
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ended = new Promise<string>((resolve) => child.on('exit', () => resolve(out)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the holder did not lock the node's row: ${out}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('locked')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', () => reject(new Error(`the holder ended before locking: ${out}`)));
  });
  return { ended };
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CentralSync, type PushedItem } from '../../sync/central.js';
import { syncContext } from '../../sync/context.js';
import { entityNamed, RecordStore, type CompactColumns, type SyncRecord } from '../../sync/entities.js';
import { dialectOf } from '../../server/db/engine.js';
import { CONTRACT, count, type Instance } from './helpers.js';
import { pushBoth as pushBothOf, pushManyFixture } from './push-many-fixture.js';

/**
 * Central applies a push batch's consecutive sales records of one entity together (a few
 * statements per table, sync/central.ts pushMany): the outcome must be what applying them one by
 * one gives, refusals and write failures included. Each case pushes the same items to two
 * centrals on the run's engine: to one as one batch, to the other one item per batch (the
 * one-by-one path), and compares answers, dead letters and the records stored.
 */

let central: Instance;
let single: Instance;
let store: Instance;
let shop: string;
let terminal: string;
let close: () => Promise<void>;

const NODE = 4;
const transaction = entityNamed('transaction')!;
const records = (i: Instance) => new RecordStore(i.deps.db);
const sync = (i: Instance) => new CentralSync(syncContext(i.deps));

const sale = async (amount: string, lines = 1) =>
  (
    await store.ok('POST', '/transactions', {
      transactionHeadDivision: '1',
      storeId: shop,
      terminalId: terminal,
      terminalTranDateTime: '2026-11-22T10:00:00+09:00',
      details: Array.from({ length: lines }, (_, k) => ({
        transactionDetailId: String(k + 1),
        transactionDetailDivision: '1',
        productName: `Item ${k + 1}`,
        salesPrice: amount,
        quantity: '1',
        taxDivision: '2',
      })),
    })
  ).transactionHeadId as string;

/** A pushed item of the store's sale `id` as it stands (as the agent's push reads it). */
const itemOf = (id: string, seq: number, op: PushedItem['op'] = 'insert'): PushedItem => ({
  seq,
  entity: 'transaction',
  id,
  op,
  hlc: syncContext(store.deps).hlc.now(),
  row: records(store).read(transaction, CONTRACT, id),
});

beforeEach(async () => {
  ({ central, single, store, shop, terminal, close } = await pushManyFixture(NODE));
});
afterEach(() => close?.());

/** Pushes `items` to `central` as one batch and to `single` one per batch; both answers, merged like one. */
const pushBoth = (items: PushedItem[], tables: CompactColumns = {}) => pushBothOf(central, single, NODE, items, tables);

const stored = (i: Instance, ids: readonly string[]) => ids.map((id) => records(i).read(transaction, CONTRACT, id));
const deadLetters = (i: Instance) =>
  (i.deps.db.prepare('SELECT seq, entity_id, op, hlc, row, reason FROM dead_letters ORDER BY dead_letter_id').all() as Record<string, unknown>[]).map((d) => ({
    ...d,
    seq: Number(d.seq),
  }));

describe('a push batch applied set-based', () => {
  it('good, refused, already-present and repeated sales in one batch: the same answer, dead letters and records as one by one', async () => {
    const present = await sale('90', 2);
    const seq0 = 1000;
    // Already at both centrals before the batch.
    expect(pushBoth([itemOf(present, seq0)]).batch).toMatchObject({ applied: 1, deadLetters: [] });

    const [a, b, c, d, e, f, g] = [await sale('100', 3), await sale('200'), await sale('300'), await sale('400'), await sale('500', 2), await sale('600'), await sale('700', 4)];
    const tables = records(store).compactColumns(transaction);
    const compact = (id: string, seq: number): PushedItem => ({ ...itemOf(id, seq), row: undefined as never, cells: records(store).readCompact(transaction, CONTRACT, id) } as PushedItem);
    const misfit = compact(d!, seq0 + 6) as PushedItem & { cells: { row: unknown[] } };
    misfit.cells.row = misfit.cells.row.slice(1);
    const changed = itemOf(present, seq0 + 3, 'update');
    changed.row!.row.total = '12345';
    const noStore = itemOf(f!, seq0 + 9);
    noStore.row!.row.store_id = 987654;
    const again = itemOf(a!, seq0 + 8, 'update');
    again.row!.children!.transaction_details = again.row!.children!.transaction_details!.slice(0, 1);
    const items: PushedItem[] = [
      itemOf(a!, seq0 + 1),
      compact(b!, seq0 + 2),
      changed, // already here: replaced
      { ...itemOf(c!, seq0 + 4), id: '77009', row: { row: { ...itemOf(c!, 0).row!.row, transaction_head_id: 77009 } } }, // not the node's own
      { ...itemOf(c!, seq0 + 5), hlc: 'not-an-hlc' },
      misfit, // does not fit its columns
      itemOf(e!, seq0 + 7),
      again, // a second time in the batch: after the first
      noStore, // refused by a foreign key: the batch falls back to one by one
      itemOf(g!, seq0 + 10),
      { ...itemOf(g!, seq0 + 11), op: 'delete', row: null }, // a sale's delete goes alone
      itemOf(g!, seq0 + 12),
    ];
    const { batch, oneByOne } = pushBoth(items, tables);
    expect(batch).toEqual(oneByOne);
    expect(batch).toMatchObject({ acked: seq0 + 12, applied: 8, skipped: 0 });
    expect(batch.deadLetters.map((l) => l.seq)).toEqual([seq0 + 4, seq0 + 5, seq0 + 6, seq0 + 9]);
    expect(batch.deadLetters.at(-1)!.reason).toBe(`transaction ${f} cannot be written: FOREIGN KEY constraint failed`);
    expect(deadLetters(central)).toEqual(deadLetters(single));

    const ids = [present, a!, b!, c!, d!, e!, f!, g!, '77009'];
    expect(stored(central, ids)).toEqual(stored(single, ids));
    expect(String(stored(central, [present])[0]!.row.total)).toBe('12345');
    expect(count(central.deps, 'SELECT count(*) FROM transaction_details WHERE transaction_head_id = ?', a)).toBe(1);
    expect(count(central.deps, 'SELECT count(*) FROM transaction_details WHERE transaction_head_id = ?', g)).toBe(4);
    expect(count(central.deps, 'SELECT count(*) FROM transactions')).toBe(count(single.deps, 'SELECT count(*) FROM transactions'));

    // The batch resent: acknowledged, nothing applied twice.
    expect(sync(central).push(CONTRACT, NODE, items, tables)).toMatchObject({ acked: seq0 + 12, applied: 0, skipped: items.length, deadLetters: [] });
  });

  it('writeMany replaces the lines of sales already here and writes new ones with theirs (a child DELETE only when a parent was here)', async () => {
    const [p, q, n] = [await sale('100', 3), await sale('200', 3), await sale('300', 2)];
    const recordOf = (id: string) => records(store).read(transaction, CONTRACT, id)!;
    const withLines = (id: string, lines: number): SyncRecord => {
      const record = structuredClone(recordOf(id));
      record.children!.transaction_details = record.children!.transaction_details!.slice(0, lines);
      return record;
    };
    const writeMany = (list: { id: string; record: SyncRecord }[]) => central.deps.db.transaction(() => records(central).writeMany(transaction, CONTRACT, list))();
    const lines = (id: string) => count(central.deps, 'SELECT count(*) FROM transaction_details WHERE transaction_head_id = ?', id);
    writeMany([{ id: p, record: recordOf(p) }, { id: q, record: recordOf(q) }]); // all new
    expect([lines(p), lines(q)]).toEqual([3, 3]);
    writeMany([{ id: p, record: withLines(p, 1) }, { id: n, record: recordOf(n) }]); // one here, one new
    expect([lines(p), lines(q), lines(n)]).toEqual([1, 3, 2]);
    writeMany([{ id: q, record: withLines(q, 2) }]);
    expect([lines(p), lines(q), lines(n)]).toEqual([1, 2, 2]);
    expect(stored(central, [n])).toEqual(stored(store, [n]));
  });

  it('a batch of good sales only is written whole, lines and all, as one by one', async () => {
    const ids: string[] = [];
    for (let k = 0; k < 12; k++) ids.push(await sale(String(100 + k), 1 + (k % 4)));
    const items = ids.map((id, k) => itemOf(id, 2000 + k));
    const { batch, oneByOne } = pushBoth(items);
    expect(batch).toEqual(oneByOne);
    expect(batch).toMatchObject({ acked: 2000 + ids.length - 1, applied: ids.length, deadLetters: [] });
    expect(stored(central, ids)).toEqual(stored(single, ids));
    expect(stored(central, ids)).toEqual(stored(store, ids));
  });

  it("a batch of 150 sales into sales tables without statistics: written as one by one; PostgreSQL gathers the sales' statistics and plans each time again after", async () => {
    const base = await sale('1280', 2);
    const record = records(store).read(transaction, CONTRACT, base)!;
    // Copies of one sale under new ids of the node, as the sync-drain benchmark makes them.
    const copy = (id: string): SyncRecord => ({
      row: { ...record.row, transaction_head_id: Number(id) },
      children: Object.fromEntries(Object.entries(record.children!).map(([t, rows]) => [t, rows.map((r) => ({ ...r, transaction_head_id: Number(id) }))])),
    });
    const ids = Array.from({ length: 150 }, (_, k) => `${700000 + k}${String(NODE).padStart(3, '0')}`);
    const items = ids.map((id, k): PushedItem => ({ seq: 3000 + k, entity: 'transaction', id, op: 'insert', hlc: syncContext(store.deps).hlc.now(), row: copy(id) }));
    const statistics = dialectOf(central.deps.db).tableStatistics('transactions');
    const missing = () => statistics && central.deps.db.prepare(statistics.missing).all().length > 0;
    if (statistics) expect(missing()).toBe(true);

    const { batch, oneByOne } = pushBoth(items);
    expect(batch).toEqual(oneByOne);
    expect(batch).toMatchObject({ applied: ids.length, deadLetters: [] });
    expect(stored(central, ids)).toEqual(stored(single, ids));
    expect(count(central.deps, 'SELECT count(*) FROM transaction_details')).toBe(2 * ids.length);
    if (!statistics) return; // SQLite: none to gather
    expect(missing()).toBe(false);
    expect(central.deps.db.prepare('SHOW plan_cache_mode').pluck().get()).toBe('force_custom_plan');
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CentralSync, type PushedItem } from '../../sync/central.js';
import { syncContext } from '../../sync/context.js';
import { entityNamed, RecordStore } from '../../sync/entities.js';
import { dialectOf } from '../../server/db/engine.js';
import { CONTRACT, type Instance } from './helpers.js';
import { copyRecord, pushBoth as pushBothOf, pushManyFixture } from './push-many-fixture.js';

/**
 * Central applies a push batch's stock movements (written once, moving a balance) together too
 * (Applier.applyPushedMany, MergedBalances.movementsArrived): a store's sales as its outbox holds
 * them, a transaction and its movements one after the other, must end at central exactly as when
 * applied one by one: the same answer, dead letters, movements and stock quantities. The items go
 * to two centrals on the run's engine: to one as one batch, to the other one item per batch.
 */

let central: Instance;
let single: Instance;
let store: Instance;
let shop: string;
let terminal: string;
let close: () => Promise<void>;
const products: string[] = [];

const NODE = 6;
const records = (i: Instance) => new RecordStore(i.deps.db);
const sync = (i: Instance) => new CentralSync(syncContext(i.deps));

beforeEach(async () => {
  let category = '';
  ({ central, single, store, shop, terminal, close } = await pushManyFixture(NODE, async (hq, shop) => {
    category = (await hq.ok('POST', '/categories', { categoryName: 'Tea' })).categoryId;
    products.length = 0;
    for (const [code, price] of [['GREEN', '300'], ['BLACK', '250'], ['MUG', '1200']]) {
      products.push((await hq.ok('POST', '/products', { categoryId: category, productCode: code, productName: code, price })).productId);
    }
    await hq.ok('PATCH', `/stock/${products[0]}`, { storeId: shop, stockAmount: '50' }); // a quantity before the sales
  }));
  // The other central gets the same masters and quantity too (the sales' parents).
  copyRecord(central, single, 'category', category);
  for (const p of products) copyRecord(central, single, 'product', p);
  copyRecord(central, single, 'stock', `${shop}/${products[0]}`);
});
afterEach(() => close?.());

const sale = (lines: [number, string][]) =>
  store.ok('POST', '/transactions', {
    transactionHeadDivision: '1',
    storeId: shop,
    terminalId: terminal,
    terminalTranDateTime: '2026-11-22T10:00:00+09:00',
    details: lines.map(([p, quantity], k) => ({ transactionDetailId: String(k + 1), productId: products[p], salesPrice: '100', quantity })),
  });

/** The store's outbox as pushed items (seq order), each record as it stands. */
function outboxItems(): PushedItem[] {
  const rows = store.deps.db.prepare('SELECT seq, entity, entity_id, op, hlc FROM outbox WHERE contract_id = ? ORDER BY seq').all(CONTRACT) as {
    seq: number;
    entity: string;
    entity_id: string;
    op: PushedItem['op'];
    hlc: string;
  }[];
  return rows.map((r) => ({ seq: r.seq, entity: r.entity, id: r.entity_id, op: r.op, hlc: r.hlc, row: records(store).read(entityNamed(r.entity)!, CONTRACT, r.entity_id) }));
}

/** Pushes `items` to `central` as one batch and to `single` one per batch; both answers, merged like one. */
const pushBoth = (items: PushedItem[]) => pushBothOf(central, single, NODE, items);

/** The movements the node pushed (head office's own, the quantity set before, are only at `central`). */
const movements = (i: Instance) =>
  (i.deps.db.prepare('SELECT movement_id, store_id, product_id, stock_division, delta, transaction_head_id FROM stock_movements ORDER BY movement_id').all() as Record<string, unknown>[])
    .filter((m) => String(m.movement_id).endsWith(String(NODE).padStart(3, '0')))
    .map((m) => ({ ...m, delta: String(m.delta) }));
const quantities = (i: Instance) =>
  (i.deps.db.prepare('SELECT store_id, product_id, stock_amount FROM stock ORDER BY store_id, product_id').all() as Record<string, unknown>[]).map((s) => ({
    store_id: String(s.store_id),
    product_id: String(s.product_id),
    stock_amount: String(s.stock_amount),
  }));
const deadLetters = (i: Instance) =>
  (i.deps.db.prepare('SELECT seq, entity, entity_id, reason FROM dead_letters ORDER BY dead_letter_id').all() as Record<string, unknown>[]).map((d) => ({ ...d, seq: Number(d.seq) }));

describe('a push batch of sales with their stock movements, applied set-based', () => {
  it('sales, movements already here, refused movements: the same answer, dead letters, movements and quantities as one by one', async () => {
    await sale([[0, '1']]);
    const first = outboxItems();
    // Already at both centrals before the batch: a sale and its movement.
    expect(pushBoth(first).batch).toMatchObject({ applied: 2, deadLetters: [] });
    store.deps.db.prepare('DELETE FROM outbox').run();

    await sale([
      [0, '2'],
      [1, '1'],
      [2, '1'],
    ]);
    await sale([[1, '3']]);
    await sale([
      [0, '1'],
      [0, '4'], // the same product twice: one movement of 5
      [2, '2'],
    ]);
    const items = outboxItems();
    expect(items.map((i) => i.entity)).toEqual(['transaction', 'stock_movement', 'stock_movement', 'stock_movement', 'transaction', 'stock_movement', 'transaction', 'stock_movement', 'stock_movement']);
    const movement = first.find((i) => i.entity === 'stock_movement')!;
    const seq0 = items.at(-1)!.seq;
    const foreign = { ...items[2]!, id: '99001', row: { row: { ...items[2]!.row!.row, movement_id: 99001 } } }; // not the node's own
    const batchItems: PushedItem[] = [
      ...items.slice(0, 5),
      { ...movement, seq: seq0 + 1 }, // already here: the first copy stands, acknowledged
      { ...foreign, seq: seq0 + 2 },
      { ...items[5]!, seq: seq0 + 3, id: items[5]!.id, hlc: 'not-an-hlc' }, // refused: then sent again right
      ...items.slice(6).map((item, k) => ({ ...item, seq: seq0 + 4 + k })),
      { ...items[5]!, seq: seq0 + 10 },
    ];
    const { batch, oneByOne } = pushBoth(batchItems);
    expect(batch).toEqual(oneByOne);
    expect(batch).toMatchObject({ acked: seq0 + 10, skipped: 0 });
    expect(batch.deadLetters.map((d) => d.seq)).toEqual([seq0 + 2, seq0 + 3]);
    expect(deadLetters(central)).toEqual(deadLetters(single));
    expect(movements(central)).toEqual(movements(single));
    expect(quantities(central)).toEqual(quantities(single));
    expect(movements(central)).toHaveLength(1 + 6);
    const amount = (p: number) => quantities(central).find((q) => String(q.product_id) === String(products[p]))!.stock_amount;
    expect([amount(0), amount(1), amount(2)]).toEqual(['42', '-4', '-3']);

    // The batch resent: acknowledged, nothing applied or moved twice.
    expect(sync(central).push(CONTRACT, NODE, batchItems)).toMatchObject({ acked: seq0 + 10, applied: 0, skipped: batchItems.length, deadLetters: [] });
    expect(quantities(central)).toEqual(quantities(single));
  });
  it("a mixed run whose last entity's write fails (a sale of a store central lacks) falls back to one by one: the same outcome", async () => {
    await sale([[0, '1']]);
    expect(pushBoth(outboxItems()).batch).toMatchObject({ applied: 2, deadLetters: [] });
    store.deps.db.prepare('DELETE FROM outbox').run();
    // With the sales' statistics known (PostgreSQL), nothing reads after the sale's writes: they
    // are sent when the run ends, and fail there.
    const statistics = dialectOf(central.deps.db).tableStatistics('transactions');
    if (statistics) central.deps.db.exec(statistics.analyze);
    await sale([[1, '1']]);
    expect(pushBoth(outboxItems()).batch).toMatchObject({ applied: 2, deadLetters: [] });
    store.deps.db.prepare('DELETE FROM outbox').run();

    await sale([[1, '2']]);
    const [saleThree, movementThree] = outboxItems();
    const seq0 = movementThree!.seq;
    const noStore = { ...saleThree!, seq: seq0 + 2, row: { ...saleThree!.row!, row: { ...saleThree!.row!.row, store_id: 987654 } } };
    // A movement, then the sale: the sale is the run's last entity.
    const { batch, oneByOne } = pushBoth([{ ...movementThree!, seq: seq0 + 1 }, noStore]);
    expect(batch).toEqual(oneByOne);
    expect(batch).toMatchObject({ acked: seq0 + 2, applied: 1 });
    expect(batch.deadLetters).toEqual([{ seq: seq0 + 2, reason: `transaction ${saleThree!.id} cannot be written: FOREIGN KEY constraint failed` }]);
    expect(deadLetters(central)).toEqual(deadLetters(single));
    expect(movements(central)).toEqual(movements(single));
    expect(quantities(central)).toEqual(quantities(single));
  });
});

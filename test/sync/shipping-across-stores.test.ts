import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncAgent } from '../../sync/agent.js';
import { CentralSync } from '../../sync/central.js';
import { syncContext } from '../../sync/context.js';
import { CONTRACT, count, linkStore, makeInstance, type Instance } from './helpers.js';

/**
 * Issue 14: a store-to-store shipping travels both ways between the two store PCs through head
 * office. Store East (node 3) sends to West's shop; West (node 5) inspects and asks for a
 * modification; East edits under the request and completes it; West receives. The record is
 * pushed and pulled like a master (last writer wins, a lower status losing whatever its HLC:
 * sync/apply.ts RANKS); its stock moves travel as stock movements, made once where each step is taken.
 */

let central: Instance;
let east: Instance;
let west: Instance;
const agents = new Map<Instance, SyncAgent>();
let shopEast: string;
let shopWest: string;
let tea: string;
let coffee: string;

const link = (store: Instance, node: number) => agents.set(store, linkStore(central, store, node));
const sync = (store: Instance) => agents.get(store)!.drain(CONTRACT);
/** The quantity of `product` at `shop` as instance `i` shows it (undefined: never moved there). */
const qty = async (i: Instance, shop: string, product: string) =>
  ((await i.ok('GET', `/stock?store_id=${shop}&product_id=${product}`)) as { stockAmount: string }[])[0]?.stockAmount;
/** Every quantity the test moves, as [east tea, east coffee, west tea, west coffee]. */
const quantities = async (i: Instance) => [await qty(i, shopEast, tea), await qty(i, shopEast, coffee), await qty(i, shopWest, tea), await qty(i, shopWest, coffee)];
const shippingAt = (i: Instance, id: string) => i.ok('GET', `/shipping/${id}?with_details=all`);
const receivingAt = (i: Instance, id: string) => i.ok('GET', `/receiving/${id}?with_details=all`);
const conflicts = (i: Instance) => count(i.deps, "SELECT count(*) FROM sync_conflicts WHERE entity = 'shipping'");
/** The stock movements of a shipping an instance holds: [stock division (04 out, 05 in), store, product, delta]. */
const movements = (i: Instance, id: string) =>
  (
    i.deps.db
      .prepare('SELECT stock_division, store_id, product_id, delta FROM stock_movements WHERE shipping_id = ? ORDER BY stock_division, store_id, product_id, delta')
      .all(Number(id)) as {
      stock_division: string;
      store_id: number;
      product_id: number;
      delta: string;
    }[]
  ).map((m) => [m.stock_division, String(m.store_id), String(m.product_id), m.delta]);

/** East's shop sends tea × 5 and coffee × 3 to West's shop (status 1: the stock leaves at once). */
const send = (i: Instance, over: Record<string, unknown> = {}) =>
  i.ok('POST', '/shipping', {
    shippingStoreId: shopEast,
    receivingStoreId: shopWest,
    receivingExpectedDateFrom: '2026-11-24',
    receivingExpectedDateTo: '2026-11-25',
    shippingDate: '2026-11-23',
    status: '1',
    memo: 'two boxes',
    details: [
      { productId: tea, quantity: '5' },
      { productId: coffee, quantity: '3' },
    ],
    ...over,
  });
const inspect = (receivingDetailId: string, inspectionQuantity: string, stockoutQuantity = '0') => ({
  receivingDetailId,
  inspectionQuantity,
  stockoutQuantity,
  inspectionDate: '2026-11-24',
});
/** The receiving detail id of a product, as instance `i` shows it. */
const receivingDetail = async (i: Instance, id: string, product: string) =>
  ((await receivingAt(i, id)).details as { receivingDetailId: string; productId: string }[]).find((d) => d.productId === product)!.receivingDetailId;

beforeEach(async () => {
  central = await makeInstance('central', 0);
  east = await makeInstance('store', 3);
  west = await makeInstance('store', 5);
  await central.up();
  shopEast = (await central.ok('POST', '/stores', { storeName: 'East' })).storeId;
  shopWest = (await central.ok('POST', '/stores', { storeName: 'West' })).storeId;
  const category = (await central.ok('POST', '/categories', { categoryName: 'Drinks' })).categoryId;
  tea = (await central.ok('POST', '/products', { categoryId: category, productCode: 'TEA', productName: 'Tea', price: '300' })).productId;
  coffee = (await central.ok('POST', '/products', { categoryId: category, productCode: 'COF', productName: 'Coffee', price: '400' })).productId;
  await central.ok('PATCH', `/stock/${tea}`, { storeId: shopEast, stockAmount: '10' });
  await central.ok('PATCH', `/stock/${coffee}`, { storeId: shopEast, stockAmount: '10' });
  await central.ok('PATCH', `/stock/${tea}`, { storeId: shopWest, stockAmount: '2' });
  link(east, 3);
  await sync(east);
});
afterEach(async () => {
  await east.close();
  await west.close();
  await central.close();
});

describe('a shipping across store PCs', () => {
  it('round trip: sent at East, inspected and questioned at West, corrected at East, received at West; everyone ends the same, stock moved once per side', async () => {
    link(west, 5);
    await sync(west);
    east.clock.advance(60_000);
    const sent = await send(east);
    const id = sent.shippingId as string;
    expect(id.endsWith('003')).toBe(true); // minted by East's node
    expect(await quantities(east)).toEqual(['5', '7', '2', undefined]);
    await sync(east);
    await sync(west);

    // West's PC sees the shipping and its receiving side, and East's stock already gone.
    expect((await shippingAt(west, id)).status).toBe('1');
    const arrived = await receivingAt(west, id);
    expect(arrived.status).toBe('0');
    expect(arrived.details.map((d: { productId: string; scheduledQuantity: string }) => [d.productId, d.scheduledQuantity])).toEqual([
      [tea, '5'],
      [coffee, '3'],
    ]);
    expect(await quantities(west)).toEqual(['5', '7', '2', undefined]);

    // West counts 4 tea (inspection begins) and asks East to correct the shipping.
    west.clock.advance(120_000);
    await west.ok('PATCH', `/receiving/${id}`, { receivingDate: '2026-11-24', details: [inspect(await receivingDetail(west, id, tea), '4')] });
    west.clock.advance(60_000);
    const requested = await west.ok('POST', `/shipping/${id}/modification_request`, { memo: 'only 4 tea arrived' });
    expect(requested).toMatchObject({ status: '2', modificationRequestStatus: '1', modificationRequestCheckedDateTime: null });
    await sync(west);
    await sync(east);

    // East sees the request, corrects tea to 4 (one tea comes back to East's stock) and completes it.
    const questioned = await shippingAt(east, id);
    expect(questioned).toMatchObject({
      status: '2',
      memo: 'only 4 tea arrived',
      modificationRequestStatus: '1',
      modificationRequestDateTime: requested.modificationRequestDateTime,
    });
    east.clock.advance(300_000);
    const teaLine = questioned.details.find((d: { productId: string }) => d.productId === tea).shippingDetailId;
    await east.ok('PATCH', `/shipping/${id}`, { details: [{ shippingDetailId: teaLine, quantity: '4' }] });
    east.clock.advance(60_000);
    const completed = await east.ok('POST', `/shipping_modification_requests/${id}/complete`);
    expect(completed.modificationRequestStatus).toBe('2');
    expect(await quantities(east)).toEqual(['6', '7', '2', undefined]);
    await sync(east);
    await sync(west);

    // West sees the correction on its receiving side (its count kept) and finishes receiving.
    expect(await shippingAt(west, id)).toMatchObject({ modificationRequestStatus: '2', modificationRequestCheckedDateTime: completed.modificationRequestCheckedDateTime });
    const corrected = (await receivingAt(west, id)).details as { scheduledQuantity: string; inspectionQuantity: string | null }[];
    expect(corrected.map((d) => [d.scheduledQuantity, d.inspectionQuantity])).toEqual([
      ['4', '4'],
      ['3', null],
    ]);
    west.clock.advance(120_000);
    const received = await west.ok('PATCH', `/receiving/${id}`, { details: [inspect(await receivingDetail(west, id, coffee), '3')] });
    expect(received.status).toBe('2'); // the receiving's own status: complete
    expect(await quantities(west)).toEqual(['6', '7', '6', '3']);
    await sync(west);
    await sync(east);
    await sync(west);

    // Head office and both PCs hold the same record: status 3, both sides' details, the request's times.
    const final = await shippingAt(central, id);
    expect(final).toMatchObject({
      status: '3',
      memo: 'only 4 tea arrived',
      modificationRequestStatus: '2',
      modificationRequestDateTime: requested.modificationRequestDateTime,
      modificationRequestCheckedDateTime: completed.modificationRequestCheckedDateTime,
    });
    expect(final.details.map((d: { productId: string; quantity: string }) => [d.productId, d.quantity])).toEqual([
      [tea, '4'],
      [coffee, '3'],
    ]);
    const finalReceiving = await receivingAt(central, id);
    expect(finalReceiving).toMatchObject({ status: '2', receivingDate: '2026-11-24' });
    const counted = finalReceiving.details as { scheduledQuantity: string; inspectionQuantity: string; stockoutQuantity: string }[];
    expect(counted.map((d) => [d.scheduledQuantity, d.inspectionQuantity, d.stockoutQuantity])).toEqual([
      ['4', '4', '0'],
      ['3', '3', '0'],
    ]);
    for (const i of [east, west]) {
      expect(await shippingAt(i, id)).toEqual(final);
      expect(await receivingAt(i, id)).toEqual(finalReceiving);
    }

    // Stock: East's goods left once (5 + 3, one tea back by the correction), West's arrived once.
    for (const i of [central, east, west]) expect(await quantities(i), 'stock everywhere').toEqual(['6', '7', '6', '3']);
    expect(movements(central, id)).toEqual([
      ['04', shopEast, tea, '-5'],
      ['04', shopEast, tea, '1'],
      ['04', shopEast, coffee, '-3'],
      ['05', shopWest, tea, '4'],
      ['05', shopWest, coffee, '3'],
    ]);
    // Each store made only its own side's movements; copying the record moved nothing.
    expect(movements(east, id).map((m) => m[0])).toEqual(['04', '04', '04']);
    expect(movements(west, id).map((m) => m[0])).toEqual(['05', '05']);

    // A hand-off is no conflict: every edit was made after pulling the one before it. West (node 5)
    // edited a record minted by East's node: central took it (no dead letter).
    for (const i of [central, east, west]) expect(conflicts(i)).toBe(0);
    expect(count(central.deps, 'SELECT count(*) FROM dead_letters')).toBe(0);
    expect(count(central.deps, "SELECT count(*) FROM change_log WHERE entity = 'shipping' AND origin_node = 5")).toBeGreaterThan(0);
    // East, which sent it, now holds it received: no further edit there.
    expect((await east.api('PATCH', `/shipping/${id}`, { memo: 'late' })).statusCode).toBe(400);
  });

  it('a shipping made before the receiving store linked reaches it on its first pull, as do one made at head office and one an older build pushed as a sales record', async () => {
    const fromEast = (await send(east)).shippingId as string;
    await sync(east);
    const reverse = { shippingStoreId: shopWest, receivingStoreId: shopEast, details: [{ productId: tea, quantity: '1' }] };
    const fromHeadOffice = (await send(central, reverse)).shippingId as string;
    expect(fromHeadOffice.endsWith('000')).toBe(true);
    const older = (await send(east, { memo: 'older build', details: [{ productId: coffee, quantity: '2' }] })).shippingId as string;
    await sync(east);
    // An older build pushed shippings as sales records: central holds the row, without a version or a change log entry.
    central.deps.db.prepare("DELETE FROM change_log WHERE entity = 'shipping' AND entity_id = ?").run(older);
    central.deps.db.prepare("DELETE FROM sync_versions WHERE entity = 'shipping' AND entity_id = ?").run(older);
    new CentralSync(syncContext(central.deps)).seed(CONTRACT);
    expect(count(central.deps, "SELECT count(*) FROM change_log WHERE entity = 'shipping' AND entity_id = ? AND origin_node = 0", older)).toBe(1);

    link(west, 5);
    await sync(west);
    for (const id of [fromEast, fromHeadOffice, older]) {
      expect(await shippingAt(west, id)).toEqual(await shippingAt(central, id));
      expect(await receivingAt(west, id)).toEqual(await receivingAt(central, id));
    }
    expect((await shippingAt(west, older)).memo).toBe('older build');
    // East pulls the seeded copy of its own shipping and the head office one; its stock moves only by its own sending.
    await sync(east);
    expect((await shippingAt(east, fromHeadOffice)).status).toBe('1');
    for (const i of [central, east, west]) expect(await quantities(i)).toEqual(['5', '5', '1', undefined]);
    expect(count(east.deps, 'SELECT count(*) FROM stock_movements')).toBe(3);
    for (const i of [central, east, west]) expect(conflicts(i)).toBe(0);

    // West receives the one from East: its stock rises once, on every instance.
    await west.ok('PATCH', `/receiving/${fromEast}`, {
      receivingDate: '2026-11-24',
      details: [inspect(await receivingDetail(west, fromEast, tea), '5'), inspect(await receivingDetail(west, fromEast, coffee), '3')],
    });
    await sync(west);
    await sync(east);
    for (const i of [central, east, west]) {
      expect((await shippingAt(i, fromEast)).status).toBe('3');
      expect(await quantities(i)).toEqual(['5', '5', '6', '3']);
    }
  });

  describe('concurrent edits: a version with a lower status loses whatever its HLC, and the loss is logged', () => {
    for (const first of ['east', 'west'] as const) {
      it(`West receives while East, apart and later, edits the memo of the sent shipping (${first} pushes first)`, async () => {
        link(west, 5);
        await sync(west);
        const id = (await send(east)).shippingId as string;
        await sync(east);
        await sync(west);

        // Apart: West receives everything at 10:05; East edits the memo at 10:10 (a later HLC).
        west.clock.advance(5 * 60_000);
        await west.ok('PATCH', `/receiving/${id}`, {
          receivingDate: '2026-11-24',
          details: [inspect(await receivingDetail(west, id, tea), '5'), inspect(await receivingDetail(west, id, coffee), '3')],
        });
        east.clock.advance(10 * 60_000);
        await east.ok('PATCH', `/shipping/${id}`, { memo: 'late note' });

        const order = first === 'east' ? [east, west, east, west] : [west, east, west, east];
        for (const i of order) await sync(i);

        // Received stands everywhere: the later memo edit made at status 1 lost.
        for (const i of [central, east, west]) {
          expect(await shippingAt(i, id)).toMatchObject({ status: '3', memo: 'two boxes' });
          expect((await receivingAt(i, id)).details.map((d: { inspectionQuantity: string }) => d.inspectionQuantity)).toEqual(['5', '3']);
          expect(await quantities(i)).toEqual(['5', '7', '7', '3']);
        }
        expect(movements(central, id).map((m) => m[0])).toEqual(['04', '04', '05', '05']);

        // Head office logs the lost edit (GET /sync/conflicts), as does East, whose edit it was.
        type Logged = { loserHlc: string; winnerHlc: string; loser: { row: { status: string; memo: string } } };
        const logged = (await central.ok('GET', `/sync/conflicts?entity=shipping&id=${id}`)) as Logged[];
        expect(logged).toHaveLength(1);
        expect(logged[0]!.loser.row).toMatchObject({ status: '1', memo: 'late note' });
        expect(logged[0]!.loserHlc > logged[0]!.winnerHlc).toBe(true); // the loser was the later edit
        const atEast = (await east.ok('GET', `/sync/conflicts?entity=shipping&id=${id}`)) as { loser: { row: { memo: string } } }[];
        expect(atEast.map((c) => c.loser.row.memo)).toEqual(['late note']);
        // The receiving side never held East's edit; it saw it (and dropped it) only when East's version reached central first.
        expect(conflicts(west)).toBe(first === 'east' ? 1 : 0);
      });
    }

    it('at the same status the later HLC wins (last writer wins), logged as for masters', async () => {
      link(west, 5);
      await sync(west);
      const id = (await send(east)).shippingId as string;
      await sync(east);
      await sync(west);
      west.clock.advance(60_000);
      await west.ok('PATCH', `/shipping/${id}`, { memo: 'west note' });
      east.clock.advance(120_000);
      await east.ok('PATCH', `/shipping/${id}`, { memo: 'east note' });
      // The later edit reaches central first; the earlier one then arrives stale.
      await sync(east);
      await sync(west);
      await sync(east);
      for (const i of [central, east, west]) expect((await shippingAt(i, id)).memo).toBe('east note');
      const logged = (await central.ok('GET', `/sync/conflicts?entity=shipping&id=${id}`)) as { loser: { row: { memo: string } } }[];
      expect(logged.map((c) => c.loser.row.memo)).toEqual(['west note']);
      // Stock untouched by either memo.
      for (const i of [central, east, west]) expect(await quantities(i)).toEqual(['5', '7', '2', undefined]);
    });
  });
});

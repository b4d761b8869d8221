import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { problem, type TestApp } from '../helpers/app.js';
import { CONTRACT } from '../sync/helpers.js';
import { headOfficeWithProduct } from './head-office.js';
import { makeProduct, makeStaff, makeSupplier, ok, outboxOf, setInventory, shipmentMovements, stockOf, twoStoresAndProduct } from './shipments-fixtures.js';

/** Issue 14 item 4: shipments (spec 2.9, 3.2 approval, 3.3 shipped status, 4.12 update). */

const NOW = '2026-11-22T10:00:00+09:00'; // T0 in the contract's zone

let t: TestApp;
let store: string;
let store2: string;
let category: string;
let product: string; // 1100 tax included, cost 120
let supplier: string;
beforeEach(async () => {
  ({ t, store, store2, category, product } = await twoStoresAndProduct());
  supplier = makeSupplier(t, 7001, 'Acme Wholesale');
});
afterEach(() => t.close());

const toOther = { recipientType: '3', recipientName: 'Charity' };
const shipmentBody = (body: Record<string, unknown> = {}) => ({
  shipmentStoreId: store,
  ...toOther,
  status: '0',
  details: [{ productId: product, quantity: '3' }],
  ...body,
});
const create = (body: Record<string, unknown> = {}) => ok(t, 'POST', '/shipments', shipmentBody(body));
const detail400 = async (method: string, path: string, body: unknown) => problem(await t.api(method, path, body), 400).detail;
const post400 = (body: Record<string, unknown>) => detail400('POST', '/shipments', shipmentBody(body));

describe('POST /shipments', () => {
  it('registers a shipment with the defaults of 2.9 filled in', async () => {
    const s = await create({ details: [{ productId: product, quantity: '3', memo: 'box A' }] });
    expect(s).toEqual({
      shipmentId: '1001',
      shipmentStoreId: store,
      recipientType: '3',
      recipientId: null,
      recipientName: 'Charity',
      shipmentDivision: '0',
      shipmentDate: '2026-11-22',
      memo: null,
      staffId: null,
      taxRate: '10.000',
      identificationNo: null,
      roundingDivision: '1',
      status: '0',
      approvalStatus: '1', // approval function not used
      approvalDateTime: NOW,
      insDateTime: NOW,
      updDateTime: NOW,
      details: [
        {
          shipmentDetailId: '1001',
          shipmentId: '1001',
          productId: product,
          taxRate: '10.000',
          cost: '120.00000',
          price: '1100',
          quantity: '3',
          memo: 'box A',
          insDateTime: NOW,
          updDateTime: NOW,
        },
      ],
    });
    expect(stockOf(t, store, product)).toBe('0'); // not shipped: no stock moves
    expect(await ok(t, 'GET', '/shipments/1001')).toEqual(s);
  });

  it('takes every field sent; cost is shown with 5 decimals', async () => {
    const staff = await makeStaff(t);
    const s = await create({
      shipmentDivision: '1',
      shipmentDate: '2026-12-01',
      memo: 'returns',
      staffId: staff,
      taxRate: '8',
      identificationNo: 'ID-1',
      roundingDivision: '0',
      details: [{ productId: product, quantity: '2', taxRate: '8.5', cost: '99.125' }],
    });
    expect(s).toMatchObject({ shipmentDivision: '1', shipmentDate: '2026-12-01', memo: 'returns', staffId: staff, taxRate: '8.000', identificationNo: 'ID-1', roundingDivision: '0' });
    expect(s.details[0]).toMatchObject({ taxRate: '8.500', cost: '99.12500', price: '1100' });
  });

  it('fills cost, tax rate and tax-included price from the product master', async () => {
    const noCost = await makeProduct(t, category, { cost: null });
    const excluded = await makeProduct(t, category, { price: '1005', taxDivision: '1' });
    const reduced = await makeProduct(t, category, { price: '540', reduceTaxId: '10000001' });
    const nonTaxable = await makeProduct(t, category, { price: '300', taxDivision: '2' });
    const s = await create({
      roundingDivision: '2',
      details: [noCost, excluded, reduced, nonTaxable].map((productId) => ({ productId, quantity: '1' })),
    });
    expect(s.details.map((d: any) => [d.cost, d.taxRate, d.price])).toEqual([
      ['0.00000', '10.000', '1100'],
      ['120.00000', '10.000', '1106'], // 1005 × 1.10 = 1105.5, rounded up (roundingDivision 2)
      ['120.00000', '8.000', '540'], // a reduced-rate product takes the reduced rate
      ['120.00000', '10.000', '300'],
    ]);
    const down = await create({ details: [{ productId: excluded, quantity: '1' }] });
    expect(down.details[0].price).toBe('1105'); // default roundingDivision 1: down
  });

  it('takes the tax rates in force at registration', async () => {
    t.clock.set('2019-09-30T12:00:00+09:00');
    const before = await create();
    expect([before.taxRate, before.details[0].taxRate]).toEqual(['8.000', '8.000']);
    t.clock.set('2019-10-01T00:00:00+09:00');
    const after = await create();
    expect([after.taxRate, after.details[0].taxRate]).toEqual(['10.000', '10.000']);
  });

  it('a supplier recipient (type 1) takes its id and is named after the supplier', async () => {
    const s = await create({ recipientType: '1', recipientName: undefined, recipientId: supplier });
    expect(s).toMatchObject({ recipientType: '1', recipientId: supplier, recipientName: 'Acme Wholesale' });
  });

  it('refuses recipient fields that do not fit the recipient type (400)', async () => {
    expect(await post400({ recipientType: '1', recipientName: undefined })).toBe('[recipientId] is required for recipientType 1 (supplier)');
    expect(await post400({ recipientType: '1', recipientId: supplier })).toBe(
      "[recipientName] must not be given for recipientType 1 (supplier): it is the supplier's name",
    );
    expect(await post400({ recipientType: '1', recipientName: undefined, recipientId: '999' })).toBe('[recipientId] supplier 999 does not exist');
    expect(await post400({ recipientId: supplier })).toBe('[recipientId] must not be given for recipientType 3 (other)');
    expect(await post400({ recipientName: undefined })).toBe('[recipientName] is required for recipientType 3 (other)');
    expect(await post400({ recipientType: '2' })).toBe('[recipientType] must be one of 1, 3');
  });

  it('refuses unknown stores, staff and products, and bodies out of range (400)', async () => {
    expect(await post400({ shipmentStoreId: '999' })).toBe('[shipmentStoreId] store 999 does not exist');
    expect(await post400({ staffId: '999' })).toBe('[staffId] staff 999 does not exist');
    expect(await post400({ details: [{ productId: product, quantity: '1' }, { productId: '999', quantity: '1' }] })).toBe(
      '[details[1].productId] product 999 does not exist',
    );
    expect(await post400({ details: [] })).toBe('[details] must have at least one entry');
    const many = Array.from({ length: 501 }, () => ({ productId: product, quantity: '1' }));
    expect(await post400({ details: many })).toBe('[details] must have at most 500 entries');
    expect(await post400({ status: '1' })).toBe('[status] must be one of 0, 2, 3');
    expect(await post400({ taxRate: '100.5' })).toBe('[taxRate] must be at most 100');
    expect(await post400({ details: [{ productId: product, quantity: '1', cost: '1.123456' }] })).toMatch(/^\[details\[0\]\.cost\] must be a signed decimal/);
    expect(await post400({ details: [{ productId: product, quantity: '-1' }] })).toBe('[details[0].quantity] must be a whole number from 0 to 99999');
    expect(await post400({ details: [{ productId: product, quantity: '1', shipmentDetailId: '1' }] })).toBe('[details[0].shipmentDetailId] is not a known field');
  });

  it('a shipment registered shipped (2) takes its quantities out of the shipment store', async () => {
    const other = await makeProduct(t, category);
    const s = await create({ status: '2', details: [{ productId: product, quantity: '3' }, { productId: other, quantity: '5' }, { productId: product, quantity: '1' }] });
    expect(stockOf(t, store, product)).toBe('-4');
    expect(stockOf(t, store, other)).toBe('-5');
    expect(stockOf(t, store2, product)).toBe('0');
    expect(shipmentMovements(t, s.shipmentId)).toEqual([
      [store, product, '-3', '10'],
      [store, other, '-5', '10'],
      [store, product, '-1', '10'],
    ]);
  });
});

describe('approval (3.2)', () => {
  it('defaults to approved without the approval function, whatever the status', async () => {
    for (const status of ['0', '2', '3']) expect((await create({ status })).approvalStatus).toBe('1');
  });

  it('with the approval function: unapproved for status 0, approved for 2 and 3', async () => {
    setInventory(t, { inventoryApproval: true });
    const open = await create({ status: '0' });
    expect([open.approvalStatus, open.approvalDateTime]).toEqual(['0', null]);
    expect((await create({ status: '2' })).approvalStatus).toBe('1');
    expect((await create({ status: '3' })).approvalStatus).toBe('1');
    const sent = await create({ status: '0', approvalStatus: '2' });
    expect([sent.approvalStatus, sent.approvalDateTime]).toEqual(['2', NOW]);
  });

  it('an unapproved shipment is approved or rejected once, which stamps approvalDateTime', async () => {
    setInventory(t, { inventoryApproval: true });
    const a = await create();
    t.clock.advance(60_000);
    const approved = await ok(t, 'PATCH', `/shipments/${a.shipmentId}`, { approvalStatus: '1' });
    expect([approved.approvalStatus, approved.approvalDateTime, approved.updDateTime]).toEqual(['1', '2026-11-22T10:01:00+09:00', '2026-11-22T10:01:00+09:00']);
    const b = await create();
    const rejected = await ok(t, 'PATCH', `/shipments/${b.shipmentId}`, { approvalStatus: '2' });
    expect([rejected.approvalStatus, rejected.approvalDateTime]).toEqual(['2', '2026-11-22T10:01:00+09:00']);

    t.clock.advance(60_000);
    expect(await detail400('PATCH', `/shipments/${a.shipmentId}`, { approvalStatus: '2' })).toBe(
      '[approvalStatus] the shipment is already approved (1); its approvalStatus can change only while unapproved (0)',
    );
    expect(await detail400('PATCH', `/shipments/${a.shipmentId}`, { approvalStatus: '0' })).toMatch(/^\[approvalStatus\] the shipment is already approved/);
    expect(await detail400('PATCH', `/shipments/${b.shipmentId}`, { approvalStatus: '1' })).toBe(
      '[approvalStatus] the shipment is already rejected (2); its approvalStatus can change only while unapproved (0)',
    );
    // Sending the status it has is no change: accepted, the approval time stays.
    const same = await ok(t, 'PATCH', `/shipments/${a.shipmentId}`, { approvalStatus: '1', memo: 'ok' });
    expect([same.approvalDateTime, same.memo]).toEqual(['2026-11-22T10:01:00+09:00', 'ok']);
  });

  it('an update that leaves approvalStatus out keeps it', async () => {
    setInventory(t, { inventoryApproval: true });
    const a = await create();
    const moved = await ok(t, 'PATCH', `/shipments/${a.shipmentId}`, { status: '3' });
    expect([moved.status, moved.approvalStatus, moved.approvalDateTime]).toEqual(['3', '0', null]);
  });
});

describe('shipped status (3.3) and stock', () => {
  it('shipping by update moves the stock out once; sending 2 again moves nothing', async () => {
    const s = await create({ details: [{ productId: product, quantity: '3' }] });
    await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { status: '3' });
    expect(stockOf(t, store, product)).toBe('0'); // inspection does not move stock
    const shipped = await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { status: '2' });
    expect(shipped.status).toBe('2');
    expect(stockOf(t, store, product)).toBe('-3');
    await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { status: '2', memo: 'again' });
    await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { memo: 'and again' });
    expect(stockOf(t, store, product)).toBe('-3');
    expect(shipmentMovements(t, s.shipmentId)).toEqual([[store, product, '-3', '10']]);
  });

  it('a shipped shipment cannot go back to another status (400)', async () => {
    const s = await create({ status: '2' });
    expect(await detail400('PATCH', `/shipments/${s.shipmentId}`, { status: '0' })).toBe(`[status] shipment ${s.shipmentId} is shipped (2) and cannot go back to status 0`);
    expect(await detail400('PATCH', `/shipments/${s.shipmentId}`, { status: '3' })).toBe(`[status] shipment ${s.shipmentId} is shipped (2) and cannot go back to status 3`);
    expect((await ok(t, 'GET', `/shipments/${s.shipmentId}`)).status).toBe('2');
  });

  it('the contract setting forbids any edit of a shipped shipment (400); others stay editable', async () => {
    const shipped = await create({ status: '2' });
    const open = await create({ status: '0' });
    setInventory(t, { shippedShipmentEditForbidden: true });
    for (const body of [{ memo: 'x' }, { status: '2' }, { details: [{ productId: product, quantity: '1' }] }]) {
      expect(await detail400('PATCH', `/shipments/${shipped.shipmentId}`, body)).toBe(
        `[shipment_id] shipment ${shipped.shipmentId} is shipped and the contract's inventory settings forbid editing shipped shipments`,
      );
    }
    expect((await ok(t, 'PATCH', `/shipments/${open.shipmentId}`, { memo: 'x' })).memo).toBe('x');
    expect(stockOf(t, store, product)).toBe('-3');
  });

  it("a shipped detail's product cannot change (400); its quantity can, and only the difference moves", async () => {
    const other = await makeProduct(t, category);
    const s = await create({ status: '2', details: [{ productId: product, quantity: '3' }] });
    const detailId = s.details[0].shipmentDetailId;
    expect(await detail400('PATCH', `/shipments/${s.shipmentId}`, { details: [{ shipmentDetailId: detailId, productId: other }] })).toBe(
      `[details[0].productId] shipment ${s.shipmentId} is shipped: the product of its detail ${detailId} cannot be changed`,
    );
    // The same product again is no change.
    await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { details: [{ shipmentDetailId: detailId, productId: product, quantity: '5' }] });
    expect(stockOf(t, store, product)).toBe('-5');
    await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { details: [{ shipmentDetailId: detailId, quantity: '1' }] });
    expect(stockOf(t, store, product)).toBe('-1');
    // A detail added to a shipped shipment leaves the store at once.
    const added = await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { details: [{ productId: other, quantity: '2' }] });
    expect(added.details).toHaveLength(2);
    expect(stockOf(t, store, other)).toBe('-2');
    expect(shipmentMovements(t, s.shipmentId)).toEqual([
      [store, product, '-3', '10'],
      [store, product, '-2', '10'],
      [store, product, '4', '10'],
      [store, other, '-2', '10'],
    ]);
  });

  it('a shipped shipment moved to another store gives the stock back to the first one', async () => {
    const s = await create({ status: '2' });
    await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { shipmentStoreId: store2 });
    expect([stockOf(t, store, product), stockOf(t, store2, product)]).toEqual(['0', '-3']);
  });

  it('while not shipped, a detail may change product: price and cost follow the new product', async () => {
    const other = await makeProduct(t, category, { price: '2000', cost: '700' });
    const s = await create();
    const d = s.details[0].shipmentDetailId;
    const changed = await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { details: [{ shipmentDetailId: d, productId: other }] });
    expect(changed.details[0]).toMatchObject({ productId: other, price: '2000', cost: '700.00000', quantity: '3' });
  });
});

describe('PATCH /shipments/{id} (4.12)', () => {
  it('changes only the keys sent and answers the shipment', async () => {
    const staff = await makeStaff(t);
    const s = await create({ memo: 'm', identificationNo: 'A' });
    t.clock.advance(1000);
    const u = await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, {
      shipmentDivision: '2',
      shipmentDate: '2026-11-30',
      staffId: staff,
      taxRate: '8',
      roundingDivision: '2',
      identificationNo: null,
      memo: '',
    });
    expect(u).toMatchObject({ shipmentDivision: '2', shipmentDate: '2026-11-30', staffId: staff, taxRate: '8.000', roundingDivision: '2', identificationNo: null, memo: null });
    expect(u.recipientName).toBe('Charity');
    expect(u.updDateTime).toBe('2026-11-22T10:00:01+09:00');
    expect(u.insDateTime).toBe(NOW);
  });

  it('updates existing details by shipmentDetailId and adds new ones', async () => {
    const other = await makeProduct(t, category, { cost: '55.5' });
    const s = await create({ details: [{ productId: product, quantity: '3', memo: 'a' }, { productId: product, quantity: '4' }] });
    const [d1, d2] = s.details.map((d: any) => d.shipmentDetailId);
    const u = await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, {
      details: [
        { shipmentDetailId: d2, quantity: '9', cost: '1.5', memo: 'second' },
        { productId: other, quantity: '1' },
        { shipmentDetailId: d1, memo: null },
      ],
    });
    expect(u.details.map((d: any) => [d.shipmentDetailId, d.productId, d.quantity, d.cost, d.memo])).toEqual([
      [d1, product, '3', '120.00000', null],
      [d2, product, '9', '1.50000', 'second'],
      ['3001', other, '1', '55.50000', null], // the third detail id minted
    ]);
  });

  it('a new detail without taxRate takes the rate in force at the update', async () => {
    t.clock.set('2019-09-30T12:00:00+09:00');
    const s = await create();
    t.clock.set('2019-10-01T09:00:00+09:00');
    const u = await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { details: [{ productId: product, quantity: '1' }, { productId: product, quantity: '1', taxRate: '5' }] });
    expect(u.details.map((d: any) => d.taxRate)).toEqual(['8.000', '10.000', '5.000']);
  });

  it('refuses details it cannot place (400)', async () => {
    const s = await create();
    const d = s.details[0].shipmentDetailId;
    const patch400 = (details: unknown[]) => detail400('PATCH', `/shipments/${s.shipmentId}`, { details });
    expect(await patch400([{ quantity: '1' }])).toBe('[details[0].productId] is required for a new detail (one without shipmentDetailId)');
    expect(await patch400([{ productId: product }])).toBe('[details[0].quantity] is required for a new detail (one without shipmentDetailId)');
    expect(await patch400([{ shipmentDetailId: '999', quantity: '1' }])).toBe(`[details[0].shipmentDetailId] shipment detail 999 does not exist in shipment ${s.shipmentId}`);
    expect(await patch400([{ shipmentDetailId: d, quantity: '1' }, { shipmentDetailId: d, quantity: '2' }])).toBe(`[details[1].shipmentDetailId] shipment detail ${d} is given twice`);
    expect(await patch400([{ shipmentDetailId: d }, { productId: '999', quantity: '1' }])).toBe('[details[1].productId] product 999 does not exist');
    expect(await patch400([{ shipmentDetailId: d, productId: '998' }])).toBe('[details[0].productId] product 998 does not exist');
    // A detail of another shipment is not this shipment's.
    const other = await create();
    expect(await patch400([{ shipmentDetailId: other.details[0].shipmentDetailId, quantity: '1' }])).toMatch(/does not exist in shipment/);
  });

  it('existing plus added details are at most 500 (400)', async () => {
    const s = await create({ details: Array.from({ length: 499 }, () => ({ productId: product, quantity: '1' })) });
    expect(await detail400('PATCH', `/shipments/${s.shipmentId}`, { details: [{ productId: product, quantity: '1' }, { productId: product, quantity: '1' }] })).toBe(
      '[details] a shipment has at most 500 details: 499 existing and 2 added would make 501',
    );
    const full = await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { details: [{ productId: product, quantity: '1' }] });
    expect(full.details).toHaveLength(500);
    expect(await detail400('PATCH', `/shipments/${s.shipmentId}`, { details: [{ productId: product, quantity: '1' }] })).toBe(
      '[details] a shipment has at most 500 details: 500 existing and 1 added would make 501',
    );
    // Changing existing ones is still fine.
    await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { details: [{ shipmentDetailId: full.details[0].shipmentDetailId, quantity: '2' }] });
  });

  it('recipient rules apply to the record after the update', async () => {
    const s = await create();
    const path = `/shipments/${s.shipmentId}`;
    expect(await detail400('PATCH', path, { recipientId: supplier })).toBe('[recipientId] must not be given for recipientType 3 (other)');
    expect(await detail400('PATCH', path, { recipientType: '1' })).toBe('[recipientId] is required for recipientType 1 (supplier)');
    expect(await detail400('PATCH', path, { recipientType: '1', recipientId: '999' })).toBe('[recipientId] supplier 999 does not exist');
    const toSupplier = await ok(t, 'PATCH', path, { recipientType: '1', recipientId: supplier });
    expect(toSupplier).toMatchObject({ recipientType: '1', recipientId: supplier, recipientName: 'Acme Wholesale' });
    expect(await detail400('PATCH', path, { recipientName: 'Someone' })).toBe(
      "[recipientName] must not be given for recipientType 1 (supplier): it is the supplier's name",
    );
    expect(await detail400('PATCH', path, { recipientType: '3' })).toBe('[recipientName] is required for recipientType 3 (other)');
    const back = await ok(t, 'PATCH', path, { recipientType: '3', recipientName: 'Neighbour' });
    expect(back).toMatchObject({ recipientType: '3', recipientId: null, recipientName: 'Neighbour' });
    expect((await ok(t, 'PATCH', path, { recipientName: 'Other name' })).recipientName).toBe('Other name');
  });

  it('refuses unknown stores and staff (400), an empty body (400) and an absent shipment (404)', async () => {
    const s = await create();
    const path = `/shipments/${s.shipmentId}`;
    expect(await detail400('PATCH', path, { shipmentStoreId: '999' })).toBe('[shipmentStoreId] store 999 does not exist');
    expect(await detail400('PATCH', path, { staffId: '999' })).toBe('[staffId] staff 999 does not exist');
    expect(await detail400('PATCH', path, {})).toBe('[body] no field to update was given');
    expect(await detail400('PATCH', path, { recipientType: '2' })).toBe('[recipientType] must be one of 1, 3');
    expect(problem(await t.api('PATCH', '/shipments/999', { memo: 'x' }), 404).detail).toBe('[shipment_id] shipment 999 does not exist');
    // A cleared staff is no reference to check.
    expect((await ok(t, 'PATCH', path, { staffId: null })).staffId).toBeNull();
  });
});

describe('GET /shipments', () => {
  it('lists headers in id order with paging, filters and details on request', async () => {
    const a = await create({ shipmentDate: '2026-11-01' });
    const b = await create({ status: '2', shipmentDate: '2026-11-10', recipientType: '1', recipientId: supplier, recipientName: undefined });
    const c = await create({ shipmentStoreId: store2, shipmentDate: '2026-11-20', identificationNo: 'X' });
    const all = await ok(t, 'GET', '/shipments');
    expect(all.map((s: any) => s.shipmentId)).toEqual([a.shipmentId, b.shipmentId, c.shipmentId]);
    expect(all[0].details).toBeUndefined();

    const page = await t.api('GET', '/shipments?limit=2&sort=shipmentDate:desc');
    expect(page.json().map((s: any) => s.shipmentId)).toEqual([c.shipmentId, b.shipmentId]);
    expect(page.headers.link).toBe('<http://localhost/test-contract/pos/shipments?limit=2&sort=shipmentDate%3Adesc&page=2>; rel="next"');

    const ids = async (q: string) => (await ok(t, 'GET', `/shipments?${q}`)).map((s: any) => s.shipmentId);
    expect(await ids(`shipment_store_id=${store2}`)).toEqual([c.shipmentId]);
    expect(await ids('status=2')).toEqual([b.shipmentId]);
    expect(await ids(`recipient_type=1&recipient_id=${supplier}`)).toEqual([b.shipmentId]);
    expect(await ids('shipment_date-from=2026-11-05&shipment_date-to=2026-11-15')).toEqual([b.shipmentId]);
    expect(await ids('identification_no=X')).toEqual([c.shipmentId]);
    expect(await ids('approval_status=0')).toEqual([]);

    const withDetails = await ok(t, 'GET', '/shipments?with_details=all&limit=1');
    expect(withDetails[0].details).toEqual(a.details);
    expect((await ok(t, 'GET', `/shipments/${a.shipmentId}?with_details=none`)).details).toBeUndefined();
    expect(problem(await t.api('GET', '/shipments?shipment_date-from=2026-11-10&shipment_date-to=2026-11-01'), 400).detail).toBe(
      '[shipment_date-to] must not be earlier than shipment_date-from',
    );
    expect(problem(await t.api('GET', '/shipments?sort=memo'), 400).detail).toMatch(/^\[sort\] memo is not a sort key/);
  });

  it('GET one answers 404 for an absent shipment', async () => {
    expect(problem(await t.api('GET', '/shipments/999'), 404).detail).toBe('[shipment_id] shipment 999 does not exist');
  });
});

describe('access and sync', () => {
  it('is Retail Business only (403) and needs the pos.orders scope', async () => {
    t.addContract('food', 'food_business');
    const food = await t.tokenFor({ contractId: 'food' });
    const res = await t.app.inject({ method: 'GET', url: '/food/pos/shipments', headers: { authorization: `Bearer ${food}` } });
    expect(problem(res, 403).detail).toMatch(/plan food_business cannot use GET \/shipments/);
    const stockOnly = await t.tokenFor({ scopes: ['pos.stock:read', 'pos.stock:write'] });
    expect(problem(await t.api('GET', '/shipments', undefined, stockOnly), 403).detail).toMatch(/pos\.orders:read/);
    const readOnly = await t.tokenFor({ scopes: ['pos.orders:read'] });
    expect(problem(await t.api('POST', '/shipments', shipmentBody(), readOnly), 403).detail).toMatch(/pos\.orders:write/);
  });

  it('each shipment and its stock movements reach the outbox in the same write', async () => {
    const s = await create();
    await ok(t, 'PATCH', `/shipments/${s.shipmentId}`, { status: '2' });
    expect(outboxOf(t, 'shipment')).toEqual([[s.shipmentId, 'insert'], [s.shipmentId, 'update']]);
    expect(outboxOf(t, 'stock_movement')).toHaveLength(1);
    // A refused update writes nothing.
    await t.api('PATCH', `/shipments/${s.shipmentId}`, { status: '0' });
    expect(outboxOf(t, 'shipment')).toHaveLength(2);
  });
});

describe('head office', () => {
  it('a shipment and its later edits reach central through the outbox, details and stock movements included', async () => {
    const { central, store: shop, agent, close, storeId, productId } = await headOfficeWithProduct();
    try {
      await agent.drain(CONTRACT);

      const s = await shop.ok('POST', '/shipments', { shipmentStoreId: storeId, recipientType: '3', recipientName: 'Charity', status: '0', details: [{ productId, quantity: '3' }] });
      expect(s.shipmentId).toMatch(/007$/); // minted by node 7
      await agent.drain(CONTRACT);
      expect(await central.ok('GET', `/shipments/${s.shipmentId}`)).toEqual(s);

      const shipped = await shop.ok('PATCH', `/shipments/${s.shipmentId}`, { status: '2', details: [{ productId, quantity: '2' }] });
      await agent.drain(CONTRACT);
      expect(await central.ok('GET', `/shipments/${s.shipmentId}`)).toEqual(shipped);
      expect(central.deps.db.prepare('SELECT delta, stock_division FROM stock_movements WHERE shipment_id = ? ORDER BY movement_id').all(Number(s.shipmentId))).toEqual([
        { delta: '-3', stock_division: '10' },
        { delta: '-2', stock_division: '10' },
      ]);
    } finally {
      await close();
    }
  }, 30_000);
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { entityNamed, RecordStore } from '../../sync/entities.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { problem, type TestApp } from '../helpers/app.js';
import { AT_10, AT_1010, body, inInspection, movementsOf, ok, receivingByProduct, shippingApp, stockOf, TEN_MINUTES, type World } from './shipping-fixtures.js';

/** Issue 14 item 3: store-to-store shipping and its receiving side (spec 2.8, 3.4). */

let t: TestApp;
let w: World;
beforeEach(async () => ({ t, w } = await shippingApp()));
afterEach(() => t.close());

const bad = async (method: string, path: string, b: unknown) => problem(await t.api(method, path, b), 400).detail;
const create = async (over: Record<string, unknown> = {}) => (await ok(t, 'POST', '/shipping', body(w, over))).shippingId as string;

describe('POST /shipping', () => {
  it('registers a shipping not sent out: every field of 2.8 with its details, no stock moved, no receiving yet', async () => {
    const res = await ok(t, 'POST', '/shipping', body(w, { staffId: w.staff, requestStaffId: w.staff, memo: 'for the sale', identificationNo: 'TR-1', receivingDesiredDate: '2026-11-26' }));
    expect(res).toEqual({
      shippingId: '1001',
      receivingStoreId: w.to,
      shippingStoreId: w.from,
      receivingDesiredDate: '2026-11-26',
      receivingExpectedDateFrom: '2026-11-24',
      receivingExpectedDateTo: '2026-11-25',
      shippingDate: '2026-11-23',
      staffId: w.staff,
      requestStaffId: w.staff,
      memo: 'for the sale',
      identificationNo: 'TR-1',
      status: '0',
      approvalStatus: '1',
      approvalDateTime: AT_10,
      modificationRequestStatus: '0',
      modificationRequestDateTime: null,
      modificationRequestCheckedDateTime: null,
      insDateTime: AT_10,
      updDateTime: AT_10,
      details: [
        { shippingDetailId: '1001', shippingId: '1001', productId: w.p1, quantity: '5', insDateTime: AT_10, updDateTime: AT_10 },
        { shippingDetailId: '2001', shippingId: '1001', productId: w.p2, quantity: '3', insDateTime: AT_10, updDateTime: AT_10 },
      ],
    });
    expect(movementsOf(t, '1001')).toEqual([]);
    expect(problem(await t.api('GET', '/receiving/1001'), 404).detail).toBe('[receiving_id] receiving 1001 does not exist: shipping 1001 has not been sent out (status 0)');
  });

  it('registered as sent out (status 1): the quantities leave the shipping store and the receiving is generated', async () => {
    const id = await create({ status: '1' });
    expect(stockOf(t, w.from, w.p1)).toBe('-5');
    expect(stockOf(t, w.from, w.p2)).toBe('-3');
    expect(stockOf(t, w.to, w.p1)).toBe('0');
    expect(movementsOf(t, id)).toEqual([
      ['04', w.from, w.p1, '-5'],
      ['04', w.from, w.p2, '-3'],
    ]);
    const r = await ok(t, 'GET', `/receiving/${id}?with_details=all`);
    expect(r).toMatchObject({ receivingId: id, shippingId: id, receivingStoreId: w.to, shippingStoreId: w.from, receivingDate: null, status: '0', insDateTime: AT_10 });
    expect(r.details.map((d: { productId: string; scheduledQuantity: string; status: string }) => [d.productId, d.scheduledQuantity, d.status])).toEqual([
      [w.p1, '5', '0'],
      [w.p2, '3', '0'],
    ]);
  });

  it('refuses bad bodies with 400 naming the field', async () => {
    const { receivingStoreId: _, ...noReceiving } = body(w);
    expect(await bad('POST', '/shipping', noReceiving)).toBe('[receivingStoreId] is required');
    expect(await bad('POST', '/shipping', body(w, { status: '2' }))).toBe('[status] must be one of 0, 1');
    expect(await bad('POST', '/shipping', body(w, { approvalStatus: '3' }))).toBe('[approvalStatus] must be one of 0, 1, 2');
    expect(await bad('POST', '/shipping', body(w, { shippingDate: '2026-02-30' }))).toBe('[shippingDate] must be a calendar date YYYY-MM-DD from 1900');
    expect(await bad('POST', '/shipping', body(w, { identificationNo: 'x'.repeat(33) }))).toBe('[identificationNo] must be at most 32 characters');
    expect(await bad('POST', '/shipping', body(w, { memo: 'x'.repeat(1001) }))).toBe('[memo] must be at most 1000 characters');
    expect(await bad('POST', '/shipping', body(w, { details: [] }))).toBe('[details] must have at least 1 detail');
    expect(await bad('POST', '/shipping', body(w, { details: [{ productId: w.p1, quantity: '100000' }] }))).toBe('[details[0].quantity] must be a whole number from 0 to 99999');
    expect(await bad('POST', '/shipping', body(w, { details: [{ productId: w.p1, quantity: '-1' }] }))).toBe('[details[0].quantity] must be a whole number from 0 to 99999');
    expect(await bad('POST', '/shipping', body(w, { details: [{ productId: w.p1 }] }))).toBe('[details[0].quantity] is required');
    expect(await bad('POST', '/shipping', body(w, { details: [{ productId: w.p1, quantity: '1', cost: '1' }] }))).toBe('[details[0].cost] is not a known field');
    const many = Array.from({ length: 1001 }, (_, i) => ({ productId: String(i + 1), quantity: '1' }));
    expect(await bad('POST', '/shipping', body(w, { details: many }))).toBe('[details] must have at most 1000 details');
    expect(await bad('POST', '/shipping', body(w, { note: 'x' }))).toBe('[note] is not a known field');
  });

  it('refuses references and rules with 400', async () => {
    expect(await bad('POST', '/shipping', body(w, { shippingStoreId: '9' }))).toBe('[shippingStoreId] store 9 does not exist');
    expect(await bad('POST', '/shipping', body(w, { receivingStoreId: '9' }))).toBe('[receivingStoreId] store 9 does not exist');
    expect(await bad('POST', '/shipping', body(w, { receivingStoreId: w.from }))).toBe('[receivingStoreId] must be another store than shippingStoreId');
    expect(await bad('POST', '/shipping', body(w, { receivingExpectedDateTo: '2026-11-23' }))).toBe('[receivingExpectedDateTo] must not be before receivingExpectedDateFrom (2026-11-24)');
    expect(await bad('POST', '/shipping', body(w, { staffId: '9' }))).toBe('[staffId] staff 9 does not exist');
    expect(await bad('POST', '/shipping', body(w, { requestStaffId: '9' }))).toBe('[requestStaffId] staff 9 does not exist');
    expect(await bad('POST', '/shipping', body(w, { details: [{ productId: w.p1, quantity: '1' }, { productId: '99', quantity: '1' }] }))).toBe(
      '[details[1].productId] product 99 does not exist',
    );
    expect(await bad('POST', '/shipping', body(w, { details: [{ productId: w.p1, quantity: '1' }, { productId: w.p1, quantity: '2' }] }))).toBe(
      `[details[1].productId] product ${w.p1} is already in details[0]`,
    );
    expect(await bad('POST', '/shipping', body(w, { status: '1', approvalStatus: '0' }))).toBe('[approvalStatus] a shipping registered as sent (status 1) must be approved (1), not 0');
    expect(await bad('POST', '/shipping', body(w, { status: '1', approvalStatus: '2' }))).toBe('[approvalStatus] a shipping registered as sent (status 1) must be approved (1), not 2');
    // Nothing of a refused registration was written, nor any stock moved.
    expect((await ok(t, 'GET', '/shipping')).length).toBe(0);
    expect(t.deps.db.prepare('SELECT count(*) FROM stock_movements').pluck().get()).toBe(0);
  });

  it('approval (2.8): default 1 without the approval function; with it, 0 for a shipping not sent out and 1 for one sent out', async () => {
    expect((await ok(t, 'POST', '/shipping', body(w, { approvalStatus: '0' }))).approvalDateTime).toBeNull();
    expect(await ok(t, 'POST', '/shipping', body(w, { approvalStatus: '2' }))).toMatchObject({ approvalStatus: '2', approvalDateTime: AT_10 });
    new ContractRepo(t.deps.db, t.deps.writer, t.clock).setSettings(t.contractId, { inventoryApproval: true });
    expect(await ok(t, 'POST', '/shipping', body(w))).toMatchObject({ approvalStatus: '0', approvalDateTime: null });
    expect(await ok(t, 'POST', '/shipping', body(w, { status: '1' }))).toMatchObject({ approvalStatus: '1', approvalDateTime: AT_10 });
    expect(await ok(t, 'POST', '/shipping', body(w, { approvalStatus: '1' }))).toMatchObject({ approvalStatus: '1', approvalDateTime: AT_10 });
  });

  it('is Retail Business only and needs pos.transfers:write', async () => {
    const reader = await t.tokenFor({ scopes: ['pos.transfers:read'] });
    expect(problem(await t.api('POST', '/shipping', body(w), reader), 403).detail).toBe('[scope] the token lacks the scope pos.transfers:write');
    const writer = await t.tokenFor({ scopes: ['pos.transfers:write'] });
    expect(problem(await t.api('GET', '/shipping', undefined, writer), 403).detail).toBe('[scope] the token lacks the scope pos.transfers:read');
    new ContractRepo(t.deps.db, t.deps.writer, t.clock).setPlan(t.contractId, 'premium_plus');
    for (const [method, path] of [['POST', '/shipping'], ['GET', '/shipping'], ['GET', '/shipping/1'], ['PATCH', '/shipping/1'], ['GET', '/receiving'], ['PATCH', '/receiving/1']]) {
      expect(problem(await t.api(method!, path!, method === 'GET' ? undefined : {}), 403).detail, `${method} ${path}`).toMatch(/^the contract's plan premium_plus cannot use /);
    }
  });

  it('reaches head office: one outbox row per write, the record read with both sides\' details', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const id = await create({ status: '1' });
    await ok(t, 'PATCH', `/shipping/${id}`, { memo: 'packed' });
    expect(changes.filter((c) => c.entity === 'shipping').map((c) => `${c.op} ${c.id}`)).toEqual([`insert ${id}`, `update ${id}`]);
    expect(changes.filter((c) => c.entity === 'stock_movement')).toHaveLength(2);
    const outbox = t.deps.db.prepare("SELECT op FROM outbox WHERE entity = 'shipping' AND entity_id = ? ORDER BY seq").pluck().all(id);
    expect(outbox).toEqual(['insert', 'update']);
    const record = new RecordStore(t.deps.db).read(entityNamed('shipping')!, t.contractId, id)!;
    expect(record.row).toMatchObject({ shipping_id: Number(id), status: '1', memo: 'packed' });
    expect(record.children!.shipping_details!.map((d) => d.quantity)).toEqual([5, 3]);
    expect(record.children!.shipping_receiving_details!.map((d) => d.scheduled_quantity)).toEqual([5, 3]);
  });
});

describe('GET /shipping and GET /shipping/{id}', () => {
  it('gets one, with its details on with_details=all; 404 for an unknown id', async () => {
    const id = await create();
    const one = await ok(t, 'GET', `/shipping/${id}`);
    expect(one.details).toBeUndefined();
    expect(one).toMatchObject({ shippingId: id, status: '0' });
    expect((await ok(t, 'GET', `/shipping/${id}?with_details=all`)).details.map((d: { quantity: string }) => d.quantity)).toEqual(['5', '3']);
    expect(problem(await t.api('GET', '/shipping/999'), 404).detail).toBe('[shipping_id] shipping 999 does not exist');
    expect(problem(await t.api('GET', `/shipping/${id}?with_details=some`), 400).detail).toBe('[with_details] must be one of all, none');
  });

  it('filters, sorts and pages with Link', async () => {
    const third = (await ok(t, 'POST', '/stores', { storeName: 'Third' })).storeId;
    const a = await create({ identificationNo: 'A', shippingDate: '2026-11-20' });
    t.clock.advance(TEN_MINUTES);
    const b = await create({ status: '1', receivingStoreId: third });
    t.clock.advance(TEN_MINUTES);
    const c = await create({ shippingStoreId: third, receivingStoreId: w.from, receivingExpectedDateFrom: '2026-11-30', receivingExpectedDateTo: '2026-12-01' });
    const ids = async (q: string) => (await ok(t, 'GET', `/shipping${q}`)).map((s: { shippingId: string }) => s.shippingId);
    expect(await ids('')).toEqual([a, b, c]);
    expect(await ids(`?shipping_store_id=${w.from}`)).toEqual([a, b]);
    expect(await ids(`?receiving_store_id=${w.from}`)).toEqual([c]);
    expect(await ids('?status=1')).toEqual([b]);
    expect(await ids('?identification_no=A')).toEqual([a]);
    expect(await ids('?shipping_date=2026-11-20')).toEqual([a]);
    expect(await ids('?receiving_expected_date_from=2026-11-30')).toEqual([c]);
    expect(await ids('?receiving_expected_date_to=2026-11-25')).toEqual([a, b]);
    expect(await ids('?modification_request_status=0&approval_status=1')).toEqual([a, b, c]);
    expect(await ids(`?upd_date_time-from=${encodeURIComponent(AT_1010)}`)).toEqual([b, c]);
    expect(await ids('?sort=shippingId:desc')).toEqual([c, b, a]);
    const page = await t.api('GET', '/shipping?limit=2&with_details=all');
    expect(page.json().map((s: { details: unknown[] }) => s.details.length)).toEqual([2, 2]);
    expect(page.headers.link).toBe('<http://localhost/test-contract/pos/shipping?limit=2&with_details=all&page=2>; rel="next"');
    expect(await ids('?limit=2&page=2')).toEqual([c]);
    expect(problem(await t.api('GET', '/shipping?status=4'), 400).detail).toBe('[status] must be one of 0, 1, 2, 3');
    expect(problem(await t.api('GET', '/shipping?sort=memo'), 400).detail).toMatch(/^\[sort\] memo is not a sort key/);
  });
});

describe('PATCH /shipping/{id}: status 0 → 1 → 2 → 3 and the stock', () => {
  it('moves one step at a time; stock leaves the shipping store at 1 and enters the receiving store at 3, each once', async () => {
    const id = await create({ staffId: w.staff });
    t.clock.advance(TEN_MINUTES);
    expect(await ok(t, 'PATCH', `/shipping/${id}`, { status: '1' })).toMatchObject({ status: '1', updDateTime: AT_1010 });
    expect(movementsOf(t, id)).toEqual([
      ['04', w.from, w.p1, '-5'],
      ['04', w.from, w.p2, '-3'],
    ]);
    expect((await ok(t, 'GET', `/receiving/${id}`)).insDateTime).toBe(AT_1010);
    await ok(t, 'PATCH', `/shipping/${id}`, { status: '1' }); // the same status again: no move
    await ok(t, 'PATCH', `/shipping/${id}`, { status: '2' });
    expect((await ok(t, 'GET', `/receiving/${id}`)).status).toBe('1');
    expect(movementsOf(t, id)).toHaveLength(2);
    const done = await ok(t, 'PATCH', `/shipping/${id}`, { status: '3' });
    expect(done.status).toBe('3');
    expect(movementsOf(t, id)).toEqual([
      ['04', w.from, w.p1, '-5'],
      ['04', w.from, w.p2, '-3'],
      ['05', w.to, w.p1, '5'],
      ['05', w.to, w.p2, '3'],
    ]);
    expect([stockOf(t, w.from, w.p1), stockOf(t, w.to, w.p1), stockOf(t, w.to, w.p2)]).toEqual(['-5', '5', '3']);
    // Completed without a count: every detail received in full, on the day it completed.
    const r = await ok(t, 'GET', `/receiving/${id}?with_details=all`);
    expect(r).toMatchObject({ status: '2', receivingDate: '2026-11-22' });
    expect(r.details.map((d: { inspectionQuantity: string; stockoutQuantity: string; inspectionDate: string; status: string }) => [d.inspectionQuantity, d.stockoutQuantity, d.inspectionDate, d.status])).toEqual([
      ['5', '0', '2026-11-22', '1'],
      ['3', '0', '2026-11-22', '1'],
    ]);
    // A received shipping takes no update; the stock stays moved once.
    expect(await bad('PATCH', `/shipping/${id}`, { status: '3' })).toBe(`[status] shipping ${id} is received (status 3): it can no longer be changed`);
    expect(await bad('PATCH', `/shipping/${id}`, { memo: 'late' })).toBe(`[status] shipping ${id} is received (status 3): it can no longer be changed`);
    expect(movementsOf(t, id)).toHaveLength(4);
  });

  it('refuses going back, skipping a step, and sending out an unapproved shipping', async () => {
    const id = await create();
    expect(await bad('PATCH', `/shipping/${id}`, { status: '2' })).toBe('[status] the shipping moves one step at a time: from 0 (not shipped) the next status is 1 (not received), not 2');
    expect(await bad('PATCH', `/shipping/${id}`, { status: '3' })).toBe('[status] the shipping moves one step at a time: from 0 (not shipped) the next status is 1 (not received), not 3');
    await ok(t, 'PATCH', `/shipping/${id}`, { status: '1' });
    expect(await bad('PATCH', `/shipping/${id}`, { status: '0' })).toBe('[status] the shipping cannot go back from 1 (not received) to 0 (not shipped)');
    await ok(t, 'PATCH', `/shipping/${id}`, { status: '2' });
    expect(await bad('PATCH', `/shipping/${id}`, { status: '1' })).toBe('[status] the shipping cannot go back from 2 (receiving inspection) to 1 (not received)');
    const unapproved = await create({ approvalStatus: '0' });
    expect(await bad('PATCH', `/shipping/${unapproved}`, { status: '1' })).toBe('[status] the shipping must be approved (approvalStatus 1) before it is sent out; it is 0');
    const rejected = await create({ approvalStatus: '2' });
    expect(await bad('PATCH', `/shipping/${rejected}`, { status: '1' })).toBe('[status] the shipping must be approved (approvalStatus 1) before it is sent out; it is 2');
    expect(movementsOf(t, unapproved)).toEqual([]);
    // Approved and sent out in one update.
    expect(await ok(t, 'PATCH', `/shipping/${unapproved}`, { approvalStatus: '1', status: '1' })).toMatchObject({ status: '1', approvalStatus: '1' });
    expect(movementsOf(t, unapproved)).toHaveLength(2);
    expect(problem(await t.api('PATCH', '/shipping/999', { memo: 'x' }), 404).detail).toBe('[shipping_id] shipping 999 does not exist');
  });

  it('approval: 0 → 1 or 2 stamps approvalDateTime; 1 and 2 are final', async () => {
    const id = await create({ approvalStatus: '0' });
    t.clock.advance(TEN_MINUTES);
    expect(await ok(t, 'PATCH', `/shipping/${id}`, { approvalStatus: '2' })).toMatchObject({ approvalStatus: '2', approvalDateTime: AT_1010 });
    expect(await bad('PATCH', `/shipping/${id}`, { approvalStatus: '1' })).toBe('[approvalStatus] the shipping is already rejected (2); its approvalStatus can change only while unapproved (0)');
    expect(await ok(t, 'PATCH', `/shipping/${id}`, { approvalStatus: '2' })).toMatchObject({ approvalStatus: '2', approvalDateTime: AT_1010 });
    const approved = await create();
    expect(await bad('PATCH', `/shipping/${approved}`, { approvalStatus: '0' })).toBe('[approvalStatus] the shipping is already approved (1); its approvalStatus can change only while unapproved (0)');
  });

  it('edits the fields and details before sending out (no stock), then after it (the difference moves, the receiving follows)', async () => {
    const id = await create();
    const patched = await ok(t, 'PATCH', `/shipping/${id}`, {
      receivingExpectedDateFrom: '2026-11-26',
      receivingExpectedDateTo: '2026-11-27',
      shippingDate: '2026-11-25',
      staffId: w.staff,
      memo: 'fragile',
      identificationNo: 'TR-9',
      details: [{ shippingDetailId: '1001', quantity: '4' }, { productId: w.p3, quantity: '2' }],
    });
    expect(patched).toMatchObject({ receivingExpectedDateFrom: '2026-11-26', receivingExpectedDateTo: '2026-11-27', shippingDate: '2026-11-25', staffId: w.staff, memo: 'fragile', identificationNo: 'TR-9' });
    expect(patched.details.map((d: { productId: string; quantity: string }) => [d.productId, d.quantity])).toEqual([[w.p1, '4'], [w.p2, '3'], [w.p3, '2']]);
    expect(movementsOf(t, id)).toEqual([]);
    expect(await ok(t, 'PATCH', `/shipping/${id}`, { memo: '', staffId: null })).toMatchObject({ memo: null, staffId: null });

    await ok(t, 'PATCH', `/shipping/${id}`, { status: '1' });
    expect(stockOf(t, w.from, w.p1)).toBe('-4');
    // A sent shipping corrected before inspection: only the difference moves, and the receiving follows at once.
    await ok(t, 'PATCH', `/shipping/${id}`, { details: [{ shippingDetailId: '1001', productId: w.p1, quantity: '6' }, { shippingDetailId: '2001', quantity: '1' }] });
    expect(movementsOf(t, id).slice(3)).toEqual([
      ['04', w.from, w.p1, '-2'],
      ['04', w.from, w.p2, '2'],
    ]);
    expect([stockOf(t, w.from, w.p1), stockOf(t, w.from, w.p2), stockOf(t, w.from, w.p3)]).toEqual(['-6', '-1', '-2']);
    expect(await receivingByProduct(t, id)).toEqual({ [w.p1]: ['6', null, null], [w.p2]: ['1', null, null], [w.p3]: ['2', null, null] });
    // The same quantities again move nothing.
    await ok(t, 'PATCH', `/shipping/${id}`, { details: [{ shippingDetailId: '1001', quantity: '6' }] });
    expect(movementsOf(t, id)).toHaveLength(5);
  });

  it('refuses bad details and fields with 400', async () => {
    const id = await create();
    const patch = (b: unknown) => bad('PATCH', `/shipping/${id}`, b);
    expect(await patch({})).toBe('[body] no field to update was given');
    expect(await patch({ details: [{ quantity: '1' }] })).toBe('[details[0].productId] is required to add a detail (no shippingDetailId)');
    expect(await patch({ details: [{ shippingDetailId: '77', quantity: '1' }] })).toBe(`[details[0].shippingDetailId] shipping detail 77 is not a detail of shipping ${id}`);
    expect(await patch({ details: [{ shippingDetailId: '1001', productId: w.p2, quantity: '1' }] })).toBe(`[details[0].productId] shipping detail 1001 is of product ${w.p1}, not ${w.p2}`);
    expect(await patch({ details: [{ shippingDetailId: '1001', quantity: '1' }, { shippingDetailId: '1001', quantity: '2' }] })).toBe('[details[1].shippingDetailId] shipping detail 1001 is given twice');
    expect(await patch({ details: [{ productId: w.p1, quantity: '1' }] })).toBe(`[details[0].productId] product ${w.p1} is already in the shipping`);
    expect(await patch({ details: [{ productId: w.p3, quantity: '1' }, { productId: w.p3, quantity: '1' }] })).toBe(`[details[1].productId] product ${w.p3} is already in details[0]`);
    expect(await patch({ details: [{ productId: '99', quantity: '1' }] })).toBe('[details[0].productId] product 99 does not exist');
    expect(await patch({ receivingExpectedDateTo: '2026-11-01' })).toBe('[receivingExpectedDateTo] must not be before receivingExpectedDateFrom (2026-11-24)');
    expect(await patch({ staffId: '9' })).toBe('[staffId] staff 9 does not exist');
    expect(await patch({ status: '4' })).toBe('[status] must be one of 0, 1, 2, 3');
    expect(await patch({ receivingStoreId: w.from, memo: 'x' })).toBe('[receivingStoreId] is not a known field');
    // Existing plus added details: at most 1000 (products written directly: 999 API calls would be slow).
    const insert = t.deps.db.prepare(
      `INSERT INTO products (contract_id, product_id, product_code, product_name, category_id, price_units, ins_at, upd_at)
       SELECT contract_id, ?, ?, 'x', category_id, price_units, ins_at, upd_at FROM products WHERE contract_id = ? AND product_id = ?`,
    );
    t.deps.db.transaction(() => {
      for (let i = 0; i < 999; i++) insert.run(100000 + i, `X${i}`, t.contractId, Number(w.p1));
    })();
    const adds = Array.from({ length: 999 }, (_, i) => ({ productId: String(100000 + i), quantity: '1' }));
    expect(await patch({ details: adds })).toBe('[details] a shipping has at most 1000 details: 2 existing plus 999 added');
    expect((await ok(t, 'PATCH', `/shipping/${id}`, { details: adds.slice(0, 998) })).details).toHaveLength(1000);
  });

  it('in receiving inspection without a modification request: the shipping side is refused (409), completion allowed', async () => {
    const id = await inInspection(t, w);
    const expected = `[modificationRequestStatus] shipping ${id} is in receiving inspection (status 2): its shipping side can be changed only under a modification request (POST /shipping/${id}/modification_request)`;
    expect(problem(await t.api('PATCH', `/shipping/${id}`, { memo: 'x' }), 409).detail).toBe(expected);
    expect(problem(await t.api('PATCH', `/shipping/${id}`, { details: [{ shippingDetailId: '1001', quantity: '1' }], status: '3' }), 409).detail).toBe(expected);
    expect(movementsOf(t, id)).toHaveLength(2);
    expect((await ok(t, 'PATCH', `/shipping/${id}`, { status: '2' })).status).toBe('2');
    expect((await ok(t, 'PATCH', `/shipping/${id}`, { status: '3' })).status).toBe('3');
    expect(movementsOf(t, id)).toHaveLength(4);
  });
});

describe('the receiving side: GET /receiving, GET /receiving/{id}(/details), PATCH /receiving/{id}', () => {
  const inspect = (detailId: string, inspection: string, stockout = '0', extra: Record<string, unknown> = {}) => ({
    receivingDetailId: detailId,
    inspectionQuantity: inspection,
    stockoutQuantity: stockout,
    inspectionDate: '2026-11-24',
    ...extra,
  });

  it('lists only shippings sent out, by the receiving status and filters', async () => {
    const notSent = await create();
    const sent = await create({ status: '1' });
    const inspecting = await inInspection(t, w, { identificationNo: 'I' });
    const ids = async (q: string) => (await ok(t, 'GET', `/receiving${q}`)).map((r: { receivingId: string }) => r.receivingId);
    expect(await ids('')).toEqual([sent, inspecting]);
    expect(await ids('?status=0')).toEqual([sent]);
    expect(await ids('?status=1')).toEqual([inspecting]);
    expect(await ids('?status=2')).toEqual([]);
    expect(await ids(`?receiving_store_id=${w.to}&shipping_store_id=${w.from}&identification_no=I`)).toEqual([inspecting]);
    expect(await ids(`?shipping_id=${sent}`)).toEqual([sent]);
    expect(await ids(`?shipping_id=${notSent}`)).toEqual([]);
    expect((await ok(t, 'GET', '/receiving?with_details=all&limit=1'))[0].details).toHaveLength(2);
    expect(problem(await t.api('GET', '/receiving/999'), 404).detail).toBe('[receiving_id] receiving 999 does not exist');
    expect(problem(await t.api('GET', '/receiving?status=3'), 400).detail).toBe('[status] must be one of 0, 1, 2');
  });

  it('counts the details: the first update starts the inspection; all inspected completes it and adds the counted stock once', async () => {
    const id = await create({ status: '1' });
    t.clock.advance(TEN_MINUTES);
    const first = await ok(t, 'PATCH', `/receiving/${id}`, { receivingDate: '2026-11-24', staffId: w.staff, memo: 'box 1 of 2', details: [inspect('1001', '4', '1', { stockoutReason: 'broken' })] });
    expect(first).toMatchObject({ receivingId: id, status: '1', receivingDate: '2026-11-24', staffId: w.staff, memo: 'box 1 of 2', updDateTime: AT_1010 });
    expect(first.details[0]).toEqual({
      receivingDetailId: '1001',
      receivingId: id,
      productId: w.p1,
      scheduledQuantity: '5',
      inspectionQuantity: '4',
      stockoutQuantity: '1',
      stockoutReason: 'broken',
      inspectionDate: '2026-11-24',
      status: '1',
      insDateTime: AT_10,
      updDateTime: AT_1010,
    });
    expect(await ok(t, 'GET', `/shipping/${id}`)).toMatchObject({ status: '2', memo: 'box 1 of 2', staffId: null });
    expect(movementsOf(t, id)).toHaveLength(2);
    // A count that does not add up leaves the detail uninspected and the receiving open.
    await ok(t, 'PATCH', `/receiving/${id}`, { details: [inspect('2001', '2')] });
    expect((await ok(t, 'GET', `/receiving/${id}/details?status=0`)).map((d: { productId: string }) => d.productId)).toEqual([w.p2]);
    const done = await ok(t, 'PATCH', `/receiving/${id}`, { details: [inspect('2001', '2', '1')] });
    expect(done.status).toBe('2');
    expect((await ok(t, 'GET', `/shipping/${id}`)).status).toBe('3');
    expect(movementsOf(t, id).slice(2)).toEqual([
      ['05', w.to, w.p1, '4'],
      ['05', w.to, w.p2, '2'],
    ]);
    expect(problem(await t.api('PATCH', `/receiving/${id}`, { memo: 'again' }), 400).detail).toBe(`[status] receiving ${id} is complete (status 2): it can no longer be changed`);
    expect(movementsOf(t, id)).toHaveLength(4);
  });

  it('a product the shipping does not list may be added; it keeps the receiving open', async () => {
    const id = await create({ status: '1' });
    const r = await ok(t, 'PATCH', `/receiving/${id}`, {
      receivingDate: '2026-11-24',
      details: [inspect('1001', '5'), inspect('2001', '3'), { productId: w.p3, inspectionQuantity: '1', stockoutQuantity: '0', inspectionDate: '2026-11-24' }],
    });
    expect(r.status).toBe('1');
    expect(r.details.map((d: { productId: string; scheduledQuantity: string; status: string }) => [d.productId, d.scheduledQuantity, d.status])).toEqual([
      [w.p1, '5', '1'],
      [w.p2, '3', '1'],
      [w.p3, '0', '0'],
    ]);
    expect(movementsOf(t, id)).toHaveLength(2);
  });

  it('lists a receiving\'s details with filters, sort and paging', async () => {
    const id = await create({ status: '1', details: [{ productId: w.p2, quantity: '1' }, { productId: w.p1, quantity: '2' }, { productId: w.p3, quantity: '3' }] });
    const products = async (q: string) => (await ok(t, 'GET', `/receiving/${id}/details${q}`)).map((d: { productId: string }) => d.productId);
    expect(await products('')).toEqual([w.p2, w.p1, w.p3]);
    expect(await products('?sort=productId')).toEqual([w.p1, w.p2, w.p3]);
    expect(await products('?sort=productId:desc')).toEqual([w.p3, w.p2, w.p1]);
    expect(await products(`?product_id=${w.p1}`)).toEqual([w.p1]);
    const page = await t.api('GET', `/receiving/${id}/details?limit=2`);
    expect(page.json()).toHaveLength(2);
    expect(page.headers.link).toBe(`<http://localhost/test-contract/pos/receiving/${id}/details?limit=2&page=2>; rel="next"`);
    expect(await products('?limit=2&page=2')).toEqual([w.p3]);
    expect(problem(await t.api('GET', '/receiving/999/details'), 404).detail).toBe('[receiving_id] receiving 999 does not exist');
  });

  it('refuses bad receiving updates with 400 and 404', async () => {
    const notSent = await create();
    expect(problem(await t.api('PATCH', `/receiving/${notSent}`, { receivingDate: '2026-11-24' }), 404).detail).toBe(
      `[receiving_id] receiving ${notSent} does not exist: shipping ${notSent} has not been sent out (status 0)`,
    );
    const id = await create({ status: '1' });
    const patch = (b: unknown) => bad('PATCH', `/receiving/${id}`, b);
    expect(await patch({ memo: 'x' })).toBe(`[receivingDate] is required: receiving ${id} has no receiving date yet`);
    const dated = (details: unknown[]) => patch({ receivingDate: '2026-11-24', details });
    expect(await dated([{ receivingDetailId: '1001', inspectionQuantity: '1', inspectionDate: '2026-11-24' }])).toBe('[details[0].stockoutQuantity] is required');
    expect(await dated([inspect('9', '1')])).toBe(`[details[0].receivingDetailId] receiving detail 9 is not a detail of receiving ${id}`);
    expect(await dated([inspect('1001', '1', '0', { productId: w.p2 })])).toBe(`[details[0].productId] receiving detail 1001 is of product ${w.p1}, not ${w.p2}`);
    expect(await dated([inspect('1001', '1'), inspect('1001', '2')])).toBe('[details[1].receivingDetailId] receiving detail 1001 is given twice');
    const add = (productId: string) => ({ productId, inspectionQuantity: '1', stockoutQuantity: '0', inspectionDate: '2026-11-24' });
    expect(await dated([{ inspectionQuantity: '1', stockoutQuantity: '0', inspectionDate: '2026-11-24' }])).toBe('[details[0].productId] is required to add a detail (no receivingDetailId)');
    expect(await dated([add(w.p1)])).toBe(`[details[0].productId] product ${w.p1} is already in the receiving`);
    expect(await dated([add(w.p3), add(w.p3)])).toBe(`[details[1].productId] product ${w.p3} is already in details[0]`);
    expect(await dated([add('99')])).toBe('[details[0].productId] product 99 does not exist');
    expect(await patch({ receivingDate: '2026-11-24', staffId: '9' })).toBe('[staffId] staff 9 does not exist');
    expect(await patch({ receivingDate: '2026-11-24', status: '2' })).toBe('[status] is not a known field');
    expect((await ok(t, 'GET', `/shipping/${id}`)).status).toBe('1');
  });
});

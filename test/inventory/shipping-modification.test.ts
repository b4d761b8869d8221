import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { problem, type TestApp } from '../helpers/app.js';
import { AT_10, AT_1010, body, inInspection, movementsOf, ok, receivingByProduct, shippingApp, stockOf, TEN_MINUTES, type World } from './shipping-fixtures.js';

/**
 * Issue 14 item 3: the shipping modification request (spec 3.1, 4.2) and its completion (4.19,
 * the platform's POST /shipping_modification_requests/{shipping_id}/complete).
 */

const AT_1020 = '2026-11-22T10:20:00+09:00';

let t: TestApp;
let w: World;
beforeEach(async () => ({ t, w } = await shippingApp()));
afterEach(() => t.close());

const request = (id: string, b?: unknown) => t.api('POST', `/shipping/${id}/modification_request`, b);
const complete = (id: string) => t.api('POST', `/shipping_modification_requests/${id}/complete`);
const inspect = (detailId: string, inspection: string, stockout = '0') => ({
  receivingDetailId: detailId,
  inspectionQuantity: inspection,
  stockoutQuantity: stockout,
  inspectionDate: '2026-11-24',
});

describe('POST /shipping/{id}/modification_request (4.2)', () => {
  it('opens a request during receiving inspection: status 1 and its time; a memo given replaces the memo', async () => {
    const id = await inInspection(t, w, { memo: 'sent 5 and 3' });
    t.clock.advance(TEN_MINUTES);
    const res = await request(id, { memo: 'we got 4 of the first' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      shippingId: id,
      status: '2',
      memo: 'we got 4 of the first',
      modificationRequestStatus: '1',
      modificationRequestDateTime: AT_1010,
      modificationRequestCheckedDateTime: null,
      updDateTime: AT_1010,
    });
    expect(res.json().details.map((d: { quantity: string }) => d.quantity)).toEqual(['5', '3']);
    // The receiving side shares the memo.
    expect((await ok(t, 'GET', `/receiving/${id}`)).memo).toBe('we got 4 of the first');
  });

  it('without a body (or without memo) keeps the memo', async () => {
    const a = await inInspection(t, w, { memo: 'keep' });
    expect((await ok(t, 'POST', `/shipping/${a}/modification_request`)).memo).toBe('keep');
    const b = await inInspection(t, w, { memo: 'keep too' });
    expect((await ok(t, 'POST', `/shipping/${b}/modification_request`, {})).memo).toBe('keep too');
    const c = await inInspection(t, w, { memo: 'cleared' });
    expect((await ok(t, 'POST', `/shipping/${c}/modification_request`, { memo: null })).memo).toBeNull();
    expect(problem(await request(c, { note: 'x' }), 400).detail).toBe('[note] is not a known field');
  });

  it('404 for an absent shipping; 409 when a request is already open; 409 when receiving is not in inspection', async () => {
    expect(problem(await request('999'), 404).detail).toBe('[shipping_id] shipping 999 does not exist');
    const id = await inInspection(t, w);
    await ok(t, 'POST', `/shipping/${id}/modification_request`);
    const again = problem(await request(id, { memo: 'twice' }), 409);
    expect(again).toMatchObject({ title: 'Conflict', status: 409, detail: `[modificationRequestStatus] shipping ${id} already has an open modification request (1)` });
    expect((await ok(t, 'GET', `/shipping/${id}`)).memo).toBeNull();

    const notShipped = (await ok(t, 'POST', '/shipping', body(w))).shippingId;
    expect(problem(await request(notShipped), 409).detail).toBe(
      `[status] shipping ${notShipped} is 0 (not shipped): a modification can be requested only during receiving inspection (2)`,
    );
    const notReceived = (await ok(t, 'POST', '/shipping', body(w, { status: '1' }))).shippingId;
    expect(problem(await request(notReceived), 409).detail).toBe(
      `[status] shipping ${notReceived} is 1 (not received): a modification can be requested only during receiving inspection (2)`,
    );
    const received = await inInspection(t, w);
    await ok(t, 'PATCH', `/shipping/${received}`, { status: '3' });
    expect(problem(await request(received), 409).detail).toBe(
      `[status] shipping ${received} is 3 (receiving complete): a modification can be requested only during receiving inspection (2)`,
    );
    expect((await ok(t, 'GET', `/shipping/${received}`)).modificationRequestStatus).toBe('0');
  });

  it('while requested: the shipping side may change, the receiving side is refused (409)', async () => {
    const id = await inInspection(t, w);
    await ok(t, 'PATCH', `/receiving/${id}`, { receivingDate: '2026-11-24', details: [inspect('1001', '4')] });
    await ok(t, 'POST', `/shipping/${id}/modification_request`);
    // The shipping side: fields and details; the corrected quantity leaves the shipping store at once.
    const patched = await ok(t, 'PATCH', `/shipping/${id}`, { memo: 'corrected', details: [{ shippingDetailId: '1001', quantity: '4' }, { productId: w.p3, quantity: '2' }] });
    expect(patched).toMatchObject({ status: '2', memo: 'corrected', modificationRequestStatus: '1' });
    expect(movementsOf(t, id).slice(2)).toEqual([
      ['04', w.from, w.p1, '1'],
      ['04', w.from, w.p3, '-2'],
    ]);
    expect([stockOf(t, w.from, w.p1), stockOf(t, w.from, w.p3)]).toEqual(['-4', '-2']);
    // ...but the edits wait for the completion: the receiving side is unchanged.
    expect(await receivingByProduct(t, id)).toEqual({ [w.p1]: ['5', '4', '0'], [w.p2]: ['3', null, null] });
    // The receiving side is refused: its update and the completion of the receiving.
    const refused = `[modificationRequestStatus] shipping ${id} has an open modification request (1): its receiving cannot be updated until the request is completed (POST /shipping_modification_requests/${id}/complete)`;
    expect(problem(await t.api('PATCH', `/receiving/${id}`, { details: [inspect('2001', '3')] }), 409).detail).toBe(refused);
    expect(problem(await t.api('PATCH', `/receiving/${id}`, { memo: 'x' }), 409).detail).toBe(refused);
    expect(problem(await t.api('PATCH', `/shipping/${id}`, { status: '3' }), 409).detail).toBe(refused);
    expect((await ok(t, 'GET', `/shipping/${id}`)).status).toBe('2');
    expect(movementsOf(t, id).filter(([division]) => division === '05')).toEqual([]);
  });
});

describe('POST /shipping_modification_requests/{shipping_id}/complete (4.19)', () => {
  it('completes the request: 1 → 2 with its time, the pending shipping edits reach the receiving side, receiving updates are allowed again', async () => {
    const id = await inInspection(t, w);
    await ok(t, 'PATCH', `/receiving/${id}`, { receivingDate: '2026-11-24', details: [inspect('1001', '4'), inspect('2001', '3')] });
    // 4 counted of 5: the receiving cannot complete; the receiving store asks for a correction.
    expect((await ok(t, 'GET', `/shipping/${id}`)).status).toBe('2');
    await ok(t, 'POST', `/shipping/${id}/modification_request`, { memo: 'only 4 arrived; also a C came' });
    await ok(t, 'PATCH', `/shipping/${id}`, { details: [{ shippingDetailId: '1001', quantity: '4' }, { productId: w.p3, quantity: '1' }] });
    t.clock.advance(TEN_MINUTES);
    const res = await complete(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      shippingId: id,
      status: '2',
      modificationRequestStatus: '2',
      modificationRequestDateTime: AT_10,
      modificationRequestCheckedDateTime: AT_1010,
      updDateTime: AT_1010,
    });
    expect(res.json().details.map((d: { productId: string; quantity: string }) => [d.productId, d.quantity])).toEqual([[w.p1, '4'], [w.p2, '3'], [w.p3, '1']]);
    // Reflected: the scheduled quantities follow the shipping side, the counts entered are kept, C is new.
    expect(await receivingByProduct(t, id)).toEqual({ [w.p1]: ['4', '4', '0'], [w.p2]: ['3', '3', '0'], [w.p3]: ['1', null, null] });
    // The receiving may be updated again; counting C completes it, and the counted stock enters once.
    t.clock.advance(TEN_MINUTES);
    const r = await ok(t, 'PATCH', `/receiving/${id}`, { details: [inspect('3001', '1')] });
    expect(r).toMatchObject({ status: '2', updDateTime: AT_1020 });
    expect(movementsOf(t, id)).toEqual([
      ['04', w.from, w.p1, '-5'],
      ['04', w.from, w.p2, '-3'],
      ['04', w.from, w.p1, '1'],
      ['04', w.from, w.p3, '-1'],
      ['05', w.to, w.p1, '4'],
      ['05', w.to, w.p2, '3'],
      ['05', w.to, w.p3, '1'],
    ]);
    expect([stockOf(t, w.from, w.p1), stockOf(t, w.to, w.p1), stockOf(t, w.to, w.p3)]).toEqual(['-4', '4', '1']);
  });

  it('a product the receiving store added is scheduled once the shipping side lists it', async () => {
    const id = await inInspection(t, w);
    await ok(t, 'PATCH', `/receiving/${id}`, {
      receivingDate: '2026-11-24',
      details: [inspect('1001', '5'), inspect('2001', '3'), { productId: w.p3, inspectionQuantity: '2', stockoutQuantity: '0', inspectionDate: '2026-11-24' }],
    });
    expect((await ok(t, 'GET', `/shipping/${id}`)).status).toBe('2');
    await ok(t, 'POST', `/shipping/${id}/modification_request`);
    await ok(t, 'PATCH', `/shipping/${id}`, { details: [{ productId: w.p3, quantity: '2' }] });
    await ok(t, 'POST', `/shipping_modification_requests/${id}/complete`);
    expect(await receivingByProduct(t, id)).toEqual({ [w.p1]: ['5', '5', '0'], [w.p2]: ['3', '3', '0'], [w.p3]: ['2', '2', '0'] });
    // Every detail now adds up: the next receiving update completes the receiving.
    expect((await ok(t, 'PATCH', `/receiving/${id}`, { staffId: w.staff })).status).toBe('2');
    expect(movementsOf(t, id).filter(([division]) => division === '05')).toEqual([
      ['05', w.to, w.p1, '5'],
      ['05', w.to, w.p2, '3'],
      ['05', w.to, w.p3, '2'],
    ]);
  });

  it('a shipping detail set to 0 under the request schedules nothing; PATCH status 3 then completes with the counts', async () => {
    const id = await inInspection(t, w);
    await ok(t, 'POST', `/shipping/${id}/modification_request`);
    await ok(t, 'PATCH', `/shipping/${id}`, { details: [{ shippingDetailId: '2001', quantity: '0' }] });
    await ok(t, 'POST', `/shipping_modification_requests/${id}/complete`);
    expect(await receivingByProduct(t, id)).toEqual({ [w.p1]: ['5', null, null], [w.p2]: ['0', null, null] });
    await ok(t, 'PATCH', `/shipping/${id}`, { status: '3' });
    expect(movementsOf(t, id)).toEqual([
      ['04', w.from, w.p1, '-5'],
      ['04', w.from, w.p2, '-3'],
      ['04', w.from, w.p2, '3'],
      ['05', w.to, w.p1, '5'],
    ]);
    expect([stockOf(t, w.from, w.p2), stockOf(t, w.to, w.p2)]).toEqual(['0', '0']);
  });

  it('404 for an absent shipping; 409 when no request is open (none yet, or already completed)', async () => {
    expect(problem(await complete('999'), 404).detail).toBe('[shipping_id] shipping 999 does not exist');
    const id = await inInspection(t, w);
    expect(problem(await complete(id), 409)).toMatchObject({
      title: 'Conflict',
      detail: `[modificationRequestStatus] shipping ${id} has no open modification request: it has no modification request (0)`,
    });
    await ok(t, 'POST', `/shipping/${id}/modification_request`);
    await ok(t, 'POST', `/shipping_modification_requests/${id}/complete`);
    expect(problem(await complete(id), 409).detail).toBe(
      `[modificationRequestStatus] shipping ${id} has no open modification request: its last request is already completed (2)`,
    );
    // A completed request may be followed by another one (2 → 1), which sets a new request time.
    t.clock.advance(TEN_MINUTES);
    expect(await ok(t, 'POST', `/shipping/${id}/modification_request`)).toMatchObject({
      modificationRequestStatus: '1',
      modificationRequestDateTime: AT_1010,
      modificationRequestCheckedDateTime: AT_10,
    });
  });

  it('is the platform\'s path, Retail Business only, with pos.transfers:write; the old path is gone', async () => {
    const id = await inInspection(t, w);
    await ok(t, 'POST', `/shipping/${id}/modification_request`);
    expect((await t.api('POST', `/shipping/${id}/modification_request/complete`)).statusCode).toBe(404);
    const reader = await t.tokenFor({ scopes: ['pos.transfers:read'] });
    expect(problem(await t.api('POST', `/shipping_modification_requests/${id}/complete`, undefined, reader), 403).detail).toBe(
      '[scope] the token lacks the scope pos.transfers:write',
    );
    expect(problem(await t.api('POST', `/shipping/${id}/modification_request`, undefined, reader), 403).detail).toBe(
      '[scope] the token lacks the scope pos.transfers:write',
    );
    new ContractRepo(t.deps.db, t.deps.writer, t.clock).setPlan(t.contractId, 'enterprise');
    expect(problem(await complete(id), 403).detail).toBe(
      "the contract's plan enterprise cannot use POST /shipping_modification_requests/{shipping_id}/complete (plans: retail_business)",
    );
    expect(problem(await request(id), 403).detail).toBe("the contract's plan enterprise cannot use POST /shipping/{shipping_id}/modification_request (plans: retail_business)");
  });

  it('is documented in the OpenAPI with its platform shape', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/{contract_id}/pos/shipping_modification_requests/{shipping_id}/complete'].post;
    expect(op.summary).toBe('Complete a shipping modification request (4.19)');
    expect(op.security).toEqual([{ oauth2: ['pos.transfers:write'] }]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '404', '409']));
    expect(doc.paths['/{contract_id}/pos/shipping/{shipping_id}/modification_request'].post.summary).toBe('Request a modification of a shipping in receiving inspection (4.2)');
  });
});

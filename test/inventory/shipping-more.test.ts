import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvalDecision } from '../../server/domain/shipping.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { problem, type TestApp } from '../helpers/app.js';
import { AT_10, AT_1010, body, movementsOf, ok, shippingApp, stockOf, TEN_MINUTES, type World } from './shipping-fixtures.js';

/** Issue 26: the shipping approval operation (出庫承認), the one way the platform sends a shipping out. */

let t: TestApp;
let w: World;
beforeEach(async () => ({ t, w } = await shippingApp()));
afterEach(() => t.close());

const useApprovalFunction = () => new ContractRepo(t.deps.db, t.deps.writer, t.clock).setSettings(t.contractId, { inventoryApproval: true });
const create = async (over: Record<string, unknown> = {}) => (await ok(t, 'POST', '/shipping', body(w, over))).shippingId as string;
const approval = (id: string, b: unknown) => t.api('PATCH', `/shipping/${id}/approval`, b);
const refused = async (id: string, b: unknown) => problem(await approval(id, b), 400).detail;

describe('PATCH /shipping/{shipping_id}/approval', () => {
  it('approving an unapproved shipping sends it out: approved now, status 1, the stock leaves, the receiving is generated', async () => {
    useApprovalFunction();
    const id = await create();
    t.clock.advance(TEN_MINUTES);
    const res = await ok(t, 'PATCH', `/shipping/${id}/approval`, { approvalStatus: '1' });
    expect(res).toMatchObject({ shippingId: id, status: '1', approvalStatus: '1', approvalDateTime: AT_1010, insDateTime: AT_10, updDateTime: AT_1010 });
    expect(res.details.map((d: { productId: string; quantity: string }) => [d.productId, d.quantity])).toEqual([
      [w.p1, '5'],
      [w.p2, '3'],
    ]);
    expect(movementsOf(t, id)).toEqual([
      ['04', w.from, w.p1, '-5'],
      ['04', w.from, w.p2, '-3'],
    ]);
    expect(stockOf(t, w.from, w.p1)).toBe('-5');
    expect(await ok(t, 'GET', `/receiving/${id}`)).toMatchObject({ receivingId: id, status: '0' });
  });

  it('rejecting an unapproved shipping stamps it and keeps it unsent: no stock moves, no receiving, and it is never sent', async () => {
    useApprovalFunction();
    const id = await create();
    t.clock.advance(TEN_MINUTES);
    expect(await ok(t, 'PATCH', `/shipping/${id}/approval`, { approvalStatus: '2' })).toMatchObject({ status: '0', approvalStatus: '2', approvalDateTime: AT_1010 });
    expect(movementsOf(t, id)).toEqual([]);
    expect(problem(await t.api('GET', `/receiving/${id}`), 404).detail).toBe(`[receiving_id] receiving ${id} does not exist: shipping ${id} has not been sent out (status 0)`);
    expect(await refused(id, { approvalStatus: '1' })).toBe('[approvalStatus] the shipping is already rejected (2); its approvalStatus can change only while unapproved (0)');
    expect(await refused(id, { approvalStatus: '2' })).toBe('[approvalStatus] the shipping is already rejected (2)');
    expect(movementsOf(t, id)).toEqual([]);
  });

  it('without the approval function a shipping is approved at registration: approving sends it out and keeps its approval time; rejecting is refused', async () => {
    const id = await create();
    t.clock.advance(TEN_MINUTES);
    expect(await refused(id, { approvalStatus: '2' })).toBe('[approvalStatus] the shipping is already approved (1); its approvalStatus can change only while unapproved (0)');
    expect(await ok(t, 'PATCH', `/shipping/${id}/approval`, { approvalStatus: '1' })).toMatchObject({ status: '1', approvalStatus: '1', approvalDateTime: AT_10, updDateTime: AT_1010 });
    expect(stockOf(t, w.from, w.p2)).toBe('-3');
  });

  it('changes the dates and memo sent with the decision, on both sides', async () => {
    const id = await create({ memo: 'old' });
    const res = await ok(t, 'PATCH', `/shipping/${id}/approval`, {
      approvalStatus: '1',
      receivingExpectedDateFrom: '2026-11-27',
      receivingExpectedDateTo: '2026-11-28',
      shippingDate: '2026-11-26',
      memo: 'approved by the manager',
    });
    expect(res).toMatchObject({ receivingExpectedDateFrom: '2026-11-27', receivingExpectedDateTo: '2026-11-28', shippingDate: '2026-11-26', memo: 'approved by the manager' });
    expect(await ok(t, 'GET', `/receiving/${id}`)).toMatchObject({ memo: 'approved by the manager' });
  });

  it('refuses a shipping already sent out (the stock moves once) and bad bodies, naming the field', async () => {
    const sent = await create({ status: '1' });
    expect(await refused(sent, { approvalStatus: '1' })).toBe('[status] the shipping is 1 (not received): only a shipping not shipped (0) is approved or rejected');
    expect(movementsOf(t, sent)).toHaveLength(2);
    const id = await create();
    expect(await refused(id, {})).toBe('[approvalStatus] is required');
    expect(await refused(id, { approvalStatus: '0' })).toBe('[approvalStatus] must be one of 1, 2');
    expect(await refused(id, { approvalStatus: '1', status: '1' })).toMatch(/^\[status\] /);
    expect(await refused(id, { approvalStatus: '1', receivingExpectedDateFrom: '2026-11-30' })).toBe(
      '[receivingExpectedDateTo] must not be before receivingExpectedDateFrom (2026-11-30)',
    );
    expect((await ok(t, 'GET', `/shipping/${id}`)).status).toBe('0');
    expect(problem(await approval('9999', { approvalStatus: '1' }), 404).detail).toBe('[shipping_id] shipping 9999 does not exist');
  });

  it('is Retail Business only and needs pos.transfers:write', async () => {
    const id = await create();
    const reader = await t.tokenFor({ scopes: ['pos.transfers:read'] });
    expect(problem(await t.api('PATCH', `/shipping/${id}/approval`, { approvalStatus: '1' }, reader), 403).detail).toBe(
      '[scope] the token lacks the scope pos.transfers:write',
    );
    new ContractRepo(t.deps.db, t.deps.writer, t.clock).setPlan(t.contractId, 'premium_plus');
    expect(problem(await approval(id, { approvalStatus: '1' }), 403).detail).toMatch(/^the contract's plan premium_plus cannot use PATCH \/shipping\/\{shipping_id\}\/approval/);
  });
});

describe('approvalDecision (the rule)', () => {
  it('approving sends out; rejecting only from unapproved; a request not approved (3) or a sent shipping is not decided here', () => {
    expect(approvalDecision('0', '0', '1')).toEqual({ stamp: true, sendOut: true });
    expect(approvalDecision('0', '1', '1')).toEqual({ stamp: false, sendOut: true });
    expect(approvalDecision('0', '0', '2')).toEqual({ stamp: true, sendOut: false });
    expect(() => approvalDecision('0', '3', '1')).toThrow('the shipping is a request not approved (3); it is not decided by this operation');
    expect(() => approvalDecision('2', '1', '1')).toThrow('the shipping is 2 (receiving inspection): only a shipping not shipped (0) is approved or rejected');
  });
});

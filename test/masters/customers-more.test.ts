import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { makeTestApp, okOf, problem, type TestApp } from '../helpers/app.js';
import { bulkNotices, settleBulk } from './bulk-notices.js';

/** Issue 26: the platform's bulk registration and update of members (POST and PATCH /customers/bulk). */

const CALLBACK = 'https://receiver.example/customers';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp({ plan: 'retail_business' });
});
afterEach(() => t.close());

const ok = okOf((method, path, body) => t.api(method, path, body));
const notices = () => bulkNotices(t, 'pos:customers');
const settle = () => settleBulk(t, 'pos:customers');
const member = (code: string, over: Record<string, unknown> = {}) => ({ customerCode: code, lastName: 'Yamada', firstName: code, ...over });
const codes = async () => ((await ok('GET', '/customers?sort=customerId')) as { customerCode: string }[]).map((c) => c.customerCode);

describe('POST /customers/bulk', () => {
  it('answers at once, then registers every row as POST /customers does and notifies callbackUrl with the ids', async () => {
    const accepted = await ok('POST', '/customers/bulk', { customers: [member('M1'), member('M2', { mailReceiveFlag: '1' })], callbackUrl: CALLBACK });
    expect(accepted).toEqual({ requestId: expect.any(Number), callbackUrl: CALLBACK });
    expect(await settle()).toEqual({
      contractId: t.contractId,
      event: 'pos:customers',
      action: 'bulk-update',
      requestId: accepted.requestId,
      status: 'success',
      customerIds: ['1001', '2001'],
      errors: [],
    });
    expect(notices()[0]!.target_url).toBe(CALLBACK);
    expect(await ok('GET', '/customers/2001')).toMatchObject({ customerCode: 'M2', firstName: 'M2', mailReceiveFlag: '1', point: '0' });
  });

  it('one refused row refuses the whole request: nothing is written and the notice names each row and field', async () => {
    await ok('POST', '/customers', member('TAKEN'));
    await ok('POST', '/customers/bulk', { customers: [member('N1'), member('TAKEN'), member('N3', { customerGroupId: '999' })], callbackUrl: CALLBACK });
    const body = await settle();
    expect(body).toMatchObject({ status: 'failed', customerIds: [] });
    expect(body.errors).toEqual([
      '[customers[1].customerCode] customer code TAKEN is already used by customer 1001',
      '[customers[2].customerGroupId] customer group 999 does not exist',
    ]);
    expect(await codes()).toEqual(['TAKEN']);
  });

  it('400 for a bad request, which is neither accepted nor notified', async () => {
    const detail = async (body: unknown) => problem(await t.api('POST', '/customers/bulk', body), 400).detail;
    expect(await detail({ customers: [member('P')] })).toBe('[callbackUrl] is required');
    expect(await detail({ customers: [], callbackUrl: CALLBACK })).toBe('[customers] must have at least 1 row');
    expect(await detail({ customers: Array(101).fill(member('P')), callbackUrl: CALLBACK })).toBe('[customers] must have at most 100 rows');
    expect(await detail({ customers: [member('P'), { customerCode: 'Q', lastName: 'x' }], callbackUrl: CALLBACK })).toBe('[customers[1].firstName] is required');
    await new Promise((r) => setTimeout(r, 20));
    expect(t.deps.db.prepare('SELECT count(*) FROM webhook_events').pluck().get()).toBe(0);
  });

  it('is for Premium Plus, Food Business and Retail Business, and needs pos.customers:write', async () => {
    const reader = await t.tokenFor({ scopes: ['pos.customers:read'] });
    expect(problem(await t.api('POST', '/customers/bulk', { customers: [member('R')], callbackUrl: CALLBACK }, reader), 403).detail).toBe(
      '[scope] the token lacks the scope pos.customers:write',
    );
    new ContractRepo(t.deps.db, t.deps.writer, t.clock).setPlan(t.contractId, 'premium');
    for (const method of ['POST', 'PATCH']) {
      expect(problem(await t.api(method, '/customers/bulk', { customers: [member('R')], callbackUrl: CALLBACK }), 403).detail).toBe(
        `the contract's plan premium cannot use ${method} /customers/bulk (plans: premium_plus, food_business, retail_business)`,
      );
    }
  });
});

describe('PATCH /customers/bulk', () => {
  it('updates each row by customerId, only the keys sent; a missing member refuses every row naming customerId', async () => {
    const a = (await ok('POST', '/customers', member('S1'))).customerId;
    const b = (await ok('POST', '/customers', member('S2'))).customerId;
    await ok('PATCH', '/customers/bulk', { customers: [{ customerId: b, lastName: 'Sato' }, { customerId: a, customerCode: 'S1X' }], callbackUrl: CALLBACK });
    expect(await settle()).toMatchObject({ status: 'success', customerIds: [b, a], errors: [] });
    expect(await ok('GET', `/customers/${a}`)).toMatchObject({ customerCode: 'S1X', lastName: 'Yamada' });
    expect(await ok('GET', `/customers/${b}`)).toMatchObject({ customerCode: 'S2', lastName: 'Sato' });
  });

  it('refuses every row when one names a member that does not exist', async () => {
    const a = (await ok('POST', '/customers', member('T1'))).customerId;
    await ok('PATCH', '/customers/bulk', { customers: [{ customerId: a, lastName: 'Kept' }, { customerId: '999999', lastName: 'x' }], callbackUrl: CALLBACK });
    expect((await settle()).errors).toEqual(['[customers[1].customerId] customer 999999 does not exist']);
    expect((await ok('GET', `/customers/${a}`)).lastName).toBe('Yamada');
    expect(problem(await t.api('PATCH', '/customers/bulk', { customers: [{ lastName: 'x' }], callbackUrl: CALLBACK }), 400).detail).toBe(
      '[customers[0].customerId] is required',
    );
  });
});

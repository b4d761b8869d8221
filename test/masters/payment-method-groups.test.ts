import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import type { PaymentMethodGroup } from '../../server/masters/payment-method-groups/schema.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/payment_method_groups';

describe('payment method groups', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>): Promise<PaymentMethodGroup> => {
    const res = await t.api('POST', '/payment_method_groups', body);
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const detail400 = async (method: string, path: string, body?: unknown) => problem(await t.api(method, path, body), 400).detail;

  describe('POST /payment_method_groups', () => {
    it('creates a group without a display sequence, times in the contract zone, and reports the insert', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const res = await t.api('POST', '/payment_method_groups', { paymentMethodGroupName: 'Cashless' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        paymentMethodGroupId: '1001',
        paymentMethodGroupName: 'Cashless',
        displaySequence: null,
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      });
      expect(changes).toEqual([{ contractId: 'test-contract', entity: 'payment_method_group', id: '1001', op: 'insert' }]);
    });

    it('normalises the display sequence; "" means unset', async () => {
      expect((await create({ paymentMethodGroupName: 'A', displaySequence: '007' })).displaySequence).toBe('7');
      expect((await create({ paymentMethodGroupName: 'B', displaySequence: '-3' })).displaySequence).toBe('-3');
      expect((await create({ paymentMethodGroupName: 'C', displaySequence: '' })).displaySequence).toBeNull();
    });

    it('refuses a missing, blank or long name, a bad sequence and unknown keys', async () => {
      expect(await detail400('POST', '/payment_method_groups', {})).toBe('[paymentMethodGroupName] is required');
      expect(await detail400('POST', '/payment_method_groups', { paymentMethodGroupName: '  ' })).toBe('[paymentMethodGroupName] must not be empty');
      expect(await detail400('POST', '/payment_method_groups', { paymentMethodGroupName: 'x'.repeat(86) })).toBe(
        '[paymentMethodGroupName] must be at most 85 characters',
      );
      expect(await detail400('POST', '/payment_method_groups', { paymentMethodGroupName: 'A', displaySequence: '1.5' })).toBe(
        '[displaySequence] must be an integer of up to 9 digits',
      );
      expect(await detail400('POST', '/payment_method_groups', { paymentMethodGroupName: 'A', color: 'red' })).toBe('[color] is not a known field');
      expect((await t.api('GET', '/payment_method_groups')).json()).toEqual([]);
    });

    it('needs pos.transactions:write to write and pos.transactions:read to read, on every plan', async () => {
      const reader = await t.tokenFor({ scopes: ['pos.transactions:read'] });
      expect(problem(await t.api('POST', '/payment_method_groups', { paymentMethodGroupName: 'A' }, reader), 403).detail).toBe(
        '[scope] the token lacks the scope pos.transactions:write',
      );
      const other = await t.tokenFor({ scopes: ['pos.products:read'] });
      expect(problem(await t.api('GET', '/payment_method_groups', undefined, other), 403).detail).toBe(
        '[scope] the token lacks the scope pos.transactions:read',
      );
      const e = await makeTestApp({ plan: 'enterprise' });
      try {
        expect((await e.api('POST', '/payment_method_groups', { paymentMethodGroupName: 'A' })).statusCode).toBe(200);
      } finally {
        await e.close();
      }
    });
  });

  describe('GET /payment_method_groups', () => {
    it('sorts and pages with Link', async () => {
      await create({ paymentMethodGroupName: 'B', displaySequence: '2' });
      await create({ paymentMethodGroupName: 'A', displaySequence: '3' });
      await create({ paymentMethodGroupName: 'C', displaySequence: '1' });
      const names = (res: { json(): unknown }) => (res.json() as PaymentMethodGroup[]).map((g) => g.paymentMethodGroupName);
      expect(names(await t.api('GET', '/payment_method_groups'))).toEqual(['B', 'A', 'C']);
      expect(names(await t.api('GET', '/payment_method_groups?sort=displaySequence'))).toEqual(['C', 'B', 'A']);
      expect(names(await t.api('GET', '/payment_method_groups?sort=paymentMethodGroupName:desc'))).toEqual(['C', 'B', 'A']);
      const first = await t.api('GET', '/payment_method_groups?limit=2');
      expect(names(first)).toEqual(['B', 'A']);
      expect(first.headers.link).toBe(`<${LINK_BASE}?limit=2&page=2>; rel="next"`);
      const second = await t.api('GET', '/payment_method_groups?limit=2&page=2');
      expect(names(second)).toEqual(['C']);
      expect(second.headers.link).toBe(`<${LINK_BASE}?limit=2&page=1>; rel="prev"`);
    });

    it('refuses an unknown sort key or parameter', async () => {
      expect(await detail400('GET', '/payment_method_groups?sort=name')).toContain('[sort] name is not a sort key');
      expect(await detail400('GET', '/payment_method_groups?name=x')).toBe('[name] is not a known field');
    });
  });

  describe('GET and PATCH /payment_method_groups/{id}', () => {
    it('answers the group, 404 when absent or another contract\'s, 400 for a malformed id', async () => {
      const g = await create({ paymentMethodGroupName: 'A' });
      expect((await t.api('GET', `/payment_method_groups/${g.paymentMethodGroupId}`)).json()).toEqual(g);
      expect(problem(await t.api('GET', '/payment_method_groups/999'), 404).detail).toBe(
        '[payment_method_group_id] payment method group 999 does not exist',
      );
      expect(await detail400('GET', '/payment_method_groups/x')).toBe('[payment_method_group_id] must be 1 to 9 digits');
      t.addContract('other', 'standard');
      const otherToken = await t.tokenFor({ contractId: 'other' });
      const res = await t.app.inject({
        method: 'GET',
        url: `/other/pos/payment_method_groups/${g.paymentMethodGroupId}`,
        headers: { authorization: `Bearer ${otherToken}` },
      });
      expect(problem(res, 404).detail).toBe(`[payment_method_group_id] payment method group ${g.paymentMethodGroupId} does not exist`);
    });

    it('changes only the keys sent, clears the sequence with null, reports the update', async () => {
      const g = await create({ paymentMethodGroupName: 'A', displaySequence: '5' });
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      t.clock.advance(60_000);
      const path = `/payment_method_groups/${g.paymentMethodGroupId}`;
      expect((await t.api('PATCH', path, { paymentMethodGroupName: 'Cards' })).json()).toEqual({
        ...g,
        paymentMethodGroupName: 'Cards',
        updDateTime: AT_10_01,
      });
      expect((await t.api('PATCH', path, { displaySequence: null })).json()).toMatchObject({ paymentMethodGroupName: 'Cards', displaySequence: null });
      expect(changes).toEqual([
        { contractId: 'test-contract', entity: 'payment_method_group', id: g.paymentMethodGroupId, op: 'update' },
        { contractId: 'test-contract', entity: 'payment_method_group', id: g.paymentMethodGroupId, op: 'update' },
      ]);
    });

    it('refuses an empty body, a cleared name, unknown keys and a missing group', async () => {
      const g = await create({ paymentMethodGroupName: 'A' });
      const path = `/payment_method_groups/${g.paymentMethodGroupId}`;
      expect(await detail400('PATCH', path, {})).toBe('[body] no field to update was given');
      expect(await detail400('PATCH', path, { paymentMethodGroupName: '' })).toBe('[paymentMethodGroupName] must not be empty');
      expect(await detail400('PATCH', path, { paymentMethodGroupName: null })).toContain('[paymentMethodGroupName]');
      expect(await detail400('PATCH', path, { paymentMethodGroupName: 'B', paymentMethodGroupId: '1' })).toBe('[paymentMethodGroupId] is not a known field');
      expect(problem(await t.api('PATCH', '/payment_method_groups/999', { paymentMethodGroupName: 'X' }), 404).detail).toBe(
        '[payment_method_group_id] payment method group 999 does not exist',
      );
      expect((await t.api('GET', path)).json()).toEqual(g);
    });
  });

  describe('DELETE /payment_method_groups/{id}', () => {
    it('answers 204, reports the delete, then 404', async () => {
      const g = await create({ paymentMethodGroupName: 'A' });
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const res = await t.api('DELETE', `/payment_method_groups/${g.paymentMethodGroupId}`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(changes).toEqual([{ contractId: 'test-contract', entity: 'payment_method_group', id: g.paymentMethodGroupId, op: 'delete' }]);
      expect(problem(await t.api('DELETE', `/payment_method_groups/${g.paymentMethodGroupId}`), 404).detail).toBe(
        `[payment_method_group_id] payment method group ${g.paymentMethodGroupId} does not exist`,
      );
    });

    it('is a 400 naming the payment methods while any method is in the group', async () => {
      const g = await create({ paymentMethodGroupName: 'Cards' });
      const id = g.paymentMethodGroupId;
      const method = async (code: string) =>
        (await t.api('POST', '/payment_methods', { paymentMethodCode: code, paymentMethodName: code, paymentDivision: '1', paymentMethodGroupId: id })).json()
          .paymentMethodId as string;
      const first = await method('VISA');
      expect(await detail400('DELETE', `/payment_method_groups/${id}`)).toBe(
        `[payment_method_group_id] payment method group ${id} is used by payment method ${first}; move them to another group (or set their paymentMethodGroupId to null) first`,
      );
      const second = await method('JCB');
      expect(await detail400('DELETE', `/payment_method_groups/${id}`)).toBe(
        `[payment_method_group_id] payment method group ${id} is used by payment methods ${first}, ${second}; move them to another group (or set their paymentMethodGroupId to null) first`,
      );
      expect((await t.api('GET', `/payment_method_groups/${id}`)).statusCode).toBe(200);

      for (const m of [first, second]) await t.api('PATCH', `/payment_methods/${m}`, { paymentMethodGroupId: null });
      expect((await t.api('DELETE', `/payment_method_groups/${id}`)).statusCode).toBe(204);
    });
  });
});

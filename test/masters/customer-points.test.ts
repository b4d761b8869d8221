import { Decimal } from 'decimal.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { CustomerRepo } from '../../server/masters/customers/repo.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';
import { line, makeFixture, type Fixture } from '../sales/transactions-fixtures.js';

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';
const NON_NEGATIVE = 'must be a non-negative decimal string of up to 9 integer digits and no decimals';

describe('member points: GET /customers/point, PATCH /customers/{id}/point, POST /customers/{id}/point/add', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  const repo = () => new CustomerRepo(t.deps.db, t.deps.writer, t.deps.ids, t.deps.clock);
  const member = async (code: string, extra: Record<string, unknown> = {}) => {
    const res = await t.api('POST', '/customers', { customerCode: code, lastName: 'Yamada', firstName: 'Hanako', sex: '2', mailReceiveFlag: '1', ...extra });
    if (res.statusCode !== 200) throw new Error(res.body);
    return res.json().customerId as string;
  };
  const balance = async (id: string) => {
    const c = (await t.api('GET', `/customers/${id}`)).json();
    return { point: c.point, mile: c.mile, pointExpireDate: c.pointExpireDate };
  };
  const moves = (id: string) => repo().movements(t.contractId, id).map((m) => [m.cause, m.point_delta, m.point_after, m.mile_delta, m.mile_after]);

  describe('GET /customers/point', () => {
    it("lists members' points as the reference shapes them, pages and filters by customer_id (not caught by /customers/{id})", async () => {
      const a = await member('A', { point: '120', mile: '3', pointExpireDate: '2027-03-31' });
      const b = await member('B');
      const res = await t.api('GET', '/customers/point');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([
        { customerId: a, mile: '3', point: '120', pointExpireDate: '2027-03-31', insDateTime: AT_10_00, updDateTime: AT_10_00 },
        { customerId: b, mile: '0', point: '0', pointExpireDate: null, insDateTime: AT_10_00, updDateTime: AT_10_00 },
      ]);
      expect((await t.api('GET', `/customers/point?customer_id=${b}`)).json()).toEqual([expect.objectContaining({ customerId: b })]);
      const first = await t.api('GET', '/customers/point?limit=1&page=1');
      expect(first.json()).toEqual([expect.objectContaining({ customerId: a })]);
      expect(first.headers.link).toBe('<http://localhost/test-contract/pos/customers/point?limit=1&page=2>; rel="next"');
      expect((await t.api('GET', '/customers/point?sort=customerId:desc')).json().map((p: { customerId: string }) => p.customerId)).toEqual([b, a]);
      expect(problem(await t.api('GET', '/customers/point?customer_id=x'), 400).detail).toBe('[customer_id] must be 1 to 9 digits');
      expect(problem(await t.api('GET', '/customers/point?name=x'), 400).detail).toBe('[name] is not a known field');
    });

    it('expires the points of members past their expiry date before answering (the date is the last day of use)', async () => {
      const past = await member('PAST', { point: '300', pointExpireDate: '2026-11-21' });
      const today = await member('TODAY', { point: '40', pointExpireDate: '2026-11-22' });
      t.clock.advance(60_000);
      const list = (await t.api('GET', '/customers/point')).json();
      expect(list).toEqual([
        { customerId: past, mile: '0', point: '0', pointExpireDate: null, insDateTime: AT_10_00, updDateTime: AT_10_01 },
        { customerId: today, mile: '0', point: '40', pointExpireDate: '2026-11-22', insDateTime: AT_10_00, updDateTime: AT_10_00 },
      ]);
      expect(moves(past)).toEqual([
        ['customer_write', '300', '300', '0', '0'],
        ['expire', '-300', '0', '0', '0'],
      ]);
      // A second read finds nothing more to expire.
      await t.api('GET', '/customers/point');
      expect(moves(past)).toHaveLength(2);
    });

    it('needs pos.customers:read', async () => {
      const token = await t.tokenFor({ scopes: ['pos.customers:write'] });
      expect(problem(await t.api('GET', '/customers/point', undefined, token), 403).detail).toBe('[scope] the token lacks the scope pos.customers:read');
    });
  });

  describe('PATCH /customers/{id}/point (set)', () => {
    it('sets the balances to the values sent, answers the reference shape, records the movement and reports it', async () => {
      const id = await member('M1', { point: '100', mile: '10' });
      t.clock.advance(60_000);
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const res = await t.api('PATCH', `/customers/${id}/point`, { point: '500', mile: '4', pointExpireDate: '2027-03-31' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ customerId: id, mile: '4', point: '500', pointExpireDate: '2027-03-31', updDateTime: AT_10_01, transactionHeadIds: [] });
      expect(await balance(id)).toEqual({ point: '500', mile: '4', pointExpireDate: '2027-03-31' });
      const [, set] = repo().movements(t.contractId, id);
      expect(set).toMatchObject({ cause: 'manual_set', point_delta: '400', point_after: '500', mile_delta: '-6', mile_after: '4', transaction_head_id: null });
      expect(set!.client_id).toEqual(expect.any(String));
      expect(changes).toEqual([
        { contractId: t.contractId, entity: 'customer', id, op: 'update', balanceOnly: true },
        { contractId: t.contractId, entity: 'customer_point_movement', id: String(set!.movement_id), op: 'insert' },
        { contractId: t.contractId, entity: 'customer', id, op: 'update' },
      ]);
      // Down to zero is allowed; only the keys sent change.
      expect((await t.api('PATCH', `/customers/${id}/point`, { point: '0' })).json()).toMatchObject({ point: '0', mile: '4', pointExpireDate: '2027-03-31' });
      expect((await t.api('PATCH', `/customers/${id}/point`, { pointExpireDate: null })).json()).toMatchObject({ point: '0', pointExpireDate: null });
      expect(moves(id).map((m) => m[0])).toEqual(['customer_write', 'manual_set', 'manual_set']);
    });

    it('refuses a balance below zero naming the field, and leaves the balance alone', async () => {
      const id = await member('M1', { point: '100' });
      expect(problem(await t.api('PATCH', `/customers/${id}/point`, { point: '-1' }), 400).detail).toBe(`[point] ${NON_NEGATIVE}`);
      expect(problem(await t.api('PATCH', `/customers/${id}/point`, { point: '10', mile: '-5' }), 400).detail).toBe(`[mile] ${NON_NEGATIVE}`);
      expect(problem(await t.api('PATCH', `/customers/${id}/point`, { point: '1.5' }), 400).detail).toBe(`[point] ${NON_NEGATIVE}`);
      expect(problem(await t.api('PATCH', `/customers/${id}/point`, { point: 10 }), 400).detail).toContain('[point]');
      expect(problem(await t.api('PATCH', `/customers/${id}/point`, {}), 400).detail).toBe('[body] no field to update was given');
      expect(problem(await t.api('PATCH', `/customers/${id}/point`, { point: '1', points: '1' }), 400).detail).toBe('[points] is not a known field');
      expect(problem(await t.api('PATCH', `/customers/${id}/point`, { pointExpireDate: '2027-02-30' }), 400).detail).toBe(
        '[pointExpireDate] must be a calendar date YYYY-MM-DD from 1900',
      );
      expect(await balance(id)).toEqual({ point: '100', mile: '0', pointExpireDate: null });
      expect(moves(id)).toHaveLength(1);
    });

    it('404s an unknown member; needs pos.customers:write', async () => {
      expect(problem(await t.api('PATCH', '/customers/999/point', { point: '1' }), 404).detail).toBe('[customer_id] customer 999 does not exist');
      const id = await member('M1');
      const reader = await t.tokenFor({ scopes: ['pos.customers:read'] });
      expect(problem(await t.api('PATCH', `/customers/${id}/point`, { point: '1' }, reader), 403).detail).toBe(
        '[scope] the token lacks the scope pos.customers:write',
      );
    });
  });

  describe('POST /customers/{id}/point/add (relative)', () => {
    it('adds once when a client retries with the same Idempotency-Key; another body under that key is a 409', async () => {
      const id = await member('IDEM-1');
      const add = (body: object, key: string) =>
        t.app.inject({ method: 'POST', url: `/${t.contractId}/pos/customers/${id}/point/add`, headers: { authorization: `Bearer ${t.token}`, 'idempotency-key': key }, payload: body });
      expect((await add({ point: '30' }, 'add-1')).json().point).toBe('30');
      const retry = await add({ point: '30' }, 'add-1');
      expect(retry.statusCode).toBe(200);
      expect(retry.json().point).toBe('30');
      expect(problem(await add({ point: '40' }, 'add-1'), 409).detail).toBe('[Idempotency-Key] was used for another point add (another member or body)');
      expect((await add({ point: '30' }, 'add-2')).json().point).toBe('60');
      const moves = t.deps.db.prepare("SELECT count(*) FROM customer_point_movements WHERE cause = 'manual_add'").pluck().get();
      expect(moves).toBe(2);
    });

    it('adds the values sent (negative takes), answers the reference shape and records each movement', async () => {
      const id = await member('M1', { point: '100', mile: '10' });
      t.clock.advance(60_000);
      const res = await t.api('POST', `/customers/${id}/point/add`, { point: '50', mile: '-10', pointExpireDate: '2027-06-30' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ customerId: id, mile: '0', point: '150', pointExpireDate: '2027-06-30', updDateTime: AT_10_01, transactionHeadIds: [] });
      expect((await t.api('POST', `/customers/${id}/point/add`, { point: '-150' })).json()).toMatchObject({ point: '0', mile: '0' });
      expect(moves(id)).toEqual([
        ['customer_write', '100', '100', '10', '10'],
        ['manual_add', '50', '150', '-10', '0'],
        ['manual_add', '-150', '0', '0', '0'],
      ]);
    });

    it('never goes below zero: 400 naming the field, balance and movements unchanged', async () => {
      const id = await member('M1', { point: '100', mile: '3' });
      expect(problem(await t.api('POST', `/customers/${id}/point/add`, { point: '-101' }), 400).detail).toBe(
        `[point] member ${id} has 100 points; a change of -101 would leave -1, below zero`,
      );
      expect(problem(await t.api('POST', `/customers/${id}/point/add`, { point: '5', mile: '-4' }), 400).detail).toBe(
        `[mile] member ${id} has 3 miles; a change of -4 would leave -1, below zero`,
      );
      expect(problem(await t.api('POST', `/customers/${id}/point/add`, { point: '1000000000' }), 400).detail).toBe(
        '[point] must be a signed decimal string of up to 9 integer digits and no decimals',
      );
      expect(await balance(id)).toEqual({ point: '100', mile: '3', pointExpireDate: null });
      expect(moves(id)).toHaveLength(1);
    });

    it('expires points past their date first: taking is then refused (nothing written), adding starts from zero', async () => {
      const id = await member('M1', { point: '300', pointExpireDate: '2026-11-21' });
      expect(problem(await t.api('POST', `/customers/${id}/point/add`, { point: '-10' }), 400).detail).toBe(
        `[point] member ${id} has 0 points; a change of -10 would leave -10, below zero`,
      );
      expect(await balance(id)).toEqual({ point: '300', mile: '0', pointExpireDate: '2026-11-21' });
      expect((await t.api('POST', `/customers/${id}/point/add`, { point: '10' })).json()).toMatchObject({ point: '10', pointExpireDate: null });
      expect(moves(id)).toEqual([
        ['customer_write', '300', '300', '0', '0'],
        ['expire', '-300', '0', '0', '0'],
        ['manual_add', '10', '10', '0', '0'],
      ]);
    });

    it('404s an unknown member before reading the body', async () => {
      expect(problem(await t.api('POST', '/customers/999/point/add', { point: '1' }), 404).detail).toBe('[customer_id] customer 999 does not exist');
    });
  });

  describe('CustomerRepo.movePoints (for sales and other callers)', () => {
    it("moves in the caller's transaction with its cause, transaction and actor; refuses below zero unless allowed", async () => {
      const id = await member('M1', { point: '10' });
      const customers = repo();
      expect(() =>
        t.deps.writer.write(() => {
          customers.movePoints(t.contractId, id, { point: new Decimal(5) }, 'sale', { transactionHeadId: 7001 });
          throw new Error('the sale failed');
        }),
      ).toThrow('the sale failed');
      expect(moves(id)).toHaveLength(1);

      const row = customers.movePoints(t.contractId, id, { point: new Decimal(5) }, 'sale', { transactionHeadId: 7001, actor: { clientId: 'c1', staffId: '1001' } });
      expect(row.point).toBe('15');
      expect(customers.movements(t.contractId, id)[1]).toMatchObject({ cause: 'sale', transaction_head_id: 7001, client_id: 'c1', staff_id: 1001 });
      expect(() => customers.movePoints(t.contractId, id, { point: new Decimal(-16) }, 'return_cancel', { fields: { point: 'spendPoint' } })).toThrow(
        `[spendPoint] member ${id} has 15 points; a change of -16 would leave -1, below zero`,
      );
      expect(customers.movePoints(t.contractId, id, { point: new Decimal(-16) }, 'return_cancel', { allowNegative: true }).point).toBe('-1');
      // Adding to a negative balance is allowed; a zero movement records nothing.
      expect(customers.movePoints(t.contractId, id, { point: new Decimal(1) }, 'manual_add').point).toBe('0');
      expect(customers.movePoints(t.contractId, id, {}, 'manual_add').point).toBe('0');
      expect(moves(id).map((m) => m[0])).toEqual(['customer_write', 'sale', 'return_cancel', 'manual_add']);
    });
  });
});

describe('member points: the same balance sales use', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await makeFixture();
  });
  afterEach(() => f.t.close());

  it('a member sale adds to the balance the point routes set, and the add route takes from it', async () => {
    const id = (await f.create('/customers', { customerCode: 'S1', lastName: 'Mori', firstName: 'Aki', sex: '0', mailReceiveFlag: '1' })).customerId;
    expect((await f.api('PATCH', `/customers/${id}/point`, { point: '100' })).json()).toMatchObject({ point: '100' });
    const sale = await f.sale({ customerId: id, details: [line(1, '1000')] });
    expect(sale).toMatchObject({ newPoint: '10', point: '100', totalPoint: '110' });
    expect((await f.api('GET', `/customers/point?customer_id=${id}`)).json()).toMatchObject([{ point: '110' }]);
    expect(problem(await f.api('POST', `/customers/${id}/point/add`, { point: '-111' }), 400).detail).toBe(
      `[point] member ${id} has 110 points; a change of -111 would leave -1, below zero`,
    );
    expect((await f.api('POST', `/customers/${id}/point/add`, { point: '-110' })).json()).toMatchObject({ point: '0' });
    const customers = new CustomerRepo(f.t.deps.db, f.t.deps.writer, f.t.deps.ids, f.t.deps.clock);
    expect(customers.movements(f.t.contractId, id).map((m) => [m.cause, m.point_delta, m.point_after])).toEqual([
      ['manual_set', '100', '100'],
      ['sale', '10', '110'],
      ['manual_add', '-110', '0'],
    ]);
  });
});

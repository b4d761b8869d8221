import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { CustomerRepo } from '../../server/masters/customers/repo.js';
import { problem } from '../helpers/app.js';
import { line, makeFixture, type Fixture } from './transactions-fixtures.js';

const AT_10_01 = '2026-11-22T10:01:00+09:00';

describe('PATCH /transactions/{transaction_id}/customer (a member attached to a sale afterwards)', () => {
  let f: Fixture;
  let hanako: string;
  let taro: string;
  beforeEach(async () => {
    f = await makeFixture();
    const group = (await f.create('/customer_groups', { customerGroupSectionId: '1', label: 'Women' })).customerGroupId;
    hanako = (
      await f.create('/customers', {
        customerCode: 'M0001',
        lastName: 'Yamada',
        firstName: 'Hanako',
        sex: '2',
        mailReceiveFlag: '1',
        rank: 'GOLD',
        pinCode: 'PIN-1',
        customerGroupId: group,
        point: '100',
      })
    ).customerId;
    taro = (await f.create('/customers', { customerCode: 'M0002', lastName: 'Suzuki', firstName: 'Taro', sex: '1', mailReceiveFlag: '0' })).customerId;
  });
  afterEach(() => f.t.close());

  const attach = (id: string, body: unknown) => f.api('PATCH', `/transactions/${id}/customer`, body);
  const pointsOf = async (id: string) => (await f.api('GET', `/customers/${id}`)).json().point as string;
  const moves = (id: string) =>
    new CustomerRepo(f.t.deps.db, f.t.deps.writer, f.t.deps.ids, f.t.deps.clock)
      .movements(f.t.contractId, id)
      .map((m) => [m.cause, m.point_delta, m.point_after, m.transaction_head_id === null ? null : String(m.transaction_head_id)]);

  it('gives the points of the store rules once, however often the platform request is sent', async () => {
    const sale = await f.sale({ details: [line(1, '1000')] });
    expect(sale).toMatchObject({ customerId: null, newPoint: '0' });
    const id = sale.transactionHeadId as string;
    await f.advance(60_000);
    const changes: Change[] = [];
    f.t.deps.writer.onChange((c) => changes.push(c));

    const first = await attach(id, { customerId: hanako, pointUpdateDivision: '2' });
    expect(first.statusCode).toBe(200);
    const answer = first.json();
    // The same points a member sale of the same lines gets: 1000 yen at the store's 1 point per 100 yen.
    expect(answer).toMatchObject({
      transactionHeadId: id,
      customerId: hanako,
      customerRank: 'GOLD',
      customerPinCode: 'PIN-1',
      newPoint: '10',
      spendPoint: '0',
      point: '100',
      totalPoint: '110',
      total: sale.total,
      updDateTime: AT_10_01,
    });
    expect(answer.details).toHaveLength(1);
    expect(await pointsOf(hanako)).toBe('110');
    expect(moves(hanako)).toEqual([
      ['customer_write', '100', '100', null],
      ['sale_attach', '10', '110', id],
    ]);
    expect(changes.filter((c) => c.entity === 'transaction')).toEqual([{ contractId: f.t.contractId, entity: 'transaction', id, op: 'update' }]);

    // Sent again (a retry): nothing changes and the answer is the same.
    await f.advance(60_000);
    const again = await attach(id, { customerId: hanako, pointUpdateDivision: '2' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(answer);
    expect(await attach(id, { customerId: hanako, pointUpdateDivision: '1' }).then((r) => r.json())).toEqual(answer);
    expect(await pointsOf(hanako)).toBe('110');
    expect(moves(hanako)).toHaveLength(2);
    expect((await f.api('GET', `/transactions/${id}`)).json()).toEqual(answer);

    // The points now stand on the member: a return-cancel of the sale takes them back.
    expect((await f.api('POST', `/transactions/${id}/dispose`, {})).statusCode).toBe(200);
    expect(await pointsOf(hanako)).toBe('100');
  });

  it('computes the points as a member sale of the same transaction, with the sale’s own point settings', async () => {
    // 1 point per 200 yen sent by the terminal instead of the store's 1 per 100.
    const body = { pointGivingUnitPrice: '200', pointGivingUnit: '1', details: [line(1, '1000'), line(2, '500', { quantity: '2' })] };
    const memberSale = await f.sale({ ...body, customerId: taro });
    const later = await f.sale(body);
    const attached = (await attach(later.transactionHeadId, { customerId: hanako, pointUpdateDivision: '2' })).json();
    expect(Number(memberSale.newPoint)).toBeGreaterThan(0);
    expect(Number(memberSale.newPoint)).toBeLessThanOrEqual(10);
    expect(attached).toMatchObject({
      newPoint: memberSale.newPoint,
      point: '100',
      totalPoint: String(100 + Number(memberSale.newPoint)),
      pointGivingUnitPrice: '200',
    });
    expect(await pointsOf(hanako)).toBe(attached.totalPoint);
  });

  it('pointUpdateDivision 0 (the default) attaches the member without moving points', async () => {
    const id = (await f.sale({ details: [line(1, '1000')] })).transactionHeadId;
    expect((await attach(id, { customerId: hanako })).json()).toMatchObject({ customerId: hanako, customerRank: 'GOLD', newPoint: '0', point: '0', totalPoint: '0' });
    expect(await pointsOf(hanako)).toBe('100');
    expect(moves(hanako)).toHaveLength(1);
  });

  it('takes the member by customerCode too; both must name the same member', async () => {
    const id = (await f.sale({ details: [line(1, '1000')] })).transactionHeadId;
    expect(problem(await attach(id, { customerId: hanako, customerCode: 'M0002' }), 400).detail).toBe(
      `[customerCode] M0002 is the code of customer ${taro}, not of customer ${hanako}`,
    );
    expect(problem(await attach(id, { customerCode: 'NOPE' }), 400).detail).toBe('[customerCode] no customer has the code NOPE');
    expect((await attach(id, { customerCode: 'M0002', pointUpdateDivision: '2' })).json()).toMatchObject({ customerId: taro, newPoint: '10' });
  });

  describe('another member when one is attached (the reference: points move from the one to the other)', () => {
    it('1 moves what the sale actually moved from the old member to the new one', async () => {
      const sale = await f.sale({ customerId: hanako, details: [line(1, '1000')] });
      expect(await pointsOf(hanako)).toBe('110');
      const moved = (await attach(sale.transactionHeadId, { customerId: taro, pointUpdateDivision: '1' })).json();
      expect(moved).toMatchObject({ customerId: taro, customerRank: null, customerPinCode: null, customerGroupId: null, newPoint: '10', point: '0', totalPoint: '10' });
      expect([await pointsOf(hanako), await pointsOf(taro)]).toEqual(['100', '10']);
      expect(moves(hanako).slice(1)).toEqual([
        ['sale', '10', '110', sale.transactionHeadId],
        ['sale_detach', '-10', '100', sale.transactionHeadId],
      ]);
      expect(moves(taro)).toEqual([['sale_attach', '10', '10', sale.transactionHeadId]]);
    });

    it('1 on a sale that moved no points moves nothing', async () => {
      const id = (await f.sale({ details: [line(1, '1000')] })).transactionHeadId;
      expect((await attach(id, { customerId: hanako, pointUpdateDivision: '1' })).json()).toMatchObject({ customerId: hanako, newPoint: '0' });
      expect(await pointsOf(hanako)).toBe('100');
    });

    it('2 takes the old member’s points back and gives the new one the points computed for them', async () => {
      const sale = await f.sale({ customerId: taro, details: [line(1, '1000')] });
      expect(await pointsOf(taro)).toBe('10');
      expect((await attach(sale.transactionHeadId, { customerId: hanako, pointUpdateDivision: '2' })).json()).toMatchObject({
        customerId: hanako,
        newPoint: '10',
        point: '100',
        totalPoint: '110',
      });
      expect([await pointsOf(hanako), await pointsOf(taro)]).toEqual(['110', '0']);
    });

    it('0 changes the member only: the old member keeps the points, a return-cancel then moves none', async () => {
      const sale = await f.sale({ customerId: taro, details: [line(1, '1000')] });
      expect((await attach(sale.transactionHeadId, { customerId: hanako, pointUpdateDivision: '0' })).json()).toMatchObject({ customerId: hanako });
      expect([await pointsOf(hanako), await pointsOf(taro)]).toEqual(['100', '10']);
      expect((await f.api('POST', `/transactions/${sale.transactionHeadId}/dispose`, {})).statusCode).toBe(200);
      expect([await pointsOf(hanako), await pointsOf(taro)]).toEqual(['100', '10']);
    });

    it('refuses to leave a member below zero, naming pointUpdateDivision; nothing changes', async () => {
      // Hanako spent 50 points and got 10: the sale moved -40, which 1 would move onto Taro (0 points).
      const sale = await f.sale({ customerId: hanako, pointDiscount: '50', spendPoint: '50', details: [line(1, '1000')] });
      expect(await pointsOf(hanako)).toBe('60');
      expect(problem(await attach(sale.transactionHeadId, { customerId: taro, pointUpdateDivision: '1' }), 400).detail).toBe(
        `[pointUpdateDivision] member ${taro} has 0 points; a change of -${Number(sale.spendPoint) - Number(sale.newPoint)} would leave -${
          Number(sale.spendPoint) - Number(sale.newPoint)
        }, below zero`,
      );
      expect([await pointsOf(hanako), await pointsOf(taro)]).toEqual(['60', '0']);
      expect((await f.api('GET', `/transactions/${sale.transactionHeadId}`)).json().customerId).toBe(hanako);
    });
  });

  it('refuses a sale of a closed day: release the closing first', async () => {
    const closed = await f.sale({ sumDivision: '2', sumDate: '2026-11-22', details: [line(1, '1000')] });
    const id = closed.transactionHeadId;
    expect(problem(await attach(id, { customerId: hanako, pointUpdateDivision: '2' }), 400).detail).toBe(
      `[transaction_id] transaction ${id} belongs to the closed day 2026-11-22 of store ${f.store} (sumDivision 2): ` +
        `release the closing first (POST /daily_summaries/${f.store}/2026-11-22/release)`,
    );
    expect(await pointsOf(hanako)).toBe('100');
    expect((await f.api('GET', `/transactions/${id}`)).json()).toEqual(closed);
  });

  it('refuses return-cancelled sales, return-cancels, non-sales and moving points of a cancelled sale', async () => {
    const source = await f.sale({ details: [line(1, '1000')] });
    const ret = (await f.api('POST', `/transactions/${source.transactionHeadId}/dispose`, {})).json();
    expect(problem(await attach(source.transactionHeadId, { customerId: hanako }), 400).detail).toBe(
      `[transaction_id] transaction ${source.transactionHeadId} has been return-cancelled: its member can no longer change`,
    );
    expect(problem(await attach(ret.transactionHeadId, { customerId: hanako }), 400).detail).toBe(
      `[transaction_id] transaction ${ret.transactionHeadId} is a return-cancel (of transaction ${source.transactionHeadId}): its member follows the source`,
    );
    const deposit = await f.sale({ transactionHeadDivision: '2', total: '500' });
    expect(problem(await attach(deposit.transactionHeadId, { customerId: hanako }), 400).detail).toBe(
      `[transaction_id] transaction ${deposit.transactionHeadId} is not a sale (transactionHeadDivision 2): only a sale's member can be changed`,
    );
    const cancelled = await f.sale({ cancelDivision: '1', details: [line(1, '1000')] });
    expect(problem(await attach(cancelled.transactionHeadId, { customerId: hanako, pointUpdateDivision: '2' }), 400).detail).toBe(
      `[pointUpdateDivision] transaction ${cancelled.transactionHeadId} is cancelled (cancelDivision 1): it moves no points; send 0`,
    );
    expect((await attach(cancelled.transactionHeadId, { customerId: hanako })).json()).toMatchObject({ customerId: hanako, newPoint: '0' });
    expect(await pointsOf(hanako)).toBe('100');
  });

  it('404s an unknown transaction, 400s an unknown member and a bad body, needs pos.transactions:write', async () => {
    const id = (await f.sale({ details: [line(1, '1000')] })).transactionHeadId;
    expect(problem(await attach('999', { customerId: hanako }), 404).detail).toBe('[transaction_id] transaction 999 does not exist');
    expect(problem(await attach(id, { customerId: '999', pointUpdateDivision: '2' }), 400).detail).toBe('[customerId] customer 999 does not exist');
    expect(problem(await attach(id, { pointUpdateDivision: '1' }), 400).detail).toBe('[customerId] is required (or customerCode)');
    expect(problem(await attach(id, { customerId: hanako, pointUpdateDivision: '3' }), 400).detail).toBe('[pointUpdateDivision] must be one of 0, 1, 2');
    expect(problem(await attach(id, { customerId: hanako, point: '1' }), 400).detail).toBe('[point] is not a known field');
    const reader = await f.t.tokenFor({ scopes: ['pos.transactions:read', 'pos.customers:write'] });
    expect(problem(await f.t.api('PATCH', `/transactions/${id}/customer`, { customerId: hanako }, reader), 403).detail).toBe(
      '[scope] the token lacks the scope pos.transactions:write',
    );
    expect((await f.api('GET', `/transactions/${id}`)).json().customerId).toBeNull();
  });
});

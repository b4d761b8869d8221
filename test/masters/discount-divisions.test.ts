import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T0_PLUS_1MIN = '2026-11-22T10:01:00+09:00';
const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });

describe('discount divisions (値引・割引区分)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>) => {
    const res = await t.api('POST', '/discount_divisions', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, string | null> & { discountDivision: string };
  };

  it('POST registers a division with defaults and reports it', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const made = await create({ awardType: '1', discountDivisionName: 'Damaged goods' });
    expect(made).toEqual({
      discountDivision: made.discountDivision,
      awardType: '1',
      discountDivisionName: 'Damaged goods',
      displaySequence: null,
      displayFlag: '1',
      insDateTime: AT_T0,
      updDateTime: AT_T0,
    });
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'discount_division', id: made.discountDivision, op: 'insert' }]);
    expect((await t.api('GET', `/discount_divisions/${made.discountDivision}`)).json()).toEqual(made);
    expect((await create({ awardType: '2', discountDivisionName: 'Staff', displaySequence: '999', displayFlag: '0' }))).toMatchObject({
      awardType: '2',
      displaySequence: '999',
      displayFlag: '0',
    });
  });

  it('names every bad field', async () => {
    expect(problem(await t.api('POST', '/discount_divisions', {}), 400)).toEqual(bad('[awardType] is required; [discountDivisionName] is required'));
    expect(
      problem(await t.api('POST', '/discount_divisions', { awardType: '3', discountDivisionName: 'x'.repeat(86), displaySequence: '0', displayFlag: '2', discountDivision: '5' }), 400),
    ).toEqual(
      bad(
        '[awardType] must be one of 1, 2; [discountDivisionName] must be at most 85 characters; [displaySequence] must be an integer from 1 to 999; ' +
          '[displayFlag] must be one of 0, 1; [discountDivision] is not a known field',
      ),
    );
    expect(problem(await t.api('POST', '/discount_divisions', { awardType: '1', discountDivisionName: 'A', displaySequence: '1000' }), 400).detail).toBe(
      '[displaySequence] must be an integer from 1 to 999',
    );
  });

  it('GET lists with the platform filters, sort and fields', async () => {
    const a = await create({ awardType: '1', discountDivisionName: 'A', displaySequence: '3' });
    const b = await create({ awardType: '2', discountDivisionName: 'B', displaySequence: '1', displayFlag: '0' });
    const c = await create({ awardType: '2', discountDivisionName: 'C' });
    const ids = async (query: string) => ((await t.api('GET', `/discount_divisions?${query}`)).json() as { discountDivision: string }[]).map((d) => d.discountDivision);
    expect(await ids('')).toEqual([a.discountDivision, b.discountDivision, c.discountDivision]);
    expect(await ids('award_type=2')).toEqual([b.discountDivision, c.discountDivision]);
    expect(await ids('display_flag=0')).toEqual([b.discountDivision]);
    expect(await ids(`discount_division=${a.discountDivision}`)).toEqual([a.discountDivision]);
    expect(await ids('sort=displaySequence:desc&award_type=1')).toEqual([a.discountDivision]);
    expect(await ids('sort=discountDivision:desc')).toEqual([c.discountDivision, b.discountDivision, a.discountDivision]);
    expect((await t.api('GET', '/discount_divisions?fields=discountDivisionName&award_type=1')).json()).toEqual([{ discountDivisionName: 'A' }]);
    expect(problem(await t.api('GET', '/discount_divisions?award_type=3'), 400).detail).toBe('[award_type] must be one of 1, 2');
    expect(problem(await t.api('GET', '/discount_divisions?sort=awardType'), 400).detail).toMatch(/^\[sort\]/);
  });

  it('PATCH changes the keys sent (null clears the sequence); DELETE answers 204 then 404', async () => {
    const made = await create({ awardType: '1', discountDivisionName: 'A', displaySequence: '3' });
    t.clock.advance(60_000);
    const url = `/discount_divisions/${made.discountDivision}`;
    expect((await t.api('PATCH', url, { discountDivisionName: 'Renamed', displaySequence: null })).json()).toEqual({
      ...made,
      discountDivisionName: 'Renamed',
      displaySequence: null,
      updDateTime: AT_T0_PLUS_1MIN,
    });
    expect(problem(await t.api('PATCH', url, {}), 400).detail).toBe('[body] no field to update was given');
    expect(problem(await t.api('PATCH', '/discount_divisions/999999', { awardType: '2' }), 404).detail).toBe('[discount_division] discount division 999999 does not exist');
    expect((await t.api('DELETE', url)).statusCode).toBe(204);
    expect(problem(await t.api('GET', url), 404).detail).toBe(`[discount_division] discount division ${made.discountDivision} does not exist`);
  });

  it('needs pos.transactions scopes and one of the five plans', async () => {
    const readOnly = await t.tokenFor({ scopes: ['pos.transactions:read'] });
    expect((await t.api('GET', '/discount_divisions', undefined, readOnly)).statusCode).toBe(200);
    expect(problem(await t.api('POST', '/discount_divisions', { awardType: '1', discountDivisionName: 'A' }, readOnly), 403).detail).toBe(
      '[scope] the token lacks the scope pos.transactions:write',
    );
    const enterprise = await makeTestApp({ plan: 'enterprise' });
    expect(problem(await enterprise.api('GET', '/discount_divisions'), 403).detail).toBe(
      "the contract's plan enterprise cannot use GET /discount_divisions (plans: standard, premium, premium_plus, food_business, retail_business)",
    );
    await enterprise.close();
  });
});

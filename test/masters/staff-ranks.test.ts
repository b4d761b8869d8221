import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T0_PLUS_1MIN = '2026-11-22T10:01:00+09:00';
const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const LINKAGE = '[staff_rank] staff ranks cannot be changed: the contract has member head-office linkage, so head office maintains them';

describe('staff ranks (spec 2.6, 4.8)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'premium_plus' });
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>) => {
    const res = await t.api('POST', '/staff_ranks', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, string>;
  };
  const linkage = (on: boolean) => new ContractRepo(t.deps.db, t.deps.writer, t.clock).setSettings(t.contractId, { memberHeadOfficeLinkage: on });

  describe('POST /staff_ranks', () => {
    it('creates a rank with defaults; the display name falls back to the full name', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      expect(await create({ staffRank: 'R1', staffRankFullName: 'Regular' })).toEqual({
        staffRank: 'R1',
        staffRankFullName: 'Regular',
        staffRankDisplayName: 'Regular',
        displayFlag: '1',
        displaySequence: '0',
        staffDiscountRate: '0',
        useProductStaffDiscountRateDivision: '0',
        staffApplicationSellingPriceDivision: '0',
        insDateTime: AT_T0,
        updDateTime: AT_T0,
      });
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'staff_rank', id: 'R1', op: 'insert' }]);
    });

    it('stores every field as sent', async () => {
      const body = {
        staffRank: 'MGR_1',
        staffRankFullName: 'Manager',
        staffRankDisplayName: 'Mgr',
        displayFlag: '0',
        displaySequence: '-3',
        staffDiscountRate: '12.5',
        useProductStaffDiscountRateDivision: '1',
        staffApplicationSellingPriceDivision: '2',
      };
      const created = await create(body);
      expect(created).toEqual({ ...body, insDateTime: AT_T0, updDateTime: AT_T0 });
      expect((await t.api('GET', '/staff_ranks/MGR_1')).json()).toEqual(created);
    });

    it('keeps the discount rate as exact text in its shortest form, 0 to 100 with at most 2 decimals', async () => {
      for (const [given, stored] of [['05.50', '5.5'], ['100.00', '100'], ['0.01', '0.01'], ['99.99', '99.99'], ['0', '0'], ['33.3', '33.3']] as const) {
        const rank = await create({ staffRank: `R${given.replace('.', '_')}`, staffRankFullName: 'X', staffDiscountRate: given });
        expect(rank.staffDiscountRate, given).toBe(stored);
      }
      for (const rate of ['100.01', '101', '1.234', '-1', '1e2', ' 5', '5.', 'abc', '']) {
        const body = problem(await t.api('POST', '/staff_ranks', { staffRank: 'BAD', staffRankFullName: 'X', staffDiscountRate: rate }), 400);
        expect(body.detail, rate).toBe('[staffDiscountRate] must be a percentage from 0 to 100 with at most 2 decimals, like 12.5');
      }
      const number = problem(await t.api('POST', '/staff_ranks', { staffRank: 'BAD', staffRankFullName: 'X', staffDiscountRate: 10 }), 400);
      expect(number.detail).toMatch(/^\[staffDiscountRate\]/);
    });

    it('validates the code, the divisions and names every bad field', async () => {
      const res = await t.api('POST', '/staff_ranks', {
        staffRank: 'a/b',
        staffRankFullName: ' ',
        displayFlag: '2',
        displaySequence: '1.5',
        useProductStaffDiscountRateDivision: '2',
        staffApplicationSellingPriceDivision: '3',
      });
      expect(problem(res, 400)).toEqual(
        bad(
          '[staffRank] must be 1 to 20 half-width letters, digits, - or _; [staffRankFullName] must not be empty; [displayFlag] must be one of 0, 1; ' +
            '[displaySequence] must be an integer of up to 9 digits; [useProductStaffDiscountRateDivision] must be one of 0, 1; ' +
            '[staffApplicationSellingPriceDivision] must be one of 0, 1, 2',
        ),
      );
      expect(problem(await t.api('POST', '/staff_ranks', { staffRankFullName: 'X' }), 400).detail).toBe('[staffRank] is required');
      expect(problem(await t.api('POST', '/staff_ranks', { staffRank: 'X'.repeat(21), staffRankFullName: 'X' }), 400).detail).toMatch(/^\[staffRank\] must be 1 to 20/);
      expect(problem(await t.api('POST', '/staff_ranks', { staffRank: 'X', staffRankFullName: 'X', rate: '1' }), 400).detail).toBe('[rate] is not a known field');
    });

    it('refuses a duplicate code', async () => {
      await create({ staffRank: 'R1', staffRankFullName: 'Regular' });
      expect(problem(await t.api('POST', '/staff_ranks', { staffRank: 'R1', staffRankFullName: 'Other' }), 400)).toEqual(bad('[staffRank] staff rank R1 already exists'));
    });

    it('is refused under member head-office linkage', async () => {
      linkage(true);
      expect(problem(await t.api('POST', '/staff_ranks', { staffRank: 'R1', staffRankFullName: 'Regular' }), 400)).toEqual(bad(LINKAGE));
      linkage(false);
      expect((await t.api('GET', '/staff_ranks')).json()).toEqual([]);
    });
  });

  describe('GET /staff_ranks and /staff_ranks/{staff_rank}', () => {
    it('404 for an unknown rank, 400 for a malformed code', async () => {
      expect(problem(await t.api('GET', '/staff_ranks/NOPE'), 404)).toEqual({
        type: 'about:blank', title: 'Not Found', status: 404, detail: '[staff_rank] staff rank NOPE does not exist',
      });
      expect(problem(await t.api('GET', '/staff_ranks/a%20b'), 400).detail).toBe('[staff_rank] must be 1 to 20 half-width letters, digits, - or _');
    });

    it('lists in code order, sorts, filters and pages with Link', async () => {
      await create({ staffRank: 'B', staffRankFullName: 'Bee', displaySequence: '1' });
      await create({ staffRank: 'A', staffRankFullName: 'Ay', displaySequence: '3', displayFlag: '0' });
      await create({ staffRank: 'C', staffRankFullName: 'Cee', displaySequence: '2' });
      const codes = async (query: string) => ((await t.api('GET', `/staff_ranks?${query}`)).json() as { staffRank: string }[]).map((r) => r.staffRank);
      expect(await codes('')).toEqual(['A', 'B', 'C']);
      expect(await codes('sort=displaySequence')).toEqual(['B', 'C', 'A']);
      expect(await codes('sort=staffRank:desc')).toEqual(['C', 'B', 'A']);
      expect(await codes('display_flag=1')).toEqual(['B', 'C']);
      const first = await t.api('GET', '/staff_ranks?limit=2');
      expect(first.headers.link).toBe(`<http://localhost/${t.contractId}/pos/staff_ranks?limit=2&page=2>; rel="next"`);
      const second = await t.api('GET', '/staff_ranks?limit=2&page=2');
      expect((second.json() as { staffRank: string }[]).map((r) => r.staffRank)).toEqual(['C']);
      expect(second.headers.link).toBe(`<http://localhost/${t.contractId}/pos/staff_ranks?limit=2&page=1>; rel="prev"`);
      expect(problem(await t.api('GET', '/staff_ranks?sort=staffRankFullName'), 400).detail).toMatch(/^\[sort\]/);
    });
  });

  describe('PATCH /staff_ranks/{staff_rank}', () => {
    it('changes only the keys sent and answers the rank', async () => {
      await create({ staffRank: 'R1', staffRankFullName: 'Regular', staffDiscountRate: '10' });
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      t.clock.advance(60_000);
      const res = await t.api('PATCH', '/staff_ranks/R1', { staffRankDisplayName: 'Reg', staffDiscountRate: '7.25', displaySequence: '4' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        staffRank: 'R1',
        staffRankFullName: 'Regular',
        staffRankDisplayName: 'Reg',
        displayFlag: '1',
        displaySequence: '4',
        staffDiscountRate: '7.25',
        useProductStaffDiscountRateDivision: '0',
        staffApplicationSellingPriceDivision: '0',
        insDateTime: AT_T0,
        updDateTime: AT_T0_PLUS_1MIN,
      });
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'staff_rank', id: 'R1', op: 'update' }]);
      expect((await t.api('PATCH', '/staff_ranks/R1', { displayFlag: '0', useProductStaffDiscountRateDivision: '1', staffApplicationSellingPriceDivision: '1' })).json()).toMatchObject({
        displayFlag: '0', useProductStaffDiscountRateDivision: '1', staffApplicationSellingPriceDivision: '1', staffDiscountRate: '7.25',
      });
    });

    it('clearing the display name (null or "") falls back to the full name, also after a full name change', async () => {
      await create({ staffRank: 'R1', staffRankFullName: 'Regular', staffRankDisplayName: 'Reg' });
      expect((await t.api('PATCH', '/staff_ranks/R1', { staffRankDisplayName: null })).json().staffRankDisplayName).toBe('Regular');
      expect((await t.api('PATCH', '/staff_ranks/R1', { staffRankFullName: 'Regular staff' })).json().staffRankDisplayName).toBe('Regular staff');
      await t.api('PATCH', '/staff_ranks/R1', { staffRankDisplayName: 'R' });
      expect((await t.api('PATCH', '/staff_ranks/R1', { staffRankDisplayName: '' })).json().staffRankDisplayName).toBe('Regular staff');
      expect((await t.api('GET', '/staff_ranks')).json()[0].staffRankDisplayName).toBe('Regular staff');
      await t.api('PATCH', '/staff_ranks/R1', { staffRankDisplayName: 'R' });
      // Blank (spaces, an ideographic space) is unset too.
      expect((await t.api('PATCH', '/staff_ranks/R1', { staffRankDisplayName: '  \u3000' })).json().staffRankDisplayName).toBe('Regular staff');
    });

    it('400 for an empty body, unknown keys (staffRank included), a cleared full name or bad values; nothing changes', async () => {
      await create({ staffRank: 'R1', staffRankFullName: 'Regular' });
      expect(problem(await t.api('PATCH', '/staff_ranks/R1', {}), 400)).toEqual(bad('[body] no field to update was given'));
      expect(problem(await t.api('PATCH', '/staff_ranks/R1', { staffRankFullName: 'X', staffRank: 'R2' }), 400)).toEqual(bad('[staffRank] is not a known field'));
      expect(problem(await t.api('PATCH', '/staff_ranks/R1', { staffRankFullName: null }), 400)).toEqual(
        bad('[staffRankFullName] cannot be cleared; a staff rank needs a name'),
      );
      expect(problem(await t.api('PATCH', '/staff_ranks/R1', { staffDiscountRate: '150' }), 400).detail).toMatch(/^\[staffDiscountRate\]/);
      expect(problem(await t.api('PATCH', '/staff_ranks/R1', { displayFlag: null }), 400).detail).toBe('[displayFlag] must be one of 0, 1');
      expect((await t.api('GET', '/staff_ranks/R1')).json()).toMatchObject({ staffRankFullName: 'Regular', updDateTime: AT_T0 });
    });

    it('404 for an unknown rank', async () => {
      expect(problem(await t.api('PATCH', '/staff_ranks/NOPE', { staffRankFullName: 'X' }), 404).detail).toBe('[staff_rank] staff rank NOPE does not exist');
    });

    it('400 naming head-office linkage when it is on, checked before the rank exists; validation comes first', async () => {
      await create({ staffRank: 'R1', staffRankFullName: 'Regular' });
      linkage(true);
      expect(problem(await t.api('PATCH', '/staff_ranks/R1', { staffRankFullName: 'X' }), 400)).toEqual(bad(LINKAGE));
      expect(problem(await t.api('PATCH', '/staff_ranks/NOPE', { staffRankFullName: 'X' }), 400)).toEqual(bad(LINKAGE));
      expect(problem(await t.api('PATCH', '/staff_ranks/R1', { bogus: 1 }), 400).detail).toBe('[bogus] is not a known field; [body] no field to update was given');
      expect((await t.api('GET', '/staff_ranks/R1')).json().staffRankFullName).toBe('Regular');
      linkage(false);
      expect((await t.api('PATCH', '/staff_ranks/R1', { staffRankFullName: 'X' })).statusCode).toBe(200);
    });
  });
});

describe('staff rank plans', () => {
  it('PATCH is for Premium Plus, Food Business and Retail Business; the other rank routes for every plan', async () => {
    for (const plan of ['premium_plus', 'food_business', 'retail_business'] as const) {
      const t = await makeTestApp({ plan });
      await t.api('POST', '/staff_ranks', { staffRank: 'R1', staffRankFullName: 'Regular' });
      expect((await t.api('PATCH', '/staff_ranks/R1', { staffRankFullName: 'X' })).statusCode, plan).toBe(200);
      await t.close();
    }
    for (const plan of ['standard', 'premium', 'enterprise'] as const) {
      const t = await makeTestApp({ plan });
      expect((await t.api('POST', '/staff_ranks', { staffRank: 'R1', staffRankFullName: 'Regular' })).statusCode, plan).toBe(200);
      expect((await t.api('GET', '/staff_ranks')).statusCode).toBe(200);
      expect((await t.api('GET', '/staff_ranks/R1')).statusCode).toBe(200);
      expect(problem(await t.api('PATCH', '/staff_ranks/R1', { staffRankFullName: 'X' }), 403)).toEqual({
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
        detail: `the contract's plan ${plan} cannot use PATCH /staff_ranks/{staff_rank} (plans: premium_plus, food_business, retail_business)`,
      });
      await t.close();
    }
  });

  it('needs the staffs scopes', async () => {
    const t = await makeTestApp({ plan: 'premium_plus' });
    const readOnly = await t.tokenFor({ scopes: ['pos.staffs:read'] });
    expect(problem(await t.api('POST', '/staff_ranks', { staffRank: 'R1', staffRankFullName: 'R' }, readOnly), 403).detail).toBe(
      '[scope] the token lacks the scope pos.staffs:write',
    );
    const productsOnly = await t.tokenFor({ scopes: ['pos.products:read'] });
    expect(problem(await t.api('GET', '/staff_ranks', undefined, productsOnly), 403).detail).toBe('[scope] the token lacks the scope pos.staffs:read');
    await t.close();
  });
});

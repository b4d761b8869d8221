import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { DEMO_STAFF_PASSWORD, DEMO_STAFF_USERNAME, seedStaff } from '../../server/seed/demo-staff.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T0_PLUS_1MIN = '2026-11-22T10:01:00+09:00';

const DEFAULTS = {
  staffKana: null,
  gender: '9',
  birthday: null,
  postCode: null,
  address: null,
  phone: null,
  employeeClassificationId: null,
  dashboardType: 0,
  staffCode: null,
  hireDate: null,
  terminationDate: null,
  terminationReason: null,
  roleInEmployeeList: null,
  career: null,
  passCode: null,
  displaySequence: null,
  memo: null,
  adminMemo: null,
  adminFlag: false,
  foreignerFlag: false,
  stampScreenDisplayFlag: false,
  personalWebStampScreenDisplayFlag: false,
  insDateTime: AT_T0,
  updDateTime: AT_T0,
};

const FULL = {
  staffName: '山田 太郎',
  staffKana: 'ヤマダ\u3000タロー',
  gender: '0',
  birthday: '1990-02-28',
  postCode: '150-0041',
  address: '東京都渋谷区神南1-1-1',
  phone: '03-1234-5678',
  employeeClassificationId: '2',
  dashboardType: 1,
  staffCode: 'S001',
  hireDate: '2020-04-01',
  terminationDate: '2030-03-31',
  terminationReason: 'contract end',
  roleInEmployeeList: 'Store manager',
  career: 'Ten years in retail',
  passCode: '0123',
  displaySequence: 5,
  memo: 'memo',
  adminMemo: 'admin memo',
  adminFlag: true,
  foreignerFlag: false,
  stampScreenDisplayFlag: true,
  personalWebStampScreenDisplayFlag: true,
};

const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
/** PATCH /staffs errors: spec 4.4 allows type, title and detail only. */
const bare = (title: string, detail: string) => ({ type: 'about:blank', title, detail });

describe('staff (spec 2.3)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'premium' });
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>) => {
    const res = await t.api('POST', '/staffs', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown> & { staffId: string };
  };

  describe('POST /staffs', () => {
    it('creates a staff member with only a name; unset fields are null, the others have defaults', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      expect(await create({ staffName: 'Hanako' })).toEqual({ staffId: '1001', staffName: 'Hanako', ...DEFAULTS });
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'staff', id: '1001', op: 'insert' }]);
    });

    it('stores every field of 2.3 as sent', async () => {
      const created = await create(FULL);
      expect(created).toEqual({ staffId: '1001', ...FULL, insDateTime: AT_T0, updDateTime: AT_T0 });
      expect((await t.api('GET', '/staffs/1001')).json()).toEqual(created);
    });

    it('requires staffName and refuses a blank one', async () => {
      expect(problem(await t.api('POST', '/staffs', {}), 400)).toEqual(bad('[staffName] is required'));
      expect(problem(await t.api('POST', '/staffs', { staffName: '  ' }), 400).detail).toBe('[staffName] must not be empty');
      expect(problem(await t.api('POST', '/staffs', { staffName: 'x'.repeat(51) }), 400).detail).toBe('[staffName] must be at most 50 characters');
    });

    it('refuses calendar dates before 1900 (a birthday in year 0 is a typo)', async () => {
      for (const birthday of ['0000-01-01', '1899-12-31']) {
        expect(problem(await t.api('POST', '/staffs', { staffName: 'A', birthday }), 400).detail, birthday).toBe('[birthday] must be a calendar date YYYY-MM-DD from 1900');
      }
      expect((await t.api('POST', '/staffs', { staffName: 'A', birthday: '1900-01-01' })).statusCode).toBe(200);
    });

    it('validates the format of each field and names every bad one', async () => {
      const res = await t.api('POST', '/staffs', {
        staffName: 'A',
        staffKana: 'やまだ',
        gender: '2',
        birthday: '1990-02-30',
        postCode: '150 0041',
        phone: '03 1234',
        employeeClassificationId: 'x',
        dashboardType: '1',
        staffCode: 'with space',
        hireDate: '2020/04/01',
        passCode: '12345',
        displaySequence: 1.5,
        adminFlag: 'true',
      });
      expect(problem(res, 400).detail).toBe(
        '[staffKana] must be full-width katakana (ー, ・ and the full-width space allowed); [gender] must be one of 0, 1, 9; ' +
          '[birthday] must be a calendar date YYYY-MM-DD from 1900; [postCode] must be 1 to 10 half-width digits or hyphens; ' +
          '[phone] must be 1 to 20 half-width digits, hyphens, + or parentheses; [employeeClassificationId] must be 1 to 9 digits; ' +
          '[dashboardType] must be the integer 0 or 1; [staffCode] must be 1 to 20 half-width alphanumerics or symbols; ' +
          '[hireDate] must be a calendar date YYYY-MM-DD from 1900; [passCode] must be exactly 4 half-width digits; ' +
          '[displaySequence] must be an integer from 0 to 999999999; [adminFlag] must be true or false',
      );
      expect((await t.api('GET', '/staffs')).json()).toEqual([]);
    });

    it('staffKana: katakana with ー, ・ and full-width space only; not half-width kana, not spaces alone', async () => {
      expect((await create({ staffName: 'A', staffKana: 'ジョン・スミス' })).staffKana).toBe('ジョン・スミス');
      for (const kana of ['ﾔﾏﾀﾞ', 'ヤマダ タロウ', 'ヤマダ太郎', '\u3000', 'ヤ'.repeat(51)]) {
        const detail = problem(await t.api('POST', '/staffs', { staffName: 'A', staffKana: kana }), 400).detail;
        expect(detail, kana).toMatch(/^\[staffKana\] must be/);
      }
    });

    it('passCode is exactly four half-width digits', async () => {
      for (const code of ['123', '12a4', '１２３４', '']) {
        const res = await t.api('POST', '/staffs', { staffName: 'A', passCode: code });
        if (code === '') expect((res.json() as { passCode: unknown }).passCode).toBeNull();
        else expect(problem(res, 400).detail, code).toBe('[passCode] must be exactly 4 half-width digits');
      }
    });

    it('dashboardType is the integer 0 or 1 and displaySequence an integer', async () => {
      expect(problem(await t.api('POST', '/staffs', { staffName: 'A', dashboardType: 2 }), 400).detail).toBe('[dashboardType] must be the integer 0 or 1');
      expect(problem(await t.api('POST', '/staffs', { staffName: 'A', displaySequence: '3' }), 400).detail).toBe(
        '[displaySequence] must be an integer from 0 to 999999999',
      );
      expect(problem(await t.api('POST', '/staffs', { staffName: 'A', displaySequence: 1_000_000_000 }), 400).detail).toMatch(/^\[displaySequence\]/);
    });

    it('refuses a termination date before the hire date', async () => {
      const body = problem(await t.api('POST', '/staffs', { staffName: 'A', hireDate: '2024-04-01', terminationDate: '2024-03-31' }), 400);
      expect(body).toEqual(bad('[terminationDate] 2024-03-31 is before the hire date 2024-04-01'));
      expect((await create({ staffName: 'A', hireDate: '2024-04-01', terminationDate: '2024-04-01' })).terminationDate).toBe('2024-04-01');
    });

    it('staffCode is unique per contract', async () => {
      await create({ staffName: 'A', staffCode: 'S1' });
      expect(problem(await t.api('POST', '/staffs', { staffName: 'B', staffCode: 'S1' }), 400)).toEqual(
        bad('[staffCode] staff code S1 is already used by staff 1001'),
      );
      t.addContract('other', 'premium');
      const other = await t.tokenFor({ contractId: 'other' });
      const res = await t.app.inject({
        method: 'POST', url: '/other/pos/staffs', headers: { authorization: `Bearer ${other}` }, payload: { staffName: 'C', staffCode: 'S1' },
      });
      expect(res.statusCode).toBe(200);
    });

    it('refuses unknown keys, staffId included', async () => {
      expect(problem(await t.api('POST', '/staffs', { staffName: 'A', mail: 'a@b', staffId: '9' }), 400).detail).toBe(
        '[mail] is not a known field; [staffId] is not a known field',
      );
    });
  });

  describe('GET /staffs and /staffs/{staff_id}', () => {
    it('404 for an unknown id, 400 for a malformed one', async () => {
      expect(problem(await t.api('GET', '/staffs/999'), 404)).toEqual({
        type: 'about:blank', title: 'Not Found', status: 404, detail: '[staff_id] staff 999 does not exist',
      });
      expect(problem(await t.api('GET', '/staffs/abc'), 400).detail).toBe('[staff_id] must be 1 to 9 digits');
    });

    it('pages with a Link header, sorts and filters', async () => {
      await create({ staffName: 'A', staffCode: 'C3', displaySequence: 2, staffKana: 'ア' });
      await create({ staffName: 'B', staffCode: 'C1', displaySequence: 1, gender: '1', staffKana: 'ウ' });
      await create({ staffName: 'C', staffCode: 'C2', displaySequence: 3, staffKana: 'イ' });
      const names = async (query: string) => ((await t.api('GET', `/staffs?${query}`)).json() as { staffName: string }[]).map((s) => s.staffName);
      expect(await names('')).toEqual(['A', 'B', 'C']);
      expect(await names('sort=staffCode')).toEqual(['B', 'C', 'A']);
      expect(await names('sort=displaySequence:desc')).toEqual(['C', 'A', 'B']);
      expect(await names('sort=staffKana')).toEqual(['A', 'C', 'B']);
      expect(await names('sort=staffId:desc')).toEqual(['C', 'B', 'A']);
      expect(await names('staff_code=C2')).toEqual(['C']);
      expect(await names('gender=1')).toEqual(['B']);

      const first = await t.api('GET', '/staffs?limit=2');
      expect(first.json()).toHaveLength(2);
      expect(first.headers.link).toBe(`<http://localhost/${t.contractId}/pos/staffs?limit=2&page=2>; rel="next"`);
      const second = await t.api('GET', '/staffs?limit=2&page=2');
      expect((second.json() as { staffName: string }[]).map((s) => s.staffName)).toEqual(['C']);
      expect(second.headers.link).toBe(`<http://localhost/${t.contractId}/pos/staffs?limit=2&page=1>; rel="prev"`);
    });

    it('refuses unknown query parameters and sort keys', async () => {
      expect(problem(await t.api('GET', '/staffs?mail=x'), 400).detail).toBe('[mail] is not a known field');
      expect(problem(await t.api('GET', '/staffs?sort=staffName'), 400).detail).toMatch(/^\[sort\] staffName is not a sort key/);
    });
  });

  describe('PATCH /staffs/{staff_id} (spec 4.4)', () => {
    it('changes only the keys sent and answers {staffId}', async () => {
      const { staffId } = await create(FULL);
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      t.clock.advance(60_000);
      const res = await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'Taro Y', gender: '9', adminFlag: false, displaySequence: 0 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ staffId });
      expect((await t.api('GET', `/staffs/${staffId}`)).json()).toEqual({
        staffId, ...FULL, staffName: 'Taro Y', gender: '9', adminFlag: false, displaySequence: 0, insDateTime: AT_T0, updDateTime: AT_T0_PLUS_1MIN,
      });
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'staff', id: staffId, op: 'update' }]);
    });

    it('clears nullable fields with null or ""', async () => {
      const { staffId } = await create(FULL);
      const cleared = {
        staffKana: null, birthday: '', postCode: null, address: '', phone: null, employeeClassificationId: '', staffCode: null,
        hireDate: '', terminationDate: null, terminationReason: '', roleInEmployeeList: null, career: '', passCode: null,
        displaySequence: '', memo: null, adminMemo: '',
      };
      expect((await t.api('PATCH', `/staffs/${staffId}`, cleared)).statusCode).toBe(200);
      const after = (await t.api('GET', `/staffs/${staffId}`)).json() as Record<string, unknown>;
      for (const key of Object.keys(cleared)) expect(after[key], key).toBeNull();
      expect(after).toMatchObject({ staffName: FULL.staffName, gender: '0', dashboardType: 1, adminFlag: true });
    });

    it('refuses clearing a field that always has a value, with the bare error body', async () => {
      const { staffId } = await create({ staffName: 'A' });
      for (const [key, message] of [
        ['staffName', 'cannot be cleared; a staff member needs a name'],
        ['gender', 'cannot be cleared; send 9 for unselected'],
        ['dashboardType', 'cannot be cleared; send 0 or 1'],
        ['adminFlag', 'cannot be cleared; send true or false'],
      ] as const) {
        expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { [key]: null }), 400), key).toEqual(bare('Bad Request', `[${key}] ${message}`));
      }
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { staffName: '' }), 400)).toEqual(bare('Bad Request', '[staffName] must not be empty'));
    });

    it('400 for an empty body, no body, a key outside 2.3 or staffId itself; nothing changes', async () => {
      const { staffId } = await create({ staffName: 'A' });
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, {}), 400)).toEqual(bare('Bad Request', '[body] no field to update was given'));
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`), 400)).toEqual(bare('Bad Request', '[body] is required'));
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { mail: 'a@example.com' }), 400)).toEqual(
        bare('Bad Request', '[mail] is not a known field; [body] no field to update was given'),
      );
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'B', activeFlag: true }), 400)).toEqual(
        bare('Bad Request', '[activeFlag] is not a known field'),
      );
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { staffId: '5' }), 400).detail).toMatch(/^\[staffId\] is not a known field/);
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { staffKana: 'abc' }), 400).detail).toMatch(/^\[staffKana\]/);
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, [1]), 400)).not.toHaveProperty('status');
      expect((await t.api('GET', `/staffs/${staffId}`)).json()).toMatchObject({ staffName: 'A', updDateTime: AT_T0 });
    });

    it('malformed JSON is a bare 400 too', async () => {
      const { staffId } = await create({ staffName: 'A' });
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/${t.contractId}/pos/staffs/${staffId}`,
        headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
        payload: '{"staffName": ',
      });
      const body = problem(res, 400);
      expect(Object.keys(body).sort()).toEqual(['detail', 'title', 'type']);
      expect(body.title).toBe('Bad Request');
    });

    it('404 for an unknown staff, bare; 400 for a malformed id', async () => {
      expect(problem(await t.api('PATCH', '/staffs/999', { staffName: 'X' }), 404)).toEqual(bare('Not Found', '[staff_id] staff 999 does not exist'));
      expect(problem(await t.api('PATCH', '/staffs/x1', { staffName: 'X' }), 400)).toEqual(bare('Bad Request', '[staff_id] must be 1 to 9 digits'));
    });

    it('keeps hireDate ≤ terminationDate against the stored values', async () => {
      const { staffId } = await create({ staffName: 'A', hireDate: '2024-04-01' });
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { terminationDate: '2024-01-01' }), 400)).toEqual(
        bare('Bad Request', '[terminationDate] 2024-01-01 is before the hire date 2024-04-01'),
      );
      expect((await t.api('PATCH', `/staffs/${staffId}`, { hireDate: null, terminationDate: '2024-01-01' })).statusCode).toBe(200);
    });

    it('staffCode stays unique; a staff member may keep its own code', async () => {
      await create({ staffName: 'A', staffCode: 'S1' });
      const { staffId } = await create({ staffName: 'B', staffCode: 'S2' });
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { staffCode: 'S1' }), 400)).toEqual(
        bare('Bad Request', '[staffCode] staff code S1 is already used by staff 1001'),
      );
      expect((await t.api('PATCH', `/staffs/${staffId}`, { staffCode: 'S2' })).statusCode).toBe(200);
    });

    it('403 without the write scope and 401 are bare too', async () => {
      const { staffId } = await create({ staffName: 'A' });
      const readOnly = await t.tokenFor({ scopes: ['pos.staffs:read'] });
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'B' }, readOnly), 403)).toEqual(
        bare('Forbidden', '[scope] the token lacks the scope pos.staffs:write'),
      );
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'B' }, 'nope'), 401)).toEqual(
        bare('Unauthorized', 'the access token is not valid'),
      );
    });
  });
});

describe('staff plans', () => {
  it('PATCH /staffs is for Standard, Premium, Premium Plus and Enterprise; the other staff routes for every plan', async () => {
    for (const plan of ['standard', 'premium', 'premium_plus', 'enterprise'] as const) {
      const t = await makeTestApp({ plan });
      const { staffId } = (await t.api('POST', '/staffs', { staffName: 'A' })).json();
      expect((await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'B' })).statusCode, plan).toBe(200);
      await t.close();
    }
    for (const plan of ['food_business', 'retail_business'] as const) {
      const t = await makeTestApp({ plan });
      const created = await t.api('POST', '/staffs', { staffName: 'A' });
      expect(created.statusCode, plan).toBe(200);
      expect((await t.api('GET', '/staffs')).statusCode).toBe(200);
      expect((await t.api('GET', '/staffs/1001')).statusCode).toBe(200);
      expect(problem(await t.api('PATCH', '/staffs/1001', { staffName: 'B' }), 403)).toEqual(
        bare('Forbidden', `the contract's plan ${plan} cannot use PATCH /staffs/{staff_id} (plans: standard, premium, premium_plus, enterprise)`),
      );
      await t.close();
    }
  });
});

describe('demo staff seed', () => {
  it('adds three staff, three ranks and a login for S001 that can edit staff', async () => {
    const t = await makeTestApp({ plan: 'premium_plus' });
    const storeIds = [] as string[];
    for (const storeName of ['Main', 'Second']) storeIds.push((await t.api('POST', '/stores', { storeName })).json().storeId);
    const categoryIds: Record<string, string> = {};
    for (const categoryCode of ['APP', 'ACC']) categoryIds[categoryCode] = (await t.api('POST', '/categories', { categoryName: categoryCode, categoryCode })).json().categoryId;
    const counts = seedStaff(t.deps, { contractId: t.contractId, plan: 'premium_plus', storeIds: storeIds as [string, string], categoryIds });
    expect(counts).toEqual({ staffs: 3, staffLogins: 1, staffRanks: 3 });

    const staff = (await t.api('GET', '/staffs?sort=displaySequence')).json() as { staffId: string; staffCode: string }[];
    expect(staff.map((s) => s.staffCode)).toEqual(['S001', 'S002', 'S003']);
    const ranks = (await t.api('GET', '/staff_ranks?sort=displaySequence')).json() as { staffRank: string; staffRankDisplayName: string }[];
    expect(ranks.map((r) => [r.staffRank, r.staffRankDisplayName])).toEqual([['REGULAR', 'Regular staff'], ['PART', 'Part-time'], ['MANAGER', 'Manager']]);

    const { clientId, clientSecret } = t.createClient(t.contractId);
    const tokenRes = await t.app.inject({
      method: 'POST',
      url: `/app/${t.contractId}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=password&username=${DEMO_STAFF_USERNAME}&password=${DEMO_STAFF_PASSWORD}&client_id=${clientId}&client_secret=${clientSecret}`,
    });
    expect(tokenRes.statusCode).toBe(200);
    const res = await t.api('PATCH', `/staffs/${staff[1]!.staffId}`, { memo: 'from the demo manager' }, tokenRes.json().access_token);
    expect(res.statusCode).toBe(200);
    expect(await t.api('PATCH', '/staff_ranks/PART', { staffDiscountRate: '6' }).then((r) => r.statusCode)).toBe(200);
    await t.close();
  });
});

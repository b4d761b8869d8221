import { Decimal } from 'decimal.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { CustomerRepo } from '../../server/masters/customers/repo.js';
import type { Customer } from '../../server/masters/customers/schema.js';
import { seedSalesMasters } from '../../server/seed/sales-masters.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/customers';
const HANAKO = { customerCode: 'M0001', lastName: 'Yamada', firstName: 'Hanako' };
const POINT_FORMAT = 'must be a non-negative decimal string of up to 9 integer digits and no decimals';

describe('customers (members)', () => {
  let t: TestApp;
  let section1: string;
  let section2: string;
  beforeEach(async () => {
    t = await makeTestApp();
    section1 = (await t.api('POST', '/customer_groups', { customerGroupSectionId: '1', label: 'Women' })).json().customerGroupId;
    await t.api('PUT', '/customer_group_sections/2', { customerGroupSectionLabel: 'Age group' });
    section2 = (await t.api('POST', '/customer_groups', { customerGroupSectionId: '2', label: '30s' })).json().customerGroupId;
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>): Promise<Customer> => {
    const res = await t.api('POST', '/customers', body);
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const detail400 = async (method: string, path: string, body?: unknown) => problem(await t.api(method, path, body), 400).detail;
  const repo = () => new CustomerRepo(t.deps.db, t.deps.writer, t.deps.ids, t.deps.clock);

  describe('POST /customers', () => {
    it('creates an active member with no points, reports the insert', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const res = await t.api('POST', '/customers', HANAKO);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        customerId: '1001',
        customerCode: 'M0001',
        customerNo: null,
        rank: null,
        staffRank: null,
        lastName: 'Yamada',
        firstName: 'Hanako',
        lastKana: null,
        firstKana: null,
        postCode: null,
        address: null,
        phoneNumber: null,
        faxNumber: null,
        mobileNumber: null,
        mailAddress: null,
        mailAddress2: null,
        mailAddress3: null,
        companyName: null,
        departmentName: null,
        managerialPosition: null,
        sex: '0',
        birthDate: null,
        point: '0',
        mile: '0',
        pointExpireDate: null,
        lastComeDateTime: null,
        entryDate: null,
        leaveDate: null,
        pointGivingUnitPrice: null,
        pointGivingUnit: null,
        pinCode: null,
        passportNo: null,
        nationality: null,
        alphabetName: null,
        mailReceiveFlag: '1',
        note: null,
        note2: null,
        favoriteList: null,
        browsingList: null,
        status: '0',
        storeId: null,
        customerGroupId: null,
        customerGroupId2: null,
        customerGroupId3: null,
        customerGroupId4: null,
        customerGroupId5: null,
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      });
      expect(changes).toEqual([{ contractId: 'test-contract', entity: 'customer', id: '1001', op: 'insert' }]);
    });

    it('stores every field; points in their shortest form; "" leaves nullable fields unset', async () => {
      const c = await create({
        ...HANAKO,
        lastKana: 'ヤマダ',
        firstKana: 'ハナコ',
        rank: 'GOLD',
        point: '000150',
        mile: '999999999',
        customerGroupId: section1,
        customerGroupId2: section2,
        pinCode: 'PIN-0001',
        status: '1',
      });
      expect(c).toMatchObject({
        lastKana: 'ヤマダ',
        firstKana: 'ハナコ',
        rank: 'GOLD',
        point: '150',
        mile: '999999999',
        customerGroupId: section1,
        customerGroupId2: section2,
        customerGroupId3: null,
        pinCode: 'PIN-0001',
        status: '1',
      });
      expect(await create({ customerCode: 'M2', lastName: 'A', firstName: 'B', rank: '', pinCode: '', customerGroupId: '' })).toMatchObject({
        rank: null,
        pinCode: null,
        customerGroupId: null,
      });
    });

    it('refuses a duplicate customer code (exact, case-sensitive)', async () => {
      const first = await create(HANAKO);
      expect(await detail400('POST', '/customers', { ...HANAKO, lastName: 'Other' })).toBe(
        `[customerCode] customer code M0001 is already used by customer ${first.customerId}`,
      );
      expect((await create({ ...HANAKO, customerCode: 'm0001' })).customerCode).toBe('m0001');
    });

    it('refuses a customer group that does not exist or belongs to another section', async () => {
      expect(await detail400('POST', '/customers', { ...HANAKO, customerGroupId3: '999' })).toBe('[customerGroupId3] customer group 999 does not exist');
      expect(await detail400('POST', '/customers', { ...HANAKO, customerGroupId: section2 })).toBe(
        `[customerGroupId] customer group ${section2} belongs to section 2; customerGroupId takes a group of section 1`,
      );
      expect(await detail400('POST', '/customers', { ...HANAKO, customerGroupId5: section1 })).toBe(
        `[customerGroupId5] customer group ${section1} belongs to section 1; customerGroupId5 takes a group of section 5`,
      );
      t.addContract('other', 'standard');
      const otherToken = await t.tokenFor({ contractId: 'other' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/other/pos/customers',
        headers: { authorization: `Bearer ${otherToken}` },
        payload: { ...HANAKO, customerGroupId: section1 },
      });
      expect(problem(res, 400).detail).toBe(`[customerGroupId] customer group ${section1} does not exist`);
      expect((await t.api('GET', '/customers')).json()).toEqual([]);
    });

    it('validates every field', async () => {
      const bad = async (patch: Record<string, unknown>) => detail400('POST', '/customers', { ...HANAKO, ...patch });
      expect(await bad({ customerCode: undefined })).toBe('[customerCode] is required');
      expect(await bad({ customerCode: 'M 1' })).toBe('[customerCode] must be 1 to 20 half-width alphanumerics or symbols');
      expect(await bad({ customerCode: 'M'.repeat(21) })).toBe('[customerCode] must be 1 to 20 half-width alphanumerics or symbols');
      expect(await bad({ lastName: undefined })).toBe('[lastName] is required');
      expect(await bad({ firstName: ' ' })).toBe('[firstName] must not be empty');
      expect(await bad({ lastName: 'x'.repeat(31) })).toBe('[lastName] must be at most 30 characters');
      expect(await bad({ firstKana: 'ア'.repeat(31) })).toBe('[firstKana] must be at most 30 characters');
      expect(await bad({ rank: 'ゴールド' })).toBe('[rank] must be 1 to 20 half-width alphanumerics or symbols');
      expect(await bad({ point: '-1' })).toBe(`[point] ${POINT_FORMAT}`);
      expect(await bad({ point: '1.5' })).toBe(`[point] ${POINT_FORMAT}`);
      expect(await bad({ point: '1000000000' })).toBe(`[point] ${POINT_FORMAT}`);
      expect(await bad({ point: 10 })).toContain('[point]');
      expect(await bad({ mile: 'x' })).toBe(`[mile] ${POINT_FORMAT}`);
      expect(await bad({ customerGroupId2: 'a' })).toBe('[customerGroupId2] must be 1 to 9 digits');
      expect(await bad({ pinCode: 'p'.repeat(21) })).toBe('[pinCode] must be at most 20 characters');
      expect(await bad({ status: '2' })).toBe('[status] must be one of 0, 1');
      expect(await bad({ customerGroupId6: '1' })).toBe('[customerGroupId6] is not a known field');
    });

    it('needs pos.customers:write to write and pos.customers:read to read, on every plan', async () => {
      const reader = await t.tokenFor({ scopes: ['pos.customers:read'] });
      expect(problem(await t.api('POST', '/customers', HANAKO, reader), 403).detail).toBe('[scope] the token lacks the scope pos.customers:write');
      const other = await t.tokenFor({ scopes: ['pos.customers:write'] });
      expect(problem(await t.api('GET', '/customers', undefined, other), 403).detail).toBe('[scope] the token lacks the scope pos.customers:read');
      const e = await makeTestApp({ plan: 'enterprise' });
      try {
        expect((await e.api('POST', '/customers', HANAKO)).statusCode).toBe(200);
      } finally {
        await e.close();
      }
    });
  });

  describe('GET /customers', () => {
    it('filters by code, pin code, rank and status; sorts; pages with Link', async () => {
      await create({ customerCode: 'C', lastName: 'A', firstName: 'A', lastKana: 'ウ', rank: 'GOLD', pinCode: '111' });
      await create({ customerCode: 'A', lastName: 'B', firstName: 'B', lastKana: 'ア', rank: 'GOLD', status: '1' });
      await create({ customerCode: 'B', lastName: 'C', firstName: 'C', lastKana: 'イ', pinCode: '222' });
      const codes = (res: { json(): unknown }) => (res.json() as Customer[]).map((c) => c.customerCode);
      expect(codes(await t.api('GET', '/customers'))).toEqual(['C', 'A', 'B']);
      expect(codes(await t.api('GET', '/customers?customer_code=A'))).toEqual(['A']);
      expect(codes(await t.api('GET', '/customers?pin_code=222'))).toEqual(['B']);
      expect(codes(await t.api('GET', '/customers?rank=GOLD'))).toEqual(['C', 'A']);
      expect(codes(await t.api('GET', '/customers?rank=GOLD&status=0'))).toEqual(['C']);
      expect(codes(await t.api('GET', '/customers?sort=customerCode'))).toEqual(['A', 'B', 'C']);
      expect(codes(await t.api('GET', '/customers?sort=lastKana:desc'))).toEqual(['C', 'B', 'A']);
      const first = await t.api('GET', '/customers?limit=2');
      expect(codes(first)).toEqual(['C', 'A']);
      expect(first.headers.link).toBe(`<${LINK_BASE}?limit=2&page=2>; rel="next"`);
      const second = await t.api('GET', '/customers?limit=2&page=2');
      expect(codes(second)).toEqual(['B']);
      expect(second.headers.link).toBe(`<${LINK_BASE}?limit=2&page=1>; rel="prev"`);
    });

    it('refuses malformed filters and unknown parameters', async () => {
      expect(await detail400('GET', '/customers?status=x')).toBe('[status] must be one of 0, 1');
      expect(await detail400('GET', `/customers?pin_code=${'p'.repeat(21)}`)).toBe('[pin_code] must be at most 20 characters');
      expect(await detail400('GET', '/customers?sort=point')).toContain('[sort] point is not a sort key');
      expect(await detail400('GET', '/customers?name=x')).toBe('[name] is not a known field');
    });
  });

  describe('GET and PATCH /customers/{id}', () => {
    it('answers the member, 404 when absent, 400 for a malformed id', async () => {
      const c = await create(HANAKO);
      expect((await t.api('GET', `/customers/${c.customerId}`)).json()).toEqual(c);
      expect(problem(await t.api('GET', '/customers/999'), 404).detail).toBe('[customer_id] customer 999 does not exist');
      expect(await detail400('GET', '/customers/M0001')).toBe('[customer_id] must be 1 to 9 digits');
    });

    it('changes only the keys sent, clears nullable fields, reports the update', async () => {
      const c = await create({ ...HANAKO, rank: 'GOLD', pinCode: '1', customerGroupId: section1 });
      const changes: Change[] = [];
      t.deps.writer.onChange((ch) => changes.push(ch));
      t.clock.advance(60_000);
      const path = `/customers/${c.customerId}`;
      expect((await t.api('PATCH', path, { firstName: 'Hana', point: '0200', customerGroupId2: section2 })).json()).toEqual({
        ...c,
        firstName: 'Hana',
        point: '200',
        customerGroupId2: section2,
        updDateTime: AT_10_01,
      });
      expect((await t.api('PATCH', path, { rank: null, pinCode: '', customerGroupId: null, status: '1' })).json()).toMatchObject({
        rank: null,
        pinCode: null,
        customerGroupId: null,
        customerGroupId2: section2,
        status: '1',
        firstName: 'Hana',
      });
      // The point set by the first PATCH is a recorded movement, reported as a balance-only change
      // with it (sync sends the movement), beside the update of the member's other fields.
      const [movement] = repo().movements(t.contractId, c.customerId);
      expect(movement).toMatchObject({ cause: 'customer_write', point_delta: '200', point_after: '200', mile_delta: '0', client_id: expect.any(String) });
      expect(changes).toEqual([
        { contractId: 'test-contract', entity: 'customer', id: c.customerId, op: 'update' },
        { contractId: 'test-contract', entity: 'customer', id: c.customerId, op: 'update', balanceOnly: true },
        { contractId: 'test-contract', entity: 'customer_point_movement', id: String(movement!.movement_id), op: 'insert' },
        { contractId: 'test-contract', entity: 'customer', id: c.customerId, op: 'update' },
      ]);
    });

    it('keeps its own code; refuses another member\'s code and a group of the wrong section', async () => {
      const a = await create(HANAKO);
      const b = await create({ ...HANAKO, customerCode: 'M0002' });
      expect((await t.api('PATCH', `/customers/${a.customerId}`, { customerCode: 'M0001' })).statusCode).toBe(200);
      expect(await detail400('PATCH', `/customers/${b.customerId}`, { customerCode: 'M0001' })).toBe(
        `[customerCode] customer code M0001 is already used by customer ${a.customerId}`,
      );
      expect(await detail400('PATCH', `/customers/${b.customerId}`, { lastName: 'Z', customerGroupId2: section1 })).toBe(
        `[customerGroupId2] customer group ${section1} belongs to section 1; customerGroupId2 takes a group of section 2`,
      );
      expect((await t.api('GET', `/customers/${b.customerId}`)).json()).toEqual(b);
    });

    it('refuses an empty body, cleared required fields, unknown keys; 404 before the body\'s references', async () => {
      const c = await create(HANAKO);
      const path = `/customers/${c.customerId}`;
      expect(await detail400('PATCH', path, {})).toBe('[body] no field to update was given');
      expect(await detail400('PATCH', path, { lastName: '' })).toBe('[lastName] must not be empty');
      expect(await detail400('PATCH', path, { customerCode: null })).toContain('[customerCode]');
      expect(await detail400('PATCH', path, { point: null })).toContain('[point]');
      expect(await detail400('PATCH', path, { status: null })).toBe('[status] must be one of 0, 1');
      expect(await detail400('PATCH', path, { lastName: 'X', customerId: '5' })).toBe('[customerId] is not a known field');
      expect(problem(await t.api('PATCH', '/customers/999', { customerGroupId: '999' }), 404).detail).toBe('[customer_id] customer 999 does not exist');
      expect((await t.api('GET', path)).json()).toEqual(c);
    });
  });

  describe('CustomerRepo (for member sales)', () => {
    it('find answers the row with the shared-contract columns', async () => {
      const c = await create({ ...HANAKO, rank: 'GOLD', point: '10', customerGroupId: section1, customerGroupId2: section2, pinCode: 'P' });
      expect(repo().find(t.contractId, c.customerId)).toMatchObject({
        customer_id: Number(c.customerId),
        customer_code: 'M0001',
        point: '10',
        mile: '0',
        rank: 'GOLD',
        customer_group_id: Number(section1),
        customer_group_id2: Number(section2),
        customer_group_id3: null,
        pin_code: 'P',
        status: '0',
      });
      expect(repo().find(t.contractId, '999')).toBeUndefined();
      expect(repo().find('other', c.customerId)).toBeUndefined();
    });

    it('addPoints adds exact decimals, may go negative and beyond 9 digits, bumps updDateTime and reports the change', async () => {
      const c = await create({ ...HANAKO, point: '999999999', mile: '5' });
      const changes: Change[] = [];
      t.deps.writer.onChange((ch) => changes.push(ch));
      t.clock.advance(60_000);
      t.deps.writer.write(() => repo().addPoints(t.contractId, c.customerId, new Decimal(1), new Decimal('-7.5')));
      expect((await t.api('GET', `/customers/${c.customerId}`)).json()).toMatchObject({ point: '1000000000', mile: '-2.5', updDateTime: AT_10_01 });
      const moved = repo().movements(t.contractId, c.customerId);
      expect(moved.map((m) => [m.cause, m.point_delta, m.point_after, m.mile_delta, m.mile_after])).toEqual([
        ['customer_write', '999999999', '999999999', '5', '5'],
        ['sale', '1', '1000000000', '-7.5', '-2.5'],
      ]);
      expect(changes).toEqual([
        { contractId: 'test-contract', entity: 'customer', id: c.customerId, op: 'update', balanceOnly: true },
        { contractId: 'test-contract', entity: 'customer_point_movement', id: String(moved[1]!.movement_id), op: 'insert' },
      ]);

      t.deps.writer.write(() => repo().addPoints(t.contractId, c.customerId, new Decimal('-1000000000.1'), new Decimal('2.5')));
      expect(repo().find(t.contractId, c.customerId)).toMatchObject({ point: '-0.1', mile: '0' });
      // a member PATCH still sets points within the direct-entry format
      expect((await t.api('PATCH', `/customers/${c.customerId}`, { point: '0' })).json()).toMatchObject({ point: '0', mile: '0' });
    });

    it('addPoints leaves an unknown member alone and joins the caller\'s transaction', async () => {
      const c = await create(HANAKO);
      const changes: Change[] = [];
      t.deps.writer.onChange((ch) => changes.push(ch));
      t.deps.writer.write(() => repo().addPoints(t.contractId, '999', new Decimal(5), new Decimal(5)));
      expect(changes).toEqual([]);
      expect(() =>
        t.deps.writer.write(() => {
          repo().addPoints(t.contractId, c.customerId, new Decimal(5), new Decimal(0));
          throw new Error('the sale failed');
        }),
      ).toThrow('the sale failed');
      expect(repo().find(t.contractId, c.customerId)).toMatchObject({ point: '0', mile: '0' });
    });
  });
});

describe('customers: the platform customer fields', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  // What a platform client sends on registration: sex and mailReceiveFlag always, mailAddress when it has one.
  const PLATFORM_CREATE = {
    customerCode: 'C0001',
    lastName: '山田',
    firstName: '花子',
    lastKana: 'ヤマダ',
    firstKana: 'ハナコ',
    sex: '2',
    mailReceiveFlag: '0',
    mailAddress: 'hanako@example.jp',
    phoneNumber: '03-1234-5678',
    postCode: '150-0001',
    address: '東京都渋谷区神南1-1-1',
    birthDate: '1990-05-28',
    entryDate: '2026-11-22',
  };
  const detail400 = async (method: string, path: string, body?: unknown) => problem(await t.api(method, path, body), 400).detail;

  it('stores and answers the exact registration a platform client sends', async () => {
    const res = await t.api('POST', '/customers', PLATFORM_CREATE);
    expect(res.statusCode).toBe(200);
    const created = res.json() as Customer;
    expect(created).toMatchObject({ ...PLATFORM_CREATE, customerId: '1001', point: '0', mile: '0', status: '0', mailAddress2: null });
    expect((await t.api('GET', `/customers/${created.customerId}`)).json()).toEqual(created);
    expect((await t.api('GET', '/customers?customer_code=C0001')).json()).toEqual([created]);
  });

  it('takes sex and mailReceiveFlag on every update, mailAddress when sent; "" clears it', async () => {
    const { customerId } = (await t.api('POST', '/customers', PLATFORM_CREATE)).json() as Customer;
    const path = `/customers/${customerId}`;
    expect((await t.api('PATCH', path, { firstName: 'Hana', sex: '1', mailReceiveFlag: '1' })).json()).toMatchObject({
      firstName: 'Hana',
      sex: '1',
      mailReceiveFlag: '1',
      mailAddress: 'hanako@example.jp',
    });
    expect((await t.api('PATCH', path, { sex: '0', mailReceiveFlag: '0', mailAddress: 'hana@example.jp' })).json()).toMatchObject({
      sex: '0',
      mailReceiveFlag: '0',
      mailAddress: 'hana@example.jp',
    });
    expect((await t.api('PATCH', path, { sex: '0', mailReceiveFlag: '0', mailAddress: '', mailAddress2: '' })).json()).toMatchObject({
      mailAddress: null,
      mailAddress2: null,
    });
  });

  it('stores every field of the reference; the point giving unit in its shortest form; the store by id', async () => {
    const store = (await t.api('POST', '/stores', { storeName: 'Main' })).json().storeId;
    const all = {
      customerCode: 'C2',
      customerNo: 'No 0002',
      rank: 'GOLD',
      staffRank: 'A',
      lastName: 'Sato',
      firstName: 'Ken',
      lastKana: 'サトウ',
      firstKana: 'ケン',
      postCode: '100-0001',
      address: 'Chiyoda 1-1',
      phoneNumber: '03-0000-0000',
      faxNumber: '03-0000-0001',
      mobileNumber: '090-0000-0000',
      mailAddress: 'ken@example.jp',
      mailAddress2: 'ken2@example.jp',
      mailAddress3: 'ken3@example.jp',
      companyName: 'Sato Trading',
      departmentName: 'Sales',
      managerialPosition: 'Manager',
      sex: '1',
      birthDate: '1985-01-31',
      pointExpireDate: '2027-12-31',
      entryDate: '2020-04-01',
      leaveDate: '2030-03-31',
      pointGivingUnitPrice: '0200',
      pointGivingUnit: '1.50',
      pinCode: 'PIN2',
      passportNo: 'TK1234567',
      nationality: 'Japan',
      alphabetName: 'Ken Sato',
      mailReceiveFlag: '1',
      note: 'prefers cash',
      note2: 'second note',
      favoriteList: 'P1,P2',
      browsingList: 'P3',
      status: '1',
      storeId: store,
    };
    const c = (await t.api('POST', '/customers', all)).json() as Customer;
    expect(c).toMatchObject({ ...all, pointGivingUnitPrice: '200', pointGivingUnit: '1.5', lastComeDateTime: null });
    expect((await t.api('GET', '/customers?customer_no=No%200002&sort=customerNo')).json()).toEqual([c]);
    // Nullable fields are cleared by null or "", each alone.
    const cleared = (await t.api('PATCH', `/customers/${c.customerId}`, { companyName: null, storeId: '', birthDate: null, pointGivingUnitPrice: null, pointGivingUnit: '' })).json();
    expect(cleared).toMatchObject({ companyName: null, storeId: null, birthDate: null, pointGivingUnitPrice: null, pointGivingUnit: null, note: 'prefers cash' });
  });

  it('validates the new fields', async () => {
    const bad = async (patch: Record<string, unknown>) => detail400('POST', '/customers', { ...PLATFORM_CREATE, ...patch });
    expect(await bad({ sex: '3' })).toBe('[sex] must be one of 0, 1, 2');
    expect(await bad({ sex: 2 })).toBe('[sex] must be one of 0, 1, 2');
    expect(await bad({ mailReceiveFlag: '2' })).toBe('[mailReceiveFlag] must be one of 0, 1');
    expect(await bad({ birthDate: '1990-02-30' })).toBe('[birthDate] must be a calendar date YYYY-MM-DD from 1900');
    expect(await bad({ pointExpireDate: '2027/01/01' })).toBe('[pointExpireDate] must be a calendar date YYYY-MM-DD from 1900');
    expect(await bad({ phoneNumber: '０３-１２３４' })).toBe('[phoneNumber] must be 1 to 20 half-width characters');
    expect(await bad({ customerNo: 'x'.repeat(21) })).toBe('[customerNo] must be 1 to 20 half-width characters');
    expect(await bad({ mailAddress: `${'m'.repeat(251)}@ex.jp` })).toBe('[mailAddress] must be at most 256 characters');
    expect(await bad({ postCode: '1'.repeat(11) })).toBe('[postCode] must be at most 10 characters');
    expect(await bad({ companyName: '会'.repeat(86) })).toBe('[companyName] must be at most 85 characters');
    expect(await bad({ pointGivingUnitPrice: '100' })).toBe(
      "[pointGivingUnit] is required when pointGivingUnitPrice is set (a member's own point giving unit is both values or neither)",
    );
    expect(await bad({ pointGivingUnitPrice: '0', pointGivingUnit: '1' })).toBe('[pointGivingUnitPrice] must be from 1 to 99999');
    expect(await bad({ pointGivingUnitPrice: '100', pointGivingUnit: '1.555' })).toBe(
      '[pointGivingUnit] must be a non-negative decimal string of up to 5 integer digits and up to 2 decimals',
    );
    expect(await bad({ storeId: '999' })).toBe('[storeId] store 999 does not exist');
    expect(await bad({ lastComeDateTime: '2026-11-22T10:00:00+09:00' })).toBe('[lastComeDateTime] is not a known field');
    const { customerId } = (await t.api('POST', '/customers', PLATFORM_CREATE)).json() as Customer;
    expect(await detail400('PATCH', `/customers/${customerId}`, { sex: null })).toBe('[sex] must be one of 0, 1, 2');
    expect(await detail400('PATCH', `/customers/${customerId}`, { pointGivingUnit: '1' })).toBe(
      "[pointGivingUnitPrice] is required when pointGivingUnit is set (a member's own point giving unit is both values or neither)",
    );
    expect((await t.api('GET', `/customers/${customerId}`)).json()).toMatchObject({ sex: '2', pointGivingUnit: null });
  });
});

describe('seedSalesMasters (demo data)', () => {
  it('adds two members, four payment methods in one group and a bundle group, all valid through the API', async () => {
    const t = await makeTestApp();
    try {
      const women = (await t.api('POST', '/customer_groups', { customerGroupSectionId: '1', label: 'Women' })).json().customerGroupId;
      const counts = seedSalesMasters(t.deps, { contractId: t.contractId, plan: 'retail_business', storeIds: ['1', '2'], categoryIds: {} });
      expect(counts).toEqual({ customers: 2, paymentMethodGroups: 1, paymentMethods: 4, productBundleGroups: 1 });

      const members = (await t.api('GET', '/customers')).json() as Customer[];
      expect(members.map((m) => [m.customerCode, m.point, m.customerGroupId, m.customerGroupId2])).toEqual([
        ['M0001', '1250', women, null], // no section-2 "30s" group in this contract: left unset
        ['M0002', '0', null, null],
      ]);
      const [group] = (await t.api('GET', '/payment_method_groups')).json();
      const methods = (await t.api('GET', '/payment_methods?sort=displaySequence')).json() as Record<string, unknown>[];
      expect(methods.map((m) => [m.paymentMethodCode, m.paymentUnitPrice, m.paymentChangeFlag, m.paymentSecuritiesFlag, m.individualApplicationFlag])).toEqual([
        ['VOUCHER500', '500', '1', '0', '0'],
        ['CARD', null, '0', '0', '1'],
        ['QR', null, '0', '0', '0'],
        ['GIFT', null, '0', '1', '0'],
      ]);
      expect(new Set(methods.map((m) => m.paymentMethodGroupId))).toEqual(new Set([group.paymentMethodGroupId]));
      expect((await t.api('GET', '/product_bundle_groups')).json()).toMatchObject([{ division: '1', quantity: '3', value: '1000' }]);
    } finally {
      await t.close();
    }
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { PaymentMethodRepo } from '../../server/masters/payment-methods/repo.js';
import type { PaymentMethod } from '../../server/masters/payment-methods/schema.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/payment_methods';
const READ_ONLY = '[individualApplicationFlag] is read-only: it is 1 only for methods registered with POST /payment_methods/individual_application and never changes';

const VOUCHER = { paymentMethodCode: 'VOUCHER500', paymentMethodName: 'Voucher 500', paymentDivision: '1', paymentUnitPrice: '500' };

describe('payment methods', () => {
  let t: TestApp;
  let groupId: string;
  beforeEach(async () => {
    t = await makeTestApp();
    groupId = (await t.api('POST', '/payment_method_groups', { paymentMethodGroupName: 'Cashless' })).json().paymentMethodGroupId;
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>, path = '/payment_methods'): Promise<PaymentMethod> => {
    const res = await t.api('POST', path, body);
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const detail400 = async (method: string, path: string, body?: unknown) => problem(await t.api(method, path, body), 400).detail;

  describe('POST /payment_methods', () => {
    it('creates a method with the defaults, individualApplicationFlag 0, and reports the insert', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const res = await t.api('POST', '/payment_methods', { paymentMethodCode: 'QR', paymentMethodName: 'QR code', paymentDivision: '4' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        paymentMethodId: '1001',
        paymentMethodCode: 'QR',
        paymentMethodName: 'QR code',
        paymentDivision: '4',
        paymentUnitPrice: null,
        paymentChangeFlag: '0',
        paymentSecuritiesFlag: '0',
        individualApplicationFlag: '0',
        paymentMethodGroupId: null,
        displaySequence: null,
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      });
      expect(changes).toEqual([{ contractId: 'test-contract', entity: 'payment_method', id: '1001', op: 'insert' }]);
    });

    it('stores every field; the unit price in its shortest exact form', async () => {
      const m = await create({
        ...VOUCHER,
        paymentUnitPrice: '0500.500',
        paymentChangeFlag: '1',
        paymentSecuritiesFlag: '1',
        paymentMethodGroupId: groupId,
        displaySequence: '03',
      });
      expect(m).toMatchObject({
        paymentUnitPrice: '500.5',
        paymentChangeFlag: '1',
        paymentSecuritiesFlag: '1',
        paymentMethodGroupId: groupId,
        displaySequence: '3',
      });
      expect((await create({ ...VOUCHER, paymentMethodCode: 'V2', paymentUnitPrice: '', paymentMethodGroupId: null })).paymentUnitPrice).toBeNull();
    });

    it('refuses a duplicate code, also across the two registration operations', async () => {
      const first = await create(VOUCHER);
      const dup = `[paymentMethodCode] payment method code VOUCHER500 is already used by payment method ${first.paymentMethodId}`;
      expect(await detail400('POST', '/payment_methods', VOUCHER)).toBe(dup);
      expect(await detail400('POST', '/payment_methods/individual_application', VOUCHER)).toBe(dup);
      // codes compare exactly: another case is another code
      expect((await create({ ...VOUCHER, paymentMethodCode: 'voucher500' })).paymentMethodCode).toBe('voucher500');
    });

    it('refuses a group that does not exist', async () => {
      expect(await detail400('POST', '/payment_methods', { ...VOUCHER, paymentMethodGroupId: '999' })).toBe(
        '[paymentMethodGroupId] payment method group 999 does not exist',
      );
    });

    it('validates every field', async () => {
      const bad = async (patch: Record<string, unknown>) => detail400('POST', '/payment_methods', { ...VOUCHER, ...patch });
      expect(await bad({ paymentMethodCode: undefined })).toBe('[paymentMethodCode] is required');
      expect(await bad({ paymentMethodCode: 'CARD-1' })).toBe('[paymentMethodCode] must be 1 to 20 half-width alphanumerics (A-Z, a-z, 0-9)');
      expect(await bad({ paymentMethodCode: 'Ａ1' })).toBe('[paymentMethodCode] must be 1 to 20 half-width alphanumerics (A-Z, a-z, 0-9)');
      expect(await bad({ paymentMethodCode: 'A'.repeat(21) })).toBe('[paymentMethodCode] must be 1 to 20 half-width alphanumerics (A-Z, a-z, 0-9)');
      expect((await create({ ...VOUCHER, paymentMethodCode: 'A'.repeat(20) })).paymentMethodCode).toBe('A'.repeat(20));
      expect(await bad({ paymentMethodName: undefined })).toBe('[paymentMethodName] is required');
      expect(await bad({ paymentMethodName: 'x'.repeat(86) })).toBe('[paymentMethodName] must be at most 85 characters');
      expect(await bad({ paymentDivision: undefined })).toBe('[paymentDivision] is required');
      expect(await bad({ paymentDivision: '100' })).toBe('[paymentDivision] must be 1 to 2 digits');
      expect(await bad({ paymentUnitPrice: '0' })).toBe('[paymentUnitPrice] must be greater than 0; send null for no unit price');
      expect(await bad({ paymentUnitPrice: '0.000' })).toBe('[paymentUnitPrice] must be greater than 0; send null for no unit price');
      expect(await bad({ paymentUnitPrice: '-5' })).toBe(
        '[paymentUnitPrice] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals',
      );
      expect(await bad({ paymentUnitPrice: 500 })).toContain('[paymentUnitPrice]');
      expect(await bad({ paymentUnitPrice: '1.2345' })).toBe(
        '[paymentUnitPrice] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals',
      );
      expect(await bad({ paymentChangeFlag: '2' })).toBe('[paymentChangeFlag] must be one of 0, 1');
      expect(await bad({ paymentSecuritiesFlag: 1 })).toBe('[paymentSecuritiesFlag] must be one of 0, 1');
      expect(await bad({ paymentMethodGroupId: 'g' })).toBe('[paymentMethodGroupId] must be 1 to 9 digits');
      expect(await bad({ displaySequence: 'x' })).toBe('[displaySequence] must be an integer of up to 9 digits');
      expect(await bad({ individualApplicationFlag: '1' })).toBe(READ_ONLY);
      expect(await bad({ individualApplicationFlag: '0' })).toBe(READ_ONLY);
      expect(await bad({ denominationCode: 'CREDIT' })).toBe('[denominationCode] is not a known field');
    });

    it('needs pos.transactions:write to write and pos.transactions:read to read, on every plan', async () => {
      const reader = await t.tokenFor({ scopes: ['pos.transactions:read'] });
      for (const path of ['/payment_methods', '/payment_methods/individual_application']) {
        expect(problem(await t.api('POST', path, VOUCHER, reader), 403).detail).toBe('[scope] the token lacks the scope pos.transactions:write');
      }
      const other = await t.tokenFor({ scopes: ['pos.transactions:write'] });
      expect(problem(await t.api('GET', '/payment_methods', undefined, other), 403).detail).toBe('[scope] the token lacks the scope pos.transactions:read');
      const e = await makeTestApp({ plan: 'enterprise' });
      try {
        expect((await e.api('POST', '/payment_methods', VOUCHER)).statusCode).toBe(200);
        expect((await e.api('POST', '/payment_methods/individual_application', { ...VOUCHER, paymentMethodCode: 'CARD' })).statusCode).toBe(200);
      } finally {
        await e.close();
      }
    });
  });

  describe('POST /payment_methods/individual_application', () => {
    it('registers the method with individualApplicationFlag 1, the same body and rules', async () => {
      const card = await create(
        { paymentMethodCode: 'CARD', paymentMethodName: 'Credit card', paymentDivision: '2', paymentMethodGroupId: groupId },
        '/payment_methods/individual_application',
      );
      expect(card).toMatchObject({ paymentMethodCode: 'CARD', individualApplicationFlag: '1', paymentChangeFlag: '0', paymentMethodGroupId: groupId });
      expect((await t.api('GET', `/payment_methods/${card.paymentMethodId}`)).json()).toEqual(card);
      expect(await detail400('POST', '/payment_methods/individual_application', { ...VOUCHER, individualApplicationFlag: '1' })).toBe(READ_ONLY);
      expect(await detail400('POST', '/payment_methods/individual_application', { ...VOUCHER, paymentMethodGroupId: '999' })).toBe(
        '[paymentMethodGroupId] payment method group 999 does not exist',
      );
    });

    it('is the master the transactions read through PaymentMethodRepo.find', async () => {
      const card = await create({ ...VOUCHER, paymentMethodGroupId: groupId }, '/payment_methods/individual_application');
      const repo = new PaymentMethodRepo(t.deps.db, t.deps.writer, t.deps.ids, t.deps.clock);
      expect(repo.find(t.contractId, card.paymentMethodId)).toMatchObject({
        payment_method_id: Number(card.paymentMethodId),
        payment_method_code: 'VOUCHER500',
        payment_method_name: 'Voucher 500',
        payment_division: '1',
        payment_unit_price: '500',
        payment_change_flag: '0',
        payment_securities_flag: '0',
        individual_application: '1',
        payment_method_group_id: Number(groupId),
      });
      expect(repo.find(t.contractId, '999')).toBeUndefined();
      expect(repo.find('other', card.paymentMethodId)).toBeUndefined();
    });
  });

  describe('GET /payment_methods', () => {
    it('filters by code, division, group and flag; sorts; pages with Link', async () => {
      await create({ ...VOUCHER, displaySequence: '3' });
      await create({ paymentMethodCode: 'CARD', paymentMethodName: 'Card', paymentDivision: '2', paymentMethodGroupId: groupId, displaySequence: '1' }, '/payment_methods/individual_application');
      await create({ paymentMethodCode: 'QR', paymentMethodName: 'QR', paymentDivision: '4', paymentMethodGroupId: groupId, displaySequence: '2' });
      const codes = (res: { json(): unknown }) => (res.json() as PaymentMethod[]).map((m) => m.paymentMethodCode);
      expect(codes(await t.api('GET', '/payment_methods'))).toEqual(['VOUCHER500', 'CARD', 'QR']);
      expect(codes(await t.api('GET', '/payment_methods?payment_method_code=QR'))).toEqual(['QR']);
      expect(codes(await t.api('GET', '/payment_methods?payment_division=2'))).toEqual(['CARD']);
      expect(codes(await t.api('GET', `/payment_methods?payment_method_group_id=${groupId}`))).toEqual(['CARD', 'QR']);
      expect(codes(await t.api('GET', '/payment_methods?individual_application_flag=1'))).toEqual(['CARD']);
      expect(codes(await t.api('GET', '/payment_methods?individual_application_flag=0'))).toEqual(['VOUCHER500', 'QR']);
      expect(codes(await t.api('GET', '/payment_methods?sort=displaySequence'))).toEqual(['CARD', 'QR', 'VOUCHER500']);
      expect(codes(await t.api('GET', '/payment_methods?sort=paymentMethodCode:desc'))).toEqual(['VOUCHER500', 'QR', 'CARD']);
      const first = await t.api('GET', '/payment_methods?limit=2');
      expect(codes(first)).toEqual(['VOUCHER500', 'CARD']);
      expect(first.headers.link).toBe(`<${LINK_BASE}?limit=2&page=2>; rel="next"`);
      expect(codes(await t.api('GET', '/payment_methods?limit=2&page=2'))).toEqual(['QR']);
    });

    it('refuses malformed filters and unknown parameters', async () => {
      expect(await detail400('GET', '/payment_methods?payment_method_group_id=x')).toBe('[payment_method_group_id] must be 1 to 9 digits');
      expect(await detail400('GET', '/payment_methods?individual_application_flag=2')).toBe('[individual_application_flag] must be one of 0, 1');
      expect(await detail400('GET', '/payment_methods?limit=1001')).toBe('[limit] limit must be at most 1000');
      expect(await detail400('GET', '/payment_methods?code=x')).toBe('[code] is not a known field');
    });
  });

  describe('GET and PATCH /payment_methods/{id}', () => {
    it('answers the method, 404 when absent, 400 for a malformed id', async () => {
      const m = await create(VOUCHER);
      expect((await t.api('GET', `/payment_methods/${m.paymentMethodId}`)).json()).toEqual(m);
      expect(problem(await t.api('GET', '/payment_methods/999'), 404).detail).toBe('[payment_method_id] payment method 999 does not exist');
      expect(await detail400('GET', '/payment_methods/individual_application')).toBe('[payment_method_id] must be 1 to 9 digits');
    });

    it('changes only the keys sent, clears nullable fields, reports the update', async () => {
      const m = await create({ ...VOUCHER, paymentMethodGroupId: groupId, displaySequence: '1' });
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      t.clock.advance(60_000);
      const path = `/payment_methods/${m.paymentMethodId}`;
      const res = await t.api('PATCH', path, { paymentMethodName: 'Voucher', paymentUnitPrice: '1000.0', paymentChangeFlag: '1', paymentMethodCode: 'V1000' });
      expect(res.json()).toEqual({
        ...m,
        paymentMethodCode: 'V1000',
        paymentMethodName: 'Voucher',
        paymentUnitPrice: '1000',
        paymentChangeFlag: '1',
        updDateTime: AT_10_01,
      });
      expect((await t.api('PATCH', path, { paymentUnitPrice: null, paymentMethodGroupId: '', displaySequence: null })).json()).toMatchObject({
        paymentUnitPrice: null,
        paymentMethodGroupId: null,
        displaySequence: null,
        paymentMethodName: 'Voucher',
      });
      expect(changes).toEqual([
        { contractId: 'test-contract', entity: 'payment_method', id: m.paymentMethodId, op: 'update' },
        { contractId: 'test-contract', entity: 'payment_method', id: m.paymentMethodId, op: 'update' },
      ]);
    });

    it('keeps its own code; refuses another method\'s code, a missing group and the read-only flag', async () => {
      const a = await create(VOUCHER);
      const b = await create({ ...VOUCHER, paymentMethodCode: 'B' }, '/payment_methods/individual_application');
      expect((await t.api('PATCH', `/payment_methods/${a.paymentMethodId}`, { paymentMethodCode: 'VOUCHER500' })).statusCode).toBe(200);
      expect(await detail400('PATCH', `/payment_methods/${b.paymentMethodId}`, { paymentMethodCode: 'VOUCHER500' })).toBe(
        `[paymentMethodCode] payment method code VOUCHER500 is already used by payment method ${a.paymentMethodId}`,
      );
      expect(await detail400('PATCH', `/payment_methods/${b.paymentMethodId}`, { paymentMethodGroupId: '999' })).toBe(
        '[paymentMethodGroupId] payment method group 999 does not exist',
      );
      expect(await detail400('PATCH', `/payment_methods/${b.paymentMethodId}`, { individualApplicationFlag: '0' })).toBe(READ_ONLY);
      expect(await detail400('PATCH', `/payment_methods/${a.paymentMethodId}`, { individualApplicationFlag: '1', paymentMethodName: 'X' })).toBe(READ_ONLY);
      expect((await t.api('GET', `/payment_methods/${b.paymentMethodId}`)).json()).toEqual(b);
      expect((await t.api('GET', `/payment_methods/${a.paymentMethodId}`)).json()).toMatchObject({ individualApplicationFlag: '0', paymentMethodName: 'Voucher 500' });
    });

    it('refuses an empty body, cleared required fields, unknown keys; 404 before the body\'s references', async () => {
      const m = await create(VOUCHER);
      const path = `/payment_methods/${m.paymentMethodId}`;
      expect(await detail400('PATCH', path, {})).toBe('[body] no field to update was given');
      expect(await detail400('PATCH', path, { paymentMethodName: '' })).toBe('[paymentMethodName] must not be empty');
      expect(await detail400('PATCH', path, { paymentDivision: null })).toContain('[paymentDivision]');
      expect(await detail400('PATCH', path, { paymentMethodCode: null })).toContain('[paymentMethodCode]');
      expect(await detail400('PATCH', path, { paymentChangeFlag: null })).toBe('[paymentChangeFlag] must be one of 0, 1');
      expect(await detail400('PATCH', path, { paymentMethodName: 'X', cardCompanyName: 'Y' })).toBe('[cardCompanyName] is not a known field');
      expect(problem(await t.api('PATCH', '/payment_methods/999', { paymentMethodGroupId: '999' }), 404).detail).toBe(
        '[payment_method_id] payment method 999 does not exist',
      );
      expect((await t.api('GET', path)).json()).toEqual(m);
    });
  });
});

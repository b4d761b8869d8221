import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FOUR_BYTE_MESSAGE, hasFourByteChar, INVISIBLE_MESSAGE, isInvisibleOnly, nameCharacterProblem } from '../../server/domain/text-rules.js';
import type { Plan } from '../../server/domain/plans.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const badRequest = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const notAllowed = (detail: string) => ({ type: 'about:blank', title: 'Method Not Allowed', status: 405, detail });

describe('name character rules (domain)', () => {
  it('finds 4-byte UTF-8 characters', () => {
    expect(hasFourByteChar('山田 太郎')).toBe(false);
    expect(hasFourByteChar('ヤマダ\uFFFF')).toBe(false);
    expect(hasFourByteChar('Taro😀')).toBe(true);
    expect(hasFourByteChar('𠮷野')).toBe(true); // CJK Extension B is 4 bytes too
  });

  it('finds text made only of invisible characters', () => {
    for (const s of ['', ' ', '\u3000\u3000', '\t\n', '\u200B', '\u200C\u200D', '\uFEFF', '\u2060', '\u0001', '\uFE0F', '\u00AD', '\u3164', ' \u200B\u3000']) {
      expect(isInvisibleOnly(s), JSON.stringify(s)).toBe(true);
    }
    for (const s of ['a', ' a ', '山田\u3000太郎', '\u200Bx', '-']) expect(isInvisibleOnly(s), s).toBe(false);
  });

  it('gives the message of the first broken rule', () => {
    expect(nameCharacterProblem('山田')).toBeNull();
    expect(nameCharacterProblem('🍣')).toBe(FOUR_BYTE_MESSAGE);
    expect(nameCharacterProblem('\u3000')).toBe(INVISIBLE_MESSAGE);
  });
});

describe('reservations', () => {
  let t: TestApp;
  let storeId: string;
  let tables: string[];
  let staffId: string;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'food_business' });
    storeId = (await t.api('POST', '/stores', { storeName: 'Bistro' })).json().storeId;
    tables = [];
    for (const name of ['T1', 'T2', 'T3']) tables.push((await t.api('POST', '/tables', { storeId, name })).json().tableId);
    const staff = await t.api('POST', '/staffs', { staffName: 'Sato Hanako' });
    if (staff.statusCode !== 200) throw new Error(staff.body);
    staffId = staff.json().staffId;
  });
  afterEach(() => t.close());

  const base = () => ({ storeId, startAt: '2026-12-01T18:00:00+09:00', endAt: '2026-12-01T20:00:00+09:00', persons: { adults: 2, children: 1 } });
  const create = async (body: Record<string, unknown> = {}) => {
    const res = await t.api('POST', '/reservations', { ...base(), ...body });
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.body}`);
    return res.json() as { id: string } & Record<string, unknown>;
  };
  const patch = (id: string, body: unknown) => t.api('PATCH', `/reservations/${id}`, body);
  const read = async (id: string) => (await t.api('GET', `/reservations/${id}`)).json();

  it('applies the 4.13 rules on POST too: duplicate tableIds refused, persons null is 0 and 0', async () => {
    const dup = await t.api('POST', '/reservations', { ...base(), tableIds: [tables[0], tables[0]] });
    expect(problem(dup, 400).detail).toBe(`[tableIds[1]] table ${tables[0]} is given more than once`);
    expect((await t.api('GET', '/reservations')).json()).toEqual([]);
    const noPersons = await create({ persons: null });
    expect(noPersons.persons).toEqual({ adults: 0, children: 0 });
  });

  it('creates a reservation with defaults and reads the 2.4 shape', async () => {
    const res = await t.api('POST', '/reservations', base());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      id: body.id,
      storeId,
      reservationCode: null,
      startAt: '2026-12-01T18:00:00+09:00',
      endAt: '2026-12-01T20:00:00+09:00',
      persons: { adults: 2, children: 1 },
      reservationPersonName: null,
      reservationPersonNameKana: null,
      status: 'waiting',
      tables: [],
      phoneNumber: null,
      staff: null,
      note: null,
      reservedAt: '2026-11-22T10:00:00+09:00',
      reservedFrom: 'pos',
      tableUseId: null,
    });
    expect(await read(body.id)).toEqual(body);
  });

  it('creates with every field; tables keep their order; staff name defaults to the master', async () => {
    const body = await create({
      reservationPersonName: '山田 太郎',
      reservationPersonNameKana: 'ヤマダ タロウ',
      status: 'coming',
      tableIds: [tables[2], tables[0]],
      phoneNumber: '+81-90-1234-5678',
      staff: { staffId },
      note: 'Birthday 🎂',
      reservedAt: '2026-11-20T12:00:00+09:00',
      reservedFrom: 'phone',
    });
    expect(body).toMatchObject({
      status: 'coming',
      tables: [{ id: tables[2], name: 'T3' }, { id: tables[0], name: 'T1' }],
      staff: { id: staffId, name: 'Sato Hanako' },
      note: 'Birthday 🎂',
      reservedFrom: 'phone',
      reservedAt: '2026-11-20T12:00:00+09:00',
    });
    const named = await create({ staff: { staffId, staffName: 'Hanako' } });
    expect(named.staff).toEqual({ id: staffId, name: 'Hanako' });
  });

  it('reads times in Asia/Tokyo whatever offset was sent and whatever the contract zone', async () => {
    t.deps.db.prepare("UPDATE contracts SET time_zone = 'America/New_York' WHERE contract_id = ?").run(t.contractId);
    const token = await t.tokenFor();
    const res = await t.api(
      'POST',
      '/reservations',
      { ...base(), startAt: '2026-12-01T04:00:00-05:00', endAt: '2026-12-01T06:30:00-05:00', reservedAt: '2026-11-30T23:00:00Z' },
      token,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ startAt: '2026-12-01T18:00:00+09:00', endAt: '2026-12-01T20:30:00+09:00', reservedAt: '2026-12-01T08:00:00+09:00' });
    expect(await patch(res.json().id, { endAt: '2026-12-01T07:00:00-05:00' }).then((r) => r.statusCode)).toBe(204);
    expect((await t.api('GET', `/reservations/${res.json().id}`, undefined, token)).json().endAt).toBe('2026-12-01T21:00:00+09:00');
  });

  it('refuses bad POST bodies naming the field', async () => {
    expect(problem(await t.api('POST', '/reservations', {}), 400).detail).toBe(
      '[startAt] is required; [endAt] is required; [persons] is required; [storeId] is required',
    );
    expect(problem(await t.api('POST', '/reservations', { ...base(), persons: { children: 1 } }), 400).detail).toBe('[persons.adults] is required');
    expect(problem(await t.api('POST', '/reservations', { ...base(), endAt: '2026-12-01T18:00:00+09:00' }), 400)).toEqual(
      badRequest('[endAt] must be after startAt 2026-12-01T18:00:00+09:00'),
    );
    expect(problem(await t.api('POST', '/reservations', { ...base(), storeId: '999999' }), 400).detail).toBe('[storeId] store 999999 does not exist');
    expect(problem(await t.api('POST', '/reservations', { ...base(), status: 'paid' }), 400).detail).toBe(
      '[status] paid is set by the payment side and cannot be sent',
    );
    expect(problem(await t.api('POST', '/reservations', { ...base(), reservationPersonName: '😀' }), 400).detail).toBe(
      `[reservationPersonName] ${FOUR_BYTE_MESSAGE}`,
    );
  });

  it('cuts fractional seconds before comparing startAt and endAt on POST (issue 10)', async () => {
    const res = await t.api('POST', '/reservations', { ...base(), startAt: '2026-12-01T10:00:00.400+09:00', endAt: '2026-12-01T10:00:00.900+09:00' });
    expect(problem(res, 400)).toEqual(badRequest('[endAt] must be after startAt 2026-12-01T10:00:00+09:00'));
    expect((await t.api('GET', '/reservations')).json()).toEqual([]);
    const ok = await create({ startAt: '2026-12-01T10:00:00.900+09:00', endAt: '2026-12-01T10:00:01.100+09:00', reservedAt: '2026-11-30T09:00:00.750+09:00' });
    expect(ok).toMatchObject({ startAt: '2026-12-01T10:00:00+09:00', endAt: '2026-12-01T10:00:01+09:00', reservedAt: '2026-11-30T09:00:00+09:00' });
  });

  it('imports a reservation with reservationCode; the code is unique per store', async () => {
    const imported = await create({ reservationCode: 'EXT-1' });
    expect(imported).toMatchObject({ reservationCode: 'EXT-1', reservedFrom: 'external' });
    expect((await create({ reservationCode: 'EXT-2', reservedFrom: 'gourmet-site' })).reservedFrom).toBe('gourmet-site');
    expect(problem(await t.api('POST', '/reservations', { ...base(), reservationCode: 'EXT-1' }), 400)).toEqual(
      badRequest(`[reservationCode] reservation code EXT-1 is already used by reservation ${imported.id}`),
    );
  });

  describe('PATCH (4.13)', () => {
    it('answers 204 with no body and changes only the keys sent', async () => {
      const { id } = await create({ reservationPersonName: 'Yamada', note: 'window', tableIds: [tables[0]] });
      const before = await read(id);
      const res = await patch(id, { reservationPersonNameKana: 'ヤマダ', status: 'coming' });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(await read(id)).toEqual({ ...before, reservationPersonNameKana: 'ヤマダ', status: 'coming' });
    });

    it('allows overlapping times and tables with other reservations', async () => {
      await create({ tableIds: [tables[0]] });
      const { id } = await create();
      expect((await patch(id, { tableIds: [tables[0], tables[1]] })).statusCode).toBe(204);
      expect((await read(id)).tables).toEqual([{ id: tables[0], name: 'T1' }, { id: tables[1], name: 'T2' }]);
      expect((await patch(id, { tableIds: [] })).statusCode).toBe(204);
      expect((await read(id)).tables).toEqual([]);
    });

    it('checks startAt before endAt against the stored other value', async () => {
      const { id } = await create();
      expect(problem(await patch(id, { startAt: '2026-12-01T20:00:00+09:00' }), 400)).toEqual(
        badRequest('[startAt] must be before endAt 2026-12-01T20:00:00+09:00'),
      );
      expect(problem(await patch(id, { endAt: '2026-12-01T17:00:00+09:00' }), 400)).toEqual(
        badRequest('[endAt] must be after startAt 2026-12-01T18:00:00+09:00'),
      );
      expect(problem(await patch(id, { startAt: '2026-12-02T10:00:00+09:00', endAt: '2026-12-02T09:00:00+09:00' }), 400).detail).toBe(
        '[endAt] must be after startAt 2026-12-02T10:00:00+09:00',
      );
      expect((await patch(id, { startAt: '2026-12-01T19:00:00+09:00' })).statusCode).toBe(204);
      expect((await read(id)).startAt).toBe('2026-12-01T19:00:00+09:00');
      expect(problem(await patch(id, { startAt: 'tomorrow' }), 400).detail).toBe('[startAt] must be a date-time like 2026-11-22T10:00:00+09:00');
    });

    it('cuts fractional seconds before comparing startAt and endAt (issue 10)', async () => {
      const { id } = await create();
      // 19:00:00.400 and 19:00:00.900 both read back 19:00:00: refused, nothing changes.
      expect(problem(await patch(id, { startAt: '2026-12-01T19:00:00.400+09:00', endAt: '2026-12-01T19:00:00.900+09:00' }), 400)).toEqual(
        badRequest('[endAt] must be after startAt 2026-12-01T19:00:00+09:00'),
      );
      expect(await read(id)).toMatchObject({ startAt: '2026-12-01T18:00:00+09:00', endAt: '2026-12-01T20:00:00+09:00' });
      // One side sent: compared with the stored other value, after the cut.
      expect(problem(await patch(id, { startAt: '2026-12-01T20:00:00.500+09:00' }), 400)).toEqual(
        badRequest('[startAt] must be before endAt 2026-12-01T20:00:00+09:00'),
      );
      expect(problem(await patch(id, { endAt: '2026-12-01T18:00:00.999+09:00' }), 400)).toEqual(
        badRequest('[endAt] must be after startAt 2026-12-01T18:00:00+09:00'),
      );
      // A whole second apart once cut is accepted, and reads back cut (not rounded).
      expect((await patch(id, { startAt: '2026-12-01T18:59:59.999+09:00', endAt: '2026-12-01T19:00:00.001+09:00' })).statusCode).toBe(204);
      expect(await read(id)).toMatchObject({ startAt: '2026-12-01T18:59:59+09:00', endAt: '2026-12-01T19:00:00+09:00' });
      // The stored values are whole seconds: a list filter on the read-back time finds it.
      const listed = await t.api('GET', '/reservations?start_at_from=2026-12-01T18:59:59%2B09:00&start_at_to=2026-12-01T18:59:59%2B09:00');
      expect(listed.json().map((r: { id: string }) => r.id)).toEqual([id]);
    });

    it('validates persons: both ints required, at least 0; null sets both to 0', async () => {
      const { id } = await create();
      expect(problem(await patch(id, { persons: { children: 1 } }), 400).detail).toBe('[persons.adults] is required');
      expect(problem(await patch(id, { persons: { adults: 1 } }), 400).detail).toBe('[persons.children] is required');
      expect(problem(await patch(id, { persons: { adults: 1.5, children: -1 } }), 400).detail).toBe(
        '[persons.adults] must be an integer; [persons.children] must be at least 0',
      );
      expect(problem(await patch(id, { persons: { adults: '2', children: 0 } }), 400).detail).toBe('[persons.adults] must be an integer');
      expect(problem(await patch(id, { persons: { adults: 1, children: 0, babies: 1 } }), 400).detail).toBe('[persons.babies] is not a known field');
      expect((await patch(id, { persons: { adults: 4, children: 0 } })).statusCode).toBe(204);
      expect((await read(id)).persons).toEqual({ adults: 4, children: 0 });
      expect((await patch(id, { persons: null })).statusCode).toBe(204);
      expect((await read(id)).persons).toEqual({ adults: 0, children: 0 });
    });

    it('refuses 4-byte characters and invisible-only names in the three name fields', async () => {
      const { id } = await create();
      for (const field of ['reservationPersonName', 'reservationPersonNameKana']) {
        expect(problem(await patch(id, { [field]: '山田😀' }), 400)).toEqual(badRequest(`[${field}] ${FOUR_BYTE_MESSAGE}`));
        expect(problem(await patch(id, { [field]: '𠮷田' }), 400).detail).toBe(`[${field}] ${FOUR_BYTE_MESSAGE}`);
        for (const blank of [' ', '\u3000', '\u200B\u200D', '\uFEFF', '\u2060', '\uFE0F', '\u0007']) {
          expect(problem(await patch(id, { [field]: blank }), 400).detail, JSON.stringify(blank)).toBe(`[${field}] ${INVISIBLE_MESSAGE}`);
        }
        expect(problem(await patch(id, { [field]: 'x'.repeat(51) }), 400).detail).toBe(`[${field}] must be at most 50 characters`);
      }
      expect(problem(await patch(id, { staff: { staffId, staffName: '🙂' } }), 400).detail).toBe(`[staff.staffName] ${FOUR_BYTE_MESSAGE}`);
      expect(problem(await patch(id, { staff: { staffId, staffName: '\u3000' } }), 400).detail).toBe(`[staff.staffName] ${INVISIBLE_MESSAGE}`);
      expect(await read(id)).toMatchObject({ reservationPersonName: null, staff: null });
      expect((await patch(id, { reservationPersonName: '山田\u3000太郎' })).statusCode).toBe(204);
      expect((await read(id)).reservationPersonName).toBe('山田\u3000太郎');
      expect((await patch(id, { reservationPersonName: '' })).statusCode).toBe(204);
      expect((await read(id)).reservationPersonName).toBeNull();
    });

    it('takes status waiting, coming, finished, canceled but not paid', async () => {
      const { id } = await create();
      for (const status of ['coming', 'finished', 'canceled', 'waiting']) {
        expect((await patch(id, { status })).statusCode).toBe(204);
        expect((await read(id)).status).toBe(status);
      }
      expect(problem(await patch(id, { status: 'paid' }), 400).detail).toBe('[status] paid is set by the payment side and cannot be sent');
      expect(problem(await patch(id, { status: 'done' }), 400).detail).toBe('[status] must be one of waiting, coming, finished, canceled');
    });

    it('refuses a status change of a paid reservation', async () => {
      const { id } = await create();
      t.deps.db.prepare("UPDATE reservations SET status = 'paid' WHERE reservation_id = ?").run(Number(id));
      expect(problem(await patch(id, { status: 'waiting' }), 400).detail).toBe(`[status] reservation ${id} is paid; its status can no longer change`);
      expect((await patch(id, { note: 'ok' })).statusCode).toBe(204);
    });

    it('checks tableIds: strings, of the reservation store, no duplicates', async () => {
      const { id } = await create();
      const other = (await t.api('POST', '/stores', { storeName: 'Other' })).json().storeId;
      const foreign = (await t.api('POST', '/tables', { storeId: other, name: 'F1' })).json().tableId;
      expect(problem(await patch(id, { tableIds: [tables[0], '999999'] }), 400)).toEqual(
        badRequest(`[tableIds[1]] table 999999 does not exist in store ${storeId}`),
      );
      expect(problem(await patch(id, { tableIds: [foreign] }), 400).detail).toBe(`[tableIds[0]] table ${foreign} does not exist in store ${storeId}`);
      expect(problem(await patch(id, { tableIds: [tables[0], tables[1], tables[0]] }), 400).detail).toBe(
        `[tableIds[2]] table ${tables[0]} is given more than once`,
      );
      expect(problem(await patch(id, { tableIds: [1] }), 400).detail).toBe('[tableIds[0]] Invalid input: expected string, received number');
      expect(problem(await patch(id, { tableIds: 'T1' }), 400).detail).toBe('[tableIds] Invalid input: expected array, received string');
      expect((await read(id)).tables).toEqual([]);
    });

    it('checks staff: staffId required and existing; null clears', async () => {
      const { id } = await create();
      expect(problem(await patch(id, { staff: {} }), 400).detail).toBe('[staff.staffId] is required');
      expect(problem(await patch(id, { staff: { staffId: '999999' } }), 400)).toEqual(badRequest('[staff.staffId] staff 999999 does not exist'));
      expect(problem(await patch(id, { staff: { staffId, name: 'x' } }), 400).detail).toBe('[staff.name] is not a known field');
      expect((await patch(id, { staff: { staffId } })).statusCode).toBe(204);
      expect((await read(id)).staff).toEqual({ id: staffId, name: 'Sato Hanako' });
      expect((await patch(id, { staff: null })).statusCode).toBe(204);
      expect((await read(id)).staff).toBeNull();
    });

    it('applies the character rules to the staff name taken from the staff master', async () => {
      const { id } = await create();
      const emoji = (await t.api('POST', '/staffs', { staffName: 'Sato 😀' })).json().staffId;
      expect(problem(await patch(id, { staff: { staffId: emoji } }), 400).detail).toBe(
        `[staff.staffName] the staff master's name of staff ${emoji} ${FOUR_BYTE_MESSAGE}; send staffName`,
      );
      expect((await read(id)).staff).toBeNull();
      expect((await patch(id, { staff: { staffId: emoji, staffName: 'Sato' } })).statusCode).toBe(204);
      expect((await read(id)).staff).toEqual({ id: emoji, name: 'Sato' });
    });

    it('refuses date-times that no zone can render with a four-digit year', async () => {
      const { id } = await create();
      for (const value of ['0000-01-01T00:00:00+14:00', '1899-12-31T23:00:00Z', '9999-12-31T20:00:00-12:00']) {
        expect(problem(await patch(id, { reservedAt: value }), 400).detail, value).toBe('[reservedAt] must lie between the years 1900 and 9999');
      }
      expect((await patch(id, { reservedAt: '2026-12-01T09:00:00+14:00' })).statusCode).toBe(204);
      expect((await read(id)).reservedAt).toBe('2026-12-01T04:00:00+09:00');
    });

    it('checks phoneNumber, note and reservedAt', async () => {
      const { id } = await create();
      for (const bad of ['03 1234 5678', 'abc', '03--1234', '-0312', '+', '1'.repeat(21)]) {
        expect(problem(await patch(id, { phoneNumber: bad }), 400).detail, bad).toBe(
          '[phoneNumber] must be digits and hyphens with an optional leading +, at most 20 characters (e.g. 03-1234-5678)',
        );
      }
      expect((await patch(id, { phoneNumber: '03-1234-5678' })).statusCode).toBe(204);
      expect((await read(id)).phoneNumber).toBe('03-1234-5678');
      expect((await patch(id, { phoneNumber: null })).statusCode).toBe(204);
      expect((await read(id)).phoneNumber).toBeNull();
      expect(problem(await patch(id, { note: 'n'.repeat(1001) }), 400).detail).toBe('[note] must be at most 1000 characters');
      expect((await patch(id, { note: 'n'.repeat(1000) })).statusCode).toBe(204);
      expect(problem(await patch(id, { reservedAt: '2026-13-01T00:00:00Z' }), 400).detail).toBe('[reservedAt] must be a date-time like 2026-11-22T10:00:00+09:00');
      expect((await patch(id, { reservedAt: '2026-11-01T00:00:00Z' })).statusCode).toBe(204);
      expect((await read(id)).reservedAt).toBe('2026-11-01T09:00:00+09:00');
    });

    it('refuses an empty body and unknown keys (also reservationCode and storeId)', async () => {
      const { id } = await create();
      expect(problem(await patch(id, {}), 400).detail).toBe('[body] no field to update was given');
      expect(problem(await patch(id, { reservationCode: 'X', note: 'a' }), 400).detail).toBe('[reservationCode] is not a known field');
      expect(problem(await patch(id, { storeId, note: 'a' }), 400).detail).toBe('[storeId] is not a known field');
    });

    it('is 400 when the store is suspended or gone', async () => {
      const { id } = await create();
      await t.api('PATCH', `/stores/${storeId}`, { pauseFlag: '1' });
      expect(problem(await patch(id, { note: 'x' }), 400)).toEqual(badRequest(`[storeId] store ${storeId} is suspended`));
      expect(problem(await t.api('POST', '/reservations', base()), 400).detail).toBe(`[storeId] store ${storeId} is suspended`);
      t.deps.db.prepare('DELETE FROM stores WHERE store_id = ?').run(Number(storeId));
      expect(problem(await patch(id, { note: 'x' }), 400).detail).toBe(`[storeId] store ${storeId} does not exist`);
      expect((await read(id)).note).toBeNull();
    });

    it('is 405 for an imported reservation, with an Allow header', async () => {
      const { id } = await create({ reservationCode: 'EXT-9' });
      const res = await patch(id, { note: 'x' });
      expect(problem(res, 405)).toEqual(notAllowed(`[reservation_id] reservation ${id} was imported from external (reservationCode EXT-9) and cannot be updated`));
      expect(res.headers.allow).toBe('GET, DELETE');
    });

    it('is 405 for canceling a reservation bound to a table use; other changes still work', async () => {
      const { id } = await create();
      const order = await t.api('POST', '/orders', { storeId, tableIds: [tables[0]], reservationId: id, items: [{ name: 'Water', sellingPrice: { amount: '0' } }] });
      expect(order.statusCode).toBe(200);
      expect(await read(id)).toMatchObject({ tableUseId: order.json().tableUseId, status: 'coming' });
      const res = await patch(id, { status: 'canceled' });
      expect(problem(res, 405)).toEqual(notAllowed(`[status] reservation ${id} is bound to table use ${order.json().tableUseId} and cannot be canceled`));
      expect(res.headers.allow).toBe('GET, PATCH');
      expect((await patch(id, { status: 'finished' })).statusCode).toBe(204);
      expect(problem(await t.api('DELETE', `/reservations/${id}`), 405).detail).toContain('is bound to table use');
    });

    it('checks in order 404, 405, store 400, body rules 400 (body shape first, by the framework)', async () => {
      expect(problem(await patch('999999', { note: 'x' }), 404).detail).toBe('[reservation_id] reservation 999999 does not exist');
      expect(problem(await patch('999999', { status: 'nope' }), 400).detail).toBe('[status] must be one of waiting, coming, finished, canceled');
      const imported = await create({ reservationCode: 'EXT-1' });
      await t.api('PATCH', `/stores/${storeId}`, { pauseFlag: '1' });
      expect(problem(await patch(imported.id, { tableIds: ['999999'] }), 405).status).toBe(405);
      const { id } = await create({ storeId: (await t.api('POST', '/stores', { storeName: 'S2' })).json().storeId });
      t.deps.db.prepare("UPDATE stores SET pause_flag = '1' WHERE store_id = ?").run(Number((await read(id)).storeId));
      expect(problem(await patch(id, { tableIds: ['999999'], staff: { staffId: '999999' } }), 400).detail).toMatch(/is suspended$/);
    });

    it('404s an unknown reservation on GET and DELETE; 400s a malformed id', async () => {
      expect(problem(await t.api('GET', '/reservations/999999'), 404).detail).toBe('[reservation_id] reservation 999999 does not exist');
      expect(problem(await t.api('DELETE', '/reservations/999999'), 404).status).toBe(404);
      expect(problem(await t.api('GET', '/reservations/x1'), 400).detail).toBe('[reservation_id] must be 1 to 9 digits');
    });
  });

  it('deletes a reservation (204), also an imported one; then its tables can be deleted', async () => {
    const { id } = await create({ tableIds: [tables[0]] });
    expect(problem(await t.api('DELETE', `/tables/${tables[0]}`), 400)).toEqual(badRequest(`[table_id] table ${tables[0]} is used by reservation ${id}`));
    const res = await t.api('DELETE', `/reservations/${id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await t.api('GET', `/reservations/${id}`)).statusCode).toBe(404);
    expect((await t.api('DELETE', `/tables/${tables[0]}`)).statusCode).toBe(204);
    const imported = await create({ reservationCode: 'EXT-3' });
    expect((await t.api('DELETE', `/reservations/${imported.id}`)).statusCode).toBe(204);
  });

  it('lists with filters, start order by default, paging and Link', async () => {
    const second = (await t.api('POST', '/stores', { storeName: 'S2' })).json().storeId;
    const a = await create({ startAt: '2026-12-03T18:00:00+09:00', endAt: '2026-12-03T19:00:00+09:00' });
    const b = await create({ startAt: '2026-12-01T18:00:00+09:00', endAt: '2026-12-01T19:00:00+09:00', status: 'coming' });
    const c = await create({ startAt: '2026-12-02T18:00:00+09:00', endAt: '2026-12-02T19:00:00+09:00' });
    const d = await create({ storeId: second });
    const ids = async (q: string) => (await t.api('GET', `/reservations${q}`)).json().map((r: { id: string }) => r.id);
    expect(await ids('')).toEqual([b.id, d.id, c.id, a.id]);
    expect(await ids(`?store_id=${storeId}`)).toEqual([b.id, c.id, a.id]);
    expect(await ids('?status=coming')).toEqual([b.id]);
    expect(await ids('?start_at_from=2026-12-02T00:00:00%2B09:00&start_at_to=2026-12-03T18:00:00%2B09:00')).toEqual([c.id, a.id]);
    expect(await ids('?sort=startAt:desc')).toEqual([a.id, c.id, b.id, d.id]);
    const page = await t.api('GET', `/reservations?store_id=${storeId}&limit=2&page=2`);
    expect(page.json().map((r: { id: string }) => r.id)).toEqual([a.id]);
    expect(page.headers.link).toBe(`<http://localhost/${t.contractId}/pos/reservations?store_id=${storeId}&limit=2&page=1>; rel="prev"`);
    const first = await t.api('GET', `/reservations?store_id=${storeId}&limit=2`);
    expect(first.headers.link).toBe(`<http://localhost/${t.contractId}/pos/reservations?store_id=${storeId}&limit=2&page=2>; rel="next"`);
    expect(problem(await t.api('GET', '/reservations?status=x'), 400).detail).toBe('[status] must be one of waiting, coming, finished, paid, canceled');
    expect(problem(await t.api('GET', '/reservations?start_at_from=2026-12-03T00:00:00Z&start_at_to=2026-12-02T00:00:00Z'), 400).detail).toBe(
      '[start_at_to] must not be earlier than start_at_from',
    );
    expect(problem(await t.api('GET', '/reservations?limit=101'), 400).detail).toBe('[limit] limit must be at most 100');
  });
});

describe('reservations on other plans', () => {
  const others: Plan[] = ['standard', 'premium', 'premium_plus', 'retail_business', 'enterprise'];
  for (const plan of others) {
    it(`are 403 for ${plan}, also on GET`, async () => {
      const t = await makeTestApp({ plan });
      try {
        const cases: [string, string, unknown][] = [
          ['GET', '/reservations/1', undefined],
          ['PATCH', '/reservations/1', { note: 'x' }],
          ['GET', '/reservations', undefined],
          ['POST', '/reservations', {}],
          ['DELETE', '/reservations/1', undefined],
        ];
        for (const [method, path, body] of cases) {
          const detail = problem(await t.api(method, path, body), 403).detail;
          expect(detail).toContain(`the contract's plan ${plan} cannot use ${method} /reservations`);
          expect(detail).toContain('(plans: food_business)');
        }
      } finally {
        await t.close();
      }
    });
  }
});

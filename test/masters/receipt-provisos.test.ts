import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T0_PLUS_1MIN = '2026-11-22T10:01:00+09:00';
const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });

describe('receipt provisos (領収書但し書き, /receipt_provisoes)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'standard' });
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>) => {
    const res = await t.api('POST', '/receipt_provisoes', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, string | null>;
  };
  const list = async (query = '') => {
    const res = await t.api('GET', `/receipt_provisoes${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, string | null>[];
  };

  it('POST registers a proviso with a minted code and the defaults; every change reaches the outbox', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    expect(await create({ receiptProvisoName: 'お品代として' })).toEqual({
      receiptProvisoCode: '1001',
      receiptProvisoName: 'お品代として',
      initialValueFlag: '0',
      displaySequence: null,
      displayFlag: '1',
      insDateTime: AT_T0,
      updDateTime: AT_T0,
    });
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'receipt_proviso', id: '1001', op: 'insert' }]);
    const body = { receiptProvisoName: '飲食代として', initialValueFlag: '1', displaySequence: '2', displayFlag: '0' };
    expect(await create(body)).toEqual({ receiptProvisoCode: '2001', ...body, insDateTime: AT_T0, updDateTime: AT_T0 });
  });

  it('GET lists them, filtered by receipt_proviso_code, initial_value_flag and display_flag, sorted, with fields', async () => {
    await create({ receiptProvisoName: 'A', displaySequence: '3' });
    await create({ receiptProvisoName: 'B', displaySequence: '1', initialValueFlag: '1' });
    await create({ receiptProvisoName: 'C', displaySequence: '2', displayFlag: '0' });
    const names = (rows: Record<string, string | null>[]) => rows.map((r) => r.receiptProvisoName);
    expect(names(await list())).toEqual(['A', 'B', 'C']);
    expect(names(await list('?sort=displaySequence:asc&display_flag=1'))).toEqual(['B', 'A']);
    expect(names(await list('?initial_value_flag=1'))).toEqual(['B']);
    expect(names(await list('?receipt_proviso_code=3001'))).toEqual(['C']);
    expect(await list('?fields=receiptProvisoCode,receiptProvisoName&sort=receiptProvisoCode:desc&limit=1')).toEqual([{ receiptProvisoCode: '3001', receiptProvisoName: 'C' }]);
  });

  it('one proviso at most is the initial value: marking another unmarks the one that was', async () => {
    await create({ receiptProvisoName: 'A', initialValueFlag: '1' });
    await create({ receiptProvisoName: 'B', initialValueFlag: '1' });
    expect((await list('?initial_value_flag=1')).map((r) => r.receiptProvisoName)).toEqual(['B']);
    t.clock.advance(60_000);
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const res = await t.api('PATCH', '/receipt_provisoes/1001', { initialValueFlag: '1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ receiptProvisoCode: '1001', initialValueFlag: '1', updDateTime: AT_T0_PLUS_1MIN });
    expect((await list('?initial_value_flag=1')).map((r) => r.receiptProvisoName)).toEqual(['A']);
    expect(changes.map((c) => `${c.op} ${c.id}`)).toEqual(['update 1001', 'update 2001']);
  });

  it('PATCH changes only the keys sent; the display order may be cleared, the wording may not', async () => {
    await create({ receiptProvisoName: 'A', displaySequence: '5' });
    t.clock.advance(60_000);
    const res = await t.api('PATCH', '/receipt_provisoes/1001', { receiptProvisoName: 'お品代', displaySequence: null });
    expect(res.json()).toEqual({
      receiptProvisoCode: '1001',
      receiptProvisoName: 'お品代',
      initialValueFlag: '0',
      displaySequence: null,
      displayFlag: '1',
      insDateTime: AT_T0,
      updDateTime: AT_T0_PLUS_1MIN,
    });
    expect(problem(await t.api('PATCH', '/receipt_provisoes/1001', { receiptProvisoName: null }), 400)).toEqual(
      bad('[receiptProvisoName] cannot be cleared; a proviso needs its wording'),
    );
    expect(problem(await t.api('PATCH', '/receipt_provisoes/1001', {}), 400).detail).toBe('[body] no field to update was given');
    expect(problem(await t.api('PATCH', '/receipt_provisoes/9', { displayFlag: '0' }), 404)).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: '[receipt_proviso_code] receipt proviso 9 does not exist',
    });
  });

  it('DELETE removes it (204); a code that does not exist is a 404', async () => {
    await create({ receiptProvisoName: 'A' });
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const res = await t.api('DELETE', '/receipt_provisoes/1001');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'receipt_proviso', id: '1001', op: 'delete' }]);
    expect(await list()).toEqual([]);
    expect(problem(await t.api('DELETE', '/receipt_provisoes/1001'), 404).detail).toBe('[receipt_proviso_code] receipt proviso 1001 does not exist');
  });

  it('refuses bad bodies and queries, naming the field', async () => {
    const post = (body: Record<string, unknown>) => t.api('POST', '/receipt_provisoes', body);
    expect(problem(await post({}), 400).detail).toMatch(/^\[receiptProvisoName\]/);
    expect(problem(await post({ receiptProvisoName: ' ' }), 400)).toEqual(bad('[receiptProvisoName] must not be empty'));
    expect(problem(await post({ receiptProvisoName: 'あ'.repeat(86) }), 400)).toEqual(bad('[receiptProvisoName] must be at most 85 characters'));
    expect((await post({ receiptProvisoName: 'あ'.repeat(85) })).statusCode).toBe(200);
    expect(problem(await post({ receiptProvisoName: 'A', displaySequence: '1000' }), 400)).toEqual(bad('[displaySequence] must be an integer from 1 to 999'));
    expect(problem(await post({ receiptProvisoName: 'A', displaySequence: '0' }), 400)).toEqual(bad('[displaySequence] must be an integer from 1 to 999'));
    expect(problem(await post({ receiptProvisoName: 'A', initialValueFlag: '2' }), 400)).toEqual(bad('[initialValueFlag] must be one of 0, 1'));
    expect(problem(await post({ receiptProvisoName: 'A', displayFlag: '2' }), 400)).toEqual(bad('[displayFlag] must be one of 0, 1'));
    expect(problem(await post({ receiptProvisoName: 'A', receiptProvisoCode: '5' }), 400).detail).toMatch(/receiptProvisoCode/);
    expect(problem(await t.api('GET', '/receipt_provisoes?display_flag=2'), 400)).toEqual(bad('[display_flag] must be one of 0, 1'));
    expect(problem(await t.api('GET', '/receipt_provisoes?sort=receiptProvisoName'), 400).detail).toBe(
      '[sort] receiptProvisoName is not a sort key; use receiptProvisoCode, displaySequence with an optional :desc',
    );
    expect(problem(await t.api('PATCH', '/receipt_provisoes/abc', { displayFlag: '0' }), 400)).toEqual(bad('[receipt_proviso_code] must be 1 to 9 digits'));
    // The platform has no single GET.
    expect((await t.api('GET', '/receipt_provisoes/1001')).statusCode).toBe(404);
  });

  it('needs the transactions scopes and one of the five plans', async () => {
    const reader = await t.tokenFor({ scopes: ['pos.transactions:read'] });
    expect((await t.api('GET', '/receipt_provisoes', undefined, reader)).statusCode).toBe(200);
    expect(problem(await t.api('POST', '/receipt_provisoes', { receiptProvisoName: 'A' }, reader), 403).detail).toBe('[scope] the token lacks the scope pos.transactions:write');
    const other = await t.tokenFor({ scopes: ['pos.staffs:read'] });
    expect(problem(await t.api('GET', '/receipt_provisoes', undefined, other), 403).detail).toBe('[scope] the token lacks the scope pos.transactions:read');
    const enterprise = await makeTestApp({ plan: 'enterprise' });
    try {
      expect(problem(await enterprise.api('GET', '/receipt_provisoes'), 403).detail).toBe(
        "the contract's plan enterprise cannot use GET /receipt_provisoes (plans: standard, premium, premium_plus, food_business, retail_business)",
      );
    } finally {
      await enterprise.close();
    }
  });
});

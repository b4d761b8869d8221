import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../server/db/migrate.js';
import { openDatabase } from '../../server/db/open.js';
import type { Change } from '../../server/db/write.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

// The clock is 2026-11-22T10:00+09:00 (test/helpers/app.ts T0): today in Japan is 2026-11-22.
const STAMP = '2026-11-22T10:00:00+09:00';
const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });

const CONSUMPTION = [
  { applyStartDate: '1989-04-01', taxRate: '3', taxRounding: '1' },
  { applyStartDate: '1997-04-01', taxRate: '5', taxRounding: '1' },
  { applyStartDate: '2014-04-01', taxRate: '8', taxRounding: '1' },
  { applyStartDate: '2019-10-01', taxRate: '10', taxRounding: '1' },
];
const fixed = (reduceTaxId: string, name: string, division: string, condition: string | null, advancedCondition: string | null, extra: Record<string, unknown> = {}) => ({
  reduceTaxId,
  name,
  division,
  rate: '8',
  termStart: '2019-10-01',
  termEnd: null,
  condition,
  advancedCondition,
  insDateTime: STAMP,
  updDateTime: STAMP,
  ...extra,
});
const REDUCED = [
  fixed('10000001', '軽減税率', '1', null, null),
  fixed('10000002', '選択[標準]', '2', '店内,持ち帰り', '0'),
  fixed('10000003', '選択[軽減]', '2', '店内,持ち帰り', '1'),
  fixed('10000004', '選択[選択]', '2', '店内,持ち帰り', null),
];

let t: TestApp;
afterEach(() => t?.close());

const get = async (path: string) => {
  const res = await t.api('GET', path);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('GET /consumption_tax_rates (消費税率一覧取得)', () => {
  it('every contract starts with Japan history, each period from midnight Japan time; taxRounding is the contract setting', async () => {
    t = await makeTestApp({ plan: 'standard' });
    expect(await get('/consumption_tax_rates')).toEqual(CONSUMPTION);
    // The platform client's recipes: the whole history in start order, the rate of a day.
    expect(await get('/consumption_tax_rates?sort=applyStartDate:asc')).toEqual(CONSUMPTION);
    expect(await get('/consumption_tax_rates?target_date=2026-11-22')).toEqual([CONSUMPTION[3]]);
    expect(await get('/consumption_tax_rates?sort=applyStartDate:desc&limit=2')).toEqual([CONSUMPTION[3], CONSUMPTION[2]]);
    const paged = await t.api('GET', '/consumption_tax_rates?sort=applyStartDate:desc&limit=2');
    expect(paged.headers.link).toContain('rel="next"');
    expect(await get('/consumption_tax_rates?fields=taxRate,applyStartDate&limit=1')).toEqual([{ applyStartDate: '1989-04-01', taxRate: '3' }]);
  });

  it('target_date gives the one period in force that day', async () => {
    t = await makeTestApp();
    expect(await get('/consumption_tax_rates?target_date=2019-09-30')).toEqual([CONSUMPTION[2]]);
    expect(await get('/consumption_tax_rates?target_date=2019-10-01')).toEqual([CONSUMPTION[3]]);
    expect(await get('/consumption_tax_rates?target_date=2026-11-22')).toEqual([CONSUMPTION[3]]);
    expect(await get('/consumption_tax_rates?target_date=1989-03-31')).toEqual([]);
  });

  it('refuses bad queries and a token without pos.transactions:read', async () => {
    t = await makeTestApp();
    expect(problem(await t.api('GET', '/consumption_tax_rates?target_date=2019-02-30'), 400)).toEqual(bad('[target_date] must be a calendar date YYYY-MM-DD from 1900'));
    expect(problem(await t.api('GET', '/consumption_tax_rates?sort=taxRate'), 400).detail).toBe('[sort] taxRate is not a sort key; use applyStartDate with an optional :desc');
    expect(problem(await t.api('GET', '/consumption_tax_rates?fields=rate'), 400).detail).toBe('[fields] rate is not a consumption tax rate field');
    expect(problem(await t.api('GET', '/consumption_tax_rates?store_id=1'), 400).detail).toMatch(/^\[store_id\]/);
    const other = await t.tokenFor({ scopes: ['pos.products:read'] });
    expect(problem(await t.api('GET', '/consumption_tax_rates', undefined, other), 403).detail).toBe('[scope] the token lacks the scope pos.transactions:read');
    await t.close();
    t = await makeTestApp({ plan: 'enterprise' });
    for (const path of ['/consumption_tax_rates', '/reduce_tax_rates']) {
      expect(problem(await t.api('GET', path), 403).detail).toBe(
        `the contract's plan enterprise cannot use GET ${path} (plans: standard, premium, premium_plus, food_business, retail_business)`,
      );
    }
  });

  it('a contract that existed before migration 0037 is seeded with the same history', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pos-tax-'));
    const db = openDatabase(join(dir, 'pos.sqlite'));
    try {
      const all = loadMigrations();
      migrate(db, all.filter((m) => m.version < 37));
      db.prepare("INSERT INTO contracts (contract_id, name, plan, time_zone, created_at, updated_at) VALUES ('old', 'Old', 'standard', 'Asia/Tokyo', 5, 5)").run();
      migrate(db, all);
      expect(db.prepare("SELECT apply_start_date, tax_rate, ins_at FROM consumption_tax_rates WHERE contract_id = 'old' ORDER BY 1").all()).toEqual(
        CONSUMPTION.map((c) => ({ apply_start_date: c.applyStartDate, tax_rate: c.taxRate, ins_at: 5 })),
      );
      expect(db.prepare("SELECT reduce_tax_id, rate FROM reduce_tax_rates WHERE contract_id = 'old' ORDER BY 1").all()).toEqual(
        REDUCED.map((r) => ({ reduce_tax_id: Number(r.reduceTaxId), rate: '8' })),
      );
      expect(db.prepare("SELECT role_id, role_name FROM roles WHERE contract_id = 'old'").all()).toEqual([{ role_id: 1, role_name: '管理者' }]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /reduce_tax_rates (軽減税率一覧取得)', () => {
  it('lists the fixed reduced-rate settings with their periods; filters by reduce_tax_id, division and target_date', async () => {
    t = await makeTestApp({ plan: 'standard' });
    expect(await get('/reduce_tax_rates')).toEqual(REDUCED);
    expect(await get('/reduce_tax_rates?division=1')).toEqual([REDUCED[0]]);
    expect(await get('/reduce_tax_rates?target_date=2024-10-01')).toEqual(REDUCED);
    expect(await get('/reduce_tax_rates?reduce_tax_id=10000003')).toEqual([REDUCED[2]]);
    expect(await get('/reduce_tax_rates?target_date=2019-10-01&division=2&sort=reduceTaxId:desc')).toEqual([REDUCED[3], REDUCED[2], REDUCED[1]]);
    expect(await get('/reduce_tax_rates?target_date=2019-09-30')).toEqual([]);
    expect(await get('/reduce_tax_rates?fields=reduceTaxId,rate&limit=1')).toEqual([{ reduceTaxId: '10000001', rate: '8' }]);
  });

  it('refuses bad queries', async () => {
    t = await makeTestApp();
    expect(problem(await t.api('GET', '/reduce_tax_rates?division=3'), 400)).toEqual(bad('[division] must be one of 1, 2'));
    expect(problem(await t.api('GET', '/reduce_tax_rates?reduce_tax_id=x'), 400)).toEqual(bad('[reduce_tax_id] must be 1 to 9 digits'));
    expect(problem(await t.api('GET', '/reduce_tax_rates?sort=name'), 400).detail).toBe('[sort] name is not a sort key; use reduceTaxId, division, rate, termStart, termEnd with an optional :desc');
    expect(problem(await t.api('GET', '/reduce_tax_rates?target_date=20191001'), 400)).toEqual(bad('[target_date] must be a calendar date YYYY-MM-DD from 1900'));
  });
});

/** A sale of one tax-excluded line of 1000 yen at `when`: its rate and its tax show which period applied. */
const saleAt = async (when: string, extra: Record<string, unknown> = {}) => {
  const store = (await t.api('POST', '/stores', { storeName: `S ${when}` })).json().storeId;
  const terminal = (await t.api('POST', '/terminals', { storeId: store, terminalName: 'R' })).json()[0].terminalId;
  const res = await t.api('POST', '/transactions', {
    transactionHeadDivision: '1',
    storeId: store,
    terminalId: terminal,
    terminalTranDateTime: when,
    details: [{ transactionDetailId: '1', transactionDetailDivision: '1', productName: 'A', salesPrice: '1000', quantity: '1', taxDivision: '1', ...extra }],
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('POST /consumption_tax_rates (ours: a future change of the standard rate, head office only)', () => {
  it('a future period changes the totals of sales from its first instant, and nothing before', async () => {
    t = await makeTestApp({ role: 'central' });
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const res = await t.api('POST', '/consumption_tax_rates', { applyStartDate: '2026-11-23', taxRate: '12.50' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ applyStartDate: '2026-11-23', taxRate: '12.5', taxRounding: '1' });
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'consumption_tax_rate', id: '2026-11-23', op: 'insert' }]);
    expect(await get('/consumption_tax_rates?target_date=2026-11-23')).toEqual([{ applyStartDate: '2026-11-23', taxRate: '12.5', taxRounding: '1' }]);
    expect(await get('/consumption_tax_rates?target_date=2026-11-22')).toEqual([CONSUMPTION[3]]);

    const before = await saleAt('2026-11-22T23:59:59+09:00');
    expect(before).toMatchObject({ taxRate: '10', taxExclude: '100', total: '1100' });
    const after = await saleAt('2026-11-23T00:00:00+09:00');
    expect(after).toMatchObject({ taxRate: '12.5', taxExclude: '125', total: '1125' });
    // The same instant written in UTC.
    expect(await saleAt('2026-11-22T15:00:00Z')).toMatchObject({ taxRate: '12.5', taxExclude: '125' });
  });

  it('refuses a day that has begun, a day already planned, a day before the latest period, a bad rate', async () => {
    t = await makeTestApp({ role: 'central' });
    const post = (body: Record<string, unknown>) => t.api('POST', '/consumption_tax_rates', body);
    const FUTURE = 'must be a day after today (2026-11-22, Japan time): a rate change applies to sales to come, never to days that have begun';
    expect(problem(await post({ applyStartDate: '2026-11-22', taxRate: '12' }), 400)).toEqual(bad(`[applyStartDate] ${FUTURE}`));
    expect(problem(await post({ applyStartDate: '2019-10-01', taxRate: '12' }), 400)).toEqual(bad(`[applyStartDate] ${FUTURE}`));
    expect((await post({ applyStartDate: '2027-04-01', taxRate: '12' })).statusCode).toBe(200);
    expect(problem(await post({ applyStartDate: '2027-04-01', taxRate: '15' }), 409)).toEqual({
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: '[applyStartDate] a consumption tax rate starting 2027-04-01 already exists',
    });
    expect(problem(await post({ applyStartDate: '2027-01-01', taxRate: '11' }), 400)).toEqual(
      bad("[applyStartDate] must be after the latest period's start (2027-04-01): a change is added after the rates already planned"),
    );
    expect(problem(await post({ applyStartDate: '2028-01-01', taxRate: '100.5' }), 400)).toEqual(bad('[taxRate] must be at most 100'));
    expect(problem(await post({ applyStartDate: '2028-01-01', taxRate: '1.2345' }), 400).detail).toMatch(/^\[taxRate\] /);
    expect(problem(await post({ applyStartDate: '2028-01-01', taxRate: 12 }), 400).detail).toMatch(/^\[taxRate\] /);
    expect(problem(await post({ applyStartDate: '2028-02-30', taxRate: '12' }), 400)).toEqual(bad('[applyStartDate] must be a calendar date YYYY-MM-DD from 1900'));
    expect(problem(await post({ applyStartDate: '2028-01-01', taxRate: '12', taxRounding: '0' }), 400).detail).toMatch(/taxRounding/);
    expect(problem(await post({ taxRate: '12' }), 400).detail).toMatch(/^\[applyStartDate\]/);
    const reader = await t.tokenFor({ scopes: ['pos.transactions:read'] });
    expect(problem(await t.api('POST', '/consumption_tax_rates', { applyStartDate: '2028-01-01', taxRate: '12' }, reader), 403).detail).toBe(
      '[scope] the token lacks the scope pos.transactions:write',
    );
  });

  it('a store PC refuses it: rates are planned at head office', async () => {
    t = await makeTestApp();
    expect(problem(await t.api('POST', '/consumption_tax_rates', { applyStartDate: '2027-04-01', taxRate: '12' }), 403)).toEqual({
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
      detail: 'consumption tax rates are planned at head office: add the change on the central instance and it reaches the stores with the next pull',
    });
    expect(await get('/consumption_tax_rates')).toEqual(CONSUMPTION);
  });
});

describe('POST /reduce_tax_rates (ours: a future change of the reduced rate, head office only)', () => {
  it('every fixed setting gets a period from termStart, the open one ends the day before; reduced lines follow from that instant', async () => {
    t = await makeTestApp({ role: 'central' });
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const res = await t.api('POST', '/reduce_tax_rates', { termStart: '2026-11-23', rate: '0' });
    expect(res.statusCode, res.body).toBe(200);
    const opened = REDUCED.map((r) => ({ ...r, rate: '0', termStart: '2026-11-23' }));
    expect(res.json()).toEqual(opened);
    expect(changes.map((c) => `${c.op} ${c.id}`)).toEqual(REDUCED.flatMap((r) => [`update ${r.reduceTaxId}/2019-10-01`, `insert ${r.reduceTaxId}/2026-11-23`]));
    const closed = REDUCED.map((r) => ({ ...r, termEnd: '2026-11-22' }));
    expect(await get('/reduce_tax_rates?target_date=2026-11-22')).toEqual(closed);
    expect(await get('/reduce_tax_rates?target_date=2026-11-23')).toEqual(opened);
    expect(await get('/reduce_tax_rates?reduce_tax_id=10000001&sort=termStart:desc')).toEqual([opened[0], closed[0]]);
    // By value ('0' before '8'); the open period (no termEnd) first, as SQLite places NULL, on both engines.
    expect(await get('/reduce_tax_rates?reduce_tax_id=10000001&sort=rate:desc')).toEqual([closed[0], opened[0]]);
    expect(await get('/reduce_tax_rates?reduce_tax_id=10000001&sort=termEnd')).toEqual([opened[0], closed[0]]);
    expect(await get('/reduce_tax_rates?reduce_tax_id=10000001&sort=termEnd:desc')).toEqual([closed[0], opened[0]]);

    const reduced = { reduceTaxId: '10000001' };
    expect(await saleAt('2026-11-22T23:59:59+09:00', reduced)).toMatchObject({ taxExclude: '80', total: '1080', details: [{ reduceTaxRate: '8', taxRate: '8' }] });
    expect(await saleAt('2026-11-23T00:00:00+09:00', reduced)).toMatchObject({ taxExclude: '0', total: '1000', details: [{ reduceTaxRate: '0', taxRate: '0' }] });
    // A standard-rate line is not touched by the reduced change.
    expect(await saleAt('2026-11-23T00:00:00+09:00')).toMatchObject({ taxRate: '10', taxExclude: '100' });
  });

  it('refuses a day that has begun, a day already planned or before the latest period, a bad rate, and a store PC', async () => {
    t = await makeTestApp({ role: 'central' });
    const post = (body: Record<string, unknown>) => t.api('POST', '/reduce_tax_rates', body);
    expect(problem(await post({ termStart: '2026-11-22', rate: '5' }), 400)).toEqual(
      bad('[termStart] must be a day after today (2026-11-22, Japan time): a rate change applies to sales to come, never to days that have begun'),
    );
    expect((await post({ termStart: '2027-04-01', rate: '5' })).statusCode).toBe(200);
    expect(problem(await post({ termStart: '2027-04-01', rate: '6' }), 409).detail).toBe('[termStart] a reduced tax rate period starting 2027-04-01 already exists');
    expect(problem(await post({ termStart: '2027-03-01', rate: '6' }), 400)).toEqual(
      bad("[termStart] must be after the latest period's start (2027-04-01): a change is added after the rates already planned"),
    );
    expect(problem(await post({ termStart: '2028-04-01', rate: '-1' }), 400).detail).toMatch(/^\[rate\] /);
    expect(problem(await post({ termStart: '2028-04-01', rate: '5', reduceTaxId: '10000001' }), 400).detail).toMatch(/reduceTaxId/);

    await t.close();
    t = await makeTestApp();
    expect(problem(await t.api('POST', '/reduce_tax_rates', { termStart: '2027-04-01', rate: '5' }), 403).detail).toBe(
      'reduced tax rates are planned at head office: add the change on the central instance and it reaches the stores with the next pull',
    );
  });
});

describe('DELETE /consumption_tax_rates/{apply_start_date} and /reduce_tax_rates/{term_start} (ours: withdraw a planned change)', () => {
  it('a planned standard rate goes before its day begins; a begun one stays; an unknown day is a 404', async () => {
    t = await makeTestApp({ role: 'central' });
    await t.api('POST', '/consumption_tax_rates', { applyStartDate: '2027-04-01', taxRate: '12' });
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    expect((await t.api('DELETE', '/consumption_tax_rates/2027-04-01')).statusCode).toBe(204);
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'consumption_tax_rate', id: '2027-04-01', op: 'delete' }]);
    expect(await get('/consumption_tax_rates')).toEqual(CONSUMPTION);
    expect(problem(await t.api('DELETE', '/consumption_tax_rates/2027-04-01'), 404).detail).toBe('[apply_start_date] consumption tax rate starting 2027-04-01 does not exist');
    expect(problem(await t.api('DELETE', '/consumption_tax_rates/2019-10-01'), 400)).toEqual(
      bad('[apply_start_date] must be a day after today (2026-11-22, Japan time): a rate change applies to sales to come, never to days that have begun'),
    );
    expect(problem(await t.api('DELETE', '/consumption_tax_rates/2027-02-30'), 400)).toEqual(bad('[apply_start_date] must be a calendar date YYYY-MM-DD from 1900'));
  });

  it('withdrawing the latest reduced change reopens the periods it ended; an earlier or begun change stays', async () => {
    t = await makeTestApp({ role: 'central' });
    await t.api('POST', '/reduce_tax_rates', { termStart: '2027-04-01', rate: '5' });
    await t.api('POST', '/reduce_tax_rates', { termStart: '2028-04-01', rate: '0' });
    expect(problem(await t.api('DELETE', '/reduce_tax_rates/2027-04-01'), 400).detail).toBe('[term_start] the change of 2027-04-01 is followed by a later one; withdraw that one first');
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    expect((await t.api('DELETE', '/reduce_tax_rates/2028-04-01')).statusCode).toBe(204);
    expect(changes.map((c) => `${c.op} ${c.id}`)).toEqual(REDUCED.flatMap((r) => [`delete ${r.reduceTaxId}/2028-04-01`, `update ${r.reduceTaxId}/2027-04-01`]));
    expect((await t.api('DELETE', '/reduce_tax_rates/2027-04-01')).statusCode).toBe(204);
    expect(await get('/reduce_tax_rates')).toEqual(REDUCED.map((r) => ({ ...r, updDateTime: STAMP })));
    expect(problem(await t.api('DELETE', '/reduce_tax_rates/2027-04-01'), 404).detail).toBe('[term_start] no reduced tax rate change starts on 2027-04-01');
    expect(problem(await t.api('DELETE', '/reduce_tax_rates/2019-10-01'), 400).detail).toMatch(/^\[term_start\] must be a day after today/);
    await t.close();
    t = await makeTestApp();
    expect(problem(await t.api('DELETE', '/consumption_tax_rates/2027-04-01'), 403).detail).toMatch(/^consumption tax rates are planned at head office/);
    expect(problem(await t.api('DELETE', '/reduce_tax_rates/2027-04-01'), 403).detail).toMatch(/^reduced tax rates are planned at head office/);
  });
});

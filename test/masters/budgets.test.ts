import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T0_PLUS_1MIN = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/budget';
const badRequest = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const notFound = (detail: string) => ({ type: 'about:blank', title: 'Not Found', status: 404, detail });
const YEAR_FORMAT = '[year] must be a year of 4 digits (YYYY)';
const MONTH_FORMAT = '[month] must be a month of 2 digits from 01 to 12 (MM)';
const TOO_EARLY = '[year] must be 2011 or later: budget months start at January 2011';

describe('daily budgets', () => {
  let t: TestApp;
  let store: string;
  let store2: string;
  beforeEach(async () => {
    t = await makeTestApp();
    store = (await t.api('POST', '/stores', { storeName: 'Main' })).json().storeId;
    store2 = (await t.api('POST', '/stores', { storeName: 'Second' })).json().storeId;
  });
  afterEach(() => t.close());

  const put = (path: string, days: unknown) => t.api('PUT', `/budget/${path}`, { days });
  const day = (date: string, salesTarget = '100000', customerCountTarget?: string) => ({
    date,
    salesTarget,
    ...(customerCountTarget === undefined ? {} : { customerCountTarget }),
  });

  describe('PUT /budget/:store_id/:year/:month', () => {
    it('creates the month in date order with its total', async () => {
      const res = await put(`${store}/2026/11`, [day('2026-11-02', '150000.5', '40'), day('2026-11-01', '99999.25')]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        storeId: store,
        year: '2026',
        month: '11',
        salesTargetTotal: '249999.75',
        days: [
          { storeId: store, date: '2026-11-01', salesTarget: '99999.25', customerCountTarget: null, insDateTime: AT_T0, updDateTime: AT_T0 },
          { storeId: store, date: '2026-11-02', salesTarget: '150000.5', customerCountTarget: '40', insDateTime: AT_T0, updDateTime: AT_T0 },
        ],
      });
      expect((await t.api('GET', `/budget/${store}/2026/11`)).json()).toEqual(res.json());
    });

    it('replaces the month: kept days are updated (insDateTime stays), new ones added, the rest removed', async () => {
      await put(`${store}/2026/11`, [day('2026-11-01', '1'), day('2026-11-02', '2')]);
      t.clock.advance(60_000);
      const res = await put(`${store}/2026/11`, [day('2026-11-02', '20', '5'), day('2026-11-30', '30')]);
      expect(res.json().days).toEqual([
        { storeId: store, date: '2026-11-02', salesTarget: '20', customerCountTarget: '5', insDateTime: AT_T0, updDateTime: AT_T0_PLUS_1MIN },
        { storeId: store, date: '2026-11-30', salesTarget: '30', customerCountTarget: null, insDateTime: AT_T0_PLUS_1MIN, updDateTime: AT_T0_PLUS_1MIN },
      ]);
      expect(res.json().salesTargetTotal).toBe('50');
    });

    it('keeps other months and other stores apart', async () => {
      await put(`${store}/2026/11`, [day('2026-11-30')]);
      await put(`${store}/2026/12`, [day('2026-12-01', '5')]);
      await put(`${store2}/2026/11`, [day('2026-11-30', '7')]);
      await put(`${store}/2026/11`, [day('2026-11-01')]);
      expect((await t.api('GET', `/budget/${store}/2026/12`)).json().days.map((d: { date: string }) => d.date)).toEqual(['2026-12-01']);
      expect((await t.api('GET', `/budget/${store2}/2026/11`)).json().salesTargetTotal).toBe('7');
    });

    it('refuses days outside the month, twice the same day, and a bad body, writing nothing', async () => {
      expect(problem(await put(`${store}/2026/11`, [day('2026-11-01'), day('2026-12-01')]), 400)).toEqual(
        badRequest('[days[1].date] 2026-12-01 is not in 2026-11'),
      );
      expect(problem(await put(`${store}/2026/11`, [day('2026-11-05'), day('2026-11-05')]), 400)).toEqual(
        badRequest('[days[1].date] 2026-11-05 is given twice'),
      );
      expect(problem(await put(`${store}/2026/02`, [day('2026-02-29')]), 400).detail).toBe('[days[0].date] must be a calendar date YYYY-MM-DD from 1900');
      expect(problem(await put(`${store}/2026/11`, []), 400).detail).toBe('[days] must have at least 1 day; DELETE removes a month');
      expect(problem(await put(`${store}/2026/11`, Array.from({ length: 32 }, () => day('2026-11-01'))), 400).detail).toBe(
        '[days] must have at most 31 days',
      );
      expect(
        problem(await put(`${store}/2026/11`, [{ date: '2026-11-01', salesTarget: '1.0001', customerCountTarget: '-1', memo: 'x' }]), 400).detail,
      ).toBe(
        '[days[0].salesTarget] must be a non-negative decimal string of up to 12 integer digits and up to 3 decimals; ' +
          '[days[0].customerCountTarget] must be 1 to 9 digits; [days[0].memo] is not a known field',
      );
      expect(problem(await put(`${store}/2026/11`, [{ date: '2026-11-01' }]), 400).detail).toBe('[days[0].salesTarget] is required');
      expect(problem(await t.api('PUT', `/budget/${store}/2026/11`, {}), 400).detail).toBe('[days] is required');
      expect(problem(await t.api('GET', `/budget/${store}/2026/11`), 404).status).toBe(404);
      // the largest target fits
      expect((await put(`${store}/2026/11`, [day('2026-11-01', '999999999999.999')])).json().salesTargetTotal).toBe('999999999999.999');
    });

    it('accepts "" and null for no customer-count target', async () => {
      const res = await put(`${store}/2026/11`, [{ ...day('2026-11-01'), customerCountTarget: '' }, { ...day('2026-11-02'), customerCountTarget: null }]);
      expect(res.json().days.map((d: { customerCountTarget: string | null }) => d.customerCountTarget)).toEqual([null, null]);
    });

    it('is a 404 for an unknown store, and the year-month rules of 4.9 apply', async () => {
      expect(problem(await put('999/2026/11', [day('2026-11-01')]), 404)).toEqual(notFound('[store_id] store 999 does not exist'));
      expect(problem(await put(`${store}/2010/12`, [day('2010-12-01')]), 400).detail).toBe(TOO_EARLY);
      expect(problem(await put(`${store}/2026/13`, [day('2026-11-01')]), 400).detail).toBe(MONTH_FORMAT);
      expect((await put(`${store}/2011/01`, [day('2011-01-31')])).statusCode).toBe(200);
    });
  });

  describe('DELETE /budget/:store_id/:year/:month (spec 4.9)', () => {
    it('deletes the month with 204 and no body, leaving other months', async () => {
      await put(`${store}/2026/11`, [day('2026-11-01'), day('2026-11-02')]);
      await put(`${store}/2026/12`, [day('2026-12-01')]);
      const res = await t.api('DELETE', `/budget/${store}/2026/11`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(problem(await t.api('GET', `/budget/${store}/2026/11`), 404).detail).toBe(`[month] store ${store} has no daily budget for 2026-11`);
      expect((await t.api('GET', `/budget/${store}/2026/12`)).statusCode).toBe(200);
    });

    it('is a 404 when the store has no budget that month, or the store does not exist', async () => {
      await put(`${store}/2026/11`, [day('2026-11-01')]);
      expect(problem(await t.api('DELETE', `/budget/${store}/2026/10`), 404)).toEqual(notFound(`[month] store ${store} has no daily budget for 2026-10`));
      expect(problem(await t.api('DELETE', `/budget/${store2}/2026/11`), 404).detail).toBe(`[month] store ${store2} has no daily budget for 2026-11`);
      expect(problem(await t.api('DELETE', '/budget/424242/2026/11'), 404)).toEqual(notFound('[store_id] store 424242 does not exist'));
    });

    it('is a 400 before January 2011', async () => {
      expect(problem(await t.api('DELETE', `/budget/${store}/2010/12`), 400)).toEqual(badRequest(TOO_EARLY));
      expect(problem(await t.api('DELETE', `/budget/${store}/0000/01`), 400).detail).toBe(TOO_EARLY);
      expect(problem(await t.api('DELETE', `/budget/${store}/2011/01`), 404).status).toBe(404);
    });

    it('is a 400 for a year-month that is not in the calendar or not YYYY/MM', async () => {
      for (const month of ['00', '13', '1', '001', 'ab', '1a']) {
        expect(problem(await t.api('DELETE', `/budget/${store}/2026/${month}`), 400), month).toEqual(badRequest(MONTH_FORMAT));
      }
      for (const year of ['26', '20260', 'abcd', '２０２６']) {
        expect(problem(await t.api('DELETE', `/budget/${store}/${encodeURIComponent(year)}/11`), 400), year).toEqual(badRequest(YEAR_FORMAT));
      }
      expect(problem(await t.api('DELETE', `/budget/${store}/1999/13`), 400).detail).toBe(`${TOO_EARLY}; ${MONTH_FORMAT}`);
      expect(problem(await t.api('DELETE', '/budget/x/2026/11'), 400).detail).toBe('[store_id] must be 1 to 9 digits');
    });

    it('is refused to an enterprise contract (403) while the supporting operations stay open', async () => {
      await t.close();
      t = await makeTestApp({ plan: 'enterprise' });
      store = (await t.api('POST', '/stores', { storeName: 'Main' })).json().storeId;
      expect((await put(`${store}/2026/11`, [day('2026-11-01')])).statusCode).toBe(200);
      expect((await t.api('GET', `/budget/${store}/2026/11`)).statusCode).toBe(200);
      expect((await t.api('GET', '/budget')).statusCode).toBe(200);
      expect(problem(await t.api('DELETE', `/budget/${store}/2026/11`), 403).detail).toBe(
        "the contract's plan enterprise cannot use DELETE /budget/{store_id}/{year}/{month} " +
          '(plans: standard, premium, premium_plus, food_business, retail_business)',
      );
      expect((await t.api('GET', `/budget/${store}/2026/11`)).statusCode).toBe(200);
    });

    it('is allowed to each of the five plans', async () => {
      for (const plan of ['standard', 'premium', 'premium_plus', 'food_business', 'retail_business'] as const) {
        await t.close();
        t = await makeTestApp({ plan });
        store = (await t.api('POST', '/stores', { storeName: 'Main' })).json().storeId;
        await put(`${store}/2026/11`, [day('2026-11-01')]);
        expect((await t.api('DELETE', `/budget/${store}/2026/11`)).statusCode, plan).toBe(204);
      }
    });
  });

  describe('GET /budget/:store_id/:year/:month', () => {
    it('applies the same path rules', async () => {
      expect(problem(await t.api('GET', `/budget/${store}/2010/12`), 400).detail).toBe(TOO_EARLY);
      expect(problem(await t.api('GET', `/budget/${store}/2026/00`), 400).detail).toBe(MONTH_FORMAT);
      expect(problem(await t.api('GET', '/budget/777/2026/11'), 404).detail).toBe('[store_id] store 777 does not exist');
      expect(problem(await t.api('GET', `/budget/${store}/2026/11?x=1`), 400).detail).toBe('[x] is not a known field');
    });
  });

  describe('GET /budget', () => {
    const seed = async () => {
      await put(`${store}/2026/11`, [day('2026-11-29', '1'), day('2026-11-30', '2')]);
      await put(`${store}/2026/12`, [day('2026-12-01', '3')]);
      await put(`${store2}/2026/11`, [day('2026-11-30', '4')]);
    };
    const keys = (res: { json(): unknown }) => (res.json() as { storeId: string; date: string }[]).map((d) => `${d.storeId === store ? 'S1' : 'S2'} ${d.date}`);

    it('lists days by date then store, filtered by store and an inclusive date range', async () => {
      await seed();
      const all = await t.api('GET', '/budget');
      expect(all.statusCode).toBe(200);
      expect(all.headers.link).toBeUndefined();
      expect(keys(all)).toEqual(['S1 2026-11-29', 'S1 2026-11-30', 'S2 2026-11-30', 'S1 2026-12-01']);
      expect((all.json() as { salesTarget: string }[]).map((d) => d.salesTarget)).toEqual(['1', '2', '4', '3']);
      expect(keys(await t.api('GET', `/budget?store_id=${store}`))).toEqual(['S1 2026-11-29', 'S1 2026-11-30', 'S1 2026-12-01']);
      expect(keys(await t.api('GET', '/budget?from=2026-11-30&to=2026-11-30'))).toEqual(['S1 2026-11-30', 'S2 2026-11-30']);
      expect(keys(await t.api('GET', '/budget?from=2026-12-01'))).toEqual(['S1 2026-12-01']);
      expect(keys(await t.api('GET', '/budget?sort=storeId:desc,date:desc'))).toEqual(['S2 2026-11-30', 'S1 2026-12-01', 'S1 2026-11-30', 'S1 2026-11-29']);
    });

    it('refuses a bad range or filter', async () => {
      expect(problem(await t.api('GET', '/budget?from=2026-12-01&to=2026-11-30'), 400).detail).toBe('[to] must not be before from');
      expect(problem(await t.api('GET', '/budget?from=2026-02-30'), 400).detail).toBe('[from] must be a calendar date YYYY-MM-DD from 1900');
      expect(problem(await t.api('GET', '/budget?store=1'), 400).detail).toBe('[store] is not a known field');
      expect(problem(await t.api('GET', '/budget?sort=salesTarget'), 400).detail).toBe(
        '[sort] salesTarget is not a sort key; use date, storeId with an optional :desc',
      );
    });

    it('pages with Link headers', async () => {
      await seed();
      const first = await t.api('GET', '/budget?limit=3');
      expect(keys(first)).toEqual(['S1 2026-11-29', 'S1 2026-11-30', 'S2 2026-11-30']);
      expect(first.headers.link).toBe(`<${LINK_BASE}?limit=3&page=2>; rel="next"`);
      const second = await t.api('GET', '/budget?limit=3&page=2');
      expect(keys(second)).toEqual(['S1 2026-12-01']);
      expect(second.headers.link).toBe(`<${LINK_BASE}?limit=3&page=1>; rel="prev"`);
    });
  });

  it('needs pos.transactions:write to write and pos.transactions:read to read', async () => {
    await put(`${store}/2026/11`, [day('2026-11-01')]);
    const reader = await t.tokenFor({ scopes: ['pos.transactions:read'] });
    const detail = '[scope] the token lacks the scope pos.transactions:write';
    expect(problem(await t.api('PUT', `/budget/${store}/2026/11`, { days: [day('2026-11-01')] }, reader), 403).detail).toBe(detail);
    expect(problem(await t.api('DELETE', `/budget/${store}/2026/11`, undefined, reader), 403).detail).toBe(detail);
    expect((await t.api('GET', `/budget/${store}/2026/11`, undefined, reader)).statusCode).toBe(200);
    const writer = await t.tokenFor({ scopes: ['pos.transactions:write'] });
    expect(problem(await t.api('GET', '/budget', undefined, writer), 403).detail).toBe('[scope] the token lacks the scope pos.transactions:read');
  });

  it('does not reach the stores or budgets of another contract', async () => {
    t.addContract('other', 'standard');
    const other = await t.tokenFor({ contractId: 'other' });
    const theirStore = (
      await t.app.inject({ method: 'POST', url: '/other/pos/stores', headers: { authorization: `Bearer ${other}` }, payload: { storeName: 'Theirs' } })
    ).json().storeId;
    expect(problem(await put(`${theirStore}/2026/11`, [day('2026-11-01')]), 404).detail).toBe(`[store_id] store ${theirStore} does not exist`);
    expect((await t.api('GET', '/budget')).json()).toEqual([]);
  });

  it('reports every day inserted, updated and deleted', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    await put(`${store}/2026/11`, [day('2026-11-01'), day('2026-11-02')]);
    await put(`${store}/2026/11`, [day('2026-11-02'), day('2026-11-03')]);
    await put(`${store}/2026/11`, [day('2026-12-03')]); // refused: no change
    await t.api('DELETE', `/budget/${store}/2026/11`);
    expect(changes.map((c) => `${c.entity} ${c.op} ${c.id}`)).toEqual([
      `daily_budget insert ${store}/2026-11-01`,
      `daily_budget insert ${store}/2026-11-02`,
      `daily_budget update ${store}/2026-11-02`,
      `daily_budget insert ${store}/2026-11-03`,
      `daily_budget delete ${store}/2026-11-01`,
      `daily_budget delete ${store}/2026-11-02`,
      `daily_budget delete ${store}/2026-11-03`,
    ]);
  });
});

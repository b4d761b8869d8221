import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../helpers/app.js';
import { line, makeFixture, type Fixture } from './transactions-fixtures.js';

let f: Fixture;
const ids: string[] = [];
let store2: string;
let terminal2: string;
const DAY = 24 * 3600 * 1000;
// Registered (transactionDateTime) on 2026-11-22, 23 and 24, 10:00 JST.
const RANGE = 'transaction_date_time-from=2026-11-22T00:00:00%2B09:00&transaction_date_time-to=2026-11-30T00:00:00%2B09:00';

beforeAll(async () => {
  f = await makeFixture();
  store2 = (await f.create('/stores', { storeName: 'Second' })).storeId;
  terminal2 = (await f.create('/terminals', { storeId: store2, terminalName: 'S1' })).terminalId;
  const customer = (await f.create('/customers', { customerCode: 'L1', lastName: 'Ito', firstName: 'Ken' })).customerId;
  ids.push((await f.sale({ details: [line(1, '100')], terminalTranDateTime: '2026-11-21T20:00:00+09:00' })).transactionHeadId);
  await f.advance(DAY);
  ids.push((await f.sale({ details: [line(1, '200'), line(2, '50')], customerId: customer })).transactionHeadId);
  ids.push((await f.sale({ transactionHeadDivision: '2', total: '1000', terminalTranDateTime: undefined })).transactionHeadId);
  await f.advance(DAY);
  ids.push(
    (await f.sale({ storeId: store2, terminalId: terminal2, sumDivision: '2', sumDate: '2026-11-24', details: [line(1, '300')], terminalTranDateTime: '2026-11-24T09:00:00+09:00' }))
      .transactionHeadId,
  );
});
afterAll(() => f.t.close());

const list = (query: string) => f.api('GET', `/transactions?${query}`);
const idsOf = async (query: string) => {
  const res = await list(query);
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return (res.json() as { transactionHeadId: string }[]).map((t) => t.transactionHeadId);
};

describe('GET /transactions', () => {
  it('needs one complete range of at most 31 days, from not after to', async () => {
    const all = 'a complete range is required: transaction_date_time-from and transaction_date_time-to, or terminal_tran_date_time-from and terminal_tran_date_time-to, or sum_date-from and sum_date-to, or upd_date_time-from and upd_date_time-to';
    expect(problem(await list(''), 400).detail).toBe(`[query] ${all}`);
    expect(problem(await list('store_id=1&transaction_date_time-from=2026-11-22T00:00:00Z'), 400).detail).toBe(`[query] ${all}`);
    expect(problem(await list('sum_date-from=2026-01-01&sum_date-to=2026-02-02'), 400).detail).toBe(
      '[sum_date-to] the range from sum_date-from may span at most 31 days',
    );
    expect(problem(await list('upd_date_time-from=2026-11-22T00:00:00Z&upd_date_time-to=2026-12-23T00:00:01Z'), 400).detail).toBe(
      '[upd_date_time-to] the range from upd_date_time-from may span at most 31 days',
    );
    expect(problem(await list('terminal_tran_date_time-from=2026-11-22T00:00:00Z&terminal_tran_date_time-to=2026-11-21T00:00:00Z'), 400).detail).toBe(
      '[terminal_tran_date_time-to] must not be earlier than terminal_tran_date_time-from',
    );
    expect(problem(await list(`${RANGE}&sort=total`), 400).detail).toBe(
      '[sort] total is not a sort key; use transactionHeadId, transactionDateTime, transactionHeadDivision, storeId, terminalId, customerId, terminalTranId, terminalTranDateTime, sumDate, updDateTime with an optional :desc',
    );
    expect(problem(await list(`${RANGE}&transaction_head_id=1,,2`), 400).detail).toBe(
      '[transaction_head_id] must be transaction ids (up to 9 digits) separated by commas',
    );
    // 31 calendar days counting both ends is allowed, 32 is not; date-times span at most 31 × 24 h
    expect(await idsOf('sum_date-from=2026-10-25&sum_date-to=2026-11-24')).toEqual([ids[3]]);
    expect(problem(await list('sum_date-from=2026-10-24&sum_date-to=2026-11-24'), 400).detail).toBe(
      '[sum_date-to] the range from sum_date-from may span at most 31 days',
    );
    expect(await idsOf('upd_date_time-from=2026-10-24T10:00:00%2B09:00&upd_date_time-to=2026-11-24T10:00:00%2B09:00')).toEqual(ids);
  });

  it('filters by each range and by the equality filters', async () => {
    expect(await idsOf(RANGE)).toEqual(ids);
    expect(await idsOf('transaction_date_time-from=2026-11-23T00:00:00%2B09:00&transaction_date_time-to=2026-11-23T23:59:59%2B09:00')).toEqual([ids[1], ids[2]]);
    expect(await idsOf('terminal_tran_date_time-from=2026-11-21T00:00:00%2B09:00&terminal_tran_date_time-to=2026-11-21T23:59:59%2B09:00')).toEqual([ids[0]]);
    expect(await idsOf('upd_date_time-from=2026-11-24T00:00:00%2B09:00&upd_date_time-to=2026-11-25T00:00:00%2B09:00')).toEqual([ids[3]]);
    expect(await idsOf(`${RANGE}&store_id=${store2}`)).toEqual([ids[3]]);
    expect(await idsOf(`${RANGE}&terminal_id=${f.terminal}`)).toEqual([ids[0], ids[1], ids[2]]);
    expect(await idsOf(`${RANGE}&sum_division=2`)).toEqual([ids[3]]);
    expect(await idsOf(`${RANGE}&transaction_head_division=2`)).toEqual([ids[2]]);
    const member = (await list(`${RANGE}&transaction_head_id=${ids[1]}`)).json()[0].customerId;
    expect(await idsOf(`${RANGE}&customer_id=${member}`)).toEqual([ids[1]]);
    expect(await idsOf(`${RANGE}&transaction_head_id=${ids[3]},${ids[0]},999`)).toEqual([ids[0], ids[3]]);
  });

  it('filters by a transactionHeadId range, which is not one of the required ranges', async () => {
    expect(await idsOf(`${RANGE}&transaction_head_id-from=${ids[1]}&transaction_head_id-to=${ids[2]}`)).toEqual([ids[1], ids[2]]);
    expect(await idsOf(`${RANGE}&transaction_head_id-from=${ids[2]}`)).toEqual([ids[2], ids[3]]);
    expect(await idsOf(`${RANGE}&transaction_head_id-to=${ids[0]}`)).toEqual([ids[0]]);
    expect(problem(await list(`${RANGE}&transaction_head_id-from=${ids[2]}&transaction_head_id-to=${ids[1]}`), 400).detail).toBe(
      '[transaction_head_id-to] must not be less than transaction_head_id-from',
    );
    expect(problem(await list(`transaction_head_id-from=${ids[0]}&transaction_head_id-to=${ids[3]}`), 400).detail).toMatch(/^\[query\] a complete range is required/);
  });

  it('headers only, unless with_details=all', async () => {
    const headers = (await list(`${RANGE}&transaction_head_id=${ids[1]}`)).json();
    expect(headers[0]).toMatchObject({ transactionHeadId: ids[1], total: '250' });
    expect(headers[0]).not.toHaveProperty('details');
    const full = (await list(`${RANGE}&with_details=all`)).json();
    expect(full.map((t: any) => t.details.length)).toEqual([1, 2, 0, 1]);
    expect(full[1]).toEqual((await f.api('GET', `/transactions/${ids[1]}`)).json());
    expect(full[1]).toHaveProperty('depositOthers', []);
  });

  it('sorts and pages with a Link header', async () => {
    expect(await idsOf(`${RANGE}&sort=terminalTranDateTime:desc`)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect(await idsOf(`${RANGE}&sort=transactionDateTime:desc,transactionHeadId`)).toEqual([ids[3], ids[1], ids[2], ids[0]]);
    expect(await idsOf(`${RANGE}&sort=sumDate:desc`)).toEqual([ids[3], ids[0], ids[1], ids[2]]);
    // The platform's other sort keys: by division (a deposit, '2', after the sales) then id descending.
    const divisions = (await list(`${RANGE}&sort=transactionHeadDivision:desc,transactionHeadId:desc`)).json().map((t: any) => t.transactionHeadDivision);
    expect(divisions).toEqual([...divisions].sort().reverse());
    expect((await list(`${RANGE}&sort=storeId,terminalId,customerId,terminalTranId`)).statusCode).toBe(200);
    const first = await list(`${RANGE}&limit=3`);
    expect(first.json()).toHaveLength(3);
    const base = `http://localhost/test-contract/pos/transactions?${RANGE.replaceAll(':', '%3A')}`; // URLSearchParams encodes the colons
    expect(first.headers.link).toBe(`<${base}&limit=3&page=2>; rel="next"`);
    const second = await list(`${RANGE}&limit=3&page=2`);
    expect(second.json().map((t: any) => t.transactionHeadId)).toEqual([ids[3]]);
    expect(second.headers.link).toBe(`<${base}&limit=3&page=1>; rel="prev"`);
  });

  it('still reads the older underscore spellings of the ranges as the platform\'s dashed names', async () => {
    expect(await idsOf(RANGE.replaceAll('-from', '_from').replaceAll('-to', '_to'))).toEqual(ids);
    expect(await idsOf(`${RANGE}&transaction_head_id_from=${ids[1]}&transaction_head_id_to=${ids[2]}`)).toEqual([ids[1], ids[2]]);
    expect(problem(await list('sum_date_from=2026-01-01&sum_date_to=2026-02-02'), 400).detail).toBe(
      '[sum_date-to] the range from sum_date-from may span at most 31 days',
    );
  });

  it('refuses unknown parameters', async () => {
    expect(problem(await list(`${RANGE}&shop=1`), 400).detail).toBe('[shop] is not a known field');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../helpers/app.js';
import { line, makeFixture, type Fixture } from './transactions-fixtures.js';

/**
 * Reads of sales as a platform client sends them (issue 16): the list's platform filters and
 * with_* parameters, GET one with the related records, the lines of one sale, and the paths
 * under /transactions this server does not have.
 */
let f: Fixture;
let member: Record<string, any>;
let group: string;
let staff: string;
let method: string;
let memberSale: Record<string, any>;
let plainSale: Record<string, any>;
let closedSale: Record<string, any>;

// Exactly as a client of the platform sends it (the `+` of the offset percent-encoded).
const NOVEMBER = 'transaction_date_time-from=2026-11-01T00:00:00%2B09:00&transaction_date_time-to=2026-11-30T00:00:00%2B09:00';

const SUMMARY_KEYS = [
  'transactionHeadId', 'transactionDetailId', 'parentTransactionDetailId', 'transactionDetailDivision', 'productId', 'productCode',
  'productName', 'printReceiptProductName', 'color', 'size', 'groupCode', 'taxDivision', 'price', 'salesPrice', 'unitDiscountPrice',
  'unitDiscountRate', 'cost', 'quantity', 'unitNonDiscountSum', 'unitDiscountSum', 'unitDiscountedSum', 'costSum', 'categoryId',
  'categoryName', 'salesDivision', 'productDivision', 'taxRate',
];

beforeAll(async () => {
  f = await makeFixture();
  group = (await f.create('/customer_groups', { customerGroupSectionId: '1', label: 'Regulars' })).customerGroupId;
  member = await f.create('/customers', { customerCode: 'M-001', lastName: 'Ito', firstName: 'Ken', customerGroupId: group });
  staff = (await f.create('/staffs', { staffName: 'Hanako Sato', staffCode: 'S9' })).staffId;
  method = (await f.create('/payment_methods', { paymentMethodCode: 'QR', paymentMethodName: 'QR pay', paymentDivision: '4' })).paymentMethodId;
  memberSale = await f.sale({
    customerId: member.customerId,
    staffId: staff,
    transactionUuid: 'R-0001',
    details: [line(1, '200', { productName: 'Tea', categoryId: f.category, memo: 'gift' }), line(2, '50')],
    depositOthers: [{ paymentMethodId: method, depositOthers: '250' }],
  });
  plainSale = await f.sale({ details: [line(1, '100')] });
  closedSale = await f.sale({ transactionUuid: 'R-0003', sumDivision: '2', sumDate: '2026-11-22', adjustmentDateTime: '2026-11-22T10:00:00+09:00', details: [line(1, '300')] });
});
afterAll(() => f.t.close());

const get = async (path: string) => {
  const res = await f.api('GET', path);
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json();
};
const ids = async (query: string) => ((await get(`/transactions?${query}`)) as { transactionHeadId: string }[]).map((t) => t.transactionHeadId);

describe('GET /transactions as a platform client sends it', () => {
  it('with_details=summary: each sale with its lines, some fields of each', async () => {
    const list = await get(`/transactions?${NOVEMBER}&with_details=summary`);
    expect(list.map((t: any) => t.transactionHeadId)).toEqual([memberSale.transactionHeadId, plainSale.transactionHeadId, closedSale.transactionHeadId]);
    const [first] = list;
    expect(first.total).toBe('250');
    expect(first.details).toHaveLength(2);
    expect(Object.keys(first.details[0])).toEqual(SUMMARY_KEYS);
    expect(first.details[0]).toMatchObject({ transactionHeadId: memberSale.transactionHeadId, transactionDetailId: '1', productName: 'Tea', salesPrice: '200', quantity: '1' });
    expect(first.details[0]).not.toHaveProperty('memo');
    expect(first.details[0]).not.toHaveProperty('discountPriceProportional');
    expect(first).not.toHaveProperty('depositOthers');
    expect(first).not.toHaveProperty('coupons');
  });

  it('with_details=all gives every field of the lines; none and no parameter give the header only', async () => {
    const all = await get(`/transactions?${NOVEMBER}&with_details=all`);
    expect(all[0].details).toEqual(memberSale.details);
    for (const query of [`${NOVEMBER}&with_details=none`, NOVEMBER]) {
      const headers = await get(`/transactions?${query}`);
      expect(headers[0]).not.toHaveProperty('details');
      expect(headers[0]).not.toHaveProperty('depositOthers');
    }
  });

  it('with_deposit_others=all adds the other payments, with or without the lines', async () => {
    const list = await get(`/transactions?${NOVEMBER}&with_deposit_others=all`);
    expect(list[0].depositOthers).toEqual(memberSale.depositOthers);
    expect(list[0].depositOthers[0]).toMatchObject({ paymentMethodId: method, depositOthers: '250' });
    expect(list[1].depositOthers).toEqual([]);
    expect(list[0]).not.toHaveProperty('details');
    const both = await get(`/transactions?${NOVEMBER}&with_details=summary&with_deposit_others=all`);
    expect(both[0].details).toHaveLength(2);
    expect(both[0].depositOthers).toHaveLength(1);
    expect((await get(`/transactions?${NOVEMBER}&with_deposit_others=none`))[0]).not.toHaveProperty('depositOthers');
  });

  it('filters by store_id, customer_code, transaction_head_division, transaction_uuid, sum_date and adjustment_date_time', async () => {
    expect(await ids(`${NOVEMBER}&customer_code=M-001`)).toEqual([memberSale.transactionHeadId]);
    expect(await ids(`${NOVEMBER}&customer_code=NOBODY`)).toEqual([]);
    expect(await ids(`${NOVEMBER}&transaction_uuid=R-0001`)).toEqual([memberSale.transactionHeadId]);
    expect(await ids(`${NOVEMBER}&transaction_uuid=${plainSale.transactionUuid}`)).toEqual([plainSale.transactionHeadId]);
    expect(await ids(`${NOVEMBER}&store_id=${f.store}&transaction_head_division=1`)).toHaveLength(3);
    expect(await ids(`${NOVEMBER}&store_id=999`)).toEqual([]);
    expect(await ids(`${NOVEMBER}&transaction_head_division=2`)).toEqual([]);
    expect(await ids(`${NOVEMBER}&sum_date=2026-11-22`)).toEqual([closedSale.transactionHeadId]);
    expect(await ids(`${NOVEMBER}&adjustment_date_time=2026-11-22T01:00:00Z`)).toEqual([closedSale.transactionHeadId]);
    expect(await ids(`${NOVEMBER}&transaction_head_id-from=${plainSale.transactionHeadId}&transaction_head_id-to=${closedSale.transactionHeadId}`)).toEqual([
      plainSale.transactionHeadId,
      closedSale.transactionHeadId,
    ]);
    expect(await ids(`sum_date-from=2026-11-22&sum_date-to=2026-11-22`)).toEqual([closedSale.transactionHeadId]);
    expect(await ids(`terminal_tran_date_time-from=2026-11-22T00:00:00%2B09:00&terminal_tran_date_time-to=2026-11-23T00:00:00%2B09:00`)).toHaveLength(3);
    expect(await ids(`upd_date_time-from=2026-11-22T00:00:00%2B09:00&upd_date_time-to=2026-11-23T00:00:00%2B09:00`)).toHaveLength(3);
  });

  it('fields chooses header fields; the with_* records still come', async () => {
    const list = await get(`/transactions?${NOVEMBER}&fields=transactionHeadId,total&with_deposit_others=all&limit=1`);
    expect(list).toEqual([{ transactionHeadId: memberSale.transactionHeadId, total: '250', depositOthers: memberSale.depositOthers }]);
    expect(problem(await f.api('GET', `/transactions?${NOVEMBER}&fields=shop`), 400).detail).toBe('[fields] shop is not a transaction field');
    expect(problem(await f.api('GET', `/transactions?${NOVEMBER}&fields=details`), 400).detail).toBe(
      '[fields] details is added by its with_ parameter, not by fields',
    );
    expect(problem(await f.api('GET', `/transactions?${NOVEMBER}&fields=details.productName`), 400).detail).toBe(
      '[fields] details.productName: fields of the second level and below cannot be chosen',
    );
  });

  it('refuses what the platform refuses, naming the dashed parameter', async () => {
    const detail = async (query: string) => problem(await f.api('GET', `/transactions?${query}`), 400).detail;
    expect(await detail(`${NOVEMBER}&with_details=summary&limit=101`)).toBe('[limit] must be at most 100 with with_details=summary');
    expect(await detail(`${NOVEMBER}&with_details=all&limit=1000`)).toBe('[limit] must be at most 100 with with_details=all');
    expect((await f.api('GET', `/transactions?${NOVEMBER}&limit=1000`)).statusCode).toBe(200);
    expect(await detail(`${NOVEMBER}&with_details=some`)).toBe('[with_details] must be one of none, summary, all');
    expect(await detail(`${NOVEMBER}&with_deposit_others=summary`)).toBe('[with_deposit_others] must be one of none, all');
    expect(await detail('transaction_date_time-from=2026-11-01T00:00:00%2B09:00&transaction_date_time-to=2026-12-02T00:00:01%2B09:00')).toBe(
      '[transaction_date_time-to] the range from transaction_date_time-from may span at most 31 days',
    );
    expect(await detail('transaction_date_time-from=2026-11-01T00:00:00%2B09:00')).toBe(
      '[query] a complete range is required: transaction_date_time-from and transaction_date_time-to, or terminal_tran_date_time-from and terminal_tran_date_time-to, or sum_date-from and sum_date-to, or upd_date_time-from and upd_date_time-to',
    );
    expect(await detail(`${NOVEMBER}&transaction_head_id-from=5&transaction_head_id-to=4`)).toBe('[transaction_head_id-to] must not be less than transaction_head_id-from');
  });

  it('takes the platform\'s with_* for records this server does not keep as none; all is a 400 saying why', async () => {
    const none = 'with_layaways=none&with_layaway_pick_ups=none&with_money_control=none&with_detail_product_attributes=none';
    expect(await ids(`${NOVEMBER}&${none}`)).toHaveLength(3);
    expect(problem(await f.api('GET', `/transactions?${NOVEMBER}&with_layaways=all`), 400).detail).toBe('[with_layaways] only none is served: layaways are read through GET /transactions/layaways (with_layaway=all answers pickUpTransactionHeadId, the sale that picked one up)');
    expect(problem(await f.api('GET', `/transactions?${NOVEMBER}&with_money_control=all`), 400).detail).toBe(
      '[with_money_control] only none is served: this server records no money-control operations of a sale',
    );
  });
});

describe('GET /transactions/{transaction_id} as a platform client sends it', () => {
  it('with_details=all&with_store=all&with_customer=all: the whole sale with its store and member', async () => {
    const read = await get(`/transactions/${memberSale.transactionHeadId}?with_details=all&with_store=all&with_customer=all`);
    const { store, customer, ...rest } = read;
    expect(rest).toEqual(memberSale);
    expect(store).toEqual(await get(`/stores/${f.store}`));
    expect(store).toMatchObject({ storeId: f.store, storeName: 'Main' });
    expect(customer).toEqual(await get(`/customers/${member.customerId}`));
    expect(customer).toMatchObject({ customerId: member.customerId, customerCode: 'M-001' });
    expect(read).not.toHaveProperty('staff');
  });

  it('with_customer=all on a sale without a member answers customer null', async () => {
    const read = await get(`/transactions/${plainSale.transactionHeadId}?with_customer=all&with_staff=all&with_customer_groups=all`);
    expect(read).toMatchObject({ customer: null, staff: null, customerGroups: [] });
  });

  it('with_staff and with_customer_groups add the staff member (who they are) and the groups the sale names', async () => {
    const read = await get(`/transactions/${memberSale.transactionHeadId}?with_staff=all&with_customer_groups=all`);
    expect(read.staff).toEqual({ staffId: staff, staffCode: 'S9', staffName: 'Hanako Sato', staffKana: null });
    expect(read.customerGroups).toEqual([await get(`/customer_groups/${group}`)]);
  });

  it('with_details=summary gives the summary lines; none leaves them out; with_deposit_others and with_coupons none leave theirs out', async () => {
    const summary = await get(`/transactions/${memberSale.transactionHeadId}?with_details=summary`);
    expect(summary.details.map((d: any) => Object.keys(d))).toEqual([SUMMARY_KEYS, SUMMARY_KEYS]);
    expect(summary.depositOthers).toEqual(memberSale.depositOthers);
    const bare = await get(`/transactions/${memberSale.transactionHeadId}?with_details=none&with_deposit_others=none&with_coupons=none`);
    expect(bare).not.toHaveProperty('details');
    expect(bare).not.toHaveProperty('depositOthers');
    expect(bare).not.toHaveProperty('coupons');
    expect(bare.total).toBe('250');
    const coupons = await get(`/transactions/${memberSale.transactionHeadId}?with_coupons=all&with_deposit_others=all`);
    expect(coupons).toEqual(memberSale);
  });

  it('takes the with_* for records this server does not keep as none', async () => {
    const read = await get(`/transactions/${memberSale.transactionHeadId}?with_coupon_items=none&with_discounts=none&with_recorded_staff=none&with_layaways=none`);
    expect(read).toEqual(memberSale);
    expect(problem(await f.api('GET', `/transactions/${memberSale.transactionHeadId}?with_discounts=all`), 400).detail).toBe(
      '[with_discounts] only none is served: this server keeps no discount-division records (the ids are on the header and lines)',
    );
  });

  it('refuses unknown values and parameters; 404 for an unknown sale', async () => {
    expect(problem(await f.api('GET', `/transactions/${memberSale.transactionHeadId}?with_store=yes`), 400).detail).toBe('[with_store] must be one of none, all');
    expect(problem(await f.api('GET', `/transactions/${memberSale.transactionHeadId}?with_shop=all`), 400).detail).toBe('[with_shop] is not a known field');
    expect(problem(await f.api('GET', '/transactions/999999?with_store=all'), 404).detail).toBe('[transaction_id] transaction 999999 does not exist');
  });
});

describe('GET /transactions/{transaction_id}/details', () => {
  it('answers the lines of one sale, every field, in line order, paged', async () => {
    expect(await get(`/transactions/${memberSale.transactionHeadId}/details`)).toEqual(memberSale.details);
    expect(await get(`/transactions/${plainSale.transactionHeadId}/details`)).toEqual(plainSale.details);
    expect((await get(`/transactions/${memberSale.transactionHeadId}/details?sort=transactionDetailId:desc`)).map((d: any) => d.transactionDetailId)).toEqual(['2', '1']);
    const first = await f.api('GET', `/transactions/${memberSale.transactionHeadId}/details?limit=1`);
    expect(first.json()).toEqual([memberSale.details[0]]);
    expect(first.headers.link).toBe(`<http://localhost/test-contract/pos/transactions/${memberSale.transactionHeadId}/details?limit=1&page=2>; rel="next"`);
  });

  it('404 problem for an unknown sale, 400 for a malformed id', async () => {
    const res = await f.api('GET', '/transactions/999999/details');
    expect(problem(res, 404).detail).toBe('[transaction_id] transaction 999999 does not exist');
    expect(problem(await f.api('GET', '/transactions/12a/details'), 400).detail).toBe('[transaction_id] must be 1 to 9 digits');
  });
});

describe('paths under /transactions the server does not have', () => {
  it('GET /transactions/temporaries is a 404 problem (layaways are served: test/sales/layaways.test.ts)', async () => {
    for (const path of ['/transactions/temporaries']) {
      const res = await f.api('GET', path);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(problem(res, 404)).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: `no route GET /test-contract/pos${path}` });
    }
  });
});

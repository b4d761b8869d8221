import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../helpers/app.js';
import { line, makeFixture, type Fixture } from './transactions-fixtures.js';

let f: Fixture;
let product: Record<string, any>;
let otherCategory: string;
beforeAll(async () => {
  f = await makeFixture();
  otherCategory = (await f.create('/categories', { categoryName: 'Other' })).categoryId;
  product = await f.create('/products', {
    categoryId: f.category,
    productCode: 'TEE-1',
    productName: 'Tee',
    price: '1200',
    cost: '400.5',
    taxDivision: '1',
    pointNotApplicable: '1',
    taxFreeDivision: '1',
  });
});
afterAll(() => f.t.close());

const sale = (details: unknown[], extra: Record<string, unknown> = {}) => f.detail400({ details, ...extra });
const bundleParent = (n: number, extra: Record<string, unknown> = {}) => line(n, '0', { productDivision: '4', ...extra });
const child = (n: number, parent: number, price = '500', division = '7') =>
  line(n, price, { productDivision: division, parentTransactionDetailId: String(parent) });

describe('POST /transactions: detail lines', () => {
  it('transactionDetailId is 1 to 999 and unique', async () => {
    expect(await sale([line(0, '1')])).toBe('[details[0].transactionDetailId] must be 1 to 999');
    expect(await sale([line(1000, '1')])).toBe('[details[0].transactionDetailId] must be 1 to 999');
    expect(await sale([line(1, '1'), line(2, '1'), line(1, '2')])).toBe('[details[2].transactionDetailId] 1 is already the id of details[0]');
  });

  it('productId must exist; the product gives code, name, price, cost, category and divisions', async () => {
    expect(await sale([line(1, '1', { productId: '999' })])).toBe('[details[0].productId] product 999 does not exist');
    const t = await f.sale({ details: [line(1, '1200', { productId: product.productId })] });
    expect(t.details[0]).toMatchObject({
      productId: product.productId,
      productCode: 'TEE-1',
      productName: 'Tee',
      price: '1200',
      cost: '400.5',
      costSum: '400.5',
      categoryId: f.category,
      categoryName: 'Goods',
      taxDivision: '1',
      pointNotApplicable: '1',
      taxFreeDivision: '1',
    });
    expect(t).toMatchObject({ taxExclude: '120', total: '1320', costTotal: '400.5' });
  });

  it('categoryId must exist and equal the product\'s category', async () => {
    expect(await sale([line(1, '1', { categoryId: '999' })])).toBe('[details[0].categoryId] category 999 does not exist');
    expect(await sale([line(1, '1', { productId: product.productId, categoryId: otherCategory })])).toBe(
      `[details[0].categoryId] ${otherCategory} differs from the product's category ${f.category}`,
    );
    expect(await sale([line(1, '1', { categoryName: 'c'.repeat(86) })])).toBe('[details[0].categoryName] must be at most 85 characters');
    const t = await f.sale({ details: [line(1, '1', { categoryId: otherCategory, categoryName: 'Sent name' })] });
    expect(t.details[0]).toMatchObject({ categoryId: otherCategory, categoryName: 'Sent name' });
  });

  it('parentTransactionDetailId by product division', async () => {
    expect(await sale([line(1, '1'), line(2, '1', { parentTransactionDetailId: '1' })])).toBe(
      '[details[1].parentTransactionDetailId] cannot be set for productDivision 0',
    );
    expect(await sale([bundleParent(1), child(2, 1), bundleParent(3, { parentTransactionDetailId: '1' })])).toBe(
      '[details[2].parentTransactionDetailId] cannot be set for productDivision 4',
    );
    expect(await sale([line(1, '1', { productDivision: '7' })])).toBe(
      '[details[0].parentTransactionDetailId] is required for productDivision 7 (the id of its bundle parent line)',
    );
    expect(await sale([line(1, '1', { productDivision: '8' })])).toBe(
      '[details[0].parentTransactionDetailId] is required for productDivision 8 (the id of its bundle parent line)',
    );
    expect(await sale([line(1, '1', { productDivision: '1' }), child(2, 1)])).toBe(
      '[details[1].parentTransactionDetailId] must name a bundle parent line (productDivision 4 or 6); line 1 is of productDivision 1',
    );
    // a set-sale parent (5) is not a bundle parent: neither a bundle child nor a bundle discount hangs under it
    for (const d of ['7', '8']) {
      expect(await sale([line(1, '0', { productDivision: '5' }), line(2, '100', { productDivision: '1', parentTransactionDetailId: '1' }), child(3, 1, '50', d)])).toBe(
        '[details[2].parentTransactionDetailId] must name a bundle parent line (productDivision 4 or 6); line 1 is of productDivision 5',
      );
    }
    expect((await f.sale({ details: [line(1, '0', { productDivision: '6' }), child(2, 1, '300'), child(3, 1, '50', '8')] })).total).toBe('250');
    expect(await sale([bundleParent(1), child(2, 1), child(3, 9)])).toBe(
      '[details[2].parentTransactionDetailId] 9 is not the id of another line of this transaction',
    );
    expect(await sale([line(1, '1', { productDivision: '2', parentTransactionDetailId: '1' })])).toBe(
      '[details[0].parentTransactionDetailId] 1 is not the id of another line of this transaction',
    );
    // an option (2) may hang under any line of the transaction
    const t = await f.sale({ details: [line(1, '100'), line(2, '50', { productDivision: '2', parentTransactionDetailId: '1' })] });
    expect(t.details[1]).toMatchObject({ parentTransactionDetailId: '1', productDivision: '2' });
    const set = await f.sale({ details: [line(1, '0', { productDivision: '5' }), child(2, 1, '300', '1')] });
    expect(set.total).toBe('300');
  });

  it('a line may not be its own ancestor', async () => {
    const under = (n: number, parent: number) => line(n, '100', { productDivision: '1', parentTransactionDetailId: String(parent) });
    expect(await sale([under(1, 2), under(2, 1)])).toBe(
      '[details[0].parentTransactionDetailId] line 1 would be its own ancestor (the parent lines form a cycle)',
    );
    expect(await sale([line(1, '100'), under(2, 4), under(3, 2), under(4, 3)])).toBe(
      '[details[1].parentTransactionDetailId] line 2 would be its own ancestor (the parent lines form a cycle)',
    );
    expect((await f.sale({ details: [line(1, '100'), under(2, 1), under(3, 2)] })).total).toBe('300');
  });

  it('a parent line (4, 5, 6) needs a child', async () => {
    for (const d of ['4', '5', '6']) {
      expect(await sale([line(1, '0', { productDivision: d }), line(2, '100')])).toBe(
        `[details[0].productDivision] a parent line (productDivision ${d}) needs at least one child line`,
      );
    }
  });

  it('productDivision A and B come only from restaurant ordering', async () => {
    expect(await sale([line(1, '1', { productDivision: 'A' })])).toBe('[details[0].productDivision] A is set only by restaurant-ordering transactions');
    expect(await sale([line(1, '1', { productDivision: 'B' })])).toBe('[details[0].productDivision] B is set only by restaurant-ordering transactions');
    expect(await sale([line(1, '1', { productDivision: '9' })])).toBe('[details[0].productDivision] must be one of 0 to 8');
  });

  it('productBundleGroupId only on a bundle parent, and it must exist', async () => {
    const group = (await f.create('/product_bundle_groups', { productBundleGroupName: 'Two for 900', division: '1', quantity: '2', value: '900' }))
      .productBundleGroupId;
    expect(await sale([line(1, '1', { productBundleGroupId: group })])).toBe(
      '[details[0].productBundleGroupId] can be set only on a bundle parent line (productDivision 4)',
    );
    expect(await sale([bundleParent(1, { productBundleGroupId: '999' }), child(2, 1)])).toBe(
      '[details[0].productBundleGroupId] product bundle group 999 does not exist',
    );
    const t = await f.sale({ details: [bundleParent(1, { productBundleGroupId: group }), child(2, 1)] });
    expect(t.details[0].productBundleGroupId).toBe(group);
  });

  it('a rate needs its amount; modifiedTaxRate cannot be set', async () => {
    expect(await sale([line(1, '100', { unitDiscountRate: '10' })])).toBe(
      '[details[0].unitDiscountPrice] is required when unitDiscountRate is set (the amount is not computed from the rate)',
    );
    expect(await sale([line(1, '100')], { subtotalDiscountRate: '5' })).toBe(
      '[subtotalDiscountPrice] is required when subtotalDiscountRate is set (the amount is not computed from the rate)',
    );
    expect(await sale([line(1, '100', { modifiedTaxRate: '8' })])).toBe('[details[0].modifiedTaxRate] cannot be set');
    const t = await f.sale({ details: [line(1, '100', { unitDiscountRate: '10', unitDiscountPrice: '10' })], subtotalDiscountRate: '5', subtotalDiscountPrice: '4' });
    expect(t).toMatchObject({ subtotalDiscountRate: '5', subtotalDiscountPrice: '4', total: '86' });
  });

  it('line tax rate: sent, else the reduced rate, else the header rate; standardTaxRate is the header rate', async () => {
    const t = await f.sale({ details: [line(1, '108', { reduceTaxId: '10000001', reduceTaxRate: '8' }), line(2, '110'), line(3, '105', { taxRate: '5' })] });
    expect(t.details.map((l: any) => [l.taxRate, l.standardTaxRate])).toEqual([
      ['8', '10'],
      ['10', '10'],
      ['5', '10'],
    ]);
    expect(t.taxInclude).toBe('23'); // 8 + 10 + 5, one rounding per rate
    expect(await sale([line(1, '1', { standardTaxRate: '8' })])).toBe('[details[0].standardTaxRate] sent 8 but the server computes 10');
  });

  it('reduced tax: a reduceTaxId (sent or the product\'s) takes the reduced rate at terminalTranDateTime', async () => {
    const rice = await f.create('/products', { categoryId: f.category, productCode: 'RICE', productName: 'Rice', price: '1080', reduceTaxId: '10000001' });
    const t = await f.sale({
      details: [
        line(1, '1080', { productId: rice.productId }),
        line(2, '108', { reduceTaxId: '10000003' }),
        line(3, '110', { reduceTaxId: '10000002' }), // selectable, standard rate
        line(4, '105', { reduceTaxId: '10000001', taxRate: '5' }),
        line(5, '110'),
      ],
    });
    expect(t.details.map((l: any) => [l.reduceTaxId, l.taxRate, l.reduceTaxRate])).toEqual([
      ['10000001', '8', '8'],
      ['10000003', '8', '8'],
      ['10000002', '10', null],
      ['10000001', '5', '8'],
      [null, '10', null],
    ]);
    expect(t.taxInclude).toBe('113'); // 8 %: 1188 × 8 / 108 = 88; 10 %: 220 × 10 / 110 = 20; 5 %: 105 × 5 / 105 = 5
    // before 2019-10-01 there was no reduced rate: the standard 8 % of the time
    const old = await f.sale({ terminalTranDateTime: '2019-09-30T12:00:00+09:00', details: [line(1, '108', { productId: rice.productId })] });
    expect(old.details[0]).toMatchObject({ taxRate: '8', reduceTaxRate: '8', standardTaxRate: '8' });
    const older = await f.sale({ terminalTranDateTime: '2014-03-31T12:00:00+09:00', details: [line(1, '105', { productId: rice.productId })] });
    expect(older.details[0]).toMatchObject({ taxRate: '5', reduceTaxRate: '5', standardTaxRate: '5' });
  });

  it('decimal formats of the lines', async () => {
    expect(await sale([line(1, '1', { quantity: '1.0005' })])).toBe(
      '[details[0].quantity] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals',
    );
    expect(await sale([line(1, '1', { quantity: '-1' })])).toBe(
      '[details[0].quantity] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals',
    );
    expect(await sale([line(1, '1', { cost: '123456789' })])).toBe(
      '[details[0].cost] must be a non-negative decimal string of up to 8 integer digits and up to 5 decimals',
    );
    expect(await sale([line(1, '1', { unitDiscountRate: '101', unitDiscountPrice: '1' })])).toBe('[details[0].unitDiscountRate] must be at most 100');
    expect(await sale([line(1, '1', { memo: 'm'.repeat(1001) })])).toBe('[details[0].memo] must be at most 1000 characters');
    expect(await sale([line(1, '1', { unitNonDiscountSum: 'x' })])).toBe(
      '[details[0].unitNonDiscountSum] must be a signed decimal string of up to 15 integer digits and up to 8 decimals',
    );
    // a discount line carries a negative sales price; costs take 5 decimals
    const t = await f.sale({ details: [line(1, '1000', { cost: '12345678.12345' }), line(2, '-100')] });
    expect(t).toMatchObject({ total: '900', costTotal: '12345678.12345' });
  });
});

describe('POST /transactions: other payments', () => {
  let plain: string;
  let voucher: string;
  let card: string;
  beforeAll(async () => {
    plain = (await f.create('/payment_methods', { paymentMethodCode: 'QR', paymentMethodName: 'QR pay', paymentDivision: '4' })).paymentMethodId;
    voucher = (
      await f.create('/payment_methods', {
        paymentMethodCode: 'GIFT',
        paymentMethodName: 'Gift voucher',
        paymentDivision: '5',
        paymentUnitPrice: '500',
        paymentChangeFlag: '1',
        paymentSecuritiesFlag: '1',
      })
    ).paymentMethodId;
    card = (await f.create('/payment_methods/individual_application', { paymentMethodCode: 'CARD', paymentMethodName: 'Card', paymentDivision: '6' }))
      .paymentMethodId;
  });
  const pay = (depositOthers: unknown[], extra: Record<string, unknown> = {}) => f.detail400({ details: [line(1, '3000')], depositOthers, ...extra });

  it('copies the master, numbers the lines and pays cash with what is left', async () => {
    const t = await f.sale({
      details: [line(1, '3000')],
      creditTotal: '500',
      depositCash: '1100',
      depositOthers: [
        { paymentMethodId: voucher, depositOthers: '2' },
        { no: '2', paymentMethodId: card, depositOthers: '400', denominationCode: 'CREDIT', denominationName: 'Visa', cardCompanyName: 'ACME', slipNumber: 'S1' },
      ],
    });
    expect(t.depositOthers).toEqual([
      expect.objectContaining({
        no: '1',
        paymentMethodId: voucher,
        paymentMethodCode: 'GIFT',
        paymentMethodName: 'Gift voucher',
        depositOthers: '2',
        paymentUnitPrice: '500',
        paymentChangeFlag: '1',
        paymentDivision: '5',
        paymentSecuritiesFlag: '1',
        denominationCode: null,
      }),
      expect.objectContaining({ no: '2', paymentMethodId: card, paymentUnitPrice: null, denominationCode: 'CREDIT', cardCompanyName: 'ACME', slipNumber: 'S1' }),
    ]);
    // others bring 2 × 500 + 400 = 1400; cash = 3000 − 500 − 1400 = 1100; deposit = 1100 + 500 + 1400
    expect(t).toMatchObject({ total: '3000', creditTotal: '500', cashTotal: '1100', depositCash: '1100', depositCredit: '500', deposit: '3000', change: '0' });
    const change = await f.sale({ details: [line(1, '980')], depositCash: '1000' });
    expect(change).toMatchObject({ cashTotal: '980', deposit: '1000', change: '20' });
  });

  it('a method without change forfeits its excess; a method with change gives the excess back in cash', async () => {
    const noChange = (await f.create('/payment_methods', { paymentMethodCode: 'NC', paymentMethodName: 'Voucher', paymentDivision: '5', paymentChangeFlag: '0' }))
      .paymentMethodId;
    const withChange = (await f.create('/payment_methods', { paymentMethodCode: 'WC', paymentMethodName: 'Gift card', paymentDivision: '5', paymentChangeFlag: '1' }))
      .paymentMethodId;
    const paid = async (depositOthers: unknown[]) => {
      const t = await f.sale({ details: [line(1, '800')], depositOthers });
      return { cashTotal: t.cashTotal, depositCash: t.depositCash, deposit: t.deposit, change: t.change };
    };
    // 1000 for 800 without change: 200 forfeited, no cash, no change
    expect(await paid([{ paymentMethodId: noChange, depositOthers: '1000' }])).toEqual({ cashTotal: '0', depositCash: '0', deposit: '1000', change: '0' });
    // 500 without change, the rest in cash
    expect(await paid([{ paymentMethodId: noChange, depositOthers: '500' }])).toEqual({ cashTotal: '300', depositCash: '300', deposit: '800', change: '0' });
    // 1000 for 800 with change: 200 change paid in cash
    expect(await paid([{ paymentMethodId: withChange, depositOthers: '1000' }])).toEqual({ cashTotal: '-200', depositCash: '0', deposit: '1000', change: '200' });
    // 500 without change counts first; 1000 with change overpays the remaining 300 by 700
    expect(
      await paid([
        { paymentMethodId: noChange, depositOthers: '500' },
        { paymentMethodId: withChange, depositOthers: '1000' },
      ]),
    ).toEqual({ cashTotal: '-700', depositCash: '0', deposit: '1500', change: '700' });
    // a return (negative total) is unchanged: the refund is cash
    const refund = await f.sale({ details: [line(1, '800', { transactionDetailDivision: '2' })] });
    expect(refund).toMatchObject({ total: '-800', cashTotal: '-800', depositCash: '-800', deposit: '-800', change: '0' });
  });

  it('a method with a unit price takes a whole count', async () => {
    expect(await pay([{ paymentMethodId: voucher, depositOthers: '1.5' }])).toBe(
      `[depositOthers[0].depositOthers] must be a whole number of units: payment method ${voucher} has a unit price (500)`,
    );
    expect((await f.sale({ details: [line(1, '3000')], depositOthers: [{ paymentMethodId: voucher, depositOthers: '2.000' }] })).cashTotal).toBe('2000');
  });

  it('refuses a fourth entry, a wrong no and an unknown method', async () => {
    const entry = { paymentMethodId: plain, depositOthers: '1' };
    expect(await pay([entry, entry, entry, entry])).toBe('[depositOthers] must have at most 3 entries');
    expect(await pay([entry, { ...entry, no: '3' }])).toBe('[depositOthers[1].no] must be 2: the entries are numbered 1, 2, 3 in order');
    expect(await pay([{ paymentMethodId: '999', depositOthers: '1' }])).toBe('[depositOthers[0].paymentMethodId] payment method 999 does not exist');
  });

  it('denomination and card fields only for individual-application methods', async () => {
    for (const field of ['denominationCode', 'denominationName', 'cardCompanyName', 'cancelSlipNumber']) {
      const value = field === 'denominationCode' ? 'PAYPAY' : 'x';
      expect(await pay([{ paymentMethodId: plain, depositOthers: '1', [field]: value }])).toBe(
        `[depositOthers[0].${field}] is honoured only for payment methods registered by the individual-application registration operation; payment method ${plain} is not one`,
      );
    }
    expect(await pay([{ paymentMethodId: card, depositOthers: '1', denominationCode: 'VISA' }])).toBe(
      '[depositOthers[0].denominationCode] must be one of the denomination codes of spec 2.13 (CREDIT, DEBIT, PREPAID, STORE, UNIONPAY, CONTACTLESS, JDEBIT, SUICA, ...)',
    );
    expect(await pay([{ paymentMethodId: card, depositOthers: '1', denominationCode: 'SUICA', cardCompanyName: 'JR' }])).toBe(
      '[depositOthers[0].cardCompanyName] is not accepted with denominationCode SUICA (only with CREDIT, DEBIT, PREPAID, STORE, UNIONPAY, CONTACTLESS)',
    );
    const t = await f.sale({ details: [line(1, '100')], depositOthers: [{ paymentMethodId: card, depositOthers: '100', denominationCode: 'WESMO' }] });
    expect(t.depositOthers[0].denominationCode).toBe('WESMO');
    expect(t.cashTotal).toBe('0');
  });
});

describe('POST /transactions: coupons', () => {
  const coupon = { terminalTranCouponId: 'TC1', couponId: '77', couponName: 'Welcome', benefitType: 'P3', benefitValue: '50', couponDiscountTotal: '0' };

  it('are stored with transactionCouponId 1..n on plans that have coupons', async () => {
    // A normal coupon names one of the coupon master (issue 26); an external gift coupon (1) need not.
    const couponId = (await f.create('/coupons', { couponName: 'Welcome points', couponDivision: '1', couponValue: '50' })).couponId;
    const t = await f.sale({ details: [line(1, '100')], coupons: [{ ...coupon, couponId }, { couponId: '78', couponDivision: '1', benefitType: '1', couponDiscountTotal: '10' }] });
    expect(t.coupons).toEqual([
      { transactionCouponId: '1', terminalTranCouponId: 'TC1', couponId, couponName: 'Welcome', couponDivision: '0', serialNumber: null, benefitType: 'P3', benefitValue: '50', couponDiscountTotal: '0' },
      { transactionCouponId: '2', terminalTranCouponId: null, couponId: '78', couponName: null, couponDivision: '1', serialNumber: null, benefitType: '1', benefitValue: null, couponDiscountTotal: '10' },
    ]);
    expect(await f.detail400({ details: [line(1, '100')], coupons: [{ ...coupon, benefitType: 'P5' }] })).toBe(
      '[coupons[0].benefitType] must be one of 1, 2, 3, P1, P2, P3, P4, M1, M2, M3, M4',
    );
  });

  it('are refused (403) on standard and enterprise', async () => {
    for (const plan of ['standard', 'enterprise'] as const) {
      const g = await makeFixture(plan);
      const res = await g.post({ details: [line(1, '100')], coupons: [coupon] });
      expect(problem(res, 403).detail).toBe(
        `[coupons] the contract's plan ${plan} cannot register coupons (plans: premium, premium_plus, food_business, retail_business)`,
      );
      expect((await g.post({ details: [line(1, '100')] })).statusCode).toBe(200);
      // before any 400, whatever else is wrong; an empty array is no coupon
      expect(problem(await g.post({ transactionHeadDivision: '99', bogus: 'x', coupons: [{ couponId: '1', bad: 'y' }] }), 403).detail).toBe(
        `[coupons] the contract's plan ${plan} cannot register coupons (plans: premium, premium_plus, food_business, retail_business)`,
      );
      expect((await g.post({ details: [line(1, '100')], coupons: [] })).statusCode).toBe(200);
      await g.t.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, makeFixture, type Fixture } from './transactions-fixtures.js';

// Every figure below is computed by hand from the totals model (docs/decisions.md, issue 4):
// tax rounding of the contract is '1' (down), the standard rate on the sale date is 10 %.
let f: Fixture;
beforeAll(async () => {
  f = await makeFixture();
});
afterAll(() => f.t.close());

const pick = (lines: Record<string, string>[], field: string) => lines.map((l) => l[field]);

describe('POST /transactions: computed totals', () => {
  it('a tax-included sale: tax = 2000 × 10 / 110 rounded down, shared by largest remainder', async () => {
    const t = await f.sale({ details: [line(1, '1000'), line(2, '500', { quantity: '2' })] });
    expect(t).toMatchObject({
      unitNonDiscountsubtotal: '2000',
      unitDiscountsubtotal: '0',
      subtotal: '2000',
      subtotalForDiscount: '2000',
      taxInclude: '181',
      taxExclude: '0',
      total: '2000',
      inTaxSalesTotal: '2000',
      outTaxSalesTotal: '0',
      nonTaxSalesTotal: '0',
      amount: '3',
      returnAmount: '0',
      salesHeadDivision: '0',
    });
    expect(pick(t.details, 'unitNonDiscountSum')).toEqual(['1000', '1000']);
    // 181 over 1000 / 1000: 90.5 each → 90 and 90 (banker's), the missing 1 to the earlier line
    expect(pick(t.details, 'taxIncludeProportional')).toEqual(['91', '90']);
  });

  it('a tax-excluded sale: tax = 1333 × 10 / 100 rounded down, added to the total', async () => {
    const t = await f.sale({ details: [line(1, '1000', { taxDivision: '1' }), line(2, '333', { taxDivision: '1' })] });
    expect(t).toMatchObject({ subtotal: '1333', taxExclude: '133', taxInclude: '0', total: '1466', outTaxSalesTotal: '1333', inTaxSalesTotal: '0', cashTotal: '1466' });
    // 133 × 1000 / 1333 = 99.77 → 100; 133 × 333 / 1333 = 33.22 → 33
    expect(pick(t.details, 'taxExcludeProportional')).toEqual(['100', '33']);
  });

  it('a non-taxable sale has no tax', async () => {
    const t = await f.sale({ details: [line(1, '800', { taxDivision: '2' })] });
    expect(t).toMatchObject({ total: '800', taxInclude: '0', taxExclude: '0', nonTaxSalesTotal: '800', inTaxSalesTotal: '0' });
  });

  it('line and subtotal discounts, shared over the lines subject to them', async () => {
    const t = await f.sale({
      subtotalDiscountPrice: '100',
      details: [line(1, '1000', { quantity: '2', unitDiscountPrice: '100' }), line(2, '1000'), line(3, '500', { calcDiscount: '0' })],
    });
    expect(t).toMatchObject({
      unitNonDiscountsubtotal: '3500',
      unitDiscountsubtotal: '200',
      subtotal: '3300',
      subtotalForDiscount: '2800',
      subtotalDiscountPrice: '100',
      total: '3200',
      taxInclude: '290', // 3200 × 10 / 110 = 290.9
    });
    expect(t.details[0]).toMatchObject({ unitNonDiscountSum: '2000', unitDiscountSum: '200', unitDiscountedSum: '1800' });
    // 100 over 1800 / 1000: 64.29 → 64, 35.71 → 36; the line outside the discount gets 0
    expect(pick(t.details, 'discountPriceProportional')).toEqual(['64', '36', '0']);
    // 290 over the taxable 1736 / 964 / 500: 157.33, 87.36, 45.31 → 157, 87, 45; the missing 1 to the largest remainder
    expect(pick(t.details, 'taxIncludeProportional')).toEqual(['157', '88', '45']);
  });

  it('a return line counts negative', async () => {
    const t = await f.sale({ details: [line(1, '1000'), line(2, '400', { transactionDetailDivision: '2' })] });
    expect(t).toMatchObject({ unitNonDiscountsubtotal: '600', subtotal: '600', total: '600', taxInclude: '54', amount: '1', returnAmount: '1' });
    expect(t.details[1]).toMatchObject({ unitNonDiscountSum: '400', unitDiscountedSum: '400' });
    expect(pick(t.details, 'taxIncludeProportional')).toEqual(['90', '-36']); // 54 over 1000 / −400
  });

  it('a bundle: the discount line is spread over the bundle children', async () => {
    const t = await f.sale({
      details: [
        line(1, '0', { productDivision: '4' }),
        line(2, '600', { productDivision: '7', parentTransactionDetailId: '1' }),
        line(3, '400', { productDivision: '7', parentTransactionDetailId: '1' }),
        line(4, '100', { productDivision: '8', parentTransactionDetailId: '1' }),
      ],
    });
    expect(pick(t.details, 'productBundleProportional')).toEqual(['0', '60', '40', '0']);
    expect(t).toMatchObject({ unitNonDiscountsubtotal: '1000', unitDiscountsubtotal: '100', subtotal: '900', total: '900', taxInclude: '81', amount: '2' });
    expect(pick(t.details, 'taxIncludeProportional')).toEqual(['0', '49', '32', '0']); // 81 over 540 / 360
  });

  it('rounding division: the ones place rounded down, up, or a manual amount', async () => {
    const lines = [line(1, '1000'), line(2, '234')];
    const down = await f.sale({ roundingDivision: '12', details: lines });
    expect(down).toMatchObject({ roundingPrice: '-4', total: '1230', cashTotal: '1230', taxInclude: '112' });
    // −4 over 1000 / 234: −3.24 → −3, −0.76 → −1
    expect(pick(down.details, 'roundingPriceProportional')).toEqual(['-3', '-1']);
    const up = await f.sale({ roundingDivision: '13', details: lines });
    expect(up).toMatchObject({ roundingPrice: '6', total: '1240' });
    const hundreds = await f.sale({ roundingDivision: '31', details: lines });
    expect(hundreds).toMatchObject({ roundingPrice: '-234', total: '1000' });
    expect(await f.detail400({ roundingDivision: '99', details: lines })).toBe('[roundingPrice] is required when roundingDivision is 99');
    const manual = await f.sale({ roundingDivision: '99', roundingPrice: '-34', details: lines });
    expect(manual).toMatchObject({ roundingPrice: '-34', total: '1200' });
    expect(await f.detail400({ roundingDivision: '14', details: lines })).toBe(
      '[roundingDivision] must be one of 00, 11, 12, 13, 21, 22, 23, 31, 32, 33, 41, 42, 43, 99',
    );
  });

  it('discounts that have no line to be spread over are a 400 on their field', async () => {
    expect(await f.detail400({ subtotalDiscountPrice: '100', details: [line(1, '1000', { calcDiscount: '0' })] })).toBe(
      '[subtotalDiscountPrice] 100 cannot be spread: the lines subject to subtotal discount (calcDiscount 1) total 0',
    );
  });

  it('sent computed values must equal the server\'s, as decimals', async () => {
    const lines = [line(1, '1000'), line(2, '500', { quantity: '2' })];
    expect(await f.detail400({ total: '2001', details: lines })).toBe('[total] sent 2001 but the server computes 2000');
    expect(await f.detail400({ taxInclude: '182', details: lines })).toBe('[taxInclude] sent 182 but the server computes 181');
    expect(await f.detail400({ details: [lines[0], { ...lines[1], unitDiscountedSum: '999' }] })).toBe(
      '[details[1].unitDiscountedSum] sent 999 but the server computes 1000',
    );
    expect(await f.detail400({ details: [{ ...lines[0], taxIncludeProportional: '90' }, lines[1]] })).toBe(
      '[details[0].taxIncludeProportional] sent 90 but the server computes 91',
    );
    expect(await f.detail400({ salesHeadDivision: '1', details: lines })).toBe('[salesHeadDivision] sent 1 but the server computes 0');
    const t = await f.sale({ total: '2000.000', subtotal: '2000', taxInclude: '181.0', amount: '3', details: [{ ...lines[0], unitNonDiscountSum: '1000.00' }, lines[1]] });
    expect(t.total).toBe('2000');
  });

  it('non-sales-target lines and costs', async () => {
    const t = await f.sale({
      details: [line(1, '1000', { cost: '600', quantity: '2' }), line(2, '300', { salesDivision: '1', cost: '100.5' }), line(3, '200', { salesDivision: '1', transactionDetailDivision: '2', taxDivision: '2' })],
    });
    expect(t).toMatchObject({
      salesHeadDivision: '1',
      inTaxSalesTotal: '2000',
      nonSalesTargetTotal: '100',
      nonSalesTargetInTaxTotal: '300',
      nonSalesTargetTaxFreeTotal: '-200',
      nonSalesTargetCostTotal: '100.5',
      nonSalesTargetAmount: '1',
      nonSalesTargetReturnAmount: '1',
      costTotal: '1300.5',
      amount: '3',
      returnAmount: '1',
    });
  });

  it('an exact total finer than thousandths cannot be stored', async () => {
    expect(await f.detail400({ details: [line(1, '0.333', { quantity: '0.333' })] })).toBe(
      '[total] 0.110889 has more than 3 decimals or is too large to store',
    );
  });
});

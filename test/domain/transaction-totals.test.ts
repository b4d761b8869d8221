import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { formatTotals } from '../../server/domain/sent-totals.js';
import { computeTransactionTotals } from '../../server/domain/transaction-totals.js';
import { TotalsError, type TotalsInput, type TotalsLine } from '../../server/domain/transaction-totals-types.js';

type Texts<T> = { [K in keyof T]?: T[K] extends Decimal ? string : T[K] extends Decimal | null ? string | null : T[K] };
type LineSpec = Texts<TotalsLine>;
type InputSpec = Omit<Texts<TotalsInput>, 'lines' | 'member'> & {
  lines: LineSpec[];
  member?: { known?: boolean; point?: string; mile?: string } | null;
};

const dec = (v: string | undefined, fallback: string) => new Decimal(v ?? fallback);
function line(spec: LineSpec, index: number): TotalsLine {
  return {
    transactionDetailId: spec.transactionDetailId ?? index + 1,
    parentTransactionDetailId: spec.parentTransactionDetailId ?? null,
    transactionDetailDivision: spec.transactionDetailDivision ?? '1',
    productDivision: spec.productDivision ?? '0',
    taxDivision: spec.taxDivision ?? '0',
    salesDivision: spec.salesDivision ?? '0',
    calcDiscount: spec.calcDiscount ?? '1',
    pointNotApplicable: spec.pointNotApplicable ?? '0',
    salesPrice: dec(spec.salesPrice, '0'),
    unitDiscountPrice: dec(spec.unitDiscountPrice, '0'),
    quantity: dec(spec.quantity, '1'),
    cost: dec(spec.cost, '0'),
    taxRate: dec(spec.taxRate, '10'),
    taxFree: dec(spec.taxFree, '0'),
    applyStaffDiscountPrice: dec(spec.applyStaffDiscountPrice, '0'),
    applyBargainDiscountPrice: dec(spec.applyBargainDiscountPrice, '0'),
  };
}
function input(spec: InputSpec): TotalsInput {
  const m = spec.member;
  return {
    lines: spec.lines.map(line),
    taxRounding: spec.taxRounding ?? '1',
    roundingDivision: spec.roundingDivision ?? '00',
    manualRoundingPrice: spec.manualRoundingPrice == null ? null : new Decimal(spec.manualRoundingPrice),
    subtotalDiscountPrice: dec(spec.subtotalDiscountPrice, '0'),
    pointDiscount: dec(spec.pointDiscount, '0'),
    couponDiscount: dec(spec.couponDiscount, '0'),
    commission: dec(spec.commission, '0'),
    carriage: dec(spec.carriage, '0'),
    pointSpendDivision: spec.pointSpendDivision ?? '1',
    member: m ? { known: m.known ?? true, point: dec(m.point, '0'), mile: dec(m.mile, '0') } : null,
    pointGivingDivision: spec.pointGivingDivision ?? '1',
    pointGivingUnitPrice: dec(spec.pointGivingUnitPrice, '100'),
    pointGivingUnit: dec(spec.pointGivingUnit, '1'),
    spendPoint: dec(spec.spendPoint, '0'),
    mileageDivision: spec.mileageDivision ?? '0',
    adjustmentMileDivision: spec.adjustmentMileDivision ?? null,
    adjustmentMileValue: spec.adjustmentMileValue == null ? null : new Decimal(spec.adjustmentMileValue),
  };
}
/** The totals as output strings. */
const totals = (spec: InputSpec) => formatTotals(computeTransactionTotals(input(spec)));
/** One line field across the lines. */
const col = (t: ReturnType<typeof totals>, field: keyof ReturnType<typeof totals>['lines'][number]) => t.lines.map((l) => l[field]);
function refusal(spec: InputSpec): { field: string; message: string } {
  try {
    computeTransactionTotals(input(spec));
  } catch (e) {
    if (e instanceof TotalsError) return { field: e.field, message: e.message };
    throw e;
  }
  throw new Error('expected a TotalsError');
}

describe('tax', () => {
  it('computes the tax included in a sale, per line by largest remainder', () => {
    const t = totals({ lines: [{ salesPrice: '300', quantity: '2' }, { salesPrice: '500' }] });
    // 600 + 500 = 1100; tax 1100 × 10 / 110 = 100; shares 54.55 → 55, 45.45 → 45.
    expect(col(t, 'unitNonDiscountSum')).toEqual(['600', '500']);
    expect(t.header).toMatchObject({ subtotal: '1100', taxInclude: '100', taxExclude: '0', total: '1100', inTaxSalesTotal: '1100' });
    expect(t.header).toMatchObject({ amount: '3', returnAmount: '0', salesHeadDivision: '0' });
    expect(col(t, 'taxIncludeProportional')).toEqual(['55', '45']);
    expect(col(t, 'taxExcludeProportional')).toEqual(['0', '0']);
  });

  it('rounds the included tax down, half up or up', () => {
    const tax = (price: string, taxRounding: '0' | '1' | '2') => totals({ taxRounding, lines: [{ salesPrice: price }] }).header.taxInclude;
    // 1234 × 10 / 110 = 112.18: down 112, half up 112, up 113.
    expect([tax('1234', '1'), tax('1234', '0'), tax('1234', '2')]).toEqual(['112', '112', '113']);
    // 1250 × 10 / 110 = 113.64: down 113, half up 114, up 114.
    expect([tax('1250', '1'), tax('1250', '0'), tax('1250', '2')]).toEqual(['113', '114', '114']);
  });

  it('adds the excluded tax to the total', () => {
    const sale = (taxRounding: '1' | '2') =>
      totals({ taxRounding, lines: [{ salesPrice: '1000', taxDivision: '1' }, { salesPrice: '234', taxDivision: '1' }] });
    // 1234 × 10 / 100 = 123.4 → down 123; shares 99.68 → 100, 23.32 → 23.
    const down = sale('1');
    expect(down.header).toMatchObject({ subtotal: '1234', taxExclude: '123', taxInclude: '0', total: '1357', outTaxSalesTotal: '1234' });
    expect(col(down, 'taxExcludeProportional')).toEqual(['100', '23']);
    // Up: 124; shares 100.49 → 100, 23.51 → 24.
    const up = sale('2');
    expect(up.header).toMatchObject({ taxExclude: '124', total: '1358' });
    expect(col(up, 'taxExcludeProportional')).toEqual(['100', '24']);
  });

  it('taxes no non-taxable line', () => {
    const t = totals({ lines: [{ salesPrice: '1100' }, { salesPrice: '500', taxDivision: '2' }] });
    // Only the 1100 is taxed: 100.
    expect(t.header).toMatchObject({ subtotal: '1600', taxInclude: '100', total: '1600', inTaxSalesTotal: '1100', nonTaxSalesTotal: '500' });
    expect(col(t, 'taxIncludeProportional')).toEqual(['100', '0']);
  });

  it('rounds each rate once over its lines (10 % and reduced 8 % in one sale)', () => {
    const t = totals({
      lines: [
        { salesPrice: '1000' },
        { salesPrice: '300', taxRate: '8' },
        { salesPrice: '300', taxRate: '8' },
        { salesPrice: '400', taxRate: '8.0' },
      ],
    });
    // 10 %: 1000 × 10 / 110 = 90.91 → 90. 8 %: (300 + 300 + 400) × 8 / 108 = 74.07 → 74
    // (per line it would be 22 + 22 + 29 = 73); 74 shared: 22.2 → 22, 22.2 → 22, 29.6 → 30.
    expect(t.header.taxInclude).toBe('164');
    expect(col(t, 'taxIncludeProportional')).toEqual(['90', '22', '22', '30']);
  });

  it('spreads a rounded-up tax onto the largest remainder, not the last line', () => {
    const t = totals({ taxRounding: '2', lines: [{ salesPrice: '100' }, { salesPrice: '100' }, { salesPrice: '100' }] });
    // 300 × 10 / 110 = 27.27 → up 28; 9.33 → 9 each = 27; +1 to the first (equal remainders).
    expect(t.header.taxInclude).toBe('28');
    expect(col(t, 'taxIncludeProportional')).toEqual(['10', '9', '9']);
  });
});

describe('line discounts', () => {
  it('sums per-item, staff and sale-period discounts', () => {
    const t = totals({
      lines: [
        { salesPrice: '1000', quantity: '2', unitDiscountPrice: '100', applyStaffDiscountPrice: '100' },
        { salesPrice: '500', quantity: '3', unitDiscountPrice: '50', applyBargainDiscountPrice: '50' },
      ],
    });
    // Line 1: 2000 − 200 = 1800; line 2: 1500 − 150 = 1350.
    expect(col(t, 'unitNonDiscountSum')).toEqual(['2000', '1500']);
    expect(col(t, 'unitDiscountSum')).toEqual(['200', '150']);
    expect(col(t, 'unitDiscountedSum')).toEqual(['1800', '1350']);
    expect(col(t, 'staffDiscountProportional')).toEqual(['200', '0']);
    expect(col(t, 'bargainDiscountProportional')).toEqual(['0', '150']);
    expect(t.header).toMatchObject({
      unitNonDiscountsubtotal: '3500',
      unitDiscountsubtotal: '350',
      unitStaffDiscountsubtotal: '200',
      unitBargainDiscountsubtotal: '150',
      subtotal: '3150',
      amount: '5',
    });
  });

  it('inverts the sign of return lines in the header, not in the line sums', () => {
    const t = totals({
      lines: [
        { salesPrice: '1000', cost: '300' },
        { salesPrice: '400', quantity: '2', unitDiscountPrice: '50', cost: '150', transactionDetailDivision: '2', applyStaffDiscountPrice: '50' },
      ],
    });
    // Return line: 800 − 100 = 700, cost 300, printed unsigned.
    expect(t.lines[1]).toMatchObject({ unitNonDiscountSum: '800', unitDiscountSum: '100', unitDiscountedSum: '700', costSum: '300' });
    expect(t.lines[1]!.staffDiscountProportional).toBe('-100');
    // Header: 1000 − 800 = 200 before discount; 0 − 100 = −100 discount; 1000 − 700 = 300.
    expect(t.header).toMatchObject({ unitNonDiscountsubtotal: '200', unitDiscountsubtotal: '-100', subtotal: '300' });
    expect(t.header).toMatchObject({ unitStaffDiscountsubtotal: '-100', amount: '1', returnAmount: '2', costTotal: '0', total: '300' });
    // Tax 300 × 10 / 110 = 27.27 → 27; shares over 1000 and −700: 90 and −63.
    expect(t.header.taxInclude).toBe('27');
    expect(col(t, 'taxIncludeProportional')).toEqual(['90', '-63']);
  });
});

describe('bundles', () => {
  const bundle = (division: '1' | '2', discountPrice: string) => ({
    lines: [
      { transactionDetailId: 1, productDivision: '4', salesPrice: '501', transactionDetailDivision: division },
      { transactionDetailId: 2, parentTransactionDetailId: 1, productDivision: '7', salesPrice: '300', transactionDetailDivision: division },
      { transactionDetailId: 3, parentTransactionDetailId: 1, productDivision: '7', salesPrice: '300', transactionDetailDivision: division },
      { transactionDetailId: 4, parentTransactionDetailId: 1, productDivision: '8', salesPrice: discountPrice, transactionDetailDivision: division },
    ],
  });

  it('spreads the bundle discount over the children; parent and discount line count nowhere', () => {
    for (const discountPrice of ['-99', '99']) {
      const t = totals(bundle('1', discountPrice));
      // 99 over 300, 300: 49.5 → 50 (even) each = 100, −1 on the last child.
      expect(col(t, 'productBundleProportional')).toEqual(['0', '50', '49', '0']);
      // Children: 300 − 50 = 250 and 300 − 49 = 251.
      expect(t.header).toMatchObject({ unitNonDiscountsubtotal: '600', unitDiscountsubtotal: '99', subtotal: '501', amount: '2', total: '501' });
      // Tax 501 × 10 / 110 = 45.55 → 45; shares 250 → 22.46 → 22, 251 → 22.55 → 23.
      expect(col(t, 'taxIncludeProportional')).toEqual(['0', '22', '23', '0']);
    }
  });

  it('gives the discount back on a returned bundle', () => {
    const t = totals(bundle('2', '99'));
    // −99 over −300, −300: −49.5 → −50 each = −100, +1 on the last: −50, −49.
    expect(col(t, 'productBundleProportional')).toEqual(['0', '-50', '-49', '0']);
    // Children −300 + 50 = −250, −300 + 49 = −251.
    expect(t.header).toMatchObject({ unitNonDiscountsubtotal: '-600', unitDiscountsubtotal: '-99', subtotal: '-501', returnAmount: '2', amount: '0' });
  });

  it('refuses a bundle discount without bundle children', () => {
    expect(refusal({ lines: [{ productDivision: '4', salesPrice: '500' }, { productDivision: '8', parentTransactionDetailId: 1, salesPrice: '50' }] })).toEqual({
      field: 'details[1].parentTransactionDetailId',
      message: 'the bundle discount 50 cannot be spread: the bundle child lines (productDivision 7) of parent 1 total 0',
    });
  });
});

describe('subtotal, coupon and point discounts', () => {
  it('shares the subtotal discount over the lines subject to it only', () => {
    const sale = (discount: string) =>
      totals({
        subtotalDiscountPrice: discount,
        lines: [{ salesPrice: '100' }, { salesPrice: '100' }, { salesPrice: '300', calcDiscount: '0' }],
      });
    // 5 over 100, 100: 2.5 → 2 (even) each = 4, +1 on the last subject line.
    const five = sale('5');
    expect(col(five, 'discountPriceProportional')).toEqual(['2', '3', '0']);
    // Taxable 98 + 97 + 300 = 495 → 495 × 10 / 110 = 45 exactly; total 500 − 5.
    expect(five.header).toMatchObject({ subtotal: '500', subtotalForDiscount: '200', total: '495', taxInclude: '45' });
    // 7: 3.5 → 4 (even) each = 8, −1 on the last.
    expect(col(sale('7'), 'discountPriceProportional')).toEqual(['4', '3', '0']);
  });

  it('shares coupon and point discounts over all goods lines', () => {
    const t = totals({ couponDiscount: '100', pointDiscount: '50', lines: [{ salesPrice: '600' }, { salesPrice: '500' }] });
    // Coupon 100: 54.55 → 55, 45.45 → 45. Points 50: 27.27 → 27, 22.73 → 23.
    expect(col(t, 'discountCouponProportional')).toEqual(['55', '45']);
    expect(col(t, 'discountPointProportional')).toEqual(['27', '23']);
    expect(t.header.total).toBe('950'); // 1100 − 100 − 50
  });

  it('lowers the taxable amount by points only when they are a discount', () => {
    const sale = (pointSpendDivision: '1' | '2') =>
      totals({ pointSpendDivision, couponDiscount: '100', pointDiscount: '100', lines: [{ salesPrice: '1100' }] }).header;
    // Points as cash: taxable 1100 − 100 = 1000 → 90.91 → 90.
    expect(sale('1')).toMatchObject({ taxInclude: '90', total: '900', inTaxSalesTotal: '1000' });
    // Points as a discount: taxable 900 → 81.82 → 81.
    expect(sale('2')).toMatchObject({ taxInclude: '81', total: '900', inTaxSalesTotal: '900' });
  });

  it('refuses an amount no line can carry', () => {
    const balanced = [{ salesPrice: '500' }, { salesPrice: '500', transactionDetailDivision: '2' as const }];
    expect(refusal({ subtotalDiscountPrice: '10', lines: [{ salesPrice: '500', calcDiscount: '0' }] })).toEqual({
      field: 'subtotalDiscountPrice',
      message: '10 cannot be spread: the lines subject to subtotal discount (calcDiscount 1) total 0',
    });
    expect(refusal({ couponDiscount: '10', lines: balanced })).toEqual({
      field: 'couponDiscount',
      message: '10 cannot be spread: the goods lines total 0',
    });
    expect(refusal({ pointDiscount: '10', lines: [{ productDivision: '4', salesPrice: '10' }] }).field).toBe('pointDiscount');
  });
});

describe('rounding of the total', () => {
  const sale = (roundingDivision: string, manualRoundingPrice?: string) =>
    totals({ roundingDivision, manualRoundingPrice, lines: [{ salesPrice: '600' }, { salesPrice: '634' }] });

  it('rounds the total by roundingDivision and shares the amount by line', () => {
    const pick = (code: string) => [sale(code).header.roundingPrice, sale(code).header.total];
    expect(pick('00')).toEqual(['0', '1234']);
    expect(pick('11')).toEqual(['-4', '1230']); // ones half up
    expect(pick('12')).toEqual(['-4', '1230']); // ones down
    expect(pick('13')).toEqual(['6', '1240']); // ones up
    expect(pick('21')).toEqual(['-34', '1200']); // tens half up
    expect(pick('33')).toEqual(['766', '2000']); // hundreds up
    expect(pick('43')).toEqual(['8766', '10000']); // thousands up
    // +6 over 600, 634: 2.92 → 3, 3.08 → 3.
    expect(col(sale('13'), 'roundingPriceProportional')).toEqual(['3', '3']);
    // −34 over 600, 634: −16.53 → −17, −17.47 → −17.
    expect(col(sale('21'), 'roundingPriceProportional')).toEqual(['-17', '-17']);
    // The tax is of the goods, not of the rounding: 1234 × 10 / 110 = 112.18 → 112 in every case.
    expect(sale('33').header.taxInclude).toBe('112');
  });

  it('takes a manual rounding amount as sent (99)', () => {
    const t = sale('99', '-34.5');
    expect(t.header).toMatchObject({ roundingPrice: '-34.5', total: '1199.5' });
    // −34.5 over 600, 634: −16.77 → −17, −17.73 → −18 = −35; +0.5 on the last.
    expect(col(t, 'roundingPriceProportional')).toEqual(['-17', '-17.5']);
  });

  it('refuses 99 without an amount, an unknown division and a rounding with no line', () => {
    expect(refusal({ roundingDivision: '99', lines: [{ salesPrice: '1' }] })).toEqual({
      field: 'roundingPrice',
      message: 'is required when roundingDivision is 99',
    });
    expect(refusal({ roundingDivision: '14', lines: [{ salesPrice: '1' }] }).field).toBe('roundingDivision');
    // Commission 5 alone: 5 → 0 (ones down) is −5, but the lines net to 0.
    expect(
      refusal({ roundingDivision: '12', commission: '5', lines: [{ salesPrice: '100' }, { salesPrice: '100', transactionDetailDivision: '2' }] }),
    ).toEqual({ field: 'roundingDivision', message: 'the rounding amount -5 cannot be spread: the goods lines total 0' });
  });
});

describe('total', () => {
  it('adds commission and carriage, after the excluded tax, before the rounding', () => {
    const t = totals({ roundingDivision: '22', commission: '330', carriage: '500', lines: [{ salesPrice: '1000', taxDivision: '1' }] });
    // 1000 + 100 tax + 330 + 500 = 1930; tens down → 1900, rounding −30.
    expect(t.header).toMatchObject({ taxExclude: '100', roundingPrice: '-30', total: '1900' });
  });

  it('subtracts the tax-free amount (signed by line)', () => {
    const t = totals({ lines: [{ salesPrice: '1100', taxFree: '100' }, { salesPrice: '550', taxFree: '50', transactionDetailDivision: '2' }] });
    // 1100 − 550 = 550; tax-free 100 − 50 = 50; total 500.
    expect(t.header).toMatchObject({ subtotal: '550', total: '500' });
  });
});

describe('sales targets and costs', () => {
  it('splits non-sales-target lines by tax division and sums 5-decimal costs', () => {
    const t = totals({
      lines: [
        { salesPrice: '1000', cost: '400.5' },
        { salesPrice: '500', cost: '200', salesDivision: '1' },
        { salesPrice: '150', quantity: '2', cost: '100.12345', salesDivision: '1', taxDivision: '1' },
        { salesPrice: '200', cost: '80.00001', salesDivision: '1', taxDivision: '2', transactionDetailDivision: '2' },
      ],
    });
    // Costs: 400.5; 200; 2 × 100.12345 = 200.2469; 80.00001 (a return).
    expect(col(t, 'costSum')).toEqual(['400.5', '200', '200.2469', '80.00001']);
    expect(t.header).toMatchObject({
      subtotal: '1600', // 1000 + 500 + 300 − 200
      salesHeadDivision: '1',
      inTaxSalesTotal: '1000',
      outTaxSalesTotal: '0',
      nonTaxSalesTotal: '0',
      nonSalesTargetTotal: '600', // 500 + 300 − 200
      nonSalesTargetInTaxTotal: '500',
      nonSalesTargetOutTaxTotal: '300',
      nonSalesTargetTaxFreeTotal: '-200',
      nonSalesTargetCostTotal: '320.24689', // 200 + 200.2469 − 80.00001
      nonSalesTargetAmount: '3',
      nonSalesTargetReturnAmount: '1',
      costTotal: '720.74689', // 400.5 + 320.24689
      amount: '4',
      returnAmount: '1',
      taxInclude: '136', // (1000 + 500) × 10 / 110 = 136.36
      taxExclude: '30', // 300 × 10 %
      total: '1630',
    });
  });
});

describe('points and miles', () => {
  // Tax included 1100 (tax 100) and tax excluded 1000 (tax 100); 300 points used, shared
  // 157.14 → 157 and 142.86 → 143; 1.5 points per 200 yen.
  const sale = (pointGivingDivision: '1' | '2' | '3' | '4', pointSpendDivision: '1' | '2' = '1', extra: LineSpec[] = []) =>
    totals({
      pointGivingDivision,
      pointSpendDivision,
      pointDiscount: '300',
      spendPoint: '300',
      pointGivingUnitPrice: '200',
      pointGivingUnit: '1.5',
      member: { point: '500' },
      lines: [{ salesPrice: '1100' }, { salesPrice: '1000', taxDivision: '1' }, ...extra],
    }).header;

  it('grants points on the base chosen by pointGivingDivision, rounded down', () => {
    // Points as cash: taxable 1100 + 1000.
    // 1 tax and points included: 2100 + 100 excluded tax = 2200 × 1.5 / 200 = 16.5 → 16.
    expect(sale('1')).toMatchObject({ newPoint: '16', point: '500', totalPoint: '216' }); // 500 + 16 − 300
    // 2 tax excluded, points included: 2100 − 100 included tax = 2000 → 15.
    expect(sale('2').newPoint).toBe('15');
    // 3 tax included, points excluded: 2200 − 300 = 1900 → 14.25 → 14.
    expect(sale('3').newPoint).toBe('14');
    // 4 both excluded: 2000 − 300 = 1700 → 12.75 → 12.
    expect(sale('4').newPoint).toBe('12');
  });

  it('adds the points back when they lowered the taxable amount', () => {
    // Points as a discount: taxable 943 and 857 (1800); taxes 943 / 11 = 85.7 → 85 and 85.7 → 85.
    // 1: 1800 + 85 + 300 = 2185 → 16.39 → 16. 4: 1800 − 85 = 1715 → 12.86 → 12.
    expect(sale('1', '2')).toMatchObject({ taxInclude: '85', taxExclude: '85', newPoint: '16', total: '1885' });
    expect(sale('4', '2').newPoint).toBe('12');
  });

  it('grants nothing on lines excluded from points', () => {
    // + 2000 tax included with pointNotApplicable: the base of division 1 stays 2200 (its share
    // of the used points changes nothing, points being cash).
    expect(sale('1', '1', [{ salesPrice: '2000', pointNotApplicable: '1' }]).newPoint).toBe('16');
  });

  it('takes points back on a return, toward zero', () => {
    const t = totals({ member: { point: '100' }, lines: [{ salesPrice: '1050', transactionDetailDivision: '2' }] });
    // −1050 × 1 / 100 = −10.5 → −10.
    expect(t.header).toMatchObject({ newPoint: '-10', totalPoint: '90' });
  });

  it('grants no points and no miles to a non-member sale', () => {
    const t = totals({ lines: [{ salesPrice: '1100' }] }).header;
    expect(t).toMatchObject({ newPoint: '0', point: '0', totalPoint: '0' });
    expect([t.currentMile, t.earnMile, t.adjustmentMile, t.totalMile]).toEqual([null, null, null, null]);
    // A member sale without mileage has no miles either.
    expect(totals({ member: {}, lines: [{ salesPrice: '1100' }] }).header.earnMile).toBeNull();
  });

  const miles = (mileageDivision: '1' | '2', adjustmentMileDivision?: '1' | '2' | '3' | '4', adjustmentMileValue?: string) => {
    const h = totals({ member: { point: '40', mile: '1000' }, mileageDivision, adjustmentMileDivision, adjustmentMileValue, lines: [{ salesPrice: '1100' }] }).header;
    return [h.newPoint, h.totalPoint, h.currentMile, h.earnMile, h.adjustmentMile, h.totalMile];
  };

  it('earns miles instead of points (mileage 2) and applies the four adjustments', () => {
    // Grant 1100 / 100 = 11: miles, not points.
    //                        newPoint totalPoint current earn  adjust total
    expect(miles('2')).toEqual(['0', '40', '1000', '11', '0', '1011']);
    expect(miles('2', '1')).toEqual(['0', '40', '1000', '0', '0', '1000']); // zero miles
    expect(miles('2', '2', '50')).toEqual(['0', '40', '1000', '50', '0', '1050']); // specified
    expect(miles('2', '3', '-30')).toEqual(['0', '40', '1000', '11', '-30', '981']); // add/subtract
    expect(miles('2', '4', '2.5')).toEqual(['0', '40', '1000', '27', '0', '1027']); // 11 × 2.5 = 27.5 → 27
    // Mileage 1: points as usual, miles only by adjustment.
    expect(miles('1')).toEqual(['11', '51', '1000', '0', '0', '1000']);
    expect(miles('1', '3', '5')).toEqual(['11', '51', '1000', '0', '5', '1005']);
  });

  it('refuses an adjustment without its value and a zero grant price', () => {
    expect(refusal({ member: {}, mileageDivision: '1', adjustmentMileDivision: '2', lines: [{ salesPrice: '1' }] })).toEqual({
      field: 'adjustmentMileValue',
      message: 'is required when adjustmentMileDivision is 2',
    });
    expect(refusal({ member: {}, pointGivingUnitPrice: '0', lines: [{ salesPrice: '1' }] }).field).toBe('pointGivingUnitPrice');
  });
});

import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { compareSentTotals, formatTotals } from '../../server/domain/sent-totals.js';
import { computeTransactionTotals } from '../../server/domain/transaction-totals.js';
import type { TotalsInput, TotalsLine } from '../../server/domain/transaction-totals-types.js';

const zero = new Decimal(0);
const goods = (id: number, price: string, cost: string): TotalsLine => ({
  transactionDetailId: id,
  parentTransactionDetailId: null,
  transactionDetailDivision: '1',
  productDivision: '0',
  taxDivision: '0',
  salesDivision: '0',
  calcDiscount: '1',
  pointNotApplicable: '0',
  salesPrice: new Decimal(price),
  unitDiscountPrice: zero,
  quantity: new Decimal(1),
  cost: new Decimal(cost),
  taxRate: new Decimal(10),
  taxFree: zero,
  applyStaffDiscountPrice: zero,
  applyBargainDiscountPrice: zero,
});
// 600 + 400 = 1000, tax included 1000 × 10 / 110 = 90.9 → 90; costs 250 and 120.5; no member.
const input: TotalsInput = {
  lines: [goods(1, '600', '250'), goods(2, '400', '120.5')],
  taxRounding: '1',
  roundingDivision: '00',
  manualRoundingPrice: null,
  subtotalDiscountPrice: zero,
  pointDiscount: zero,
  couponDiscount: zero,
  commission: zero,
  carriage: zero,
  pointSpendDivision: '1',
  member: null,
  pointGivingDivision: '1',
  pointGivingUnitPrice: new Decimal(100),
  pointGivingUnit: new Decimal(1),
  spendPoint: zero,
  mileageDivision: '0',
  adjustmentMileDivision: null,
  adjustmentMileValue: null,
};
const computed = computeTransactionTotals(input);

describe('compareSentTotals', () => {
  it('accepts sent values equal as decimals and ignores fields not sent', () => {
    const sent = {
      header: { total: '1000.000', subtotal: '01000', taxInclude: '90', salesHeadDivision: '0', earnMile: undefined, memo: 'x' },
      lines: [{ costSum: '250.00', taxIncludeProportional: '54' }, { costSum: '120.50000', unitDiscountedSum: '400' }],
    };
    expect(compareSentTotals(sent, computed)).toBeNull();
    expect(compareSentTotals({ header: {}, lines: [] }, computed)).toBeNull();
  });

  it('names the first mismatch, header before lines, lines by index as sent', () => {
    const lines = [{ costSum: '250' }, { costSum: '120' }];
    expect(compareSentTotals({ header: { total: '1000' }, lines }, computed)).toEqual({
      field: 'details[1].costSum',
      sent: '120',
      computed: '120.5',
    });
    expect(compareSentTotals({ header: { taxInclude: '91', subtotal: '999' }, lines }, computed)).toEqual({
      field: 'subtotal', // subtotal comes before taxInclude in the checked order
      sent: '999',
      computed: '1000',
    });
  });

  it('compares salesHeadDivision as text, nulls only with fields not sent, and refuses non-decimals', () => {
    expect(compareSentTotals({ header: { salesHeadDivision: '00' }, lines: [] }, computed)).toEqual({
      field: 'salesHeadDivision',
      sent: '00',
      computed: '0',
    });
    // Miles are null for a non-member sale: a sent value, even 0, is a mismatch.
    expect(compareSentTotals({ header: { earnMile: '0' }, lines: [] }, computed)).toEqual({ field: 'earnMile', sent: '0', computed: 'null' });
    expect(compareSentTotals({ header: { total: '1e3' }, lines: [] }, computed)).toEqual({ field: 'total', sent: '1e3', computed: '1000' });
  });
});

describe('formatTotals', () => {
  it('formats decimals in shortest form and keeps nulls and codes', () => {
    const t = formatTotals(computed);
    expect(t.header).toMatchObject({ total: '1000', taxInclude: '90', costTotal: '370.5', salesHeadDivision: '0', totalMile: null });
    expect(t.lines[1]).toMatchObject({ costSum: '120.5', taxIncludeProportional: '36' }); // 90 × 400 / 1000
    // A negative zero (a return line's zero share) prints as "0".
    const ret = computeTransactionTotals({ ...input, lines: [{ ...goods(1, '0', '0'), transactionDetailDivision: '2' }] });
    expect(formatTotals(ret).header.unitNonDiscountsubtotal).toBe('0');
  });
});

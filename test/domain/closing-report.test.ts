import { describe, expect, it } from 'vitest';
import {
  computeClosingReport,
  decimalOfParts,
  ExactSum,
  type ReportHeader,
  type ReportLine,
  type ReportOtherPayment,
} from '../../server/domain/closing-report.js';

type HeaderMoney = { total?: number; cash?: number; credit?: number; tipCash?: number; tipCredit?: number };
type HeaderOptions = Partial<Omit<ReportHeader, 'total' | 'cashTotal' | 'creditTotal' | 'tipCash' | 'tipCredit' | 'transactions' | 'hasReturnLine'>> &
  HeaderMoney & { pointSpendDivision?: string };
type LineOptions = Partial<Omit<ReportLine, 'terminalId' | 'transactionHeadDivision' | 'cancelDivision' | 'pointSpendDivision'>> & { unitNonDiscountSum: string };

interface Day {
  headers: ReportHeader[];
  lines: ReportLine[];
  otherPayments: ReportOtherPayment[];
}

/**
 * One stored transaction as the repo reads it: its header (a sale of terminal 1 unless told;
 * money in yen, the cash columns become thousandths), its lines (tax-included 10 % unless told;
 * unitDiscountedSum defaults to unitNonDiscountSum) and other payments [method id, name,
 * depositOthers, unit price], each with the fields of the transaction the report reads.
 */
function tx(id: number, o: HeaderOptions, lines: LineOptions[] = [], others: [number, string, string, string?][] = []): Day {
  const { total = 0, cash = 0, credit = 0, tipCash, tipCredit, pointSpendDivision = '1', ...rest } = o;
  const h: ReportHeader = {
    terminalId: 1,
    transactions: 1,
    transactionHeadDivision: '1',
    cancelDivision: '0',
    disposeDivision: '0',
    returnSales: '0',
    hasReturnLine: lines.some((l) => l.transactionDetailDivision === '2') ? 1 : 0,
    unitDiscountsubtotal: '0',
    subtotalDiscountPrice: '0',
    pointDiscount: '0',
    couponDiscount: '0',
    roundingPrice: null,
    taxExclude: '0',
    commission: '0',
    carriage: '0',
    nonSalesTargetTotal: '0',
    amount: '0',
    returnAmount: '0',
    total: total * 1000,
    cashTotal: cash * 1000,
    creditTotal: credit * 1000,
    tipCash: tipCash === undefined ? null : tipCash * 1000,
    tipCredit: tipCredit === undefined ? null : tipCredit * 1000,
    ...rest,
  };
  const context = { terminalId: h.terminalId, transactionHeadDivision: h.transactionHeadDivision, cancelDivision: h.cancelDivision };
  return {
    headers: [h],
    lines: lines.map((l) => ({
      ...context,
      pointSpendDivision,
      transactionDetailDivision: '1',
      productDivision: '0',
      taxDivision: '0',
      taxRate: '10',
      unitDiscountedSum: l.unitNonDiscountSum,
      productBundleProportional: '0',
      discountPriceProportional: '0',
      discountCouponProportional: '0',
      discountPointProportional: '0',
      taxIncludeProportional: '0',
      taxExcludeProportional: '0',
      taxFree: '0',
      ...l,
    })),
    otherPayments: others.map(([methodId, name, depositOthers, unitPrice]) => ({
      ...context,
      paymentMethodId: methodId,
      paymentMethodCode: `M${methodId}`,
      paymentMethodName: name,
      latestTransactionHeadId: id,
      depositOthers,
      paymentUnitPrice: unitPrice ?? null,
    })),
  };
}

const day = (...txs: Day[]): Day => ({
  headers: txs.flatMap((t) => t.headers),
  lines: txs.flatMap((t) => t.lines),
  otherPayments: txs.flatMap((t) => t.otherPayments),
});

/**
 * A day of two registers, every figure computed by hand:
 * terminal 1 — A cash sale 2 × 1,100 (10 % incl., tax 200) with a 100 cash tip; B credit sale of
 * 1,000 (10 %) and 540 (8 %) with a 154 subtotal discount (shares 100 and 54: bases 900 and 486,
 * tax 81 and 36) and a 50 card tip; C a 1,000 tax-excluded line with a 100 line discount, tax 90,
 * paid with a 500 voucher (1 × unit price 500), 300 by QR and 190 cash; D an exchange: 1,100 sold
 * and 550 returned (10 % incl.; tax shares 100 and −50), 50 points spent as cash, 500 cash; E a
 * cancelled 3,000 sale; F a 10,000 deposit; G a 2,000 withdrawal.
 * terminal 2 — H a cash sale of 1,083 (8 % incl., tax 80) rounded down to 1,080; I the
 * return-cancel of an earlier day's 2 × 1,100 cash sale (every amount negated).
 */
const A = tx(1, { amount: '2', total: 2200, cash: 2200, tipCash: 100 }, [{ unitNonDiscountSum: '2200', taxIncludeProportional: '200' }]);
const B = tx(2, { amount: '2', subtotalDiscountPrice: '154', total: 1386, credit: 1386, tipCredit: 50 }, [
  { unitNonDiscountSum: '1000', discountPriceProportional: '100', taxIncludeProportional: '81' },
  { unitNonDiscountSum: '540', taxRate: '8', discountPriceProportional: '54', taxIncludeProportional: '36' },
]);
const C = tx(
  3,
  { amount: '1', unitDiscountsubtotal: '100', taxExclude: '90', total: 990, cash: 190 },
  [{ unitNonDiscountSum: '1000', unitDiscountedSum: '900', taxDivision: '1', taxExcludeProportional: '90' }],
  [
    [5, 'Voucher', '1', '500'],
    [6, 'QR', '300'],
  ],
);
const D = tx(4, { amount: '1', returnAmount: '1', pointDiscount: '50', total: 500, cash: 500 }, [
  { unitNonDiscountSum: '1100', taxIncludeProportional: '100', discountPointProportional: '100' },
  { unitNonDiscountSum: '550', transactionDetailDivision: '2', taxIncludeProportional: '-50', discountPointProportional: '-50' },
]);
const E = tx(5, { cancelDivision: '1', amount: '1', total: 3000, cash: 3000 }, [{ unitNonDiscountSum: '3000', taxIncludeProportional: '272' }], [[6, 'QR', '3000']]);
const F = tx(6, { transactionHeadDivision: '2', total: 10000, cash: 10000 });
const G = tx(7, { transactionHeadDivision: '3', total: 2000, cash: 2000 });
const H = tx(8, { terminalId: 2, amount: '1', roundingPrice: '-3', total: 1080, cash: 1080 }, [
  { unitNonDiscountSum: '1083', taxRate: '8', taxIncludeProportional: '80' },
]);
const I = tx(9, { terminalId: 2, disposeDivision: '2', amount: '-2', total: -2200, cash: -2200 }, [
  { unitNonDiscountSum: '-2200', taxIncludeProportional: '-200' },
]);

const DAY = day(A, B, C, D, E, F, G, H, I);

const noCashMoves = { deposits: '0', withdrawals: '0', custodyMoney: '0', custodyRefunds: '0' };

describe('computeClosingReport', () => {
  it('the store: counts, gross to net, tax per rate, payments, tips and cash moves of a day', () => {
    const { store } = computeClosingReport(DAY);
    expect(store).toEqual({
      counts: {
        transactions: '9',
        sales: '4', // A B C H
        returns: '1', // D
        returnCancels: '1', // I
        cancelled: '1', // E
        deposits: '1',
        withdrawals: '1',
        custodyMoney: '0',
        custodyRefunds: '0',
      },
      sales: {
        grossSales: '4723', // 2200 + 1540 + 1000 + 1100 + 1083 − 2200
        returns: '550',
        discounts: { line: '100', subtotal: '154', point: '50', coupon: '0', rounding: '3', total: '307' },
        netSales: '3866', // 4723 − 550 − 307
        taxExcluded: '90',
        commission: '0',
        carriage: '0',
        taxFree: '0',
        total: '3956', // 2200 + 1386 + 990 + 500 + 1080 − 2200 = net 3866 + tax excluded 90
        nonTaxableSales: '0',
        nonSalesTargetTotal: '0',
        returnCancelTotal: '-2200',
        cancelledTotal: '3000',
        quantity: '5', // 2 + 2 + 1 + 1 + 1 − 2
        returnQuantity: '1',
      },
      taxes: [
        // 486 + 1083 with tax 36 + 80 inside
        { taxRate: '8', taxIncludedSales: '1569', taxIncluded: '116', taxExcludedSales: '0', taxExcluded: '0', taxableBase: '1453', tax: '116' },
        // included 2200 + 900 + 1100 − 550 − 2200 (tax 200 + 81 + 100 − 50 − 200); excluded 900 (tax 90)
        { taxRate: '10', taxIncludedSales: '1450', taxIncluded: '131', taxExcludedSales: '900', taxExcluded: '90', taxableBase: '2219', tax: '221' },
      ],
      payments: {
        cash: '1770', // 2200 + 190 + 500 + 1080 − 2200
        credit: '1386',
        others: [
          { paymentMethodId: '5', paymentMethodCode: 'M5', paymentMethodName: 'Voucher', amount: '500' },
          { paymentMethodId: '6', paymentMethodCode: 'M6', paymentMethodName: 'QR', amount: '300' },
        ],
        tipCash: '100',
        tipCredit: '50',
      },
      cashMoves: { ...noCashMoves, deposits: '10000', withdrawals: '2000' },
    });
    // the tax of the rates is the tax of the headers: A 200, B 117, D 50, H 80, I −200
    expect(store.taxes.reduce((s, r) => s.add(r.taxIncluded), new ExactSum()).toString()).toBe('247');
  });

  it('each terminal has its own figures; the store is their sum', () => {
    const { terminals } = computeClosingReport(DAY);
    expect(terminals.map((t) => t.terminalId)).toEqual(['1', '2']);
    const [t1, t2] = terminals;
    expect(t1!.counts).toMatchObject({ transactions: '7', sales: '3', returns: '1', returnCancels: '0', cancelled: '1', deposits: '1', withdrawals: '1' });
    expect(t1!.sales).toMatchObject({ grossSales: '5840', returns: '550', netSales: '4986', total: '5076', cancelledTotal: '3000' });
    expect(t1!.payments).toMatchObject({ cash: '2890', credit: '1386', tipCash: '100', tipCredit: '50' });
    expect(t2).toEqual({
      terminalId: '2',
      counts: { transactions: '2', sales: '1', returns: '0', returnCancels: '1', cancelled: '0', deposits: '0', withdrawals: '0', custodyMoney: '0', custodyRefunds: '0' },
      sales: {
        grossSales: '-1117',
        returns: '0',
        discounts: { line: '0', subtotal: '0', point: '0', coupon: '0', rounding: '3', total: '3' },
        netSales: '-1120',
        taxExcluded: '0',
        commission: '0',
        carriage: '0',
        taxFree: '0',
        total: '-1120',
        nonTaxableSales: '0',
        nonSalesTargetTotal: '0',
        returnCancelTotal: '-2200',
        cancelledTotal: '0',
        quantity: '-1',
        returnQuantity: '0',
      },
      taxes: [
        { taxRate: '8', taxIncludedSales: '1083', taxIncluded: '80', taxExcludedSales: '0', taxExcluded: '0', taxableBase: '1003', tax: '80' },
        { taxRate: '10', taxIncludedSales: '-2200', taxIncluded: '-200', taxExcludedSales: '0', taxExcluded: '0', taxableBase: '-2000', tax: '-200' },
      ],
      payments: { cash: '-1120', credit: '0', others: [], tipCash: '0', tipCredit: '0' },
      cashMoves: noCashMoves,
    });
  });

  it('a sale and its return-cancel in the same day cancel out, whatever the order', () => {
    const negated = tx(11, { disposeDivision: '2', amount: '-2', total: -2200, cash: -2200, tipCash: -100 }, [
      { unitNonDiscountSum: '-2200', taxIncludeProportional: '-200' },
    ]);
    const { store } = computeClosingReport(day(negated, A));
    expect(store.counts).toMatchObject({ transactions: '2', sales: '1', returnCancels: '1' });
    expect(store.sales).toMatchObject({ grossSales: '0', netSales: '0', total: '0', quantity: '0', returnCancelTotal: '-2200' });
    expect(store.taxes).toEqual([{ taxRate: '10', taxIncludedSales: '0', taxIncluded: '0', taxExcludedSales: '0', taxExcluded: '0', taxableBase: '0', tax: '0' }]);
    expect(store.payments).toMatchObject({ cash: '0', tipCash: '0' });
  });

  it('points as a discount lower the taxable amount; bundle containers carry no money; non-taxable lines have their own total', () => {
    // 1,100 (10 % incl.) and a bundle: parent (4), children 600 and 400 (8 % excl.) with a bundle
    // discount line (8) of 100 shared 60 / 40; 110 points as a discount (pointSpendDivision 2)
    // given as shares 55 / 33 / 22 of the taxed lines; a non-taxable 300 service line.
    // Tax outside: 8 % of 507 + 338 = 67 (shares 40 and 27).
    const sold = tx(1, { pointSpendDivision: '2', pointDiscount: '110', unitDiscountsubtotal: '100', taxExclude: '67', total: 2257 }, [
      { unitNonDiscountSum: '1100', discountPointProportional: '55', taxIncludeProportional: '95' },
      { unitNonDiscountSum: '0', productDivision: '4' },
      { unitNonDiscountSum: '600', taxDivision: '1', taxRate: '8', productDivision: '7', productBundleProportional: '60', discountPointProportional: '33', taxExcludeProportional: '40' },
      { unitNonDiscountSum: '400', taxDivision: '1', taxRate: '8', productDivision: '7', productBundleProportional: '40', discountPointProportional: '22', taxExcludeProportional: '27' },
      { unitNonDiscountSum: '100', productDivision: '8', taxDivision: '1', taxRate: '8' },
      { unitNonDiscountSum: '300', taxDivision: '2' },
    ]);
    const { store } = computeClosingReport(sold);
    expect(store.sales).toMatchObject({
      grossSales: '2400',
      discounts: { line: '100', subtotal: '0', point: '110', coupon: '0', rounding: '0', total: '210' },
      netSales: '2190',
      taxExcluded: '67',
      total: '2257',
      nonTaxableSales: '300',
    });
    expect(store.taxes).toEqual([
      // (600 − 60 − 33) + (400 − 40 − 22) = 845 with 67 outside
      { taxRate: '8', taxIncludedSales: '0', taxIncluded: '0', taxExcludedSales: '845', taxExcluded: '67', taxableBase: '845', tax: '67' },
      // 1100 − 55 = 1045 with 95 inside
      { taxRate: '10', taxIncludedSales: '1045', taxIncluded: '95', taxExcludedSales: '0', taxExcluded: '0', taxableBase: '950', tax: '95' },
    ]);
  });

  it('sums fractional quantities and prices exactly; an other payment takes the latest name of its method', () => {
    const { store, terminals } = computeClosingReport(
      day(
        tx(2, { amount: '1.25', terminalId: null }, [{ unitNonDiscountSum: '0.0005', taxDivision: '2' }], [[7, 'Points card', '3', '0.1']]),
        tx(1, { amount: '0.5' }, [{ unitNonDiscountSum: '166.6665' }], [[7, 'Old name', '0.7']]),
      ),
    );
    expect(store.sales).toMatchObject({ grossSales: '166.667', quantity: '1.75', nonTaxableSales: '0.0005' });
    expect(store.payments.others).toEqual([{ paymentMethodId: '7', paymentMethodCode: 'M7', paymentMethodName: 'Points card', amount: '1' }]);
    // a transaction of no terminal counts for the store only
    expect(terminals.map((t) => [t.terminalId, t.counts.transactions])).toEqual([['1', '1']]);
    expect(store.counts.transactions).toBe('2');
  });

  it('a row that sums a group of transactions gives the report of those transactions', () => {
    const one = tx(1, { amount: '1', total: 1100, cash: 1100, tipCash: 10 }, [{ unitNonDiscountSum: '1100', taxIncludeProportional: '100' }], [[5, 'Voucher', '1', '500']]);
    const other = tx(2, { amount: '2', total: 2200.5, cash: 2200.5 }, [{ unitNonDiscountSum: '2200.5', taxIncludeProportional: '200' }], [[5, 'Voucher', '2', '500']]);
    const grouped: Day = {
      headers: [{ ...one.headers[0]!, transactions: 2, amount: '3', total: 3300500, cashTotal: 3300500, tipCash: 10000 }],
      lines: [{ ...one.lines[0]!, unitNonDiscountSum: '3300.5', unitDiscountedSum: '3300.5', taxIncludeProportional: '300' }],
      otherPayments: [{ ...other.otherPayments[0]!, depositOthers: '3' }],
    };
    expect(computeClosingReport(grouped)).toEqual(computeClosingReport(day(one, other)));
    expect(computeClosingReport(grouped).store.counts.sales).toBe('2');
    expect(computeClosingReport(grouped).store.payments.others[0]!.amount).toBe('1500');
  });

  it('an empty day is all zeros', () => {
    const { store, terminals } = computeClosingReport({ headers: [], lines: [], otherPayments: [] });
    expect(terminals).toEqual([]);
    expect(store.sales.netSales).toBe('0');
    expect(store.taxes).toEqual([]);
    expect(Object.values(store.counts)).toEqual(Array(9).fill('0'));
  });
});

describe('ExactSum', () => {
  it('adds decimal strings, thousandths and products exactly, in the shortest form', () => {
    const s = new ExactSum().add('0.1').add('0.2').add('-0.3');
    expect(s.toString()).toBe('0');
    expect(new ExactSum().add('123456789012345.678901').add('0.000099').toString()).toBe('123456789012345.679');
    expect(new ExactSum().addUnits(-1500).add('0.5').toString()).toBe('-1');
    expect(new ExactSum().addProduct('3', '333.333').add('0.001').toString()).toBe('1000');
    expect(new ExactSum().add('-0.05').toString()).toBe('-0.05');
    expect(new ExactSum().add('12.50', -1).toString()).toBe('-12.5');
  });

  it('reads the integer and 10^-9 fraction parts of an SQL sum', () => {
    expect(decimalOfParts(1234, 500_000_000)).toBe('1234.5');
    expect(decimalOfParts(-12, -250_000_000)).toBe('-12.25');
    expect(decimalOfParts(0, 1)).toBe('0.000000001');
    expect(decimalOfParts(null, null)).toBe('0');
  });

  it('refuses what is not a plain decimal', () => {
    expect(() => new ExactSum().add('1e3')).toThrow(RangeError);
  });
});

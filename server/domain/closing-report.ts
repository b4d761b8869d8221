/**
 * The day's report of a closing (issue 10, item 7): pure figures over the transactions a
 * closing closes, per terminal and for the store. No SQL, no HTTP. Every figure is an exact
 * decimal string in the shortest form ("1000", "12.5", "-300"); counts are strings of integers.
 *
 * Inputs are the stored values (spec 2.13): TEXT decimals as strings (null counts as 0) and the
 * INTEGER thousandths of the cash columns (total, cashTotal, creditTotal, tipCash, tipCredit).
 * A return-cancel (disposeDivision 2) is stored with every amount negated, so it takes its
 * source's figures back simply by being summed. The definitions (also on the fields of the
 * OpenAPI schema DailySummaryReport):
 *
 * - counted sales: transactionHeadDivision 1 and cancelDivision 0 (return-cancels included);
 *   every money figure but cancelledTotal and the cash moves is over them; counted as
 *   returnCancels (disposeDivision 2), else returns (returnSales 1 or goods returned), else sales;
 * - grossSales: Σ unitNonDiscountSum of their goods lines that are not return lines;
 * - returns: Σ unitNonDiscountSum of their return lines (transactionDetailDivision 2);
 * - discounts: line (Σ unitDiscountsubtotal: line and bundle discounts, those of returned lines
 *   taken off), subtotal, point, coupon, rounding (−Σ roundingPrice) and their total;
 * - netSales = grossSales − returns − discounts.total;
 * - total (Σ total) = netSales + taxExcluded + commission + carriage − taxFree;
 * - taxes per rate over goods lines of tax division 0 and 1: taxable amount of a line as the
 *   totals compute it (its net after line, bundle, subtotal and coupon discounts, and point
 *   discounts when points are a discount, pointSpendDivision 2), tax amounts Σ
 *   taxIncludeProportional / taxExcludeProportional, taxableBase = the amount without tax;
 * - payments: Σ cashTotal, Σ creditTotal, Σ other payments by method (depositOthers × the
 *   method's unit price when it has one), Σ tipCash, Σ tipCredit;
 * - cash moves: Σ total of deposits (2), withdrawals (3), custody money (4), custody refunds (5)
 *   not cancelled.
 */

/** Product divisions that are containers (4, 5, 6 parents; 8 bundle discount): no money of their own. */
const CONTAINER_DIVISIONS: ReadonlySet<string> = new Set(['4', '5', '6', '8']);

/**
 * Transaction headers as stored, one row per transaction or per group of transactions that
 * share every classifying field (terminalId to hasReturnLine): then `transactions` is their
 * number and each amount their exact sum. Every figure is a sum, so both give the same report.
 */
export interface ReportHeader {
  terminalId: number | null;
  /** How many transactions the row stands for. */
  transactions: number;
  transactionHeadDivision: string;
  cancelDivision: string;
  disposeDivision: string;
  returnSales: string | null;
  /** 1 when the transaction returns goods: a goods line of transactionDetailDivision 2 (returnAmount ≠ 0). */
  hasReturnLine: 0 | 1;
  unitDiscountsubtotal: string | null;
  subtotalDiscountPrice: string | null;
  pointDiscount: string | null;
  couponDiscount: string | null;
  roundingPrice: string | null;
  taxExclude: string | null;
  commission: string | null;
  carriage: string | null;
  nonSalesTargetTotal: string | null;
  amount: string | null;
  returnAmount: string | null;
  /** Thousandths. */
  total: number;
  cashTotal: number;
  creditTotal: number;
  tipCash: number | null;
  tipCredit: number | null;
}

/** Detail lines as stored with the fields of their transaction the report reads; one row per line or per group alike. */
export interface ReportLine {
  terminalId: number | null;
  transactionHeadDivision: string;
  cancelDivision: string;
  pointSpendDivision: string | null;
  transactionDetailDivision: string;
  productDivision: string;
  taxDivision: string;
  taxRate: string;
  unitNonDiscountSum: string | null;
  unitDiscountedSum: string | null;
  productBundleProportional: string | null;
  discountPriceProportional: string | null;
  discountCouponProportional: string | null;
  discountPointProportional: string | null;
  taxIncludeProportional: string | null;
  taxExcludeProportional: string | null;
  taxFree: string | null;
}

/** Other-payment lines (depositOthers) as stored, one row per line or per group of one method and unit price. */
export interface ReportOtherPayment {
  terminalId: number | null;
  transactionHeadDivision: string;
  cancelDivision: string;
  paymentMethodId: number;
  paymentMethodCode: string | null;
  paymentMethodName: string | null;
  /** The transaction the code and name are from (the latest of the group). */
  latestTransactionHeadId: number;
  depositOthers: string;
  paymentUnitPrice: string | null;
}

export interface ReportInput {
  headers: readonly ReportHeader[];
  lines: readonly ReportLine[];
  otherPayments: readonly ReportOtherPayment[];
}

export interface ReportCounts {
  transactions: string;
  sales: string;
  returns: string;
  returnCancels: string;
  cancelled: string;
  deposits: string;
  withdrawals: string;
  custodyMoney: string;
  custodyRefunds: string;
}

export interface ReportDiscounts {
  line: string;
  subtotal: string;
  point: string;
  coupon: string;
  rounding: string;
  total: string;
}

export interface ReportSales {
  grossSales: string;
  returns: string;
  discounts: ReportDiscounts;
  netSales: string;
  taxExcluded: string;
  commission: string;
  carriage: string;
  taxFree: string;
  total: string;
  nonTaxableSales: string;
  nonSalesTargetTotal: string;
  returnCancelTotal: string;
  cancelledTotal: string;
  quantity: string;
  returnQuantity: string;
}

export interface ReportTaxRate {
  taxRate: string;
  taxIncludedSales: string;
  taxIncluded: string;
  taxExcludedSales: string;
  taxExcluded: string;
  taxableBase: string;
  tax: string;
}

export interface ReportMethodTotal {
  paymentMethodId: string;
  paymentMethodCode: string | null;
  paymentMethodName: string | null;
  amount: string;
}

export interface ReportPayments {
  cash: string;
  credit: string;
  others: ReportMethodTotal[];
  tipCash: string;
  tipCredit: string;
}

export interface ReportCashMoves {
  deposits: string;
  withdrawals: string;
  custodyMoney: string;
  custodyRefunds: string;
}

export interface ReportFigures {
  counts: ReportCounts;
  sales: ReportSales;
  taxes: ReportTaxRate[];
  payments: ReportPayments;
  cashMoves: ReportCashMoves;
}

export interface ClosingReport {
  store: ReportFigures;
  /** Terminals in ascending id order. */
  terminals: (ReportFigures & { terminalId: string })[];
}

// ---- Exact sums ----

const POW10: bigint[] = Array.from({ length: 32 }, (_, n) => 10n ** BigInt(n));
const pow10 = (n: number) => POW10[n] ?? 10n ** BigInt(n);

/**
 * An exact running sum of decimals as a BigInt count of 10^-scale (the scale grows to the
 * finest value added): as exact as decimal.js and several times faster, which counts when a
 * closing's records are summed one by one (the repo's per-row reading).
 */
export class ExactSum {
  private n = 0n;
  private scale = 0;

  /** Adds n × 10^-scale. */
  addScaled(n: bigint, scale: number): void {
    if (n === 0n) return;
    if (scale > this.scale) {
      this.n *= pow10(scale - this.scale);
      this.scale = scale;
    }
    this.n += scale === this.scale ? n : n * pow10(this.scale - scale);
  }

  /** Adds a stored decimal string (null: nothing); `sign` -1 subtracts it. */
  add(text: string | null | undefined, sign: 1 | -1 = 1): this {
    if (text === null || text === undefined || text === '0') return this;
    const [n, scale] = parse(text);
    this.addScaled(sign < 0 ? -n : n, scale);
    return this;
  }

  /** Adds a count of thousandths (an INTEGER cash column; null: nothing). */
  addUnits(units: number | null | undefined, sign: 1 | -1 = 1): this {
    if (!units) return this;
    this.addScaled(BigInt(sign * units), 3);
    return this;
  }

  /** Adds a × b (both stored decimal strings). */
  addProduct(a: string, b: string): this {
    const [x, xs] = parse(a);
    const [y, ys] = parse(b);
    this.addScaled(x * y, xs + ys);
    return this;
  }

  /** Adds another sum; `sign` -1 subtracts it. */
  addSum(other: ExactSum, sign: 1 | -1 = 1): this {
    this.addScaled(sign < 0 ? -other.n : other.n, other.scale);
    return this;
  }

  /** The shortest exact decimal string ("0" for zero, never "-0"). */
  toString(): string {
    let n = this.n;
    let scale = this.scale;
    if (n === 0n) return '0';
    while (scale > 0 && n % 10n === 0n) {
      n /= 10n;
      scale--;
    }
    const negative = n < 0n;
    const digits = (negative ? -n : n).toString();
    if (scale === 0) return (negative ? '-' : '') + digits;
    const padded = digits.padStart(scale + 1, '0');
    return `${negative ? '-' : ''}${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
  }
}

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** A plain decimal string as [count of 10^-scale, scale]; throws RangeError on anything else. */
function parse(text: string): [bigint, number] {
  if (!DECIMAL.test(text)) throw new RangeError(`${JSON.stringify(text)} is not a stored decimal`);
  const dot = text.indexOf('.');
  if (dot < 0) return [BigInt(text), 0];
  return [BigInt(text.slice(0, dot) + text.slice(dot + 1)), text.length - dot - 1];
}

/** Decimals of the fraction part of SUM_FRACTION_SQL. */
export const SUM_SCALE = 9;

/**
 * The exact decimal string of a sum made in SQL as an integer part and a fraction part in
 * 10^-SUM_SCALE (the repo's exact SUM of TEXT decimals that have at most SUM_SCALE decimals).
 */
export function decimalOfParts(integerPart: number | null, fractionPart: number | null): string {
  const sum = new ExactSum();
  if (integerPart) sum.addScaled(BigInt(integerPart), 0);
  if (fractionPart) sum.addScaled(BigInt(fractionPart), SUM_SCALE);
  return sum.toString();
}

/** Σ of sums (a new sum). */
const total = (...sums: ExactSum[]) => sums.reduce((acc, s) => acc.addSum(s), new ExactSum());

// ---- Figures of one terminal (or of the store) ----

interface TaxSums {
  includedSales: ExactSum;
  included: ExactSum;
  excludedSales: ExactSum;
  excluded: ExactSum;
}

interface MethodSum {
  code: string | null;
  name: string | null;
  /** The transaction the code and name were taken from: the latest one paying with the method. */
  from: number;
  amount: ExactSum;
}

const COUNT_KEYS = ['transactions', 'sales', 'returns', 'returnCancels', 'cancelled', 'deposits', 'withdrawals', 'custodyMoney', 'custodyRefunds'] as const;
const SALES_KEYS = [
  'grossSales', 'returns', 'lineDiscounts', 'subtotalDiscounts', 'pointDiscounts', 'couponDiscounts', 'roundingPrice', 'taxExcluded',
  'commission', 'carriage', 'taxFree', 'total', 'nonTaxableSales', 'nonSalesTargetTotal', 'returnCancelTotal', 'cancelledTotal',
  'quantity', 'returnQuantity', 'cash', 'credit', 'tipCash', 'tipCredit', 'deposits', 'withdrawals', 'custodyMoney', 'custodyRefunds',
] as const;

/** Transaction divisions that move cash in or out of the drawer, by their report figure. */
const CASH_MOVES: Readonly<Record<string, 'deposits' | 'withdrawals' | 'custodyMoney' | 'custodyRefunds'>> = {
  '2': 'deposits',
  '3': 'withdrawals',
  '4': 'custodyMoney',
  '5': 'custodyRefunds',
};

class Figures {
  readonly counts = Object.fromEntries(COUNT_KEYS.map((k) => [k, 0])) as Record<(typeof COUNT_KEYS)[number], number>;
  readonly sums = Object.fromEntries(SALES_KEYS.map((k) => [k, new ExactSum()])) as Record<(typeof SALES_KEYS)[number], ExactSum>;
  readonly taxes = new Map<string, TaxSums>();
  readonly methods = new Map<number, MethodSum>();

  tax(rate: string): TaxSums {
    let t = this.taxes.get(rate);
    if (!t) {
      t = { includedSales: new ExactSum(), included: new ExactSum(), excludedSales: new ExactSum(), excluded: new ExactSum() };
      this.taxes.set(rate, t);
    }
    return t;
  }

  method(id: number, code: string | null, name: string | null, from: number): MethodSum {
    let m = this.methods.get(id);
    if (!m) {
      m = { code, name, from, amount: new ExactSum() };
      this.methods.set(id, m);
    } else if (from > m.from) {
      Object.assign(m, { code, name, from });
    }
    return m;
  }

  merge(other: Figures): void {
    for (const k of COUNT_KEYS) this.counts[k] += other.counts[k];
    for (const k of SALES_KEYS) this.sums[k].addSum(other.sums[k]);
    for (const [rate, t] of other.taxes) {
      const mine = this.tax(rate);
      mine.includedSales.addSum(t.includedSales);
      mine.included.addSum(t.included);
      mine.excludedSales.addSum(t.excludedSales);
      mine.excluded.addSum(t.excluded);
    }
    for (const [id, m] of other.methods) this.method(id, m.code, m.name, m.from).amount.addSum(m.amount);
  }

  present(): ReportFigures {
    const s = this.sums;
    const str = (x: ExactSum) => x.toString();
    const rounding = new ExactSum().addSum(s.roundingPrice, -1);
    const discountTotal = total(s.lineDiscounts, s.subtotalDiscounts, s.pointDiscounts, s.couponDiscounts, rounding);
    const netSales = new ExactSum().addSum(s.grossSales).addSum(s.returns, -1).addSum(discountTotal, -1);
    const byRate = [...this.taxes.entries()].sort(([a], [b]) => compareRates(a, b));
    return {
      counts: Object.fromEntries(COUNT_KEYS.map((k) => [k, String(this.counts[k])])) as unknown as ReportCounts,
      sales: {
        grossSales: str(s.grossSales),
        returns: str(s.returns),
        discounts: {
          line: str(s.lineDiscounts),
          subtotal: str(s.subtotalDiscounts),
          point: str(s.pointDiscounts),
          coupon: str(s.couponDiscounts),
          rounding: str(rounding),
          total: str(discountTotal),
        },
        netSales: str(netSales),
        taxExcluded: str(s.taxExcluded),
        commission: str(s.commission),
        carriage: str(s.carriage),
        taxFree: str(s.taxFree),
        total: str(s.total),
        nonTaxableSales: str(s.nonTaxableSales),
        nonSalesTargetTotal: str(s.nonSalesTargetTotal),
        returnCancelTotal: str(s.returnCancelTotal),
        cancelledTotal: str(s.cancelledTotal),
        quantity: str(s.quantity),
        returnQuantity: str(s.returnQuantity),
      },
      taxes: byRate.map(([rate, t]) => ({
        taxRate: rate,
        taxIncludedSales: str(t.includedSales),
        taxIncluded: str(t.included),
        taxExcludedSales: str(t.excludedSales),
        taxExcluded: str(t.excluded),
        taxableBase: str(new ExactSum().addSum(t.includedSales).addSum(t.included, -1).addSum(t.excludedSales)),
        tax: str(total(t.included, t.excluded)),
      })),
      payments: {
        cash: str(s.cash),
        credit: str(s.credit),
        others: [...this.methods.entries()]
          .sort(([a], [b]) => a - b)
          .map(([id, m]) => ({ paymentMethodId: String(id), paymentMethodCode: m.code, paymentMethodName: m.name, amount: str(m.amount) })),
        tipCash: str(s.tipCash),
        tipCredit: str(s.tipCredit),
      },
      cashMoves: {
        deposits: str(s.deposits),
        withdrawals: str(s.withdrawals),
        custodyMoney: str(s.custodyMoney),
        custodyRefunds: str(s.custodyRefunds),
      },
    };
  }
}

/** Rates in ascending numeric order ("8" before "10"). */
function compareRates(a: string, b: string): number {
  const x = new ExactSum().add(a).addSum(new ExactSum().add(b), -1).toString();
  return x === '0' ? 0 : x.startsWith('-') ? -1 : 1;
}

/** A counted sale: a sale (transactionHeadDivision 1) not cancelled. */
const counted = (t: { transactionHeadDivision: string; cancelDivision: string }) => t.transactionHeadDivision === '1' && t.cancelDivision !== '1';

/** The report of the transactions a closing closed (rows in any order), per terminal and for the store. */
export function computeClosingReport(input: ReportInput): ClosingReport {
  const terminals = new Map<number | null, Figures>();
  const of = (terminalId: number | null) => {
    let figures = terminals.get(terminalId);
    if (!figures) {
      figures = new Figures();
      terminals.set(terminalId, figures);
    }
    return figures;
  };
  for (const h of input.headers) addHeader(of(h.terminalId), h);
  for (const l of input.lines) if (counted(l)) addLine(of(l.terminalId), l);
  for (const o of input.otherPayments) {
    if (!counted(o)) continue;
    const m = of(o.terminalId).method(o.paymentMethodId, o.paymentMethodCode, o.paymentMethodName, o.latestTransactionHeadId);
    if (o.paymentUnitPrice === null) m.amount.add(o.depositOthers);
    else m.amount.addProduct(o.depositOthers, o.paymentUnitPrice);
  }

  const store = new Figures();
  for (const f of terminals.values()) store.merge(f);
  return {
    store: store.present(),
    terminals: [...terminals.entries()]
      .filter((e): e is [number, Figures] => e[0] !== null)
      .sort(([a], [b]) => a - b)
      .map(([id, f]) => ({ terminalId: String(id), ...f.present() })),
  };
}

function addHeader(figures: Figures, h: ReportHeader): void {
  const { counts, sums } = figures;
  const n = h.transactions;
  counts.transactions += n;
  if (h.cancelDivision === '1') {
    counts.cancelled += n;
    if (h.transactionHeadDivision === '1') sums.cancelledTotal.addUnits(h.total);
    return;
  }
  const move = CASH_MOVES[h.transactionHeadDivision];
  if (move) {
    counts[move] += n;
    sums[move].addUnits(h.total);
    return;
  }
  if (!counted(h)) return; // points and miles: no money
  if (h.disposeDivision === '2') {
    counts.returnCancels += n;
    sums.returnCancelTotal.addUnits(h.total);
  } else if (h.returnSales === '1' || h.hasReturnLine) {
    counts.returns += n;
  } else {
    counts.sales += n;
  }
  sums.lineDiscounts.add(h.unitDiscountsubtotal);
  sums.subtotalDiscounts.add(h.subtotalDiscountPrice);
  sums.pointDiscounts.add(h.pointDiscount);
  sums.couponDiscounts.add(h.couponDiscount);
  sums.roundingPrice.add(h.roundingPrice);
  sums.taxExcluded.add(h.taxExclude);
  sums.commission.add(h.commission);
  sums.carriage.add(h.carriage);
  sums.nonSalesTargetTotal.add(h.nonSalesTargetTotal);
  sums.quantity.add(h.amount);
  sums.returnQuantity.add(h.returnAmount);
  sums.total.addUnits(h.total);
  sums.cash.addUnits(h.cashTotal);
  sums.credit.addUnits(h.creditTotal);
  sums.tipCash.addUnits(h.tipCash);
  sums.tipCredit.addUnits(h.tipCredit);
}

function addLine(figures: Figures, l: ReportLine): void {
  if (CONTAINER_DIVISIONS.has(l.productDivision)) return;
  const { sums } = figures;
  const returned = l.transactionDetailDivision === '2';
  const sign = returned ? -1 : 1;
  if (returned) {
    sums.returns.add(l.unitNonDiscountSum);
  } else {
    sums.grossSales.add(l.unitNonDiscountSum);
  }
  sums.taxFree.add(l.taxFree, sign);
  // The taxable amount of the line as computeTransactionTotals makes it: the signed net after
  // line and bundle discounts, less its shares of the subtotal and coupon discounts (shares are
  // stored signed), and of the point discount when points are a discount (pointSpendDivision 2).
  const base = new ExactSum()
    .add(l.unitDiscountedSum, sign)
    .add(l.productBundleProportional, -1)
    .add(l.discountPriceProportional, -1)
    .add(l.discountCouponProportional, -1);
  if (l.pointSpendDivision === '2') base.add(l.discountPointProportional, -1);
  if (l.taxDivision === '2') {
    sums.nonTaxableSales.addSum(base);
    return;
  }
  const tax = figures.tax(l.taxRate);
  if (l.taxDivision === '1') {
    tax.excludedSales.addSum(base);
    tax.excluded.add(l.taxExcludeProportional);
  } else {
    tax.includedSales.addSum(base);
    tax.included.add(l.taxIncludeProportional);
  }
}

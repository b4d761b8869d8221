import { z } from 'zod';
import type { ClosingReport } from '../../domain/closing-report.js';
import { fromUnits } from '../../domain/money.js';
import { formatDateTime } from '../../domain/time.js';
import { date, decimalText, id, oneOf } from '../../platform/http/fields.js';
import { pageQuery, POS_PAGE } from '../../platform/http/paging.js';
import { countsOfRow } from './cash-counts.js';
import { cashInfoBody, countsSchema, presentCounts } from './cash-info-schema.js';
import type { DailySummaryRow } from './closing-repo.js';

export const createDailySummaryBody = z.strictObject({
  sumDate: date.describe('the date to close: settled transactions sold on or before it are closed'),
  storeId: id(),
  cashInfo: cashInfoBody.nullable().optional(),
});
export type CreateDailySummary = z.infer<typeof createDailySummaryBody>;

/** The answer of 4.15. */
export const closingResult = z
  .object({
    sumDate: z.string(),
    storeId: z.string(),
    cashDrawerId: z.string().describe('0: unset'),
    terminalIdList: z.array(z.string()).describe('terminals that raised the closed transactions, ascending'),
  })
  .meta({ id: 'DailySummaryResult' });

export const CASH_SOURCES = ['settlement', 'request', 'uncounted'] as const;
export const CLOSING_METHODS = ['manual', 'auto', 'api'] as const;

/** The stored closing with every figure (supporting reads). */
export const dailySummary = z
  .object({
    dailySummaryId: z.string(),
    sumDate: z.string(),
    storeId: z.string(),
    cashDrawerId: z.string(),
    terminalIdList: z.array(z.string()),
    transactionCount: z.string(),
    cashSource: z.enum(CASH_SOURCES).describe('settlement: latest settlements of the terminals; request: cashInfo; uncounted: automatic closing without a count'),
    cashInfo: countsSchema.nullable().describe('counted notes and coins; null when uncounted'),
    preparationCash: z.string(),
    saving: z.string(),
    carryOverReserve: z.string(),
    cashSalesTotal: z.string().describe('Σ cash effects of the closed transactions'),
    computedCashBalance: z.string(),
    realCashBalance: z.string(),
    depositedBankMoney: z.string(),
    overShort: z.string(),
    closingMethod: z.enum(CLOSING_METHODS),
    closedDateTime: z.string(),
    releasedDateTime: z.string().nullable(),
  })
  .meta({ id: 'DailySummary' });
export type DailySummary = z.infer<typeof dailySummary>;

/** An exact decimal amount of the report (shortest form, signed). */
const amount = (what: string) => z.string().describe(what);
const tally = (what: string) => z.string().describe(what);

/** The figures of the report, for a terminal or for the store (server/domain/closing-report.ts). */
const reportFigures = {
  counts: z
    .object({
      transactions: tally('every transaction the closing closed (transactionCount)'),
      sales: tally('sales (transactionHeadDivision 1) not cancelled, neither returns nor return-cancels'),
      returns: tally('sales with returnSales 1 or a return line (transactionDetailDivision 2), not cancelled, not return-cancels'),
      returnCancels: tally('return-cancels (disposeDivision 2) not cancelled'),
      cancelled: tally('cancelled transactions (cancelDivision 1) of any division'),
      deposits: tally('deposits (transactionHeadDivision 2) not cancelled'),
      withdrawals: tally('withdrawals (3) not cancelled'),
      custodyMoney: tally('custody money (4) not cancelled'),
      custodyRefunds: tally('custody refunds (5) not cancelled'),
    })
    .describe('numbers of transactions'),
  sales: z
    .object({
      grossSales: amount('Σ unitNonDiscountSum of the goods lines (not product divisions 4, 5, 6, 8) that are not return lines, of counted sales (transactionHeadDivision 1, cancelDivision 0, return-cancels included with their negated amounts)'),
      returns: amount('Σ unitNonDiscountSum of the return lines (transactionDetailDivision 2) of counted sales'),
      discounts: z
        .object({
          line: amount('Σ unitDiscountsubtotal: line and bundle discounts (those of returned lines taken off)'),
          subtotal: amount('Σ subtotalDiscountPrice'),
          point: amount('Σ pointDiscount'),
          coupon: amount('Σ couponDiscount'),
          rounding: amount('−Σ roundingPrice: what rounding took off the totals (negative when it added)'),
          total: amount('line + subtotal + point + coupon + rounding'),
        })
        .describe('discounts of counted sales'),
      netSales: amount('grossSales − returns − discounts.total'),
      taxExcluded: amount('Σ taxExclude: tax added on top of tax-excluded prices'),
      commission: amount('Σ commission'),
      carriage: amount('Σ carriage'),
      taxFree: amount('Σ taxFree of the goods lines (return lines negative), taken off the totals'),
      total: amount('Σ total of counted sales = netSales + taxExcluded + commission + carriage − taxFree'),
      nonTaxableSales: amount('Σ taxable amount of the non-taxable lines (taxDivision 2)'),
      nonSalesTargetTotal: amount('Σ nonSalesTargetTotal: the part of the figures that is not sales target (salesDivision 1)'),
      returnCancelTotal: amount('Σ total of the return-cancels (negative; included in total)'),
      cancelledTotal: amount('Σ total of cancelled sales (in no other figure)'),
      quantity: amount('Σ amount: quantity of the non-return lines'),
      returnQuantity: amount('Σ returnAmount: quantity of the return lines'),
    })
    .describe('sales from gross to net; every amount is signed, return-cancels count negative'),
  taxes: z
    .array(
      z.object({
        taxRate: z.string().describe('the lines\' taxRate (%)'),
        taxIncludedSales: amount('Σ taxable amount of the tax-included lines (taxDivision 0), tax inside'),
        taxIncluded: amount('Σ taxIncludeProportional'),
        taxExcludedSales: amount('Σ taxable amount of the tax-excluded lines (taxDivision 1), tax outside'),
        taxExcluded: amount('Σ taxExcludeProportional'),
        taxableBase: amount('taxIncludedSales − taxIncluded + taxExcludedSales: the amount without tax'),
        tax: amount('taxIncluded + taxExcluded'),
      }),
    )
    .describe('per tax rate, ascending, over the taxed goods lines of counted sales; a line\'s taxable amount is its net after line, bundle, subtotal and coupon discounts (and point discounts when pointSpendDivision is 2), as the transaction totals compute it'),
  payments: z
    .object({
      cash: amount('Σ cashTotal of counted sales (net of change)'),
      credit: amount('Σ creditTotal'),
      others: z
        .array(
          z.object({
            paymentMethodId: z.string(),
            paymentMethodCode: z.string().nullable(),
            paymentMethodName: z.string().nullable().describe('as on the latest transaction paid with it'),
            amount: amount('Σ depositOthers × the method\'s paymentUnitPrice when it has one'),
          }),
        )
        .describe('other payment methods (depositOthers), by paymentMethodId'),
      tipCash: amount('Σ tipCash'),
      tipCredit: amount('Σ tipCredit'),
    })
    .describe('payments of counted sales'),
  cashMoves: z
    .object({
      deposits: amount('Σ total of deposits'),
      withdrawals: amount('Σ total of withdrawals'),
      custodyMoney: amount('Σ total of custody money'),
      custodyRefunds: amount('Σ total of custody refunds'),
    })
    .describe('cash put in and taken out of the drawer, not cancelled'),
};

/** The day's report of a closing (issue 10): computed when the closing is made and stored with it. */
export const closingReport = z
  .object({
    store: z.object(reportFigures).meta({ id: 'DailySummaryReportFigures' }),
    terminals: z
      .array(z.object({ terminalId: z.string(), ...reportFigures }))
      .describe('the same figures per terminal, ascending; the store\'s are their sum'),
  })
  .describe('the day\'s report of the transactions the closing closed, exact decimals')
  .meta({ id: 'DailySummaryReport' });
export type ClosingReportBody = z.infer<typeof closingReport>;

/** A closing with its report: GET /daily_summaries/{store_id}/{sum_date} and the release. */
export const dailySummaryWithReport = dailySummary.extend({ report: closingReport }).meta({ id: 'DailySummaryWithReport' });
export type DailySummaryWithReport = z.infer<typeof dailySummaryWithReport>;

export function presentDailySummaryWithReport(row: DailySummaryRow, zone: string, report: ClosingReport): DailySummaryWithReport {
  return { ...presentDailySummary(row, zone), report };
}

export const dailySummaryParams = z.object({ store_id: id(), sum_date: date });

export const DAILY_SUMMARY_SORT = ['sumDate', 'storeId', 'dailySummaryId'] as const;

export const listDailySummariesQuery = z.strictObject({
  store_id: id().optional(),
  sum_date: date.optional().describe('the closing date, matched exactly'),
  'sum_date-from': date.optional(),
  'sum_date-to': date.optional(),
  released: oneOf(['0', '1'] as const).optional().describe('0 only in force, 1 only released; both when omitted'),
  ...pageQuery(DAILY_SUMMARY_SORT, POS_PAGE),
}).refine((q) => !q['sum_date-from'] || !q['sum_date-to'] || q['sum_date-from'] <= q['sum_date-to'], {
  path: ['sum_date-to'],
  message: 'must not be before sum_date-from',
});
export type ListDailySummariesQuery = z.infer<typeof listDailySummariesQuery>;

const money = (units: number) => fromUnits(units, 3);

export function presentDailySummary(row: DailySummaryRow, zone: string): DailySummary {
  return {
    dailySummaryId: String(row.daily_summary_id),
    sumDate: row.sum_date,
    storeId: String(row.store_id),
    cashDrawerId: String(row.cash_drawer_id),
    terminalIdList: JSON.parse(row.terminal_ids) as string[],
    transactionCount: String(row.transaction_count),
    cashSource: row.cash_source,
    cashInfo: row.ten_thousand_yen === null ? null : presentCounts(countsOfRow(row)),
    preparationCash: money(row.preparation_cash),
    saving: money(row.saving),
    carryOverReserve: money(row.carry_over_reserve),
    cashSalesTotal: money(row.cash_sales_total),
    computedCashBalance: money(row.computed_cash_balance),
    realCashBalance: money(row.real_cash_balance),
    depositedBankMoney: money(row.deposited_bank_money),
    overShort: money(row.over_short),
    closingMethod: row.closing_method,
    closedDateTime: formatDateTime(row.closed_at, zone),
    releasedDateTime: row.released_at === null ? null : formatDateTime(row.released_at, zone),
  };
}

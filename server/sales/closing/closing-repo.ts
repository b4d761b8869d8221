import type { Dialect } from '../../db/dialect/query.js';
import { dialectOf } from '../../db/engine.js';
import type { Sqlite } from '../../db/open.js';
import type { CashCounts } from '../../domain/closing.js';
import { decimalOfParts, SUM_SCALE, type ReportInput } from '../../domain/closing-report.js';
import { NotFoundError } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import { selectFilteredPage } from '../../db/sql.js';
import { CASH_EFFECT_SQL, COUNT_LIST, countValues, type CountColumns } from './cash-counts.js';
import type { ListDailySummariesQuery } from './closing-schema.js';
import type { AdjustmentRow } from './settlement-repo.js';

export interface DailySummaryRow extends CountColumns {
  contract_id: string;
  daily_summary_id: number;
  store_id: number;
  sum_date: string;
  cash_drawer_id: number;
  cash_source: 'settlement' | 'request' | 'uncounted';
  preparation_cash: number;
  saving: number;
  carry_over_reserve: number;
  cash_sales_total: number;
  computed_cash_balance: number;
  real_cash_balance: number;
  deposited_bank_money: number;
  over_short: number;
  transaction_count: number;
  terminal_ids: string;
  /** JSON of the ClosingReport; null on closings made before migration 0017. */
  report: string | null;
  closing_method: 'manual' | 'auto' | 'api';
  closed_at: number;
  released_at: number | null;
  ins_at: number;
  upd_at: number;
}

const FIGURES = [
  'store_id', 'sum_date', 'cash_source', 'preparation_cash', 'saving', 'carry_over_reserve', 'cash_sales_total',
  'computed_cash_balance', 'real_cash_balance', 'deposited_bank_money', 'over_short', 'transaction_count', 'terminal_ids',
  'report', 'closing_method', 'closed_at',
] as const;

/** The figures a closing stores (money in thousandths) and its counted notes and coins. */
export type NewDailySummary = Pick<DailySummaryRow, (typeof FIGURES)[number]> & { counts: CashCounts | null };

const SUMMARIES = { table: 'daily_summaries', key: 'daily_summary_id' };
const SORT_COLUMNS = { sumDate: 'sum_date', storeId: 'store_id', dailySummaryId: 'daily_summary_id' };

/**
 * Settled transactions of the store sold before the cutoff: what a closing closes. The unary +
 * (unindexed) keeps SQLite off the terminal_tran_at index (which would walk the whole closed
 * history) and on the (store, sum_division) one. `t` qualifies the columns for a join
 * (terminal_tran_at is a column of transactions only among the tables the report joins).
 */
const closable = (d: Dialect, t = '') =>
  `${t}contract_id = @contractId AND ${t}store_id = @storeId AND ${t}sum_division = '1' AND ${d.unindexed('terminal_tran_at')} < @cutoff`;

/**
 * The store's unclosed settlements a closing links: those made before the end of its date, and
 * those made later that settled one of the transactions it closes (a sale of the date settled
 * after midnight: same terminal, adjustment time = settlement time).
 */
const linkedUnclosed = (d: Dialect) =>
  `contract_id = @contractId AND store_id = @storeId AND sum_date IS NULL AND (adjusted_at < @cutoff OR (terminal_id, adjusted_at) IN
     (SELECT terminal_id, adjustment_at FROM transactions WHERE ${closable(d)} AND adjustment_at >= @cutoff))`;
/** Settlements of released closings of the date or earlier whose deposit no closing in force counts (rule 4). */
const RELEASED_DEPOSITS =
  "contract_id = @contractId AND store_id = @storeId AND released = '1' AND deposit_summary_id IS NULL AND deposited_bank_money > 0 AND sum_date <= @sumDate";

// ---- What the closing report reads (server/domain/closing-report.ts) ----

/**
 * The transactions a report query reads (as `t`): the tables of its FROM and their condition.
 * `join` is the dialect's joinInOrder (SQLite's CROSS JOIN keeps the tables before it the outer loop).
 */
interface ReportSource {
  tables: (join: string) => string;
  where: string;
}

/**
 * The transactions a closing recorded (daily_summary_transactions), with @contractId and
 * @summaryId: a closing's report read later, and its other payments while it is made. SQLite
 * walks that list and never a whole table of the contract.
 */
const RECORDED: ReportSource = {
  tables: (join) => `daily_summary_transactions d ${join} transactions t
  ON t.contract_id = d.contract_id AND t.transaction_head_id = d.transaction_head_id`,
  where: 'd.contract_id = @contractId AND d.daily_summary_id = @summaryId',
};

/**
 * The transactions a closing being made closes, read in its transaction just before its UPDATE
 * closes them (closable, with @contractId, @storeId and @cutoff): the same rows it recorded, read
 * straight from the (store, sum_division) index rather than looked up one by one through the
 * recorded list. On PostgreSQL that lookup (20,000 primary-key probes of transactions per query)
 * was a third of the headers' and lines' time; SQLite takes both the same time.
 */
const closingNow = (d: Dialect): ReportSource => ({ tables: () => 'transactions t', where: closable(d, 't.') });

/** A query of the report: columns named as closing-report.ts names them. */
interface ReportQuery {
  /** FROM ... WHERE over the source's transactions (`t`); `join` joins in a fixed order. */
  from: (source: ReportSource, join: string) => string;
  /** Classifying columns: the GROUP BY of the grouped form. */
  keys: [string, string][];
  /** Taken as they are (in the grouped form, from the row of the group's MAX(maxOf)). */
  bare: [string, string][];
  /** The column of the grouped form's one MAX(), when there are bare columns. */
  maxOf?: string;
  /** INTEGER thousandths, summed. */
  units: [string, string][];
  /** TEXT decimals, summed exactly. */
  texts: [string, string][];
  /** Columns of the grouped form and of the per-row form. */
  grouped: [string, string][];
  perRow: [string, string][];
}

/**
 * The SQL of a report query. Grouped: one row per combination of keys with the summed columns
 * (a few rows for a day of thousands of sales: the figures are all sums); per row: one row per
 * record with the columns as stored, for a closing whose decimals are too fine for the grouped sums.
 * The TEXT decimals are summed exactly (dialect decimalSum: Σ of the integer parts and Σ of the
 * fraction parts in 10^-SUM_SCALE units, which decimalOfParts puts together; tooFine counts the
 * values with more decimals than that). `from` takes the engine's join of the fixed order.
 */
function reportSql(d: Dialect, q: ReportQuery, grouped: boolean, source: ReportSource): string {
  const as = ([alias, sql]: [string, string]) => `${sql} AS "${alias}"`;
  const bare = ([alias, sql]: [string, string]) => `${grouped ? d.bareOfMax(sql, q.maxOf!) : sql} AS "${alias}"`;
  const select = [...q.keys.map(as), ...q.bare.map(bare), ...(grouped ? q.grouped : q.perRow).map(as)];
  if (grouped) {
    select.push(...q.units.map(([alias, sql]) => `${d.sumOfIntegers(sql)} AS "${alias}"`));
    const sums = q.texts.map(([alias, sql]) => [alias, d.decimalSum(sql, SUM_SCALE)] as const);
    select.push(...sums.flatMap(([alias, sum]) => [`${sum.whole} AS "${alias}:i"`, `${sum.fraction} AS "${alias}:f"`]));
    select.push(`(${sums.map(([, sum]) => sum.finer).join(' + ')}) AS "tooFine"`);
  } else {
    select.push(...q.units.map(as), ...q.texts.map(as));
  }
  const groupBy = grouped ? ` GROUP BY ${q.keys.map((_, i) => i + 1).join(', ')}` : '';
  return `SELECT ${select.join(', ')} ${q.from(source, d.joinInOrder())}${groupBy}`;
}

/** Lines and other payments count only on sales that are not cancelled: skip the others in SQL already. */
const COUNTED_SALE = "t.transaction_head_division = '1' AND t.cancel_division <> '1'";

const REPORT_HEADERS: ReportQuery = {
  from: (source, join) => `FROM ${source.tables(join)} WHERE ${source.where}`,
  keys: [
    ['terminalId', 't.terminal_id'],
    ['transactionHeadDivision', 't.transaction_head_division'],
    ['cancelDivision', 't.cancel_division'],
    ['disposeDivision', 't.dispose_division'],
    ['returnSales', 't.return_sales'],
    // returnAmount is the quantity of the goods lines returned (stored in the shortest form: "0" for none)
    ['hasReturnLine', "COALESCE(t.return_amount, '0') <> '0'"],
  ],
  bare: [],
  units: [
    ['total', 't.total'],
    ['cashTotal', 't.cash_total'],
    ['creditTotal', 't.credit_total'],
    ['tipCash', 't.tip_cash'],
    ['tipCredit', 't.tip_credit'],
  ],
  texts: [
    ['unitDiscountsubtotal', 't.unit_discountsubtotal'],
    ['subtotalDiscountPrice', 't.subtotal_discount_price'],
    ['pointDiscount', 't.point_discount'],
    ['couponDiscount', 't.coupon_discount'],
    ['roundingPrice', 't.rounding_price'],
    ['taxExclude', 't.tax_exclude'],
    ['commission', 't.commission'],
    ['carriage', 't.carriage'],
    ['nonSalesTargetTotal', 't.non_sales_target_total'],
    ['amount', 't.amount'],
    ['returnAmount', 't.return_amount'],
  ],
  grouped: [['transactions', 'COUNT(*)']],
  perRow: [['transactions', '1']],
};

const SALE_CONTEXT: [string, string][] = [
  ['terminalId', 't.terminal_id'],
  ['transactionHeadDivision', 't.transaction_head_division'],
  ['cancelDivision', 't.cancel_division'],
];

const REPORT_LINES: ReportQuery = {
  from: (source, join) => `FROM ${source.tables(join)} ${join} transaction_details l ON l.contract_id = t.contract_id AND l.transaction_head_id = t.transaction_head_id
    WHERE ${source.where} AND ${COUNTED_SALE}`,
  keys: [
    ...SALE_CONTEXT,
    ['pointSpendDivision', 't.point_spend_division'],
    ['transactionDetailDivision', 'l.transaction_detail_division'],
    ['productDivision', 'l.product_division'],
    ['taxDivision', 'l.tax_division'],
    ['taxRate', 'l.tax_rate'],
  ],
  bare: [],
  units: [],
  texts: [
    ['unitNonDiscountSum', 'l.unit_non_discount_sum'],
    ['unitDiscountedSum', 'l.unit_discounted_sum'],
    ['productBundleProportional', 'l.product_bundle_proportional'],
    ['discountPriceProportional', 'l.discount_price_proportional'],
    ['discountCouponProportional', 'l.discount_coupon_proportional'],
    ['discountPointProportional', 'l.discount_point_proportional'],
    ['taxIncludeProportional', 'l.tax_include_proportional'],
    ['taxExcludeProportional', 'l.tax_exclude_proportional'],
    ['taxFree', 'l.tax_free'],
  ],
  grouped: [],
  perRow: [],
};

const REPORT_OTHERS: ReportQuery = {
  from: (source, join) => `FROM ${source.tables(join)} ${join} transaction_deposit_others o ON o.contract_id = t.contract_id AND o.transaction_head_id = t.transaction_head_id
    WHERE ${source.where} AND ${COUNTED_SALE}`,
  keys: [...SALE_CONTEXT, ['paymentMethodId', 'o.payment_method_id'], ['paymentUnitPrice', 'o.payment_unit_price']],
  // the one MAX() of the grouped query: these bare columns come from its row (dialect bareOfMax)
  maxOf: 'o.transaction_head_id',
  bare: [
    ['paymentMethodCode', 'o.payment_method_code'],
    ['paymentMethodName', 'o.payment_method_name'],
  ],
  units: [],
  texts: [['depositOthers', 'o.deposit_others']],
  grouped: [['latestTransactionHeadId', 'MAX(o.transaction_head_id)']],
  perRow: [['latestTransactionHeadId', 'o.transaction_head_id']],
};

interface PreparedReportQuery {
  query: ReportQuery;
  grouped: Statement;
  perRow: Statement;
}

type Statement = ReturnType<Sqlite['prepare']>;

/**
 * Runs the grouped report queries (headers and lines with `params`, other payments with
 * `recorded`: the recorded list's parameters) and puts the decimal parts together; when a
 * decimal is finer than the grouped sums keep, reads the records one by one instead (exact at
 * any scale).
 */
function readReportInput(
  q: { headers: PreparedReportQuery; lines: PreparedReportQuery; otherPayments: PreparedReportQuery },
  params: Record<string, unknown>,
  recorded: Record<string, unknown>,
): ReportInput {
  const sources = [
    [q.headers, params],
    [q.lines, params],
    [q.otherPayments, recorded],
  ] as const;
  const grouped = sources.map(([{ query, grouped: statement }, values]) => {
    const rows = statement.all(values) as Record<string, unknown>[];
    for (const row of rows) {
      for (const [alias] of query.texts) row[alias] = decimalOfParts(row[`${alias}:i`] as number | null, row[`${alias}:f`] as number | null);
    }
    return rows;
  });
  if (grouped.some((rows) => rows.some((row) => (row.tooFine as number) > 0))) {
    const [headers, lines, otherPayments] = sources.map(([{ perRow }, values]) => perRow.all(values));
    return {
      headers: headers as ReportInput['headers'],
      lines: lines as ReportInput['lines'],
      otherPayments: otherPayments as ReportInput['otherPayments'],
    };
  }
  const [headers, lines, otherPayments] = grouped;
  return {
    headers: headers as unknown as ReportInput['headers'],
    lines: lines as unknown as ReportInput['lines'],
    otherPayments: otherPayments as unknown as ReportInput['otherPayments'],
  };
}

/** Scope of a closing being made. */
export interface ClosingScope {
  contractId: string;
  summaryId: string;
  storeId: number;
  cutoff: number;
  sumDate: string;
  now: number;
}

/** SQL of daily closings; the rules live in DailyCloser. */
export class DailySummaryRepo {
  private readonly byId;
  private readonly inForce;
  private readonly anyFor;
  private readonly lastCarryOver;
  private readonly closableByTerminal;
  private readonly linkClosable;
  private readonly closeClosable;
  private readonly insertRow;
  private readonly consumeSettlements;
  private readonly countDeposits;
  private readonly linkedUnclosed;
  private readonly releasedDeposits;
  private readonly latestClosed;
  private readonly markReleased;
  private readonly reopenTransactions;
  private readonly releaseSettlements;
  private readonly autoStores;
  private readonly recordedReport;
  private readonly closingReport;

  constructor(private readonly db: Sqlite) {
    const d = dialectOf(db);
    const CLOSABLE = closable(d);
    const LINKED_UNCLOSED = linkedUnclosed(d);
    this.byId = db.prepare('SELECT * FROM daily_summaries WHERE contract_id = ? AND daily_summary_id = ?');
    this.inForce = db.prepare('SELECT * FROM daily_summaries WHERE contract_id = ? AND store_id = ? AND sum_date = ? AND released_at IS NULL');
    this.anyFor = db.prepare('SELECT 1 FROM daily_summaries WHERE contract_id = ? AND store_id = ? AND sum_date = ? LIMIT 1');
    this.lastCarryOver = db.prepare(
      `SELECT carry_over_reserve FROM daily_summaries WHERE contract_id = ? AND store_id = ? AND sum_date < ? AND released_at IS NULL
       ORDER BY sum_date DESC LIMIT 1`,
    );
    // One pass for the cash and the terminals a closing needs before it decides (was two).
    this.closableByTerminal = db.prepare(
      `SELECT terminal_id, COALESCE(${d.sumOfIntegers(CASH_EFFECT_SQL)}, 0) AS cash FROM transactions WHERE ${CLOSABLE} GROUP BY terminal_id`,
    );
    this.linkClosable = db.prepare(
      `INSERT INTO daily_summary_transactions (contract_id, daily_summary_id, transaction_head_id)
       SELECT contract_id, @summaryId, transaction_head_id FROM transactions WHERE ${CLOSABLE}`,
    );
    this.closeClosable = db.prepare(
      `UPDATE transactions SET sum_division = '2', sum_date = @sumDate, upd_at = @now WHERE ${CLOSABLE}
       RETURNING transaction_head_id, terminal_id`,
    );
    const columns = [...FIGURES, ...COUNT_LIST];
    this.insertRow = db.prepare(
      `INSERT INTO daily_summaries (contract_id, daily_summary_id, ${columns.join(', ')}, ins_at, upd_at)
       VALUES (@contractId, @summaryId, ${columns.map((c) => `@${c}`).join(', ')}, @now, @now)`,
    );
    this.consumeSettlements = db.prepare(
      `UPDATE adjustments SET sum_date = @sumDate, daily_summary_id = @summaryId, deposit_summary_id = @summaryId, upd_at = @now
       WHERE ${LINKED_UNCLOSED} RETURNING adjustment_id`,
    );
    this.countDeposits = db.prepare(`UPDATE adjustments SET deposit_summary_id = @summaryId, upd_at = @now WHERE ${RELEASED_DEPOSITS} RETURNING adjustment_id`);
    this.linkedUnclosed = db.prepare(`SELECT * FROM adjustments WHERE ${LINKED_UNCLOSED} ORDER BY adjusted_at, adjustment_id`);
    this.releasedDeposits = db.prepare(`SELECT * FROM adjustments WHERE ${RELEASED_DEPOSITS} ORDER BY adjusted_at, adjustment_id`);
    this.latestClosed = db.prepare('SELECT MAX(sum_date) AS sum_date FROM daily_summaries WHERE contract_id = ? AND store_id = ?');
    this.markReleased = db.prepare('UPDATE daily_summaries SET released_at = @now, upd_at = @now WHERE contract_id = @contractId AND daily_summary_id = @summaryId');
    this.reopenTransactions = db.prepare(
      `UPDATE transactions SET sum_division = '1', sum_date = NULL, upd_at = @now
       WHERE contract_id = @contractId AND sum_division = '2' AND transaction_head_id IN
         (SELECT transaction_head_id FROM daily_summary_transactions WHERE contract_id = @contractId AND daily_summary_id = @summaryId)
       RETURNING transaction_head_id`,
    );
    this.releaseSettlements = db.prepare(
      `UPDATE adjustments SET released = CASE WHEN daily_summary_id = @summaryId THEN '1' ELSE released END, deposit_summary_id = NULL,
         upd_at = @now
       WHERE contract_id = @contractId AND (daily_summary_id = @summaryId OR deposit_summary_id = @summaryId) RETURNING adjustment_id`,
    );
    this.autoStores = db.prepare(
      `SELECT s.contract_id, s.store_id, s.closing_time, c.time_zone FROM stores s JOIN contracts c ON c.contract_id = s.contract_id
       WHERE s.closing_method = '1' ORDER BY s.contract_id, s.store_id`,
    );
    const prepare = (q: ReportQuery, source: ReportSource): PreparedReportQuery => ({
      query: q,
      grouped: db.prepare(reportSql(d, q, true, source)),
      perRow: db.prepare(reportSql(d, q, false, source)),
    });
    const recorded = { headers: prepare(REPORT_HEADERS, RECORDED), lines: prepare(REPORT_LINES, RECORDED), otherPayments: prepare(REPORT_OTHERS, RECORDED) };
    this.recordedReport = recorded;
    // The other payments through the recorded list even while closing: there the list is the
    // faster way on both engines (SQLite's bloom filter and PostgreSQL's planner skip the sales
    // without any; read from the index, every closed sale is probed).
    this.closingReport = { headers: prepare(REPORT_HEADERS, closingNow(d)), lines: prepare(REPORT_LINES, closingNow(d)), otherPayments: recorded.otherPayments };
  }

  /**
   * What the report of a closing is computed from: the headers, lines and other payments of the
   * transactions it recorded (a closing read later; while closing, closeTransactions reads it).
   */
  reportInput(contractId: string, summaryId: number | string): ReportInput {
    return readReportInput(this.recordedReport, { contractId, summaryId }, { contractId, summaryId });
  }

  find(contractId: string, summaryId: number | string): DailySummaryRow | undefined {
    return this.byId.get(contractId, summaryId) as DailySummaryRow | undefined;
  }

  /** The closing in force (not released) of a store and date. */
  findInForce(contractId: string, storeId: number | string, sumDate: string): DailySummaryRow | undefined {
    return this.inForce.get(contractId, storeId, sumDate) as DailySummaryRow | undefined;
  }

  getInForce(contractId: string, storeId: string, sumDate: string): DailySummaryRow {
    const row = this.findInForce(contractId, storeId, sumDate);
    if (!row) throw NotFoundError.field('sum_date', `store ${storeId} is not closed for ${sumDate}`);
    return row;
  }

  /** True when the store was ever closed for the date, released or not. */
  everClosed(contractId: string, storeId: number, sumDate: string): boolean {
    return this.anyFor.get(contractId, storeId, sumDate) !== undefined;
  }

  /** The latest date the store was ever closed for (released closings included); null when never. */
  latestClosedDate(contractId: string, storeId: number): string | null {
    return (this.latestClosed.get(contractId, storeId) as { sum_date: string | null }).sum_date;
  }

  /**
   * The settlements a closing at `cutoff` links, oldest first: the unclosed ones it consumes
   * (LINKED_UNCLOSED) and the released ones whose deposit it counts (RELEASED_DEPOSITS).
   */
  linkedSettlements(p: { contractId: string; storeId: number; cutoff: number; sumDate: string }): AdjustmentRow[] {
    const unclosed = this.linkedUnclosed.all({ contractId: p.contractId, storeId: p.storeId, cutoff: p.cutoff }) as AdjustmentRow[];
    const released = this.releasedDeposits.all({ contractId: p.contractId, storeId: p.storeId, sumDate: p.sumDate }) as AdjustmentRow[];
    return [...released, ...unclosed];
  }

  /**
   * What a closing at `cutoff` would close: Σ of its cash effects (thousandths) and the terminals
   * that raised it, ascending.
   */
  closable(contractId: string, storeId: number, cutoff: number): { cashEffects: number; terminalIds: number[] } {
    const rows = this.closableByTerminal.all({ contractId, storeId, cutoff }) as { terminal_id: number | null; cash: number }[];
    return {
      cashEffects: rows.reduce((sum, r) => sum + r.cash, 0),
      terminalIds: rows.flatMap((r) => (r.terminal_id === null ? [] : [r.terminal_id])).sort((a, b) => a - b),
    };
  }

  /** Carry-over reserve (thousandths) of the store's latest closing in force before the date; 0 when none. */
  previousCarryOver(contractId: string, storeId: number, sumDate: string): number {
    const row = this.lastCarryOver.get(contractId, storeId, sumDate) as { carry_over_reserve: number } | undefined;
    return row?.carry_over_reserve ?? 0;
  }

  /**
   * Closes the settled transactions sold before `cutoff` (sum_division 1 → 2, sum_date) in one
   * UPDATE, after recording which ones the closing closed and reading its report's input from
   * them. Returns their ids and terminals, and that input.
   */
  closeTransactions(p: ClosingScope): { closed: { transaction_head_id: number; terminal_id: number | null }[]; reportInput: ReportInput } {
    const closable = { contractId: p.contractId, storeId: p.storeId, cutoff: p.cutoff };
    this.linkClosable.run({ ...closable, summaryId: p.summaryId });
    const reportInput = readReportInput(this.closingReport, closable, { contractId: p.contractId, summaryId: p.summaryId });
    const closed = this.closeClosable.all({ ...closable, sumDate: p.sumDate, now: p.now }) as { transaction_head_id: number; terminal_id: number | null }[];
    return { closed, reportInput };
  }

  /**
   * Links the settlements of linkedSettlements to the closing: consumes the unclosed ones and
   * marks the released ones' deposits as counted. Runs before closeTransactions (the link
   * reads the transactions still to close). Returns the changed settlement ids.
   */
  consume(p: ClosingScope): number[] {
    const consumed = this.consumeSettlements.all({ contractId: p.contractId, storeId: p.storeId, cutoff: p.cutoff, sumDate: p.sumDate, summaryId: p.summaryId, now: p.now });
    const counted = this.countDeposits.all({ contractId: p.contractId, storeId: p.storeId, sumDate: p.sumDate, summaryId: p.summaryId, now: p.now });
    return ([...consumed, ...counted] as { adjustment_id: number }[]).map((r) => r.adjustment_id);
  }

  insert(contractId: string, summaryId: string, figures: NewDailySummary, now: number): void {
    const { counts, ...rest } = figures;
    this.insertRow.run({ contractId, summaryId, ...rest, ...countValues(counts), now });
  }

  /** Marks the closing released and reopens what it closed; returns the reopened transaction and settlement ids. */
  release(contractId: string, summaryId: number, now: number): { transactions: number[]; settlements: number[] } {
    const p = { contractId, summaryId, now };
    this.markReleased.run(p);
    const transactions = (this.reopenTransactions.all(p) as { transaction_head_id: number }[]).map((r) => r.transaction_head_id);
    const settlements = (this.releaseSettlements.all(p) as { adjustment_id: number }[]).map((r) => r.adjustment_id);
    return { transactions, settlements };
  }

  /** Every store of every contract that closes automatically, with its contract's zone. */
  storesClosingAutomatically(): { contract_id: string; store_id: number; closing_time: string; time_zone: string }[] {
    return this.autoStores.all() as { contract_id: string; store_id: number; closing_time: string; time_zone: string }[];
  }

  list(contractId: string, query: ListDailySummariesQuery, page: Page<keyof typeof SORT_COLUMNS>): DailySummaryRow[] {
    return selectFilteredPage<DailySummaryRow, keyof typeof SORT_COLUMNS>(
      this.db,
      SUMMARIES,
      contractId,
      [
        ['store_id = ?', query.store_id === undefined ? undefined : Number(query.store_id)],
        ['sum_date = ?', query.sum_date],
        ['sum_date >= ?', query['sum_date-from']],
        ['sum_date <= ?', query['sum_date-to']],
        ['(CASE WHEN released_at IS NULL THEN 0 ELSE 1 END) = ?', query.released === undefined ? undefined : Number(query.released)],
      ],
      page,
      SORT_COLUMNS,
    );
  }
}

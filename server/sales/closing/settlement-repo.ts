import { dialectOf } from '../../db/engine.js';
import type { Sqlite } from '../../db/open.js';
import { selectFilteredPage } from '../../db/sql.js';
import type { CashCounts } from '../../domain/closing.js';
import { NotFoundError } from '../../domain/errors.js';
import { dayStart, nextDate, parseDateTime } from '../../domain/time.js';
import type { Page } from '../../platform/http/paging.js';
import { CASH_EFFECT_SQL, COUNT_LIST, countValues, type CountColumns } from './cash-counts.js';
import type { ListAdjustmentsQuery } from './settlement-schema.js';

export interface AdjustmentRow extends CountColumns {
  contract_id: string;
  adjustment_id: number;
  store_id: number;
  terminal_id: number;
  adjusted_at: number;
  settled_count: number;
  settled_cash_total: number;
  real_cash_balance: number | null;
  preparation_cash: number | null;
  saving: number | null;
  deposited_bank_money: number;
  sum_date: string | null;
  daily_summary_id: number | null;
  deposit_summary_id: number | null;
  released: '0' | '1';
  ins_at: number;
  upd_at: number;
}

const ADJUSTMENTS = { table: 'adjustments', key: 'adjustment_id' };
const SORT_COLUMNS = { adjustmentId: 'adjustment_id', adjustmentDateTime: 'adjusted_at', storeId: 'store_id', terminalId: 'terminal_id' };

/** The settled scope of one settlement: a terminal of a store. */
export interface SettlementScope {
  contractId: string;
  storeId: number;
  terminalId: number;
}

/** The figures a settlement stores (money in thousandths) and its counted notes and coins. */
export interface NewSettlement {
  adjustedAt: number;
  settledCount: number;
  settledCashTotal: number;
  counts: CashCounts | null;
  realCashBalance: number | null;
  preparationCash: number | null;
  saving: number | null;
  depositedBankMoney: number;
}

/** SQL of terminal settlements; the rules live in TerminalSettler (settler.ts). */
export class AdjustmentRepo {
  private readonly byId;
  private readonly insertRow;
  private readonly unprocessedCash;
  private readonly settle;

  constructor(private readonly db: Sqlite) {
    this.byId = db.prepare('SELECT * FROM adjustments WHERE contract_id = ? AND adjustment_id = ?');
    this.insertRow = db.prepare(
      `INSERT INTO adjustments (contract_id, adjustment_id, store_id, terminal_id, adjusted_at, settled_count, settled_cash_total,
         ${COUNT_LIST.join(', ')}, real_cash_balance, preparation_cash, saving, deposited_bank_money, ins_at, upd_at)
       VALUES (@contractId, @adjustmentId, @storeId, @terminalId, @adjustedAt, @settledCount, @settledCashTotal,
         ${COUNT_LIST.map((c) => `@${c}`).join(', ')}, @realCashBalance, @preparationCash, @saving, @depositedBankMoney, @now, @now)`,
    );
    const unprocessed = "contract_id = @contractId AND store_id = @storeId AND terminal_id = @terminalId AND sum_division = '0'";
    this.unprocessedCash = db.prepare(`SELECT COALESCE(${dialectOf(db).sumOfIntegers(CASH_EFFECT_SQL)}, 0) AS cash FROM transactions WHERE ${unprocessed}`);
    this.settle = db.prepare(
      `UPDATE transactions SET sum_division = '1', adjustment_at = @adjustedAt, upd_at = @now WHERE ${unprocessed}
       RETURNING transaction_head_id`,
    );
  }

  find(contractId: string, adjustmentId: string | number): AdjustmentRow | undefined {
    return this.byId.get(contractId, adjustmentId) as AdjustmentRow | undefined;
  }

  get(contractId: string, adjustmentId: string): AdjustmentRow {
    const row = this.find(contractId, adjustmentId);
    if (!row) throw NotFoundError.field('adjustment_id', `adjustment ${adjustmentId} does not exist`);
    return row;
  }

  /** Σ cash effects (thousandths) of the terminal's unprocessed transactions. */
  unprocessedCashEffects(scope: SettlementScope): number {
    return (this.unprocessedCash.get(scope) as { cash: number }).cash;
  }

  /** Settles the terminal's unprocessed transactions (sum_division 0 → 1) in one statement; returns their ids. */
  settleUnprocessed(scope: SettlementScope, adjustedAt: number, now: number): number[] {
    return (this.settle.all({ ...scope, adjustedAt, now }) as { transaction_head_id: number }[]).map((t) => t.transaction_head_id);
  }

  insert(scope: SettlementScope, adjustmentId: string, figures: NewSettlement, now: number): void {
    const { counts, ...rest } = figures;
    this.insertRow.run({ ...scope, ...countValues(counts), ...rest, adjustmentId, now });
  }

  list(contractId: string, zone: string, query: ListAdjustmentsQuery, page: Page<keyof typeof SORT_COLUMNS>): AdjustmentRow[] {
    const at = (v: string | undefined) => (v === undefined ? undefined : parseDateTime(v)!);
    const day = query.adjustment_date;
    return selectFilteredPage<AdjustmentRow, keyof typeof SORT_COLUMNS>(
      this.db,
      ADJUSTMENTS,
      contractId,
      [
        ['store_id = ?', query.store_id === undefined ? undefined : Number(query.store_id)],
        ['terminal_id = ?', query.terminal_id === undefined ? undefined : Number(query.terminal_id)],
        ['adjusted_at >= ?', day === undefined ? undefined : dayStart(day, zone)],
        ['adjusted_at < ?', day === undefined ? undefined : dayStart(nextDate(day), zone)],
        ['adjusted_at = ?', at(query.adjustment_date_time)],
        ['adjusted_at >= ?', at(query['adjustment_date_time-from'])],
        ['adjusted_at <= ?', at(query['adjustment_date_time-to'])],
        ['sum_date = ?', query.sum_date],
      ],
      page,
      SORT_COLUMNS,
    );
  }
}

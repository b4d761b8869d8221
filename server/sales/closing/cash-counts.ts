import { Decimal } from 'decimal.js';
import { CANCELLED, CASH_EFFECTS, DENOMINATIONS, type CashCounts, type Denomination, type LinkedSettlement } from '../../domain/closing.js';
import { fromUnits } from '../../domain/money.js';
import type { AdjustmentRow } from './settlement-repo.js';

/**
 * How the closing feature stores cash, for its two records alike: a terminal settlement
 * (adjustments) and a daily closing (daily_summaries) keep the counted notes and coins in the
 * same columns, and both sum the same cash effect of a transaction.
 */

/** The stored notes and coins of a settlement or closing; all NULL when nothing was counted. */
export interface CountColumns {
  ten_thousand_yen: number | null;
  five_thousand_yen: number | null;
  two_thousand_yen: number | null;
  one_thousand_yen: number | null;
  five_hundred_yen: number | null;
  one_hundred_yen: number | null;
  fifty_yen: number | null;
  ten_yen: number | null;
  five_yen: number | null;
  one_yen: number | null;
}

/** Count columns of a row (snake_case of the denominations). */
export const COUNT_COLUMNS = Object.fromEntries(
  DENOMINATIONS.map(([name]) => [name, name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]),
) as Record<Denomination, string>;

/** The count columns in the order of DENOMINATIONS, largest first. */
export const COUNT_LIST = DENOMINATIONS.map(([name]) => COUNT_COLUMNS[name]);

/** The counts of a row that has them. */
export function countsOfRow(row: CountColumns): CashCounts {
  const r = row as unknown as Record<string, number>;
  return Object.fromEntries(DENOMINATIONS.map(([name]) => [name, r[COUNT_COLUMNS[name]]])) as CashCounts;
}

/** Column → value of the counts to store (all NULL when nothing was counted). */
export function countValues(counts: CashCounts | null): Record<string, number | null> {
  return Object.fromEntries(DENOMINATIONS.map(([name]) => [COUNT_COLUMNS[name], counts ? counts[name] : null]));
}

/**
 * SQL of a transaction's cash effect (CASH_EFFECTS of the closing rules), in thousandths. `=`
 * where SQLite also takes `IS` (PostgreSQL does not): a NULL division is not cancelled either way.
 */
export const CASH_EFFECT_SQL =
  `CASE WHEN cancel_division = '${CANCELLED}' THEN 0 ELSE CASE transaction_head_division ` +
  Object.entries(CASH_EFFECTS)
    .map(([division, { column, sign }]) => `WHEN '${division}' THEN ${sign < 0 ? '-' : ''}(${column})`)
    .join(' ') +
  ' ELSE 0 END END';

const money = (units: number | null) => (units === null ? null : new Decimal(fromUnits(units, 3)));

/** A stored settlement as the closing rules read it (a released one: its deposit only, rule 5). */
export function linkedSettlement(row: AdjustmentRow): LinkedSettlement {
  return {
    adjustmentId: String(row.adjustment_id),
    terminalId: row.terminal_id,
    adjustedAt: row.adjusted_at,
    counts: row.real_cash_balance === null || row.released === '1' ? null : countsOfRow(row),
    preparationCash: money(row.preparation_cash),
    saving: money(row.saving),
    depositedBankMoney: money(row.deposited_bank_money)!,
    ...(row.released === '1' ? { released: true } : {}),
  };
}

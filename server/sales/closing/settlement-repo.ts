import { Decimal } from 'decimal.js';
import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import {
  assertSettlementCash,
  CANCELLED,
  CASH_EFFECTS,
  cashOfCounts,
  DENOMINATIONS,
  storedUnits,
  type LinkedSettlement,
} from '../../domain/closing.js';
import { fromUnits, parseDecimal, PRICE, toUnits } from '../../domain/money.js';
import { dayStart, formatDate, nextDate, parseDateTime } from '../../domain/time.js';
import { BadRequest, NotFound } from '../../platform/http/problem.js';
import type { Page } from '../../platform/http/paging.js';
import { cashSettingsOf, closingRules } from './store-settings.js';
import { COUNT_COLUMNS, countsOfRow, toCashInput, type CountColumns } from './closing-schema.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { TerminalRepo } from '../../masters/terminals/repo.js';
import { selectFilteredPage } from '../../db/sql.js';
import type { CreateAdjustment, ListAdjustmentsQuery } from './settlement-schema.js';

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

/** SQL of a transaction's cash effect (CASH_EFFECTS of the closing rules), in thousandths. */
export const CASH_EFFECT_SQL =
  `CASE WHEN cancel_division IS '${CANCELLED}' THEN 0 ELSE CASE transaction_head_division ` +
  Object.entries(CASH_EFFECTS)
    .map(([division, { column, sign }]) => `WHEN '${division}' THEN ${sign < 0 ? '-' : ''}(${column})`)
    .join(' ') +
  ' ELSE 0 END END';

const ADJUSTMENTS = { table: 'adjustments', key: 'adjustment_id' };
const SORT_COLUMNS = { adjustmentId: 'adjustment_id', adjustmentDateTime: 'adjusted_at', storeId: 'store_id', terminalId: 'terminal_id' };
const COUNT_LIST = DENOMINATIONS.map(([name]) => COUNT_COLUMNS[name]);
const money = (units: number | null) => (units === null ? null : new Decimal(fromUnits(units, 3)));

/** Terminal settlements: settle a terminal's unprocessed transactions and keep its cash count. */
export class AdjustmentRepo {
  private readonly byId;
  private readonly insert;
  private readonly unprocessedCash;
  private readonly settle;
  private readonly closedFor;
  private readonly stores;
  private readonly terminals;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.terminals = new TerminalRepo(db, writer, clock);
    this.byId = db.prepare('SELECT * FROM adjustments WHERE contract_id = ? AND adjustment_id = ?');
    this.insert = db.prepare(
      `INSERT INTO adjustments (contract_id, adjustment_id, store_id, terminal_id, adjusted_at, settled_count, settled_cash_total,
         ${COUNT_LIST.join(', ')}, real_cash_balance, preparation_cash, saving, deposited_bank_money, ins_at, upd_at)
       VALUES (@contractId, @adjustmentId, @storeId, @terminalId, @adjustedAt, @settledCount, @settledCashTotal,
         ${COUNT_LIST.map((c) => `@${c}`).join(', ')}, @realCashBalance, @preparationCash, @saving, @depositedBankMoney, @now, @now)`,
    );
    const unprocessed = "contract_id = @contractId AND store_id = @storeId AND terminal_id = @terminalId AND sum_division = '0'";
    this.unprocessedCash = db.prepare(`SELECT COALESCE(SUM(${CASH_EFFECT_SQL}), 0) AS cash FROM transactions WHERE ${unprocessed}`);
    this.settle = db.prepare(
      `UPDATE transactions SET sum_division = '1', adjustment_at = @adjustedAt, upd_at = @now WHERE ${unprocessed}
       RETURNING transaction_head_id`,
    );
    this.closedFor = db.prepare('SELECT 1 FROM daily_summaries WHERE contract_id = ? AND store_id = ? AND sum_date = ? AND released_at IS NULL');
  }

  find(contractId: string, adjustmentId: string | number): AdjustmentRow | undefined {
    return this.byId.get(contractId, adjustmentId) as AdjustmentRow | undefined;
  }

  get(contractId: string, adjustmentId: string): AdjustmentRow {
    const row = this.find(contractId, adjustmentId);
    if (!row) throw NotFound.field('adjustment_id', `adjustment ${adjustmentId} does not exist`);
    return row;
  }

  /**
   * Settles the terminal's unprocessed transactions of the store (sum_division 0 → 1) in one
   * statement and records the settlement with its cash data. A terminal may settle any number
   * of times a day; a settlement with nothing to settle still records its count. Its time may
   * not be in the future nor on a date the store has already closed (contract zone).
   */
  create(contract: { contractId: string; timeZone: string }, input: CreateAdjustment): AdjustmentRow {
    const { contractId, timeZone } = contract;
    return this.writer.write(() => {
      const store = this.stores.referenced(contractId, input.storeId);
      const terminal = this.terminals.find(contractId, input.terminalId);
      if (!terminal) throw BadRequest.field('terminalId', `terminal ${input.terminalId} does not exist`);
      if (terminal.store_id !== store.store_id) {
        throw BadRequest.field('terminalId', `terminal ${input.terminalId} belongs to store ${terminal.store_id}, not to store ${store.store_id}`);
      }
      const now = this.clock.now().getTime();
      const adjustedAt = input.adjustmentDateTime === undefined ? now : parseDateTime(input.adjustmentDateTime)!;
      if (adjustedAt > now) throw BadRequest.field('adjustmentDateTime', 'must not be in the future');
      const date = formatDate(adjustedAt, timeZone);
      if (this.closedFor.get(contractId, store.store_id, date)) {
        throw BadRequest.field('adjustmentDateTime', `store ${store.store_id} is already closed for ${date}; release that closing first`);
      }
      const cash = toCashInput(input.cashInfo);
      closingRules(() => assertSettlementCash(store.store_id, store.cash_input_at_settlement, cashSettingsOf(store), cash));

      const scope = { contractId, storeId: store.store_id, terminalId: terminal.terminal_id };
      const { cash: settledCashTotal } = this.unprocessedCash.get(scope) as { cash: number };
      const units = (value: Decimal, field: string, what: string) => closingRules(() => storedUnits(value, field, what));
      units(new Decimal(fromUnits(settledCashTotal, 3)), 'terminalId', 'settled cash total');
      const settled = this.settle.all({ ...scope, adjustedAt, now }) as { transaction_head_id: number }[];
      for (const t of settled) this.writer.changed({ contractId, entity: 'transaction', id: String(t.transaction_head_id), op: 'update' });

      const adjustmentId = this.ids.next('adjustments');
      const counts = Object.fromEntries(DENOMINATIONS.map(([name]) => [COUNT_COLUMNS[name], cash ? cash.counts[name] : null]));
      this.insert.run({
        ...scope,
        ...counts,
        adjustmentId,
        adjustedAt,
        settledCount: settled.length,
        settledCashTotal,
        realCashBalance: cash ? units(cashOfCounts(cash.counts), 'cashInfo', 'real cash balance') : null,
        preparationCash: cash?.preparationCash !== undefined ? toUnits(cash.preparationCash, 3) : null,
        saving: cash?.saving !== undefined ? toUnits(cash.saving, 3) : null,
        depositedBankMoney: toUnits(parseDecimal(input.depositedBankMoney ?? '0', PRICE), 3),
        now,
      });
      this.writer.changed({ contractId, entity: 'adjustment', id: adjustmentId, op: 'insert' });
      return this.get(contractId, adjustmentId);
    });
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

import { Decimal } from 'decimal.js';
import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import {
  assertCashInfoAllowed,
  assertClosable,
  closingCash,
  closingCutoff,
  storedUnits,
  type CashInput,
  type ClosingMethod,
} from '../../domain/closing.js';
import { computeClosingReport } from '../../domain/closing-report.js';
import { InvalidInput } from '../../domain/errors.js';
import { fromUnits } from '../../domain/money.js';
import { formatDate } from '../../domain/time.js';
import { linkedSettlement } from './cash-counts.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { DailySummaryRepo, type DailySummaryRow } from './closing-repo.js';
import { assertDayOpen } from './open-day.js';
import { cashSettingsOf, closingRules } from './store-settings.js';

export interface CloseRequest {
  storeId: string;
  sumDate: string;
  /** The request's cashInfo; null when not sent (always for automatic closing). */
  cashInfo: CashInput | null;
  method: ClosingMethod;
}

/** The contract as the closing needs it: its id and zone (sale dates are dates in the zone). */
export interface ClosingContract {
  contractId: string;
  timeZone: string;
}

/**
 * Daily closing (spec 4.15) and its release. Order of the 400s, each naming its field, as the
 * spec lists them: store absent, closing method automatic (API only), warehouse, order-receiving
 * store, store with cash drawer (storeId); sumDate after today (sumDate); cashInfo while an
 * unclosed cash settlement is linked (cashInfo); already closed for the date (sumDate); a
 * terminal with closed sales but no current settlement count while others have one (cashInfo);
 * preparationCash and saving present or absent against the bank deposit auto-input
 * (cashInfo.preparationCash, cashInfo.saving). A closing stores the day's report
 * (closing-report.ts) of the transactions it closes, computed in the same transaction.
 */
export class DailyCloser {
  private readonly stores;
  private readonly summaries;

  constructor(
    db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.summaries = new DailySummaryRepo(db);
  }

  close(contract: ClosingContract, request: CloseRequest): DailySummaryRow {
    const { contractId, timeZone } = contract;
    return this.writer.write(() => {
      const store = this.stores.referenced(contractId, request.storeId);
      closingRules(() => assertClosable(store, request.method));
      const now = this.clock.now().getTime();
      const today = formatDate(now, timeZone);
      if (request.sumDate > today) throw InvalidInput.field('sumDate', `${request.sumDate} is after today (${today}) and cannot be closed yet`);

      const cutoff = closingCutoff(request.sumDate, timeZone);
      const link = { contractId, storeId: store.store_id, cutoff, sumDate: request.sumDate };
      const settlements = this.summaries.linkedSettlements(link).map(linkedSettlement);
      closingRules(() => assertCashInfoAllowed(request.cashInfo, settlements));
      // A closed day takes no second closing.
      assertDayOpen(this.summaries, { contractId, storeId: store.store_id, date: request.sumDate }, { field: 'sumDate' });

      const { cashEffects, terminalIds } = this.summaries.closable(contractId, store.store_id, cutoff);
      const previousCarryOver = new Decimal(fromUnits(this.summaries.previousCarryOver(contractId, store.store_id, request.sumDate), 3));
      const cash = closingRules(() =>
        closingCash({
          settings: cashSettingsOf(store),
          cashInfo: request.cashInfo,
          settlements,
          cashEffects: new Decimal(fromUnits(cashEffects, 3)),
          terminalIds,
          ...(request.method === 'auto' ? { uncounted: { previousCarryOver } } : {}),
        }),
      );

      const summaryId = this.ids.next('daily_summaries');
      const scope = { contractId, summaryId, storeId: store.store_id, cutoff, sumDate: request.sumDate, now };
      const consumed = this.summaries.consume(scope);
      const { closed, reportInput } = this.summaries.closeTransactions(scope);
      for (const t of closed) this.writer.changed({ contractId, entity: 'transaction', id: String(t.transaction_head_id), op: 'update' });
      for (const id of consumed) this.writer.changed({ contractId, entity: 'adjustment', id: String(id), op: 'update' });

      // The day's report, from exactly the transactions this closing closed, in its transaction.
      const report = computeClosingReport(reportInput);
      const terminals = [...new Set(closed.flatMap((t) => (t.terminal_id === null ? [] : [t.terminal_id])))].sort((a, b) => a - b);
      const units = (value: Decimal, field: string, what: string) => closingRules(() => storedUnits(value, field, what));
      this.summaries.insert(
        contractId,
        summaryId,
        {
          store_id: store.store_id,
          sum_date: request.sumDate,
          cash_source: cash.source,
          counts: cash.counts,
          preparation_cash: units(cash.preparationCash, 'cashInfo.preparationCash', 'preparation cash'),
          saving: units(cash.saving, 'cashInfo.saving', 'saving'),
          carry_over_reserve: units(cash.carryOverReserve, 'cashInfo.saving', 'carry-over reserve'),
          cash_sales_total: units(new Decimal(fromUnits(cashEffects, 3)), 'sumDate', 'cash sales total'),
          computed_cash_balance: units(cash.computedCashBalance, 'cashInfo.preparationCash', 'computed cash balance'),
          real_cash_balance: units(cash.realCashBalance, 'cashInfo', 'real cash balance'),
          deposited_bank_money: units(cash.depositedBankMoney, 'sumDate', 'deposited bank money'),
          over_short: units(cash.overShort, 'cashInfo', 'over/short'),
          transaction_count: closed.length,
          terminal_ids: JSON.stringify(terminals.map(String)),
          report: JSON.stringify(report),
          closing_method: request.method,
          closed_at: now,
        },
        now,
      );
      this.writer.changed({ contractId, entity: 'daily_summary', id: summaryId, op: 'insert' });
      return this.summaries.find(contractId, summaryId)!;
    });
  }

  /**
   * Releases the closing in force of a store and date: it stays as history with its release
   * time, its transactions are settled again (sum_division 2 → 1, no sum_date) and its
   * settlements are released, so a new closing of the date takes its cash values from a newer
   * unclosed settlement or from the request (rule 5). 404 when the date is not closed.
   */
  release(contract: ClosingContract, storeId: string, sumDate: string): DailySummaryRow {
    const { contractId } = contract;
    return this.writer.write(() => {
      const summary = this.summaries.getInForce(contractId, storeId, sumDate);
      const now = this.clock.now().getTime();
      const reopened = this.summaries.release(contractId, summary.daily_summary_id, now);
      for (const id of reopened.transactions) this.writer.changed({ contractId, entity: 'transaction', id: String(id), op: 'update' });
      for (const id of reopened.settlements) this.writer.changed({ contractId, entity: 'adjustment', id: String(id), op: 'update' });
      this.writer.changed({ contractId, entity: 'daily_summary', id: String(summary.daily_summary_id), op: 'update' });
      return this.summaries.find(contractId, summary.daily_summary_id)!;
    });
  }
}

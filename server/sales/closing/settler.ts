import { Decimal } from 'decimal.js';
import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { assertSettlementCash, cashOfCounts, storedUnits } from '../../domain/closing.js';
import { InvalidInput } from '../../domain/errors.js';
import { fromUnits, parseDecimal, PRICE, toUnits } from '../../domain/money.js';
import { formatDate, parseDateTime } from '../../domain/time.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { TerminalRepo } from '../../masters/terminals/repo.js';
import { toCashInput } from './cash-info-schema.js';
import { DailySummaryRepo } from './closing-repo.js';
import { assertDayOpen, releaseFirst } from './open-day.js';
import { AdjustmentRepo, type AdjustmentRow } from './settlement-repo.js';
import type { CreateAdjustment } from './settlement-schema.js';
import { cashSettingsOf, closingRules } from './store-settings.js';

/**
 * POST /adjustments: a terminal settles its unprocessed transactions of the store (sum_division
 * 0 → 1) and records the settlement with its cash data. A terminal may settle any number of
 * times a day; a settlement with nothing to settle still records its count. Order of the 400s:
 * the store (storeId); the terminal, unknown or of another store (terminalId); the time, in the
 * future or on a day the store has closed (adjustmentDateTime, the open-day rule); the cash
 * data against the store's settings (cashInfo).
 */
export class TerminalSettler {
  private readonly settlements;
  private readonly closings;
  private readonly stores;
  private readonly terminals;

  constructor(
    db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.settlements = new AdjustmentRepo(db);
    this.closings = new DailySummaryRepo(db);
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.terminals = new TerminalRepo(db, writer, clock);
  }

  settle(contract: { contractId: string; timeZone: string }, input: CreateAdjustment): AdjustmentRow {
    const { contractId, timeZone } = contract;
    return this.writer.write(() => {
      const store = this.stores.referenced(contractId, input.storeId);
      const terminal = this.terminals.find(contractId, input.terminalId);
      if (!terminal) throw InvalidInput.field('terminalId', `terminal ${input.terminalId} does not exist`);
      if (terminal.store_id !== store.store_id) {
        throw InvalidInput.field('terminalId', `terminal ${input.terminalId} belongs to store ${terminal.store_id}, not to store ${store.store_id}`);
      }
      const now = this.clock.now().getTime();
      const adjustedAt = input.adjustmentDateTime === undefined ? now : parseDateTime(input.adjustmentDateTime)!;
      if (adjustedAt > now) throw InvalidInput.field('adjustmentDateTime', 'must not be in the future');
      const day = { contractId, storeId: store.store_id, date: formatDate(adjustedAt, timeZone) };
      assertDayOpen(this.closings, day, { field: 'adjustmentDateTime', message: releaseFirst });
      const cash = toCashInput(input.cashInfo);
      closingRules(() => assertSettlementCash(store.store_id, store.cash_input_at_settlement, cashSettingsOf(store), cash));

      const scope = { contractId, storeId: store.store_id, terminalId: terminal.terminal_id };
      const settledCashTotal = this.settlements.unprocessedCashEffects(scope);
      const units = (value: Decimal, field: string, what: string) => closingRules(() => storedUnits(value, field, what));
      units(new Decimal(fromUnits(settledCashTotal, 3)), 'terminalId', 'settled cash total');
      const settled = this.settlements.settleUnprocessed(scope, adjustedAt, now);
      for (const id of settled) this.writer.changed({ contractId, entity: 'transaction', id: String(id), op: 'update' });

      const adjustmentId = this.ids.next('adjustments');
      this.settlements.insert(
        scope,
        adjustmentId,
        {
          adjustedAt,
          settledCount: settled.length,
          settledCashTotal,
          counts: cash ? cash.counts : null,
          realCashBalance: cash ? units(cashOfCounts(cash.counts), 'cashInfo', 'real cash balance') : null,
          preparationCash: cash?.preparationCash !== undefined ? toUnits(cash.preparationCash, 3) : null,
          saving: cash?.saving !== undefined ? toUnits(cash.saving, 3) : null,
          depositedBankMoney: toUnits(parseDecimal(input.depositedBankMoney ?? '0', PRICE), 3),
        },
        now,
      );
      this.writer.changed({ contractId, entity: 'adjustment', id: adjustmentId, op: 'insert' });
      return this.settlements.get(contractId, adjustmentId);
    });
  }
}

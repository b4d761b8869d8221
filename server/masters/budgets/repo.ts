import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Condition } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { toUnits } from '../../domain/money.js';
import type { Page } from '../../platform/http/paging.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { StoreRepo, type StoreRow } from '../stores/repo.js';
import { SALES_TARGET_SCALE, type ListBudgetsQuery, type PutBudget } from './schema.js';

export interface BudgetRow {
  contract_id: string;
  store_id: number;
  budget_date: string;
  sales_target_units: number;
  customer_count_target: number | null;
  ins_at: number;
  upd_at: number;
}

/** A store's month as the path names it: year YYYY, month MM (already validated). */
export interface BudgetMonth {
  storeId: string;
  year: string;
  month: string;
}

/** The store's month budget and the store itself (so callers render its canonical id). */
export interface MonthRecord {
  store: StoreRow;
  rows: BudgetRow[];
}

const COLUMNS = { salesTargetUnits: 'sales_target_units', customerCountTarget: 'customer_count_target' };
const SORT_COLUMNS = { date: 'budget_date', storeId: 'store_id' };

/**
 * Daily budgets: one row per store and day (the registry's daily_budget, keyed by store_id and
 * budget_date; record id `<store_id>/<budget_date>`), written and removed a month at a time.
 */
export class BudgetRepo extends MasterRepo<BudgetRow, keyof typeof SORT_COLUMNS> {
  private readonly ofMonth;
  private readonly stores;

  constructor(db: Sqlite, writer: Writer, ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'daily_budget', columns: COLUMNS, sort: SORT_COLUMNS });
    this.stores = new StoreRepo(db, writer, ids, clock);
    // Dates are stored as YYYY-MM-DD, so a month is a text range.
    this.ofMonth = db.prepare(
      `SELECT * FROM daily_budgets WHERE contract_id = ? AND store_id = ? AND budget_date BETWEEN ? AND ? ORDER BY budget_date`,
    );
  }

  /** 404 when the store is unknown or has no budget that month. */
  getMonth(contractId: string, m: BudgetMonth): MonthRecord {
    const store = this.stores.get(contractId, m.storeId);
    const rows = this.rowsOf(contractId, store.store_id, m);
    if (rows.length === 0) throw noBudget(store, m);
    return { store, rows };
  }

  /**
   * Makes the month's budget exactly `input.days`: days already budgeted keep their
   * insDateTime and are updated, new days are inserted, days not sent are removed.
   */
  putMonth(contractId: string, m: BudgetMonth, input: PutBudget): MonthRecord {
    return this.writer.write(() => {
      const store = this.stores.get(contractId, m.storeId);
      const prefix = `${m.year}-${m.month}-`;
      const seen = new Set<string>();
      for (const [i, day] of input.days.entries()) {
        if (!day.date.startsWith(prefix)) throw InvalidInput.field(`days.${i}.date`, `${day.date} is not in ${m.year}-${m.month}`);
        if (seen.has(day.date)) throw InvalidInput.field(`days.${i}.date`, `${day.date} is given twice`);
        seen.add(day.date);
      }
      const storeId = store.store_id;
      const existing = new Map(this.rowsOf(contractId, storeId, m).map((r) => [r.budget_date, r]));
      const now = this.now();
      for (const day of input.days) {
        const salesTargetUnits = toUnits(day.salesTarget, SALES_TARGET_SCALE);
        const customerCountTarget = day.customerCountTarget ? Number(day.customerCountTarget) : null;
        const current = existing.get(day.date);
        if (current) this.updateFields(contractId, current, { salesTargetUnits, customerCountTarget }, now);
        else {
          const row = { store_id: storeId, budget_date: day.date, sales_target_units: salesTargetUnits, customer_count_target: customerCountTarget };
          this.insertRow(contractId, row, now);
        }
      }
      for (const [date, row] of existing) if (!seen.has(date)) this.deleteRow(contractId, row);
      return { store, rows: this.rowsOf(contractId, storeId, m) };
    });
  }

  /** Spec 4.9: 404 when the store is unknown or has no budget that month. */
  deleteMonth(contractId: string, m: BudgetMonth): void {
    this.writer.write(() => {
      const { store, rows } = this.getMonth(contractId, m);
      for (const row of rows) this.deleteRow(contractId, row);
    });
  }

  list(contractId: string, query: ListBudgetsQuery, page: Page<keyof typeof SORT_COLUMNS>): BudgetRow[] {
    const conditions: Condition[] = [
      ['store_id = ?', query.store_id === undefined ? undefined : Number(query.store_id)],
      ['budget_date >= ?', query.from],
      ['budget_date <= ?', query.to],
    ];
    // Default order: by date, then store, so a period reads like a calendar (the key, store then date, breaks ties).
    const sort = page.sort.length ? page.sort : [{ field: 'date' as const, desc: false }];
    return this.selectWhere(contractId, conditions, { ...page, sort });
  }

  private rowsOf(contractId: string, storeId: number, m: BudgetMonth): BudgetRow[] {
    return this.ofMonth.all(contractId, storeId, `${m.year}-${m.month}-01`, `${m.year}-${m.month}-31`) as BudgetRow[];
  }
}

const noBudget = (store: StoreRow, m: BudgetMonth) =>
  NotFoundError.field('month', `store ${store.store_id} has no daily budget for ${m.year}-${m.month}`);

import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { orderBy } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { toUnits } from '../../domain/money.js';
import { fetchSize, offsetOf, type Page } from '../../http/paging.js';
import { BadRequest, NotFound } from '../../http/problem.js';
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

const SORT_COLUMNS = { date: 'budget_date', storeId: 'store_id' };
const change = (contractId: string, storeId: number, date: string, op: 'insert' | 'update' | 'delete') =>
  ({ contractId, entity: 'daily_budget', id: `${storeId}/${date}`, op }) as const;

/** Daily budgets: one row per store and day, written and removed a month at a time. */
export class BudgetRepo {
  private readonly ofMonth;
  private readonly insert;
  private readonly replace;
  private readonly remove;
  private readonly stores;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.stores = new StoreRepo(db, writer, ids, clock);
    // Dates are stored as YYYY-MM-DD, so a month is a text range.
    this.ofMonth = db.prepare(
      `SELECT * FROM daily_budgets WHERE contract_id = ? AND store_id = ? AND budget_date BETWEEN ? AND ? ORDER BY budget_date`,
    );
    this.insert = db.prepare(
      `INSERT INTO daily_budgets (contract_id, store_id, budget_date, sales_target_units, customer_count_target, ins_at, upd_at)
       VALUES (@contractId, @storeId, @date, @salesTargetUnits, @customerCountTarget, @now, @now)`,
    );
    this.replace = db.prepare(
      `UPDATE daily_budgets SET sales_target_units = @salesTargetUnits, customer_count_target = @customerCountTarget, upd_at = @now
       WHERE contract_id = @contractId AND store_id = @storeId AND budget_date = @date`,
    );
    this.remove = db.prepare('DELETE FROM daily_budgets WHERE contract_id = ? AND store_id = ? AND budget_date = ?');
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
        if (!day.date.startsWith(prefix)) throw BadRequest.field(`days.${i}.date`, `${day.date} is not in ${m.year}-${m.month}`);
        if (seen.has(day.date)) throw BadRequest.field(`days.${i}.date`, `${day.date} is given twice`);
        seen.add(day.date);
      }
      const storeId = store.store_id;
      const existing = new Set(this.rowsOf(contractId, storeId, m).map((r) => r.budget_date));
      const now = this.clock.now().getTime();
      for (const day of input.days) {
        const values = {
          contractId,
          storeId,
          date: day.date,
          salesTargetUnits: toUnits(day.salesTarget, SALES_TARGET_SCALE),
          customerCountTarget: day.customerCountTarget ? Number(day.customerCountTarget) : null,
          now,
        };
        const op = existing.has(day.date) ? 'update' : 'insert';
        (op === 'update' ? this.replace : this.insert).run(values);
        this.writer.changed(change(contractId, storeId, day.date, op));
      }
      for (const date of existing) {
        if (seen.has(date)) continue;
        this.remove.run(contractId, storeId, date);
        this.writer.changed(change(contractId, storeId, date, 'delete'));
      }
      return { store, rows: this.rowsOf(contractId, storeId, m) };
    });
  }

  /** Spec 4.9: 404 when the store is unknown or has no budget that month. */
  deleteMonth(contractId: string, m: BudgetMonth): void {
    this.writer.write(() => {
      const { store, rows } = this.getMonth(contractId, m);
      for (const row of rows) {
        this.remove.run(contractId, store.store_id, row.budget_date);
        this.writer.changed(change(contractId, store.store_id, row.budget_date, 'delete'));
      }
    });
  }

  list(contractId: string, query: ListBudgetsQuery, page: Page<keyof typeof SORT_COLUMNS>): BudgetRow[] {
    const where = ['contract_id = ?'];
    const params: (string | number)[] = [contractId];
    if (query.store_id !== undefined) (where.push('store_id = ?'), params.push(Number(query.store_id)));
    if (query.from !== undefined) (where.push('budget_date >= ?'), params.push(query.from));
    if (query.to !== undefined) (where.push('budget_date <= ?'), params.push(query.to));
    // Default order: by date, then store, so a period reads like a calendar.
    const sort = page.sort.length ? page.sort : [{ field: 'date' as const, desc: false }];
    const sql = `SELECT * FROM daily_budgets WHERE ${where.join(' AND ')} ${orderBy(sort, SORT_COLUMNS, 'budget_date')}, store_id ASC LIMIT ? OFFSET ?`;
    return this.db.prepare(sql).all(...params, fetchSize(page), offsetOf(page)) as BudgetRow[];
  }

  private rowsOf(contractId: string, storeId: number, m: BudgetMonth): BudgetRow[] {
    return this.ofMonth.all(contractId, storeId, `${m.year}-${m.month}-01`, `${m.year}-${m.month}-31`) as BudgetRow[];
  }
}

const noBudget = (store: StoreRow, m: BudgetMonth) =>
  NotFound.field('month', `store ${store.store_id} has no daily budget for ${m.year}-${m.month}`);

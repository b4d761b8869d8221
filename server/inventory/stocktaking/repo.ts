import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { orderBy, updConditions, type Condition } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { NotFoundError } from '../../domain/errors.js';
import { assertCounting, assertTarget, BY_CATEGORY, BY_PRODUCT, COUNTING } from '../../domain/stocktaking.js';
import { formatDate } from '../../domain/time.js';
import { raiseEvent, STOCKTAKING_EVENT } from '../../events/webhook-events.js';
import type { Contract } from '../../platform/contracts/repo.js';
import { fetchSize, offsetOf, type Page, type UpdRange } from '../../platform/http/paging.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { StocktakingTargets } from './targets.js';
import type { CreateStocktaking, ListStocktakingQuery, StocktakingRow, STOCKTAKING_SORT, UpdateStocktaking } from './schema.js';

/** The registry name (server/db/entities.ts) of a stocktaking with its categories and lines. */
export const STOCKTAKING_ENTITY = 'stocktaking';

const SORT_COLUMNS: Record<(typeof STOCKTAKING_SORT)[number], string> = {
  stocktakingInfoId: 's.stocktaking_info_id',
  stocktakingDate: 's.stocktaking_date',
  storeId: 's.store_id',
  updDateTime: 's.upd_at',
};

const SELECT = `SELECT s.*, st.store_name FROM stocktakings s
  LEFT JOIN stores st ON st.contract_id = s.contract_id AND st.store_id = s.store_id`;

export type StocktakingAction = 'created' | 'edited' | 'deleted';

/**
 * Stocktakings (棚卸, issue 26): a store's count of its goods on a day. Store-made records whose
 * target categories and lines travel with them (kind 'sales'); each change raises the
 * platform's `pos:stocktaking` notice in its own transaction. Counting and completing live in
 * counts.ts; which products a stocktaking counts in targets.ts.
 */
export class StocktakingRepo {
  private readonly byId;
  private readonly stores;
  readonly targets: StocktakingTargets;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.targets = new StocktakingTargets(db);
    this.byId = db.prepare(`${SELECT} WHERE s.contract_id = ? AND s.stocktaking_info_id = ?`);
  }

  find(contractId: string, stocktakingInfoId: string | number): StocktakingRow | undefined {
    return this.byId.get(contractId, Number(stocktakingInfoId)) as StocktakingRow | undefined;
  }

  get(contractId: string, stocktakingInfoId: string | number): StocktakingRow {
    const row = this.find(contractId, stocktakingInfoId);
    if (!row) throw NotFoundError.field('stocktaking_info_id', `stocktaking ${stocktakingInfoId} does not exist`);
    return row;
  }

  list(contractId: string, query: ListStocktakingQuery, page: Page<(typeof STOCKTAKING_SORT)[number]> & UpdRange): StocktakingRow[] {
    const conditions: Condition[] = [
      ['s.store_id = ?', query.store_id],
      ['s.status = ?', query.status],
      ['s.target_division = ?', query.target_division],
      ...updConditions(page).map(([sql, value]): Condition => [`s.${sql}`, value]),
    ];
    const used = conditions.filter(([, value]) => value !== undefined) as [string, string | number][];
    const where = ['s.contract_id = ?', ...used.map(([sql]) => sql)].join(' AND ');
    const sql = `${SELECT} WHERE ${where} ${orderBy(page.sort, SORT_COLUMNS, 's.stocktaking_info_id')} LIMIT ? OFFSET ?`;
    return this.db.prepare(sql).all(contractId, ...used.map(([, value]) => value), fetchSize(page), offsetOf(page)) as StocktakingRow[];
  }

  create(contract: Contract, body: CreateStocktaking): StocktakingRow {
    const contractId = contract.contractId;
    return this.writer.write(() => {
      assertTarget(body);
      const store = this.stores.referenced(contractId, body.storeId);
      if (body.targetDivision === BY_CATEGORY) this.targets.assertCategories(contractId, body.categoryIds!);
      if (body.targetDivision === BY_PRODUCT) this.targets.assertProducts(contractId, body.productIds!);
      const now = this.clock.now().getTime();
      const id = Number(this.ids.next('stocktakings'));
      this.db
        .prepare(
          `INSERT INTO stocktakings (contract_id, stocktaking_info_id, store_id, target_division, stocktaking_date, memo, status, ins_at, upd_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(contractId, id, store.store_id, body.targetDivision, body.stocktakingDate ?? formatDate(now, contract.timeZone), body.memo ?? null, COUNTING, now, now);
      const addCategory = this.db.prepare('INSERT INTO stocktaking_categories (contract_id, stocktaking_info_id, category_id) VALUES (?, ?, ?)');
      for (const categoryId of body.categoryIds ?? []) addCategory.run(contractId, id, Number(categoryId));
      // A stocktaking of chosen products lists exactly them: their lines exist from the start.
      const addLine = this.db.prepare('INSERT INTO stocktaking_products (contract_id, stocktaking_info_id, product_id, ins_at, upd_at) VALUES (?, ?, ?, ?, ?)');
      for (const productId of body.productIds ?? []) addLine.run(contractId, id, Number(productId), now, now);
      this.changed(contractId, id, 'created');
      return this.get(contractId, id);
    });
  }

  update(contractId: string, stocktakingInfoId: string, body: UpdateStocktaking): StocktakingRow {
    return this.writer.write(() => {
      const current = this.get(contractId, stocktakingInfoId);
      assertCounting(current.status, stocktakingInfoId, 'be edited');
      this.db
        .prepare(
          `UPDATE stocktakings SET stocktaking_date = COALESCE(@date, stocktaking_date), memo = CASE WHEN @memoSent = 1 THEN @memo ELSE memo END, upd_at = @now
           WHERE contract_id = @contractId AND stocktaking_info_id = @id`,
        )
        .run({
          date: body.stocktakingDate ?? null,
          memoSent: body.memo === undefined ? 0 : 1,
          memo: body.memo ?? null,
          now: this.clock.now().getTime(),
          contractId,
          id: current.stocktaking_info_id,
        });
      this.changed(contractId, current.stocktaking_info_id, 'edited');
      return this.get(contractId, current.stocktaking_info_id);
    });
  }

  /** Deletes a stocktaking still counting, with its categories and lines (nothing moved the stock yet). */
  remove(contractId: string, stocktakingInfoId: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, stocktakingInfoId);
      assertCounting(current.status, stocktakingInfoId, 'be deleted');
      for (const table of ['stocktaking_products', 'stocktaking_categories', 'stocktakings']) {
        this.db.prepare(`DELETE FROM ${table} WHERE contract_id = ? AND stocktaking_info_id = ?`).run(contractId, current.stocktaking_info_id);
      }
      this.changed(contractId, current.stocktaking_info_id, 'deleted');
    });
  }

  /** Reports the change to sync and raises `pos:stocktaking` in the same transaction. Call inside a write. */
  changed(contractId: string, stocktakingInfoId: number, action: StocktakingAction): void {
    const id = String(stocktakingInfoId);
    const op = action === 'created' ? 'insert' : action === 'deleted' ? 'delete' : 'update';
    this.writer.changed({ contractId, entity: STOCKTAKING_ENTITY, id, op });
    raiseEvent(
      { db: this.db, ids: this.ids, clock: this.clock },
      { contractId, event: STOCKTAKING_EVENT, action, payload: { stocktakingInfoIds: [id] }, cause: { entity: STOCKTAKING_ENTITY, id, op } },
    );
  }
}

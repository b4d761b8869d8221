import { Decimal } from 'decimal.js';
import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectFilteredPage, updConditions } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { formatDecimal } from '../../domain/money.js';
import { STOCK_DIVISION, stockAfterAddError, type StockDivision } from '../../domain/stock.js';
import { dayStart, nextDate } from '../../domain/time.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import { UI_CLIENT_ID } from '../../platform/auth/ui-client.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { StockMovements, type StockMoveResult, type StockMovementRow, type StockRow, type StockRef } from './movements.js';
import type { BulkAddStock, ListStockChangesQuery, ListStockQuery } from './schema.js';

const STOCK_SORT = { productId: 'product_id', storeId: 'store_id' };
const CHANGE_SORT = { id: 'movement_id', updDateTime: 'moved_at', targetDateTime: 'target_at' };

/** Who asked (the API client and the staff member of a user token), kept on the movement. */
export type StockActor = Pick<StockRef, 'clientId' | 'staffId'>;

/**
 * The stock division of a change made through the stock routes: 01 (correction) from the
 * back-office UI, as the platform records a correction made in its back office, and 15 (API)
 * from any other client.
 */
export const routeDivision = (actor: StockActor): StockDivision =>
  actor.clientId?.startsWith(`${UI_CLIENT_ID}:`) ? STOCK_DIVISION.correction : STOCK_DIVISION.api;

/** A movement as GET /stock/changes answers it: its row and the current name of its staff member. */
export type StockChangeRow = StockMovementRow & { staff_name: string | null };

/** One refused entry of a bulk add: its index and the field and reason, as a 400 would name them. */
export interface BulkError {
  index: number;
  field: string;
  message: string;
}

/** The stock routes' reads and their writes, which move stock only through StockMovements. */
export class StockRepo {
  readonly movements: StockMovements;
  private readonly stores: StoreRepo;
  private readonly productExists;
  private readonly staffName;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    ids: IdAllocator,
    clock: Clock,
  ) {
    this.movements = new StockMovements(db, writer, ids, clock);
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.productExists = db.prepare('SELECT 1 FROM products WHERE contract_id = ? AND product_id = ?').pluck();
    this.staffName = db.prepare('SELECT staff_name FROM staffs WHERE contract_id = ? AND staff_id = ?').pluck();
  }

  /** GET /stock: quantities that have moved at least once (as the platform lists them). */
  list(contractId: string, query: ListStockQuery, page: Page<keyof typeof STOCK_SORT>): StockRow[] {
    return selectFilteredPage<StockRow, keyof typeof STOCK_SORT>(
      this.db,
      { table: 'stock', key: 'store_id, product_id' },
      contractId,
      [
        ['store_id = ?', query.store_id === undefined ? undefined : Number(query.store_id)],
        ['product_id = ?', query.product_id === undefined ? undefined : Number(query.product_id)],
        ...updConditions(query),
      ],
      page,
      STOCK_SORT,
    );
  }

  /**
   * GET /stock/changes/{product_id}/{store_id}: the movements under the platform's filters (the
   * target date is a calendar date in the contract's time zone), by id unless sorted; 404 for an
   * unknown product or store.
   */
  changes(contractId: string, productId: string, storeId: string, query: ListStockChangesQuery, zone: string): StockChangeRow[] {
    this.assertProduct(contractId, productId);
    if (!this.stores.find(contractId, storeId)) throw NotFoundError.field('store_id', `store ${storeId} does not exist`);
    const day = query.target_date;
    const rows = selectFilteredPage<StockMovementRow, keyof typeof CHANGE_SORT>(
      this.db,
      { table: 'stock_movements', key: 'movement_id' },
      contractId,
      [
        ['product_id = ?', Number(productId)],
        ['store_id = ?', Number(storeId)],
        ['movement_id = ?', query.id === undefined ? undefined : Number(query.id)],
        ['target_at >= ?', day === undefined ? undefined : dayStart(day, zone)],
        ['target_at < ?', day === undefined ? undefined : dayStart(nextDate(day), zone)],
        ['amount_after = ?', query.stock_amount],
        ['stock_division = ?', query.stock_division],
        ['from_store_id = ?', query.from_store_id === undefined ? undefined : Number(query.from_store_id)],
        ['to_store_id = ?', query.to_store_id === undefined ? undefined : Number(query.to_store_id)],
      ],
      query,
      CHANGE_SORT,
    );
    return rows.map((row) => ({ ...row, staff_name: row.staff_id === null ? null : ((this.staffName.get(contractId, row.staff_id) as string | undefined) ?? null) }));
  }

  /** PATCH /stock/{product_id}: the store's quantity becomes `amount` (a movement of the difference, recorded even when 0). */
  set(contractId: string, productId: string, body: { storeId: string; stockAmount: string; stockHistory?: { memo?: string } }, actor: StockActor): StockMoveResult {
    return this.writer.write(() => {
      this.assertProduct(contractId, productId);
      this.stores.referenced(contractId, body.storeId);
      const current = this.movements.amount(contractId, body.storeId, productId);
      const delta = new Decimal(body.stockAmount).minus(current);
      return this.movements.move(contractId, {
        storeId: body.storeId,
        productId,
        delta,
        division: routeDivision(actor),
        keepZero: true,
        ref: { memo: body.stockHistory?.memo ?? null, ...actor },
      });
    });
  }

  /** POST /stock/{product_id}/add: adds to the store's quantity; a result beyond ±999999999 is a 400. */
  add(contractId: string, productId: string, body: { storeId: string; stockAmount: string; stockHistory?: { memo?: string } }, actor: StockActor): StockMoveResult {
    return this.writer.write(() => {
      this.assertProduct(contractId, productId);
      this.stores.referenced(contractId, body.storeId);
      const error = stockAfterAddError(this.movements.amount(contractId, body.storeId, productId), body.stockAmount);
      if (error) throw InvalidInput.field('stockAmount', error);
      return this.movements.move(contractId, {
        storeId: body.storeId,
        productId,
        delta: body.stockAmount,
        division: routeDivision(actor),
        keepZero: true,
        ref: { memo: body.stockHistory?.memo ?? null, ...actor },
      });
    });
  }

  /**
   * POST /stock/add/bulk, processed after the answer: every entry is checked first (product,
   * store, the quantity after it, entries of one product and store added up); one refused entry
   * refuses the whole request and nothing moves. Call it inside Writer.write.
   */
  bulkAdd(contractId: string, entries: BulkAddStock['stock'], actor: StockActor): { moved: StockMoveResult[]; errors: BulkError[] } {
    const errors: BulkError[] = [];
    const running = new Map<string, string>();
    entries.forEach((e, index) => {
      if (this.productExists.get(contractId, Number(e.productId)) === undefined) {
        errors.push({ index, field: 'productId', message: `product ${e.productId} does not exist` });
        return;
      }
      if (!this.stores.find(contractId, e.storeId)) {
        errors.push({ index, field: 'storeId', message: `store ${e.storeId} does not exist` });
        return;
      }
      const key = `${Number(e.storeId)}/${Number(e.productId)}`;
      const current = running.get(key) ?? this.movements.amount(contractId, e.storeId, e.productId);
      const error = stockAfterAddError(current, e.stockAmount);
      if (error) errors.push({ index, field: 'stockAmount', message: error });
      running.set(key, formatDecimal(new Decimal(current).plus(e.stockAmount)));
    });
    if (errors.length) return { moved: [], errors };
    const moved = entries.map((e) =>
      this.movements.move(contractId, {
        storeId: e.storeId,
        productId: e.productId,
        delta: e.stockAmount,
        division: routeDivision(actor),
        ref: { memo: e.stockHistory?.memo ?? null, ...actor },
      }),
    );
    return { moved, errors };
  }

  private assertProduct(contractId: string, productId: string): void {
    if (this.productExists.get(contractId, Number(productId)) === undefined) throw NotFoundError.field('product_id', `product ${productId} does not exist`);
  }
}

import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import { COST_SCALE, fromUnits } from '../../domain/money.js';
import { STOCK_DIVISION } from '../../domain/stock.js';
import { adjustmentOf, assertCounting, assertDistinctProducts, COMPLETE } from '../../domain/stocktaking.js';
import { StockMovements, type StockRef } from '../stock/movements.js';
import { StocktakingRepo } from './repo.js';
import type { EnterCounts, StocktakingRow, TargetProductRow } from './schema.js';

/** Who counted or completed: the movements keep the API client and the staff member of a user token. */
export type StocktakingActor = Pick<StockRef, 'clientId' | 'staffId'>;

/**
 * Entering counts and completing a stocktaking (issue 26). A count replaces the product's
 * earlier count. Completing makes, in one transaction, each counted product's stock at the
 * store equal to its count: the difference is one stock movement of division 08 (棚卸) through
 * StockMovements, and the line keeps what the platform's products answer reports — the count,
 * the quantity before it, the layaway and in-transit quantities then and the product's cost.
 */
export class StocktakingCounts {
  private readonly movements;
  private readonly lineOf;
  private readonly insertLine;
  private readonly updateLine;
  private readonly costOf;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    ids: IdAllocator,
    private readonly clock: Clock,
    private readonly stocktakings: StocktakingRepo,
  ) {
    this.movements = new StockMovements(db, writer, ids, clock);
    this.lineOf = db.prepare('SELECT 1 FROM stocktaking_products WHERE contract_id = ? AND stocktaking_info_id = ? AND product_id = ?').pluck();
    this.insertLine = db.prepare(
      `INSERT INTO stocktaking_products (contract_id, stocktaking_info_id, product_id, input_quantity, memo, quantity_modified_at, ins_at, upd_at)
       VALUES (@contractId, @id, @productId, @quantity, @memo, @now, @now, @now)`,
    );
    this.updateLine = db.prepare(
      `UPDATE stocktaking_products SET input_quantity = @quantity, memo = CASE WHEN @memoSent = 1 THEN @memo ELSE memo END,
         quantity_modified_at = @now, upd_at = @now
       WHERE contract_id = @contractId AND stocktaking_info_id = @id AND product_id = @productId`,
    );
    this.costOf = db.prepare('SELECT cost_units FROM products WHERE contract_id = ? AND product_id = ?').pluck();
  }

  /** Enters counts (each replacing the product's earlier one) and answers the products' lines, in the order sent. */
  enter(contractId: string, stocktakingInfoId: string, body: EnterCounts): TargetProductRow[] {
    return this.writer.write(() => {
      const row = this.stocktakings.get(contractId, stocktakingInfoId);
      assertCounting(row.status, stocktakingInfoId, 'take counts');
      assertDistinctProducts(body.products);
      const ids = body.products.map((p) => p.productId);
      const targets = this.stocktakings.targets.find(row, ids);
      body.products.forEach((line, i) => {
        if (!targets.has(line.productId)) {
          throw InvalidInput.field(`products.${i}.productId`, `product ${line.productId} is not a target of stocktaking ${stocktakingInfoId}`);
        }
      });
      const now = this.clock.now().getTime();
      for (const line of body.products) {
        const params = { contractId, id: row.stocktaking_info_id, productId: Number(line.productId), quantity: line.inputStocktakingQuantity, memo: line.memo ?? null, now };
        if (this.lineOf.get(contractId, row.stocktaking_info_id, params.productId)) this.updateLine.run({ ...params, memoSent: line.memo === undefined ? 0 : 1 });
        else this.insertLine.run(params);
      }
      this.touch(row, now);
      this.stocktakings.changed(contractId, row.stocktaking_info_id, 'edited');
      const lines = this.stocktakings.targets.find(this.stocktakings.get(contractId, row.stocktaking_info_id), ids);
      return ids.map((id) => lines.get(id)!);
    });
  }

  /** Completes a stocktaking: the counts become the store's stock (see the class). */
  complete(contractId: string, stocktakingInfoId: string, actor: StocktakingActor): StocktakingRow {
    return this.writer.write(() => {
      const row = this.stocktakings.get(contractId, stocktakingInfoId);
      assertCounting(row.status, stocktakingInfoId, 'be completed again');
      const counted = this.stocktakings.targets.counted(row);
      if (counted.length === 0) throw InvalidInput.field('products', `stocktaking ${stocktakingInfoId} has no counted product to complete with`);
      const now = this.clock.now().getTime();
      for (const line of counted) {
        const stock = this.movements.find(contractId, row.store_id, line.product_id);
        const adjustment = adjustmentOf(line.input_quantity, stock?.stock_amount ?? '0');
        this.movements.move(contractId, {
          storeId: row.store_id,
          productId: line.product_id,
          delta: adjustment.delta,
          division: STOCK_DIVISION.stocktaking,
          ref: { memo: `stocktaking ${row.stocktaking_info_id}`, ...actor },
        });
        const costUnits = this.costOf.get(contractId, line.product_id) as number | null | undefined;
        this.db
          .prepare(
            `UPDATE stocktaking_products SET stocktaking_quantity = ?, stock_before = ?, layaway_stock = ?, transportation_stock = ?, cost = ?, upd_at = ?
             WHERE contract_id = ? AND stocktaking_info_id = ? AND product_id = ?`,
          )
          .run(
            adjustment.stocktakingQuantity,
            adjustment.stockBefore,
            stock?.layaway_stock_amount ?? '0',
            // Nothing is held in transit apart from a store's stock here: a sent shipping leaves it at once.
            '0',
            costUnits === null || costUnits === undefined ? '0' : fromUnits(costUnits, COST_SCALE),
            now,
            contractId,
            row.stocktaking_info_id,
            line.product_id,
          );
      }
      this.db
        .prepare('UPDATE stocktakings SET status = ?, adjustment_at = ?, complete_at = ?, upd_at = ? WHERE contract_id = ? AND stocktaking_info_id = ?')
        .run(COMPLETE, now, now, now, contractId, row.stocktaking_info_id);
      this.stocktakings.changed(contractId, row.stocktaking_info_id, 'edited');
      return this.stocktakings.get(contractId, row.stocktaking_info_id);
    });
  }

  private touch(row: StocktakingRow, now: number): void {
    this.db.prepare('UPDATE stocktakings SET upd_at = ? WHERE contract_id = ? AND stocktaking_info_id = ?').run(now, row.contract_id, row.stocktaking_info_id);
  }
}

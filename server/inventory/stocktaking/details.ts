import { Decimal } from 'decimal.js';
import type { Sqlite } from '../../db/open.js';
import { COST_SCALE, formatDecimal, fromUnits } from '../../domain/money.js';
import { dayStart, nextDate } from '../../domain/time.js';
import type { Page } from '../../platform/http/paging.js';
import type { StocktakingTargets } from './targets.js';
import type { DETAIL_SORT, StocktakingDetail, StocktakingRow } from './schema.js';

/**
 * GET /stocktaking/{id}/details/{base_date}: the stock of each target product at the
 * stocktaking's store as it stood at the end of base_date (in the contract's zone) — the sum of
 * its stock movements before the next day began, every quantity having moved only through one —
 * and its value at the product's cost now; the laid-away quantity (layaways) likewise, the sum of
 * the movements' layaway deltas. In-transit quantities have no history here, so they answer 0
 * (nothing is held in transit).
 */
export class StocktakingDetails {
  private readonly deltas;
  private readonly costOf;

  constructor(
    db: Sqlite,
    private readonly targets: StocktakingTargets,
  ) {
    this.deltas = db
      .prepare('SELECT delta, layaway_delta FROM stock_movements WHERE contract_id = ? AND store_id = ? AND product_id = ? AND target_at < ?');
    this.costOf = db.prepare('SELECT cost_units FROM products WHERE contract_id = ? AND product_id = ?').pluck();
  }

  list(
    row: StocktakingRow,
    baseDate: string,
    zone: string,
    filters: { product_id?: string; category_id?: string },
    page: Page<(typeof DETAIL_SORT)[number]>,
  ): StocktakingDetail[] {
    const end = dayStart(nextDate(baseDate), zone);
    return this.targets.list(row, filters, page).map((target) => {
      const moves = this.deltas.all(row.contract_id, row.store_id, target.product_id, end) as { delta: string; layaway_delta: string }[];
      const quantity = moves.reduce((sum, m) => sum.plus(m.delta), new Decimal(0));
      const layaway = moves.reduce((sum, m) => sum.plus(m.layaway_delta), new Decimal(0));
      const costUnits = this.costOf.get(row.contract_id, target.product_id) as number | null | undefined;
      const cost = costUnits === null || costUnits === undefined ? '0' : fromUnits(costUnits, COST_SCALE);
      return {
        stocktakingInfoId: String(row.stocktaking_info_id),
        productId: String(target.product_id),
        categoryId: String(target.category_id),
        stockQuantity: formatDecimal(quantity),
        stockMoney: formatDecimal(quantity.times(cost)),
        transportationQuantity: '0',
        transportationMoney: '0',
        layawayQuantity: formatDecimal(layaway),
        layawayMoney: formatDecimal(layaway.times(cost)),
        storeId: String(row.store_id),
      };
    });
  }
}

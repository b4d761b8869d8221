import type { Sqlite } from '../../db/open.js';
import { orderBy } from '../../db/sql.js';
import { InvalidInput } from '../../domain/errors.js';
import { ALL_PRODUCTS, BY_CATEGORY, COMPLETE } from '../../domain/stocktaking.js';
import { fetchSize, offsetOf, type Page } from '../../platform/http/paging.js';
import type { PRODUCT_SORT, StocktakingRow, TargetProductRow } from './schema.js';

const SORT_COLUMNS: Record<(typeof PRODUCT_SORT)[number], string> = {
  productId: 'p.product_id',
  categoryId: 'p.category_id',
  updDateTime: 'upd_at',
};

/** Products that hold stock: normal goods (0) and a bundle's children (7), as sales move them. */
const GOODS = "p.product_division IN ('0', '7')";

/**
 * Which products a stocktaking counts, as SQL (both engines): every counted line, plus the goods
 * its target names — every product (0), or those of the target categories and their child
 * categories (1, categories nest three levels); a stocktaking of chosen products (2) has a line
 * for each from the start. Once complete, products registered after it are not its targets.
 */
export class StocktakingTargets {
  constructor(private readonly db: Sqlite) {}

  private from(row: StocktakingRow): { sql: string; params: Record<string, unknown> } {
    const inTargets = `IN (SELECT category_id FROM stocktaking_categories WHERE contract_id = @contractId AND stocktaking_info_id = @id)`;
    const named =
      row.target_division === ALL_PRODUCTS
        ? GOODS
        : row.target_division === BY_CATEGORY
          ? `${GOODS} AND (p.category_id ${inTargets} OR c.parent_category_id ${inTargets} OR c2.parent_category_id ${inTargets})`
          : '1 = 0';
    const sql = `FROM products p
      LEFT JOIN categories c ON c.contract_id = p.contract_id AND c.category_id = p.category_id
      LEFT JOIN categories c2 ON c2.contract_id = c.contract_id AND c2.category_id = c.parent_category_id
      LEFT JOIN stocktaking_products l ON l.contract_id = p.contract_id AND l.stocktaking_info_id = @id AND l.product_id = p.product_id
      WHERE p.contract_id = @contractId AND (l.product_id IS NOT NULL OR (${named} AND p.ins_at <= @until))`;
    const until = row.status === COMPLETE && row.complete_at !== null ? row.complete_at : Number.MAX_SAFE_INTEGER;
    return { sql, params: { contractId: row.contract_id, id: row.stocktaking_info_id, until } };
  }

  private static readonly COLUMNS = `p.product_id, p.category_id, l.input_quantity, l.memo, l.quantity_modified_at, l.stocktaking_quantity,
    l.stock_before, l.layaway_stock, l.transportation_stock, l.cost, COALESCE(l.ins_at, @insAt) AS ins_at, COALESCE(l.upd_at, @insAt) AS upd_at`;

  /** One page of the target products with their lines; a product never counted answers the stocktaking's registration time. */
  list(row: StocktakingRow, filters: { product_id?: string; category_id?: string }, page: Page<(typeof PRODUCT_SORT)[number]>): TargetProductRow[] {
    const { sql, params } = this.from(row);
    const where = [filters.product_id === undefined ? '' : ' AND p.product_id = @productId', filters.category_id === undefined ? '' : ' AND p.category_id = @categoryId'].join('');
    return this.db
      .prepare(`SELECT ${StocktakingTargets.COLUMNS} ${sql}${where} ${orderBy(page.sort, SORT_COLUMNS, 'p.product_id')} LIMIT @limit OFFSET @offset`)
      .all({
        ...params,
        insAt: row.ins_at,
        ...(filters.product_id === undefined ? {} : { productId: Number(filters.product_id) }),
        ...(filters.category_id === undefined ? {} : { categoryId: Number(filters.category_id) }),
        limit: fetchSize(page),
        offset: offsetOf(page),
      }) as TargetProductRow[];
  }

  /** The given products that are targets of the stocktaking, by id. */
  find(row: StocktakingRow, productIds: readonly string[]): Map<string, TargetProductRow> {
    const { sql, params } = this.from(row);
    const ids = productIds.map(Number);
    const found = new Map<string, TargetProductRow>();
    // In slices, so a long entry stays within the engines' parameter limits.
    for (let i = 0; i < ids.length; i += 500) {
      const slice = ids.slice(i, i + 500);
      const marks = slice.map((_, k) => `@p${k}`).join(', ');
      const rows = this.db
        .prepare(`SELECT ${StocktakingTargets.COLUMNS} ${sql} AND p.product_id IN (${marks})`)
        .all({ ...params, insAt: row.ins_at, ...Object.fromEntries(slice.map((v, k) => [`p${k}`, v])) }) as TargetProductRow[];
      for (const r of rows) found.set(String(r.product_id), r);
    }
    return found;
  }

  /** The counted lines of a stocktaking (input entered), in product order. */
  counted(row: StocktakingRow): { product_id: number; input_quantity: string }[] {
    return this.db
      .prepare('SELECT product_id, input_quantity FROM stocktaking_products WHERE contract_id = ? AND stocktaking_info_id = ? AND input_quantity IS NOT NULL ORDER BY product_id')
      .all(row.contract_id, row.stocktaking_info_id) as { product_id: number; input_quantity: string }[];
  }

  /** The target categories of a stocktaking by category (categoryIds of the registration). */
  categories(row: StocktakingRow, page: Page): number[] {
    return this.db
      .prepare(
        `SELECT category_id FROM stocktaking_categories WHERE contract_id = ? AND stocktaking_info_id = ? ${orderBy(page.sort, { categoryId: 'category_id' }, 'category_id')} LIMIT ? OFFSET ?`,
      )
      .pluck()
      .all(row.contract_id, row.stocktaking_info_id, fetchSize(page), offsetOf(page)) as number[];
  }

  /** The categories a stocktaking of chosen products counts: those its products belong to now. */
  productCategories(row: StocktakingRow, page: Page): number[] {
    return this.db
      .prepare(
        `SELECT DISTINCT p.category_id FROM stocktaking_products l
         JOIN products p ON p.contract_id = l.contract_id AND p.product_id = l.product_id
         WHERE l.contract_id = ? AND l.stocktaking_info_id = ? ${orderBy(page.sort, { categoryId: 'p.category_id' }, 'p.category_id')} LIMIT ? OFFSET ?`,
      )
      .pluck()
      .all(row.contract_id, row.stocktaking_info_id, fetchSize(page), offsetOf(page)) as number[];
  }

  /** A registration's categories must exist (400 naming the entry). */
  assertCategories(contractId: string, categoryIds: readonly string[]): void {
    const exists = this.db.prepare('SELECT 1 FROM categories WHERE contract_id = ? AND category_id = ?').pluck();
    categoryIds.forEach((id, i) => {
      if (!exists.get(contractId, Number(id))) throw InvalidInput.field(`categoryIds.${i}`, `category ${id} does not exist`);
    });
  }

  /** A registration's products must exist and hold stock (400 naming the entry). */
  assertProducts(contractId: string, productIds: readonly string[]): void {
    const division = this.db.prepare('SELECT product_division FROM products WHERE contract_id = ? AND product_id = ?').pluck();
    productIds.forEach((id, i) => {
      const d = division.get(contractId, Number(id)) as string | undefined;
      if (d === undefined) throw InvalidInput.field(`productIds.${i}`, `product ${id} does not exist`);
      if (d !== '0' && d !== '7') throw InvalidInput.field(`productIds.${i}`, `product ${id} is of productDivision ${d}, which holds no stock`);
    });
  }
}

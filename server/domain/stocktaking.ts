import { Decimal } from 'decimal.js';
import { ConflictError, InvalidInput } from './errors.js';
import { formatDecimal } from './money.js';

/**
 * The rules of a stocktaking (棚卸, issue 26) without SQL or HTTP: what it counts, when it may
 * still change, and what completing it does to each counted product's stock.
 */

/** What a stocktaking counts: 0 every product, 1 the products of target categories, 2 target products. */
export const TARGET_DIVISIONS = ['0', '1', '2'] as const;
export type TargetDivision = (typeof TARGET_DIVISIONS)[number];
export const ALL_PRODUCTS: TargetDivision = '0';
export const BY_CATEGORY: TargetDivision = '1';
export const BY_PRODUCT: TargetDivision = '2';

/** 0 counting (棚卸中), 2 complete (完了: the counts became the stock). */
export const STOCKTAKING_STATUSES = ['0', '2'] as const;
export type StocktakingStatus = (typeof STOCKTAKING_STATUSES)[number];
export const COUNTING: StocktakingStatus = '0';
export const COMPLETE: StocktakingStatus = '2';

/** The categories endpoint's categoryId of a stocktaking of every product (the platform's "0"). */
export const ALL_CATEGORIES_ID = '0';

/** At most this many target categories or products in one registration, and count lines in one entry. */
export const MAX_TARGETS = 1000;

/** What a registration names as its target. */
export interface TargetInput {
  targetDivision: TargetDivision;
  categoryIds?: readonly string[];
  productIds?: readonly string[];
}

/**
 * A registration's target must agree with its targetDivision: categories for 1, products for 2,
 * neither for 0; the same id twice is a mistake of the client.
 */
export function assertTarget(input: TargetInput): void {
  const wants = { categoryIds: input.targetDivision === BY_CATEGORY, productIds: input.targetDivision === BY_PRODUCT } as const;
  for (const field of ['categoryIds', 'productIds'] as const) {
    const ids = input[field];
    if (wants[field] && (!ids || ids.length === 0)) throw InvalidInput.field(field, `is required for targetDivision ${input.targetDivision}`);
    if (!wants[field] && ids !== undefined) throw InvalidInput.field(field, `must not be given for targetDivision ${input.targetDivision}`);
    const seen = new Set<string>();
    ids?.forEach((id, i) => {
      if (seen.has(id)) throw InvalidInput.field(`${field}.${i}`, `${id} is given twice`);
      seen.add(id);
    });
  }
}

/**
 * A complete stocktaking is closed: its counts became the stock, so it takes no new count, no
 * edit and no deletion (409 naming its status).
 */
export function assertCounting(status: StocktakingStatus, stocktakingInfoId: string | number, doing: string): void {
  if (status === COMPLETE) {
    throw ConflictError.field('status', `stocktaking ${stocktakingInfoId} is complete (status 2) and cannot ${doing}`);
  }
}

/** A count line of one entry: the same product twice in one entry is refused (which would win?). */
export function assertDistinctProducts(lines: readonly { productId: string }[]): void {
  const seen = new Set<string>();
  lines.forEach((line, i) => {
    if (seen.has(line.productId)) throw InvalidInput.field(`products.${i}.productId`, `product ${line.productId} is given twice`);
    seen.add(line.productId);
  });
}

/** What completing does to one counted product: the store's quantity becomes the count. */
export interface Adjustment {
  /** The count, which becomes the store's quantity. */
  stocktakingQuantity: string;
  /** The store's quantity just before (the platform's stockQuantityBeforeAdjustment). */
  stockBefore: string;
  /** count − before: the stock movement of division 08 (zero: no movement). */
  delta: Decimal;
}

export function adjustmentOf(count: Decimal.Value, stockBefore: Decimal.Value): Adjustment {
  const counted = new Decimal(count);
  return { stocktakingQuantity: formatDecimal(counted), stockBefore: formatDecimal(stockBefore), delta: counted.minus(stockBefore) };
}

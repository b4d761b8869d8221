import { Decimal } from 'decimal.js';

/**
 * The platform's stock divisions (stockDivision, 在庫区分): why a quantity moved. This server
 * records 01 (a correction in the back office), 02, 04, 05, 10, 12 and 15 (the stock routes
 * called by any other API client); the rest are the platform's and may be filtered on.
 */
export const STOCK_DIVISION = {
  correction: '01',
  sale: '02',
  purchase: '03',
  shippingOut: '04',
  receiving: '05',
  rental: '06',
  layaway: '07',
  stocktaking: '08',
  adjustment: '09',
  shipment: '10',
  return: '12',
  promotion: '13',
  loss: '14',
  api: '15',
  salesAllocation: '16',
  receivingShortage: '17',
  orderAllocation: '18',
} as const;
export type StockDivision = (typeof STOCK_DIVISION)[keyof typeof STOCK_DIVISION];
export const STOCK_DIVISIONS = Object.values(STOCK_DIVISION) as [StockDivision, ...StockDivision[]];

/**
 * The stock a sale moves (issue 14 item 2), as a pure rule over the stored transaction.
 *
 * - Only a sale (transactionHeadDivision 1) that is not cancelled (cancelDivision 1 moved no
 *   goods) moves stock; deposits, withdrawals and member-only transactions do not.
 * - A line moves stock when it names a product and carries goods: product division 0 (normal)
 *   or 7 (a bundle's child). Parents (4 bundle, 5 set sale, 6 simple bundle: their children
 *   carry the goods), tickets (1), options (2), department sales (3, no product) and bundle
 *   discount lines (8) do not.
 * - A normal line (transactionDetailDivision 1) takes its quantity from the store's stock; a
 *   return line (2) brings it back. A return-cancel's lines carry the source's quantities
 *   negated, so the same rule puts back what the source took.
 * - Movements are summed per product and stock division: `02` (sale) for what a sale takes,
 *   `12` (return) for what comes back (return lines and every line of a return-cancel,
 *   disposeDivision 2).
 * - A sale that picks up a layaway (`pickedUp`, its laid-away goods) does not take those goods
 *   again: they left the available stock when they were laid away (07). Only what the sale
 *   takes beyond them moves as `02`; the pick-up itself moves the laid-away stock (layaways.ts).
 */
export interface StockLine {
  productId: number | string | null | undefined;
  productDivision?: string | null;
  transactionDetailDivision?: string | null;
  quantity: string | number | null | undefined;
}

export interface StockHeader {
  transactionHeadDivision?: string | null;
  cancelDivision?: string | null;
  disposeDivision?: string | null;
}

export interface StockDelta {
  productId: number;
  delta: Decimal;
  division: typeof STOCK_DIVISION.sale | typeof STOCK_DIVISION.return;
}

const GOODS_DIVISIONS = new Set(['0', '7']);

/** Goods of a picked-up layaway, per product: already out of the available stock. */
export interface PickedUpGoods {
  productId: number;
  quantity: Decimal.Value;
}

export function stockDeltasOf(header: StockHeader, lines: readonly StockLine[], pickedUp: readonly PickedUpGoods[] = []): StockDelta[] {
  if ((header.transactionHeadDivision ?? '1') !== '1' || header.cancelDivision === '1') return [];
  const returnCancel = header.disposeDivision === '2';
  const sums = new Map<string, StockDelta>();
  const add = (productId: number, delta: Decimal, stockDivision: StockDelta['division']) => {
    const key = `${productId}/${stockDivision}`;
    const sum = sums.get(key);
    if (sum) sum.delta = sum.delta.plus(delta);
    else sums.set(key, { productId, delta, division: stockDivision });
  };
  for (const line of goodsLines(lines)) {
    const delta = line.division === '1' ? line.quantity.neg() : line.quantity;
    add(line.productId, delta, returnCancel || line.division === '2' ? STOCK_DIVISION.return : STOCK_DIVISION.sale);
  }
  // A return-cancel brings back everything its source handed over, laid away before or not.
  if (!returnCancel) for (const g of pickedUp) add(Number(g.productId), new Decimal(g.quantity), STOCK_DIVISION.sale);
  return [...sums.values()].filter((s) => !s.delta.isZero());
}

/**
 * The first laid-away product a picking sale does not sell in full (its normal goods lines carry
 * less than the layaway kept), or null: the customer takes every laid-away good with the sale.
 */
export function pickedUpNotSold(lines: readonly StockLine[], pickedUp: readonly PickedUpGoods[]): { productId: number; laidAway: Decimal; sold: Decimal } | null {
  const sold = new Map<number, Decimal>();
  for (const line of goodsLines(lines)) {
    if (line.division === '1') sold.set(line.productId, (sold.get(line.productId) ?? new Decimal(0)).plus(line.quantity));
  }
  for (const g of pickedUp) {
    const laidAway = new Decimal(g.quantity);
    const s = sold.get(Number(g.productId)) ?? new Decimal(0);
    if (s.lessThan(laidAway)) return { productId: Number(g.productId), laidAway, sold: s };
  }
  return null;
}

/** The lines that carry goods (a product of division 0 or 7, a normal or return line, a quantity). */
function goodsLines(lines: readonly StockLine[]): { productId: number; division: '1' | '2'; quantity: Decimal }[] {
  const goods: { productId: number; division: '1' | '2'; quantity: Decimal }[] = [];
  for (const line of lines) {
    if (line.productId === null || line.productId === undefined) continue;
    if (!GOODS_DIVISIONS.has(line.productDivision ?? '0')) continue;
    const division = line.transactionDetailDivision ?? '1';
    if (division !== '1' && division !== '2') continue;
    const quantity = new Decimal(line.quantity ?? 0);
    if (quantity.isZero()) continue;
    goods.push({ productId: Number(line.productId), division, quantity });
  }
  return goods;
}

/** The platform's bounds of a stock quantity: from -999999999 to 999999999 (PATCH /stock and the result of an add). */
export const STOCK_MAX = new Decimal(999999999);
export const STOCK_MIN = STOCK_MAX.neg();
/** The bounds of a relative change (POST /stock/{id}/add, /stock/add/bulk). */
export const STOCK_ADD_MAX = new Decimal(1999999998);

/** Why the quantity after an add is refused, or null when it lies within the bounds. */
export function stockAfterAddError(current: Decimal.Value, delta: Decimal.Value): string | null {
  const after = new Decimal(current).plus(delta);
  if (after.greaterThan(STOCK_MAX)) return `would make the quantity ${after.toFixed()}, more than ${STOCK_MAX.toFixed()}`;
  if (after.lessThan(STOCK_MIN)) return `would make the quantity ${after.toFixed()}, less than ${STOCK_MIN.toFixed()}`;
  return null;
}

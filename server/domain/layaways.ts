import type { Decimal } from 'decimal.js';
import { formatDecimal } from './money.js';
import { exact } from './rounding.js';

/**
 * Layaways (取置き, issue 26): goods a store keeps for a customer, registered as a transaction of
 * transactionHeadDivision 10 (POST /transactions/layaways). Pure rules: the totals the server
 * computes from the lines (the platform's "明細合計と異なる場合エラー": a sent subtotal or total
 * that differs is refused) and the stock the layaway moves.
 */

/** The only transaction division the layaway registration takes (取置き登録APIは、10:取置きのみ対応). */
export const LAYAWAY_HEAD_DIVISION = '10';
/** At most this many lines, as a transaction's transactionDetailId (1 to 999). */
export const MAX_LAYAWAY_DETAILS = 999;

export interface LayawayLine {
  productId: number;
  salesPrice: Decimal.Value;
  unitDiscountPrice: Decimal.Value;
  quantity: number;
}

export interface LayawayTotals {
  /** Each line's (salesPrice − unitDiscountPrice) × quantity. */
  lineSubtotals: Decimal[];
  subtotal: Decimal;
  total: Decimal;
  /** The number of goods laid away. */
  amount: number;
}

/** The totals of a layaway: the lines' subtotals, their sum, less the subtotal discount. */
export function layawayTotals(lines: readonly LayawayLine[], subtotalDiscountPrice: Decimal.Value): LayawayTotals {
  const lineSubtotals = lines.map((l) => exact(l.salesPrice).minus(exact(l.unitDiscountPrice)).times(l.quantity));
  const subtotal = lineSubtotals.reduce((sum, v) => sum.plus(v), exact(0));
  return {
    lineSubtotals,
    subtotal,
    total: subtotal.minus(exact(subtotalDiscountPrice)),
    amount: lines.reduce((sum, l) => sum + l.quantity, 0),
  };
}

/** The first sent total that differs from the computed one, as `field`, sent and computed texts; null when they agree. */
export function layawayTotalsMismatch(sent: { subtotal: string; total: string }, computed: LayawayTotals): { field: 'subtotal' | 'total'; sent: string; computed: string } | null {
  for (const field of ['subtotal', 'total'] as const) {
    if (!exact(sent[field]).equals(computed[field])) return { field, sent: sent[field], computed: formatDecimal(computed[field]) };
  }
  return null;
}

/**
 * What a layaway does to its store's stock, per product: the goods leave the available stock
 * (stockAmount −quantity) and are laid away for the customer (layawayStockAmount +quantity),
 * one movement of stock division 07 each. Products in first-line order.
 */
export function layawayStockMoves(lines: readonly LayawayLine[]): { productId: number; delta: number; layawayDelta: number }[] {
  const quantities = new Map<number, number>();
  for (const l of lines) quantities.set(l.productId, (quantities.get(l.productId) ?? 0) + l.quantity);
  return [...quantities].map(([productId, quantity]) => ({ productId, delta: -quantity, layawayDelta: quantity }));
}

/** A layaway's state: kept (status 0), picked up (status 1, 引取済み) or cancelled (cancelDivision 1). */
export interface LayawayState {
  transactionHeadId: number;
  status: string;
  pickUpTransactionHeadId: number | null;
  cancelDivision: string;
}

export const LAYAWAY_STATUS = { kept: '0', pickedUp: '1' } as const;

/** Why a layaway can no longer be picked up or cancelled; null while its goods are kept. */
export function layawayClosedReason(l: LayawayState): string | null {
  if (l.cancelDivision === '1') return `layaway ${l.transactionHeadId} is cancelled`;
  if (l.status === LAYAWAY_STATUS.pickedUp) return `layaway ${l.transactionHeadId} was picked up by transaction ${l.pickUpTransactionHeadId}`;
  return null;
}

/**
 * What ending a layaway does to its store's stock, per product: a pick-up hands the laid-away
 * goods to the customer (layawayStockAmount −quantity; the available stock already gave them),
 * a cancel puts them back on sale (stockAmount +quantity, layawayStockAmount −quantity).
 */
export function layawayEndMoves(lines: readonly LayawayLine[], how: 'pickUp' | 'cancel'): { productId: number; delta: number; layawayDelta: number }[] {
  return layawayStockMoves(lines).map((m) => ({ productId: m.productId, delta: how === 'cancel' ? m.layawayDelta : 0, layawayDelta: -m.layawayDelta }));
}

import { InvalidInput } from './errors.js';

/** The most lines a loss holds (the platform's: details at most 1000, existing plus added on update). */
export const MAX_LOSS_DETAILS = 1000;

/** A loss line as the stock sees it: which product and how many were lost. */
export interface LossLine {
  productId: number;
  quantity: number;
}

/** What a loss write does to one product's stock at the loss's store (negative: taken out). */
export interface LossStockDelta {
  productId: number;
  delta: number;
}

const totals = (lines: readonly LossLine[]) => {
  const sums = new Map<number, number>();
  for (const l of lines) sums.set(l.productId, (sums.get(l.productId) ?? 0) + l.quantity);
  return sums;
};

/**
 * The stock a loss write moves (issue 26): a loss takes its quantities out of its store's stock,
 * so the stock always holds exactly the loss's lines taken out. Compared per product, `before`
 * (the lines before the write; none for a registration) and `after` (the lines after it; none
 * for a delete) give each product's movement: registering takes the quantities, an edit moves
 * only the difference (a changed product gives the old one back and takes the new one), and a
 * delete gives everything back. Products are summed, so each product moves once per write, in
 * the order they first appear (after's lines, then before's); a product whose total did not
 * change does not move.
 */
export function lossStockDeltas(before: readonly LossLine[], after: readonly LossLine[]): LossStockDelta[] {
  const was = totals(before);
  const now = totals(after);
  const products = [...new Set([...now.keys(), ...was.keys()])];
  return products
    .map((productId) => ({ productId, delta: (was.get(productId) ?? 0) - (now.get(productId) ?? 0) }))
    .filter((d) => d.delta !== 0);
}

/** A loss holds at most 1000 lines: those it has plus those an update adds (400 on `details`). */
export function assertDetailCount(existing: number, added: number): void {
  if (existing + added > MAX_LOSS_DETAILS) {
    throw InvalidInput.field('details', `a loss has at most ${MAX_LOSS_DETAILS} details: ${existing} existing and ${added} added would make ${existing + added}`);
  }
}

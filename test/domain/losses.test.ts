import { describe, expect, it } from 'vitest';
import { assertDetailCount, lossStockDeltas } from '../../server/domain/losses.js';

/** Issue 26: the stock a loss write moves, and the most lines a loss holds (server/domain/losses.ts). */
describe('lossStockDeltas', () => {
  const line = (productId: number, quantity: number) => ({ productId, quantity });

  it('a registration takes each product once, its lines summed, in the order they first appear', () => {
    expect(lossStockDeltas([], [line(7, 2), line(3, 1), line(7, 4)])).toEqual([
      { productId: 7, delta: -6 },
      { productId: 3, delta: -1 },
    ]);
  });

  it('an edit moves only the difference; a product whose total stays moves nothing', () => {
    expect(lossStockDeltas([line(7, 5), line(3, 1)], [line(7, 3), line(3, 1), line(9, 2)])).toEqual([
      { productId: 7, delta: 2 },
      { productId: 9, delta: -2 },
    ]);
  });

  it('a line moved to another product gives the first one back and takes the other', () => {
    expect(lossStockDeltas([line(7, 3)], [line(8, 3)])).toEqual([
      { productId: 8, delta: -3 },
      { productId: 7, delta: 3 },
    ]);
  });

  it('a delete gives every product back; zero quantities move nothing', () => {
    expect(lossStockDeltas([line(7, 3), line(3, 0)], [])).toEqual([{ productId: 7, delta: 3 }]);
    expect(lossStockDeltas([], [line(3, 0)])).toEqual([]);
  });
});

describe('assertDetailCount', () => {
  it('takes up to 1000 lines, existing plus added, and names details beyond', () => {
    expect(() => assertDetailCount(999, 1)).not.toThrow();
    expect(() => assertDetailCount(999, 2)).toThrow('[details] a loss has at most 1000 details: 999 existing and 2 added would make 1001');
  });
});

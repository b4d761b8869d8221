import { describe, expect, it } from 'vitest';
import { ConflictError, InvalidInput } from '../../server/domain/errors.js';
import { adjustmentOf, assertCounting, assertDistinctProducts, assertTarget } from '../../server/domain/stocktaking.js';

/** Issue 26: the pure rules of a stocktaking. */
describe('stocktaking rules', () => {
  it('completing makes the count the stock: the movement is count − stock before, exact with a decimal stock', () => {
    const a = adjustmentOf('8', '10');
    expect([a.stocktakingQuantity, a.stockBefore, a.delta.toFixed()]).toEqual(['8', '10', '-2']);
    const b = adjustmentOf('2', '2.5'); // a decimal-quantity sale left half a unit
    expect([b.stockBefore, b.delta.toFixed()]).toEqual(['2.5', '-0.5']);
    expect(adjustmentOf('4', '-3').delta.toFixed()).toBe('7'); // oversold stock comes back up
    expect(adjustmentOf('5', '5').delta.isZero()).toBe(true);
  });

  it('a target agrees with targetDivision and names nothing twice', () => {
    expect(() => assertTarget({ targetDivision: '0' })).not.toThrow();
    expect(() => assertTarget({ targetDivision: '1', categoryIds: ['1', '2'] })).not.toThrow();
    const refusal = (input: Parameters<typeof assertTarget>[0]) => {
      try {
        assertTarget(input);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidInput);
        return (error as Error).message;
      }
      return null;
    };
    expect(refusal({ targetDivision: '2' })).toBe('[productIds] is required for targetDivision 2');
    expect(refusal({ targetDivision: '0', productIds: [] })).toBe('[productIds] must not be given for targetDivision 0');
    expect(refusal({ targetDivision: '2', productIds: ['5', '6', '5'] })).toBe('[productIds[2]] 5 is given twice');
  });

  it('a complete stocktaking is closed (409 naming status); one entry names a product once', () => {
    expect(() => assertCounting('0', '1001', 'take counts')).not.toThrow();
    expect(() => assertCounting('2', '1001', 'take counts')).toThrow(ConflictError);
    expect(() => assertCounting('2', '1001', 'take counts')).toThrow('[status] stocktaking 1001 is complete (status 2) and cannot take counts');
    expect(() => assertDistinctProducts([{ productId: '1' }, { productId: '2' }, { productId: '1' }])).toThrow('[products[2].productId] product 1 is given twice');
  });
});

import { describe, expect, it } from 'vitest';
import {
  assertShippingUpdatable,
  initialApproval,
  receivedQuantity,
  receivingDetailInspected,
  receivingInspected,
  reflectScheduled,
  ShippingRuleError,
  statusMove,
} from '../../server/domain/shipping.js';

/** The pure rules of store-to-store shipping (server/domain/shipping.ts). */

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ShippingRuleError) return [error.status, error.field];
    throw error;
  }
  return null;
};

describe('shipping rules', () => {
  it('default approval: 1 without the approval function; with it 0 until sent out', () => {
    expect(initialApproval(false, '0', undefined)).toEqual({ approvalStatus: '1', stamp: true });
    expect(initialApproval(true, '0', undefined)).toEqual({ approvalStatus: '0', stamp: false });
    expect(initialApproval(true, '1', undefined)).toEqual({ approvalStatus: '1', stamp: true });
    expect(initialApproval(true, '0', '2')).toEqual({ approvalStatus: '2', stamp: true });
    expect(refusal(() => initialApproval(false, '1', '0'))).toEqual([400, 'approvalStatus']);
  });

  it('status moves one step forward; sending out needs approval', () => {
    expect(statusMove('0', undefined, '1')).toBe('none');
    expect(statusMove('1', '1', '1')).toBe('none');
    expect(statusMove('0', '1', '1')).toBe('ship');
    expect(statusMove('1', '2', '1')).toBe('inspect');
    expect(statusMove('2', '3', '1')).toBe('receive');
    expect(refusal(() => statusMove('0', '1', '0'))).toEqual([400, 'status']);
    expect(refusal(() => statusMove('1', '3', '1'))).toEqual([400, 'status']);
    expect(refusal(() => statusMove('2', '0', '1'))).toEqual([400, 'status']);
  });

  it('in inspection: edits need an open request (409); completing is refused while it is open (409); received takes nothing (400)', () => {
    const at = (status: '1' | '2' | '3', modificationRequestStatus: '0' | '1' | '2') => ({ shippingId: '1', status, modificationRequestStatus });
    expect(refusal(() => assertShippingUpdatable(at('2', '0'), true, undefined))).toEqual([409, 'modificationRequestStatus']);
    expect(refusal(() => assertShippingUpdatable(at('2', '2'), true, undefined))).toEqual([409, 'modificationRequestStatus']);
    expect(refusal(() => assertShippingUpdatable(at('2', '1'), true, undefined))).toBeNull();
    expect(refusal(() => assertShippingUpdatable(at('2', '0'), false, '3'))).toBeNull();
    expect(refusal(() => assertShippingUpdatable(at('2', '1'), false, '3'))).toEqual([409, 'modificationRequestStatus']);
    expect(refusal(() => assertShippingUpdatable(at('1', '0'), true, '2'))).toBeNull();
    expect(refusal(() => assertShippingUpdatable(at('3', '0'), false, '3'))).toEqual([400, 'status']);
  });

  it('a receiving detail is inspected when counted plus missing equals scheduled', () => {
    const d = (scheduledQuantity: number, inspectionQuantity: number | null, stockoutQuantity: number | null) => ({ scheduledQuantity, inspectionQuantity, stockoutQuantity });
    expect(receivingDetailInspected(d(5, 4, 1))).toBe(true);
    expect(receivingDetailInspected(d(5, 4, 0))).toBe(false);
    expect(receivingDetailInspected(d(5, 6, 0))).toBe(false);
    expect(receivingDetailInspected(d(5, null, null))).toBe(false);
    expect(receivingDetailInspected(d(0, null, null))).toBe(true);
    expect(receivingDetailInspected(d(0, 1, 0))).toBe(false);
    expect(receivingInspected([])).toBe(false);
    expect(receivingInspected([d(5, 5, 0), d(0, null, null)])).toBe(true);
    expect(receivedQuantity(d(5, 4, 1))).toBe(4);
    expect(receivedQuantity(d(5, null, null))).toBe(5);
  });

  it('reflects the shipping details into the receiving details', () => {
    expect(
      reflectScheduled(
        [{ productId: 1, quantity: 4 }, { productId: 2, quantity: 3 }, { productId: 3, quantity: 1 }],
        [{ productId: 1, scheduledQuantity: 5 }, { productId: 2, scheduledQuantity: 3 }, { productId: 9, scheduledQuantity: 2 }, { productId: 8, scheduledQuantity: 0 }],
      ),
    ).toEqual({ insert: [{ productId: 3, quantity: 1 }], update: [{ productId: 1, quantity: 4 }, { productId: 9, quantity: 0 }] });
  });
});

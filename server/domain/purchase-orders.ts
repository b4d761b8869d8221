/**
 * The rules of a purchase order registration (spec 2.10, 4.14) without SQL or HTTP: the per-store
 * ordering settings of a product, and the contract's order split unit.
 */

/** 2 ordered, 3 receiving inspection, 4 receiving complete, 5 provisional order. */
export const PURCHASE_ORDER_STATUSES = ['2', '3', '4', '5'] as const;
/** A registration takes only these (3.4). */
export const REGISTRABLE_STATUSES = ['2', '5'] as const;
/** An order placed with the supplier: its goods are expected at the delivery stores (each gets a storage). */
export const ORDERED = '2';
/** Orders whose quantities are still to arrive: the expected arrivals an order limit counts. */
export const OPEN_STATUSES = ['2', '5'] as const;

/** Spec 4.14 and §8. */
export const MAX_ORDER_PRODUCTS = 1000;

/** The order split unit (divisionUnit): 0 none, 1 category group, 2 supplier. */
export const SPLIT_NONE = '0';
export const SPLIT_CATEGORY_GROUP = '1';
export const SPLIT_SUPPLIER = '2';

/** A refusal of a purchase order rule: the route answers 400 naming `field`. */
export class PurchaseOrderRuleError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'PurchaseOrderRuleError';
  }
}

/** A product's ordering settings at a store (a store without settings: orderable, shown, no limit). */
export interface OrderingSetting {
  orderable: boolean;
  hidden: boolean;
  /** The most that may be on order at once for the store; null: no limit. */
  limit: number | null;
}

/**
 * Spec 4.14's refusals of one delivery line (a product to a store): not orderable, hidden from
 * ordering, an order limit of 0, expected arrivals (quantities of open orders still to arrive)
 * that already reach the limit, or a quantity over what the limit leaves. `field` names the
 * delivery line (…deliveryStore[j]); the quantity's refusal names its quantity.
 */
export function assertOrderable(
  field: string,
  ids: { productId: number; storeId: number },
  setting: OrderingSetting,
  expected: number,
  quantity: number,
): void {
  const { productId: p, storeId: s } = ids;
  if (!setting.orderable) throw new PurchaseOrderRuleError(`${field}.storeId`, `product ${p} is not orderable at store ${s}`);
  if (setting.hidden) throw new PurchaseOrderRuleError(`${field}.storeId`, `product ${p} is hidden from ordering at store ${s}`);
  if (setting.limit === null) return;
  if (setting.limit === 0) throw new PurchaseOrderRuleError(`${field}.storeId`, `product ${p} has an order limit of 0 at store ${s}`);
  if (expected >= setting.limit) {
    throw new PurchaseOrderRuleError(
      `${field}.storeId`,
      `product ${p} already has ${expected} on order for store ${s}, which reaches its order limit of ${setting.limit}`,
    );
  }
  if (expected + quantity > setting.limit) {
    const left = setting.limit - expected;
    throw new PurchaseOrderRuleError(
      `${field}.quantity`,
      `${quantity} is over the order limit of product ${p} at store ${s}: ${setting.limit}${expected ? ` less ${expected} on order` : ''} leaves ${left}`,
    );
  }
}

/** What the split rules read of a product. */
export interface SplitFacts {
  productId: number;
  categoryGroupId: number | null;
  hasSupplier: boolean;
}

/**
 * The contract's order split unit (4.14): split by supplier needs a recipientOrderId and refuses
 * a product no supplier handles; split by category group refuses products of different groups
 * (a product without a group is a group of its own: none). Answers the order's categoryGroupId
 * (the products' common group under split 1; null otherwise).
 */
export function applySplit(split: string, recipientOrderId: string | undefined, products: readonly SplitFacts[]): number | null {
  if (split === SPLIT_SUPPLIER) {
    if (recipientOrderId === undefined) throw new PurchaseOrderRuleError('recipientOrderId', 'is required: the contract splits purchase orders by supplier');
    products.forEach((p, i) => {
      if (!p.hasSupplier) {
        throw new PurchaseOrderRuleError(`products[${i}].productId`, `product ${p.productId} has no supplier registered, which the contract's split by supplier needs`);
      }
    });
    return null;
  }
  if (split !== SPLIT_CATEGORY_GROUP || products.length === 0) return null;
  const group = products[0]!.categoryGroupId;
  products.forEach((p, i) => {
    if (p.categoryGroupId !== group) {
      const word = (g: number | null) => (g === null ? 'no category group' : `category group ${g}`);
      throw new PurchaseOrderRuleError(
        `products[${i}].productId`,
        `product ${p.productId} is of ${word(p.categoryGroupId)} and products[0] of ${word(group)}: the contract splits purchase orders by category group`,
      );
    }
  });
  return group;
}

import { Decimal } from 'decimal.js';
import { formatDecimal } from './money.js';
import { exact } from './rounding.js';

/**
 * A table use's checkout (会計): what its orders charge. The items that were not canceled become
 * the lines of one sale; each topping or course item with a price becomes a line of its own
 * (quantity: per parent item, times the item's quantity). Pure: the caller reads the items and
 * the menus' products and registers the sale through the one transaction registration.
 */

/** How an order item's amount carries tax (orders' `taxation`) → the sale line's taxDivision. */
export const TAX_DIVISION_OF = { included: '0', excluded: '1', none: '2' } as const;
export type Taxation = keyof typeof TAX_DIVISION_OF;

/** The longest product name a sale line takes (spec 2.13). */
export const LINE_NAME_MAX = 85;

export interface CheckoutSubItem {
  menuId: string | null;
  name: string;
  quantity: number;
  amount: string;
}

export interface CheckoutItem {
  status: 'waiting' | 'provided' | 'canceled';
  name: string;
  quantity: number;
  /** Unit selling price, exact decimal. */
  amount: string;
  taxRate: string;
  taxation: Taxation;
  /** The whole item's discount (orders' discount amount), or null. */
  discountAmount: string | null;
  categoryId: number | null;
  /** The POS product the item's menu sells, or null (sold by name). */
  productId: number | null;
  toppings: readonly CheckoutSubItem[];
  courseItems: readonly CheckoutSubItem[];
}

/** One line of the sale, as POST /transactions takes it (strings, spec 2.13). */
export interface CheckoutLine {
  transactionDetailId: string;
  transactionDetailDivision: '1';
  productId?: string;
  productName: string;
  taxDivision: string;
  salesPrice: string;
  unitDiscountPrice?: string;
  quantity: string;
  categoryId?: string;
  taxRate: string;
}

const charged = (items: readonly CheckoutItem[]) => items.filter((i) => i.status !== 'canceled');

const lineName = (name: string) => [...name].slice(0, LINE_NAME_MAX).join('');

/**
 * The sale's lines, in order. A discount that divides evenly over the quantity is the line's
 * unitDiscountPrice; one that does not (¥100 off three) is a line of its own at minus the amount,
 * so the sale's total is exactly what the orders charge. A line with a product takes its
 * category from the product (the registration refuses a category that differs from it).
 */
export function checkoutLines(items: readonly CheckoutItem[], productIdOfMenu: (menuId: string) => number | null): CheckoutLine[] {
  const lines: CheckoutLine[] = [];
  const push = (line: Omit<CheckoutLine, 'transactionDetailId' | 'transactionDetailDivision'>) =>
    lines.push({ transactionDetailId: String(lines.length + 1), transactionDetailDivision: '1', ...line });
  for (const item of charged(items)) {
    const common = { taxDivision: TAX_DIVISION_OF[item.taxation], taxRate: item.taxRate };
    const product = item.productId === null ? {} : { productId: String(item.productId) };
    const category = item.productId === null && item.categoryId !== null ? { categoryId: String(item.categoryId) } : {};
    const discount = item.discountAmount === null ? exact(0) : exact(item.discountAmount);
    const perUnit = discount.dividedBy(item.quantity);
    const even = perUnit.decimalPlaces() <= 3;
    push({
      ...product,
      productName: lineName(item.name),
      ...common,
      salesPrice: formatDecimal(item.amount),
      ...(discount.isZero() || !even ? {} : { unitDiscountPrice: formatDecimal(perUnit) }),
      quantity: String(item.quantity),
      ...category,
    });
    if (!discount.isZero() && !even) {
      push({ productName: lineName(`値引 ${item.name}`), ...common, salesPrice: formatDecimal(discount.negated()), quantity: '1', ...category });
    }
    for (const sub of [...item.toppings, ...item.courseItems]) {
      if (exact(sub.amount).isZero()) continue;
      const subProduct = sub.menuId === null ? null : productIdOfMenu(sub.menuId);
      push({
        ...(subProduct === null ? {} : { productId: String(subProduct) }),
        productName: lineName(sub.name),
        ...common,
        salesPrice: formatDecimal(sub.amount),
        quantity: String(sub.quantity * item.quantity),
      });
    }
  }
  return lines;
}

/** One line's amount after its discount; tax added on top for a tax-excluded line (rounded down to the yen). */
function taxIncluded(amount: Decimal, taxation: Taxation, taxRate: string): Decimal {
  if (taxation !== 'excluded') return amount;
  return amount.plus(amount.times(exact(taxRate)).dividedBy(100).toDecimalPlaces(0, Decimal.ROUND_DOWN));
}

/**
 * The platform's TableUse figures: `quantity` (合計注文点数), the items ordered and not canceled,
 * and `totalPrice` (合計金額, tax included): each item and its priced toppings and course items
 * after the item's discount, tax added to tax-excluded lines.
 */
export function tableUseTotals(items: readonly CheckoutItem[]): { quantity: number; totalPrice: string } {
  let quantity = 0;
  let total = exact(0);
  for (const item of charged(items)) {
    quantity += item.quantity;
    const discount = item.discountAmount === null ? exact(0) : exact(item.discountAmount);
    total = total.plus(taxIncluded(exact(item.amount).times(item.quantity).minus(discount), item.taxation, item.taxRate));
    for (const sub of [...item.toppings, ...item.courseItems]) {
      total = total.plus(taxIncluded(exact(sub.amount).times(sub.quantity * item.quantity), item.taxation, item.taxRate));
    }
  }
  return { quantity, totalPrice: formatDecimal(total) };
}

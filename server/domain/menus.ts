/** Pure rules of menus and their sale condition (no HTTP, no SQL). */
export const MENU_TYPES = ['normal', 'plan', 'course'] as const;
export type MenuType = (typeof MENU_TYPES)[number];

/** Spec 4.6: only standard courses have a listed sale condition; simple ones are unsupported. */
export const COURSE_DIVISIONS = ['standard', 'simple'] as const;
export type CourseDivision = (typeof COURSE_DIVISIONS)[number];

/** Spec 2.5: orderable (sellable) or soldout (sold out). */
export const CONDITIONS = ['orderable', 'soldout'] as const;
export type Condition = (typeof CONDITIONS)[number];

/** Null when the pair is consistent: every course has a division, no other menu has one. */
export function courseDivisionError(menuType: MenuType, courseDivision: CourseDivision | null): string | null {
  if (menuType === 'course' && courseDivision === null) return 'is required for a course menu (standard or simple)';
  if (menuType !== 'course' && courseDivision !== null) return `only course menus have a course division; this menu is ${menuType}`;
  return null;
}

export interface SaleCondition {
  condition: Condition;
  /** Remaining quantity; null when not counted. */
  quantity: number | null;
}

export interface ConditionChange {
  condition?: Condition;
  quantity?: number | null;
}

export type ConditionOutcome =
  | { ok: true; next: SaleCondition; changed: boolean }
  | { ok: false; field: 'condition'; message: string };

/**
 * Applies a change to a sale condition. Keys not sent are kept. Setting the quantity to 0
 * without naming a condition makes the menu soldout (nothing is left to sell); a menu with
 * 0 left can never be orderable, so asking for that is refused. Raising the quantity does
 * not make a soldout menu orderable by itself: staff may have stopped it for another reason.
 */
export function applyConditionChange(current: SaleCondition, change: ConditionChange, noun: 'menu' | 'topping' = 'menu'): ConditionOutcome {
  const quantity = change.quantity === undefined ? current.quantity : change.quantity;
  let condition = change.condition ?? current.condition;
  if (change.condition === undefined && change.quantity === 0) condition = 'soldout';
  if (condition === 'orderable' && quantity === 0) {
    return { ok: false, field: 'condition', message: `a ${noun} with quantity 0 cannot be orderable; send a quantity above 0 or null with it` };
  }
  const changed = condition !== current.condition || quantity !== current.quantity;
  return { ok: true, next: { condition, quantity }, changed };
}

/** Why an order may not take `wanted` more units of a menu; the item field it names. */
export interface StockRefusal {
  field: 'menuId' | 'quantity';
  message: string;
}

/**
 * Issue 10: a menu that is soldout, or has 0 left, takes no order; a counted menu takes at
 * most its remaining quantity. `wanted` is the running total of the order for this menu (two
 * items of the same menu count together).
 */
export function stockRefusal(menuId: string, current: SaleCondition, wanted: number, noun: 'menu' | 'topping' = 'menu'): StockRefusal | null {
  if (current.condition === 'soldout' || current.quantity === 0) return { field: 'menuId', message: `${noun} ${menuId} is sold out` };
  if (current.quantity !== null && wanted > current.quantity) {
    return { field: 'quantity', message: `${noun} ${menuId} has only ${current.quantity} left; this order asks for ${wanted}` };
  }
  return null;
}

/**
 * The sale condition after an accepted order took `count` units: a counted menu goes down and
 * is soldout at 0; an uncounted one (quantity null) does not change.
 */
export function afterOrder(current: SaleCondition, count: number): { next: SaleCondition; changed: boolean } {
  if (current.quantity === null || count === 0) return { next: current, changed: false };
  const quantity = Math.max(0, current.quantity - count);
  return { next: { condition: quantity === 0 ? 'soldout' : current.condition, quantity }, changed: true };
}

/**
 * The sale condition after a canceled item gave `count` units back. An uncounted menu does not
 * change. A menu that had run out (soldout at 0) is orderable again once something is back;
 * a menu staff made soldout with units still left stays soldout (they stopped it for another reason).
 */
export function afterCancel(current: SaleCondition, count: number): { next: SaleCondition; changed: boolean } {
  if (current.quantity === null || count === 0) return { next: current, changed: false };
  const quantity = current.quantity + count;
  const ranOut = current.condition === 'soldout' && current.quantity === 0;
  return { next: { condition: ranOut ? 'orderable' : current.condition, quantity }, changed: true };
}

import type { CommonKey } from '../../i18n/ja';

/**
 * The master kinds, one sub-route each (`#/masters/<kind>`), in the order the sub-nav lists them.
 * `label` is a common key (i18n/ja.ts) so the nav and other screens can name a master too.
 */
export const MASTER_KINDS = [
  { kind: 'categories', label: 'masters.categories' },
  { kind: 'customer-groups', label: 'masters.customerGroups' },
  { kind: 'staffs', label: 'masters.staffs' },
  { kind: 'staff-ranks', label: 'masters.staffRanks' },
  { kind: 'products', label: 'masters.products' },
  { kind: 'product-labels', label: 'masters.productLabels' },
  { kind: 'terminals', label: 'masters.terminals' },
  { kind: 'menus', label: 'masters.menus' },
  { kind: 'menu-conditions', label: 'masters.menuConditions' },
  { kind: 'topping-groups', label: 'masters.toppingGroups' },
  { kind: 'payment-methods', label: 'masters.paymentMethods' },
  { kind: 'payment-method-groups', label: 'masters.paymentMethodGroups' },
  { kind: 'coupons', label: 'masters.coupons' }, // issue 26
  // Receipt provisos and staff roles (issue 26, masters-tax).
  { kind: 'receipt-provisos', label: 'masters.receiptProvisos' },
  { kind: 'roles', label: 'masters.roles' },
] as const satisfies ReadonlyArray<{ kind: string; label: CommonKey }>;

export type MasterKind = (typeof MASTER_KINDS)[number]['kind'];

export const isMasterKind = (value: string | undefined): value is MasterKind => MASTER_KINDS.some((k) => k.kind === value);

import type { MasterKind } from '../kinds';
import type { MasterSpec } from '../spec';
import { customerGroups, staffRanks, staffs } from './people';
import { categories, productLabels, products } from './products';
import { menuConditions, menus, toppingGroups } from './restaurant';
import { paymentMethodGroups, paymentMethods, terminals } from './stores';
// Coupons (issue 26)
import { coupons } from './coupons';
// Receipt provisos and staff roles (issue 26, masters-tax)
import { receiptProvisos, roles } from './settings';

/** Every kind's description, by the kind's route name (kinds.ts lists them in nav order). */
export const SPECS: Readonly<Record<MasterKind, MasterSpec>> = {
  categories,
  'customer-groups': customerGroups,
  staffs,
  'staff-ranks': staffRanks,
  products,
  'product-labels': productLabels,
  terminals,
  menus,
  'menu-conditions': menuConditions,
  'topping-groups': toppingGroups,
  'payment-methods': paymentMethods,
  'payment-method-groups': paymentMethodGroups,
  coupons, // issue 26
  'receipt-provisos': receiptProvisos, // issue 26, masters-tax
  roles, // issue 26, masters-tax
};

import type { ZodApp } from '../../platform/http/answers.js';
import { registerSaleConditionRoutes } from '../conditions/routes.js';
import { menuConditions } from './condition-schema.js';
import type { MenuRepo } from './repo.js';

/** Spec 4.6 and the write that sets a menu's sale condition; registered by menus/routes.ts. */
export function registerConditionRoutes(app: ZodApp, menus: MenuRepo): void {
  const source = {
    assertStoreOpen: menus.assertStoreOpen.bind(menus),
    list: menus.listConditions.bind(menus),
    set: menus.setCondition.bind(menus),
  };
  registerSaleConditionRoutes(app, 'menu', menuConditions, source, {
    tag: 'menu conditions',
    list: {
      summary: 'List the sale condition and remaining quantity of the menus of a store (spec 4.6)',
      description:
        'Simple courses are never listed. 404 when the store does not exist, 400 when it is suspended. ' +
        'An order lowers a counted quantity (soldout at 0) and a canceled order item gives it back; ' +
        'both move the change time that updated_from reads.',
    },
    put: {
      summary: "Set a menu's sale condition and remaining quantity (keys not sent are kept)",
      description: 'quantity null means not counted; quantity 0 without a condition makes the menu soldout.',
    },
  });
}

import type { AppDeps } from '../deps.js';
import { MenuRepo } from '../restaurant/menus/repo.js';
import type { CreateMenu } from '../restaurant/menus/schema.js';
import { ToppingGroupRepo } from '../restaurant/topping-groups/repo.js';
import type { CreateToppingGroup } from '../restaurant/topping-groups/schema.js';
import type { DemoContext } from './context.js';

type DemoMenu = Omit<CreateMenu, 'storeId' | 'categoryId'> & {
  /** Category code of FOOD_CATEGORIES in demo.ts. */
  category: string;
  /** A sale condition other than the new menu's (orderable, not counted). */
  condition?: { condition?: 'orderable' | 'soldout'; quantity?: number | null };
};

/** A bistro's menu: every menu type, both course divisions, one soldout, one counted. */
const MENUS: DemoMenu[] = [
  { menuName: 'Espresso', menuType: 'normal', category: 'DRK-COF', price: '400' },
  { menuName: 'Cafe latte', menuType: 'normal', category: 'DRK-COF', price: '550' },
  { menuName: 'Draft beer', menuType: 'normal', category: 'DRK-ALC', price: '600' },
  { menuName: 'House wine (glass)', menuType: 'normal', category: 'DRK-ALC', price: '700' },
  { menuName: 'All-you-can-drink 90 min', menuType: 'plan', category: 'DRK', price: '1800' },
  { menuName: 'Carbonara', menuType: 'normal', category: 'FOD-PST', price: '1200', condition: { quantity: 8 } },
  { menuName: 'Pescatore', menuType: 'normal', category: 'FOD-PST', price: '1500', condition: { condition: 'soldout' } },
  { menuName: 'Aglio e olio', menuType: 'normal', category: 'FOD-PST', price: '980' },
  { menuName: 'Tiramisu', menuType: 'normal', category: 'FOD-DST', price: '600' },
  { menuName: 'Panna cotta', menuType: 'normal', category: 'FOD-DST', price: '550' },
  { menuName: 'Dinner course', menuType: 'course', courseDivision: 'standard', category: 'FOD', price: '5000' },
  { menuName: 'Quick lunch course', menuType: 'course', courseDivision: 'simple', category: 'FOD', price: '1800' },
];

const TOPPING_GROUPS: CreateToppingGroup[] = [
  { name: 'Pasta toppings', rule: { condition: 'all', max: 3, min: 0 } },
  { name: 'Sauces', rule: null },
  { name: 'Course choices', rule: { condition: 'category', max: 1, min: 1 } },
];

/**
 * Menus with their sale conditions and topping groups for the main store of a Food Business
 * contract; other plans get none (restaurant data). Runs inside the seed's transaction.
 */
export function seedMenus(deps: AppDeps, ctx: DemoContext): Record<string, number> {
  if (ctx.plan !== 'food_business') return { menus: 0, toppingGroups: 0 };
  const menus = new MenuRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const groups = new ToppingGroupRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const [mainStore] = ctx.storeIds;
  return deps.writer.write(() => {
    for (const { category, condition, ...input } of MENUS) {
      const categoryId = ctx.categoryIds[category];
      const row = menus.create(ctx.contractId, { ...input, storeId: mainStore, ...(categoryId ? { categoryId } : {}) });
      if (condition) menus.setCondition(ctx.contractId, mainStore, String(row.menu_id), condition);
    }
    for (const group of TOPPING_GROUPS) groups.create(ctx.contractId, group);
    return { menus: MENUS.length, toppingGroups: TOPPING_GROUPS.length };
  });
}

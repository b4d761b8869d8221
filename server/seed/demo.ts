import type { AppDeps } from '../deps.js';
import type { Plan } from '../domain/plans.js';
import { CategoryRepo } from '../masters/categories/repo.js';
import type { CreateCategory } from '../masters/categories/schema.js';
import { CustomerGroupRepo, CustomerGroupSectionRepo } from '../masters/customer-groups/repo.js';
import { StoreRepo } from '../masters/stores/repo.js';
import type { DemoContext } from './context.js';
import { seedFloor } from './demo-floor.js';
import { seedMenus } from './demo-menus.js';
import { seedProducts } from './demo-products.js';
import { seedStaff } from './demo-staff.js';
import { seedTerminals } from './demo-terminals.js';
import { seedSalesMasters } from './sales-masters.js';
import { seedSales } from './sales.js';

/** What `seed` added (or found) for one contract. */
export interface SeedResult {
  contractId: string;
  seeded: boolean;
  stores: string[];
  categories: number;
  customerGroups: number;
  /** What each resource of issue 3 added, by name (staffs, menus, terminals, …). */
  [counts: string]: unknown;
}

/** In this order: the floor's demo order names the demo menus and staff. */
const RESOURCE_SEEDS = [seedStaff, seedSalesMasters, seedProducts, seedMenus, seedTerminals, seedFloor, seedSales];

const DEMO_STORE_CODE = 'DEMO-01';

type CategoryTree = [CreateCategory, CategoryTree?][];

/** Three levels deep where the shop has them, so level and parent rules have something to show. */
const RETAIL_CATEGORIES: CategoryTree = [
  [{ categoryName: 'Apparel', categoryCode: 'APP', displaySequence: '1', color: '#3366CC' }, [
    [{ categoryName: 'Tops', categoryCode: 'APP-TOP' }, [
      [{ categoryName: 'T-shirts', categoryCode: 'APP-TOP-TEE' }],
      [{ categoryName: 'Shirts', categoryCode: 'APP-TOP-SHIRT' }],
    ]],
    [{ categoryName: 'Bottoms', categoryCode: 'APP-BTM' }],
  ]],
  [{ categoryName: 'Accessories', categoryCode: 'ACC', displaySequence: '2', taxFreeDivision: '1' }],
  [{ categoryName: 'Snacks', categoryCode: 'SNK', displaySequence: '3', reduceTaxId: '10000001', taxFreeDivision: '2' }],
];

const FOOD_CATEGORIES: CategoryTree = [
  [{ categoryName: 'Drinks', categoryCode: 'DRK', displaySequence: '1', color: '#CC6633' }, [
    [{ categoryName: 'Coffee', categoryCode: 'DRK-COF' }],
    [{ categoryName: 'Alcohol', categoryCode: 'DRK-ALC', pointNotApplicable: '1' }],
  ]],
  [{ categoryName: 'Food', categoryCode: 'FOD', displaySequence: '2', reduceTaxId: '10000004' }, [
    [{ categoryName: 'Pasta', categoryCode: 'FOD-PST' }],
    [{ categoryName: 'Desserts', categoryCode: 'FOD-DST' }],
  ]],
];

/** Section 1 exists on every contract; the demo adds an age section. */
const CUSTOMER_GROUPS: [sectionId: number, sectionLabel: string, labels: string[]][] = [
  [1, 'Customer group', ['Men', 'Women', 'Family']],
  [2, 'Age group', ['Under 20', '20s', '30s', '40s', '50 and over']],
];

/**
 * Adds the demo data to an existing contract, in one transaction. Running it again adds
 * nothing: the demo store's code marks a contract as seeded.
 */
export function seedDemo(deps: AppDeps, contractId: string, plan: Plan): SeedResult {
  const stores = new StoreRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const categories = new CategoryRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const sections = new CustomerGroupSectionRepo(deps.db, deps.writer, deps.clock);
  const groups = new CustomerGroupRepo(deps.db, deps.writer, deps.ids, deps.clock);

  return deps.writer.write(() => {
    const existing = stores.findByCode(contractId, DEMO_STORE_CODE);
    if (existing) return { contractId, seeded: false, stores: [String(existing.store_id)], categories: 0, customerGroups: 0 };

    const food = plan === 'food_business';
    // The second retail store is a warehouse (division 2); the main store prints a receipt header and footer.
    const main = stores.create(contractId, {
      storeName: food ? 'Demo Bistro Shibuya' : 'Demo Store Shibuya',
      storeAbbr: 'Shibuya',
      storeCode: DEMO_STORE_CODE,
      receiptPrintInfo: { header: food ? 'Demo Bistro Shibuya' : 'Demo Store Shibuya', footer: 'Thank you for your visit' },
    });
    const second = stores.create(
      contractId,
      food
        ? { storeName: 'Demo Bistro Kichijoji', storeAbbr: 'Kichijoji', storeCode: 'DEMO-02' }
        : { storeName: 'Demo Warehouse Kawasaki', storeAbbr: 'Kawasaki', storeCode: 'DEMO-WH', division: '2' },
    );

    let categoryCount = 0;
    const categoryIds: Record<string, string> = {};
    const addTree = (tree: CategoryTree, parentCategoryId?: string) => {
      for (const [input, children] of tree) {
        const row = categories.create(contractId, { ...input, ...(parentCategoryId ? { parentCategoryId } : {}) });
        if (input.categoryCode) categoryIds[input.categoryCode] = String(row.category_id);
        categoryCount++;
        if (children) addTree(children, String(row.category_id));
      }
    };
    addTree(food ? FOOD_CATEGORIES : RETAIL_CATEGORIES);

    let groupCount = 0;
    for (const [sectionId, sectionLabel, labels] of CUSTOMER_GROUPS) {
      sections.put(contractId, sectionId, sectionLabel);
      labels.forEach((label, i) => {
        groups.create(contractId, { customerGroupSectionId: String(sectionId), label, displaySequence: String(i + 1) });
        groupCount++;
      });
    }
    const context: DemoContext = { contractId, plan, storeIds: [String(main.store_id), String(second.store_id)], categoryIds };
    const counts = Object.assign({}, ...RESOURCE_SEEDS.map((seed) => seed(deps, context))) as Record<string, number>;
    return { contractId, seeded: true, stores: context.storeIds, categories: categoryCount, customerGroups: groupCount, ...counts };
  });
}

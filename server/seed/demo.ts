import type { AppDeps } from '../deps.js';
import type { Plan } from '../domain/plans.js';
import { StoreRepo } from '../resources/stores/repo.js';

/** What `seed` adds, per plan: enough for every endpoint of the contract to show something. */
export interface SeedResult {
  contractId: string;
  seeded: boolean;
  stores: string[];
}

const DEMO_STORE_CODE = 'DEMO-01';

/**
 * Adds the demo data to an existing contract. Running it again adds nothing: the demo
 * store's code marks a contract as seeded.
 */
export function seedDemo(deps: AppDeps, contractId: string, plan: Plan): SeedResult {
  const stores = new StoreRepo(deps.db, deps.writer, deps.ids, deps.clock);
  return deps.writer.write(() => {
    const existing = stores.findByCode(contractId, DEMO_STORE_CODE);
    if (existing) return { contractId, seeded: false, stores: [String(existing.store_id)] };

    const food = plan === 'food_business';
    const main = stores.create(contractId, { storeName: food ? 'Demo Bistro Shibuya' : 'Demo Store Shibuya', storeCode: DEMO_STORE_CODE });
    const second = stores.create(contractId, food
      ? { storeName: 'Demo Bistro Kichijoji', storeCode: 'DEMO-02' }
      : { storeName: 'Demo Warehouse Kawasaki', storeCode: 'DEMO-WH', division: '1' });
    return { contractId, seeded: true, stores: [String(main.store_id), String(second.store_id)] };
  });
}

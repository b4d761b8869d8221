import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { NotFoundError } from '../../domain/errors.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { answers, type ZodApp } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { id } from '../../platform/http/fields.js';
import { pagedQuery } from '../../platform/http/list-schemas.js';
import { RESTAURANT_PAGE } from '../../platform/http/paging.js';
import { ToppingGroupRepo } from '../topping-groups/repo.js';
import { presentToppingGroup, TOPPING_GROUP_SORT, toppingGroup } from '../topping-groups/schema.js';
import { ToppingRepo } from './repo.js';
import { presentTopping, topping } from './schema.js';

/**
 * 店舗のトッピンググループ一覧取得 / 取得 (GET /stores/{store_id}/topping_groups[/{topping_group_id}]):
 * the topping groups a store offers, each with its toppings (id, name, categoryId, prices). This
 * server's topping groups are the contract's, offered by every store, so the store only has to exist.
 */
const storeTopping = topping.pick({ id: true, name: true, categoryId: true, prices: true });
export const storeToppingGroup = toppingGroup.extend({ toppings: z.array(storeTopping) }).meta({ id: 'StoreToppingGroup' });

const storeParams = z.object({ store_id: id() });
const groupParams = z.object({ store_id: id(), topping_group_id: id() });
const listQuery = pagedQuery({}, TOPPING_GROUP_SORT, RESTAURANT_PAGE);

export function registerStoreToppingGroups(app: ZodApp, deps: AppDeps): void {
  const stores = new StoreRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const groups = new ToppingGroupRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const toppings = new ToppingRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const assertStore = (contractId: string, storeId: string) => {
    if (!stores.find(contractId, storeId)) throw NotFoundError.field('store_id', `store ${storeId} does not exist`);
  };
  const withToppings = (contractId: string, zone: string) => (row: Parameters<typeof presentToppingGroup>[0]) => ({
    ...presentToppingGroup(row),
    toppings: toppings.membersOf(contractId, row.topping_group_id).map((t) => {
      const { id: toppingId, name, categoryId, prices } = presentTopping(t, zone);
      return { id: toppingId, name, categoryId, prices };
    }),
  });
  const route = apiRoutes(app, ['toppings']);

  route.get(
    '/stores/:store_id/topping_groups',
    'waiter.menus:read',
    { summary: "A store's topping groups with their toppings", params: storeParams, querystring: listQuery, response: answers.listOf(storeToppingGroup) },
    ({ contract, params, query, page }) => {
      assertStore(contract.contractId, params.store_id);
      return page(groups.list(contract.contractId, query), withToppings(contract.contractId, contract.timeZone));
    },
  );

  route.get(
    '/stores/:store_id/topping_groups/:topping_group_id',
    'waiter.menus:read',
    { summary: "A store's topping group with its toppings", params: groupParams, response: answers.found(storeToppingGroup) },
    ({ contract, params }) => {
      assertStore(contract.contractId, params.store_id);
      return withToppings(contract.contractId, contract.timeZone)(groups.get(contract.contractId, params.topping_group_id));
    },
  );
}

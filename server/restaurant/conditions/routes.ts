import type { z } from 'zod';
import { answers, type ZodApp } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { putConditionBody, saleConditionSchemas, type PutCondition } from './schema.js';

type Schemas<N extends string> = ReturnType<typeof saleConditionSchemas<N, string, z.ZodRawShape>>;
type Row<N extends string> = Parameters<Schemas<N>['present']>[0];

/** Where one kind of record's sale conditions are kept (menus/repo.ts, toppings/conditions.ts). */
export interface SaleConditionSource<N extends string, Q> {
  /** 404 when the store does not exist, 400 when it is suspended. */
  assertStoreOpen(contractId: string, storeId: string): void;
  list(contractId: string, storeId: string, query: Q): Row<N>[];
  set(contractId: string, storeId: string, id: string, change: PutCondition): Row<N>;
}

/** What the two routes say of themselves. */
interface Texts {
  summary: string;
  description: string;
}

/**
 * The list of a store's sale conditions of one kind (GET /<noun>_conditions/stores/{store_id}) and
 * the supporting write that sets one (PUT .../<noun>s/{<noun>_id}): the same two routes for menus
 * and toppings, named by the noun.
 */
export function registerSaleConditionRoutes<const N extends string, S extends Schemas<N>>(
  app: ZodApp,
  noun: N,
  schemas: S,
  source: SaleConditionSource<N, z.output<S['listQuery']>>,
  texts: { tag: string; list: Texts; put: Texts },
): void {
  const route = apiRoutes(app, [texts.tag]);
  const idParam = `${noun}_id` as `${N}_id`;

  route.get(
    `/${noun}_conditions/stores/:store_id`,
    'waiter.menus:read',
    { ...texts.list, params: schemas.storeParams, querystring: schemas.listQuery as S['listQuery'], response: answers.listOf(schemas.item) },
    ({ contract, params, query, page }) => {
      source.assertStoreOpen(contract.contractId, params.store_id);
      return page(source.list(contract.contractId, params.store_id, query), schemas.present);
    },
  );

  route.put(
    `/${noun}_conditions/stores/:store_id/${noun}s/:${idParam}`,
    'pos.products:write',
    { ...texts.put, params: schemas.itemParams, body: putConditionBody, response: answers.found(schemas.item) },
    ({ contract, params, body }) => {
      // The generic noun hides the parsed keys' names from zod's types: store_id and <noun>_id.
      const keys = params as Record<string, string>;
      return schemas.present(source.set(contract.contractId, keys.store_id!, keys[idParam]!, body));
    },
  );
}

import { useMemo } from 'react';
import { call, useApi } from '../api/client';
import type { ProblemView } from '../api/problem';
import type { components } from '../api/schema';
import { useLoad, type Loaded } from './load';
import { readAllPages } from './paging';

export type Store = components['schemas']['Store'];

/** A contract has a few stores: 1000 a page, every page followed all the same (bounded). */
const PAGE = '1000';
const MAX_PAGES = 100;

/** The contract's stores in the API's order; nothing is asked while `enabled` is false (a plan without the screen). */
export function useStores(enabled = true): Loaded<Store[]> {
  const { api, contract } = useApi();
  return useLoad(enabled ? contract.contract_id : null, () =>
    readAllPages((page) => call(api.GET('/{contract_id}/pos/stores', { params: { path: contract, query: { limit: PAGE, page: String(page) } } })), { maxPages: MAX_PAGES }),
  );
}

/** Normal stores first, then warehouses, each by id: the order a store picker offers. */
export const pickerOrder = (stores: readonly Store[]): Store[] =>
  [...stores].sort((a, b) => Number(a.division) - Number(b.division) || Number(a.storeId) - Number(b.storeId));

/** The store a screen shows: the one in the URL if it exists, else the first normal store. */
export function pickStore(stores: readonly Store[] | null, wanted: string | null): Store | null {
  if (!stores?.length) return null;
  return stores.find((s) => s.storeId === wanted) ?? stores.find((s) => s.division === '1') ?? stores[0]!;
}

/** The stores a picker offers, in its order (null while loading, [] when they could not be read), and why not. */
export function useStoreChoices(): { stores: Store[] | null; problem: ProblemView | null } {
  const loaded = useStores();
  return useMemo(() => {
    if (loaded.state === 'loading') return { stores: null, problem: null };
    if (loaded.state === 'error') return { stores: [], problem: loaded.problem };
    return { stores: pickerOrder(loaded.data), problem: null };
  }, [loaded]);
}

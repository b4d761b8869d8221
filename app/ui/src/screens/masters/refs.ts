import { useEffect, useState } from 'react';
import { call, useApi, type Api } from '../../api/client';
import type { RefKind } from './spec';

/**
 * The other masters a form picks from (a product's category, a menu's store) and a list names
 * (the category's name instead of its id). One typed call each; the first page of up to 1000
 * (restaurant lists: 100) is enough for a shop's pick lists.
 */
export interface RefOption {
  value: string;
  label: string;
}
export type RefOptions = Partial<Record<RefKind, RefOption[]>>;

const named = (id: string, name: string | null | undefined) => (name ? `${name} (${id})` : id);
const ALL = { limit: '1000' };

async function loadRef(api: Api, contract: { contract_id: string }, ref: RefKind, scope: Record<string, string>): Promise<RefOption[]> {
  const path = { params: { path: contract } };
  switch (ref) {
    case 'stores': {
      const r = await call(api.GET('/{contract_id}/pos/stores', { params: { path: contract, query: ALL } }));
      return r.ok ? r.data.map((s) => ({ value: s.storeId ?? '', label: named(s.storeId ?? '', s.storeName) })) : [];
    }
    case 'categories': {
      const r = await call(api.GET('/{contract_id}/pos/categories', { params: { path: contract, query: { ...ALL, fields: 'categoryId,categoryName' } } }));
      return r.ok ? r.data.map((c) => ({ value: c.categoryId ?? '', label: named(c.categoryId ?? '', c.categoryName) })) : [];
    }
    case 'paymentMethodGroups': {
      const r = await call(api.GET('/{contract_id}/pos/payment_method_groups', { params: { path: contract, query: ALL } }));
      return r.ok ? r.data.map((g) => ({ value: g.paymentMethodGroupId, label: named(g.paymentMethodGroupId, g.paymentMethodGroupName) })) : [];
    }
    case 'customerGroupSections': {
      const r = await call(api.GET('/{contract_id}/pos/customer_group_sections', path));
      return r.ok ? r.data.map((s) => ({ value: s.customerGroupSectionId, label: named(s.customerGroupSectionId, s.customerGroupSectionLabel) })) : [];
    }
    case 'cashDrawers': {
      const r = await call(api.GET('/{contract_id}/pos/cash_drawers', { params: { path: contract, query: ALL } }));
      return r.ok ? r.data.map((d) => ({ value: d.cashDrawerId, label: named(d.cashDrawerId, d.cashDrawerName) })) : [];
    }
    case 'productLabels': {
      const r = await call(api.GET('/{contract_id}/pos/products/reserve_item_labels', path));
      return r.ok ? r.data.map((l) => ({ value: l.no, label: l.label })) : [];
    }
    case 'menus': {
      const query = { limit: '100', ...(scope.store_id ? { store_id: scope.store_id } : {}) };
      const r = await call(api.GET('/{contract_id}/waiter/menus', { params: { path: contract, query } }));
      return r.ok ? r.data.map((m) => ({ value: m.menuId, label: named(m.menuId, m.menuName) })) : [];
    }
  }
}

/** Loads the refs a screen needs (once per set of refs and scope); an unreachable list leaves plain ids. */
export function useRefs(refs: readonly RefKind[], scope: Record<string, string> = {}): RefOptions {
  const { api, contract } = useApi();
  const [options, setOptions] = useState<RefOptions>({});
  const key = `${[...new Set(refs)].sort().join(',')}|${JSON.stringify(scope)}`;
  useEffect(() => {
    let live = true;
    const wanted = [...new Set(refs)];
    void Promise.all(wanted.map(async (ref) => [ref, await loadRef(api, contract, ref, scope)] as const)).then((pairs) => {
      if (live) setOptions(Object.fromEntries(pairs));
    });
    return () => {
      live = false;
    };
    // `key` stands for refs and scope (new arrays on every render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, contract, key]);
  return options;
}

/** `Drinks (8001)` for a ref'd id; the id itself when the list did not have it. */
export const refLabel = (options: RefOptions, ref: RefKind, value: string) => options[ref]?.find((o) => o.value === value)?.label ?? value;

import { useMemo } from 'react';
import { call, useApi, type Result } from '../../api/client';
import type { components } from '../../api/schema';
import type { Choice } from '../../components/FilterBar';
import { useSession } from '../../session';
import { useLoad, type Loaded } from '../../shared/load';
import { readAllPages } from '../../shared/paging';
import type { Store } from '../../shared/stores';

export type Product = components['schemas']['Product'];
export type Supplier = components['schemas']['Supplier'];

/** Inventory (shipping, shipments, purchase orders, stock) is a Retail Business feature: every route is 403 on other plans. */
export const INVENTORY_PLAN = 'retail_business';

export const useInventoryAllowed = () => useSession().session?.plan === INVENTORY_PLAN;

/** Every page of a reference list (stores, products, suppliers) at 1000 a page; stops after 10. */
const allPages = <T,>(fetchPage: (page: number) => Promise<Result<T[]>>) => readAllPages(fetchPage, { maxPages: 10 });

export interface Refs {
  stores: Store[];
  products: Product[];
  suppliers: Supplier[];
  storeName(id: string | null | undefined): string;
  product(id: string | null | undefined): Product | undefined;
  /** `RT-TEE-WH Basic Tee White`, or the id when the product is unknown. */
  productLabel(id: string | null | undefined): string;
  supplierName(id: string | null | undefined): string;
  /** The stores and the suppliers as a select's choices (names shown, ids sent). */
  storeChoices: Choice[];
  supplierChoices: Choice[];
  /** A product id typed as its id or its code → the id (anything else as typed, for the API to refuse on its field). */
  resolveProduct(typed: string): string;
}

const PAGE = '1000';

/**
 * The masters the inventory screens name by id: stores, products and (when asked) suppliers,
 * loaded once per screen. Tables show names instead of ids; forms offer them as choices.
 */
export function useRefs(options: { suppliers?: boolean } = {}): Loaded<Refs> {
  const { api, contract } = useApi();
  const allowed = useInventoryAllowed();
  const wantSuppliers = !!options.suppliers;
  const loaded = useLoad<[Store[], Product[], Supplier[]]>(allowed ? `${contract.contract_id}:${wantSuppliers}` : null, async () => {
    const path = { params: { path: contract } };
    const [stores, products, suppliers] = await Promise.all([
      allPages((page) => call(api.GET('/{contract_id}/pos/stores', { params: { ...path.params, query: { limit: PAGE, page: String(page) } } }))),
      allPages((page) => call(api.GET('/{contract_id}/pos/products', { params: { ...path.params, query: { limit: PAGE, page: String(page), sort: 'productCode' } } }))),
      wantSuppliers
        ? allPages((page) => call(api.GET('/{contract_id}/pos/suppliers', { params: { ...path.params, query: { limit: PAGE, page: String(page) } } })))
        : Promise.resolve<Result<Supplier[]>>({ ok: true, data: [], response: new Response() }),
    ]);
    for (const r of [stores, products, suppliers]) if (!r.ok) return r;
    return { ok: true, response: new Response(), data: [stores.ok ? stores.data : [], products.ok ? products.data : [], suppliers.ok ? (suppliers.data as Supplier[]) : []] };
  });
  return useMemo(() => {
    if (loaded.state !== 'done') return loaded;
    const [stores, products, suppliers] = loaded.data;
    const storeById = new Map(stores.map((s) => [s.storeId, s]));
    const productById = new Map(products.map((p) => [p.productId, p]));
    const productByCode = new Map(products.map((p) => [p.productCode, p]));
    const supplierById = new Map(suppliers.map((s) => [s.supplierId, s]));
    const refs: Refs = {
      stores,
      products,
      suppliers,
      storeName: (id) => (id ? (storeById.get(id)?.storeName ?? id) : ''),
      product: (id) => (id ? productById.get(id) : undefined),
      productLabel: (id) => {
        const p = id ? productById.get(id) : undefined;
        return p ? `${p.productCode} ${p.productName}` : (id ?? '');
      },
      supplierName: (id) => (id ? (supplierById.get(id)?.supplierName ?? id) : ''),
      storeChoices: stores.map((s) => ({ value: s.storeId, label: s.storeName })),
      supplierChoices: suppliers.map((s) => ({ value: s.supplierId, label: s.supplierName })),
      resolveProduct: (typed) => {
        const text = typed.trim();
        if (productById.has(text)) return text;
        return productByCode.get(text)?.productId ?? text;
      },
    };
    return { state: 'done', data: refs };
  }, [loaded]);
}

/** The query of a list screen with some keys changed (empty values removed; `page` reset unless given). */
export function withQuery(query: URLSearchParams, changes: Record<string, string | null | undefined>): string {
  const next = new URLSearchParams(query);
  if (!('page' in changes)) next.delete('page');
  for (const [k, v] of Object.entries(changes)) {
    if (v) next.set(k, v);
    else next.delete(k);
  }
  const text = next.toString();
  return text ? `?${text}` : '';
}

/** `value` when it is one of `values` (a status in the URL), else undefined: the API is not sent what it would refuse. */
export const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  (values as readonly string[]).includes(value ?? '') ? (value as T) : undefined;

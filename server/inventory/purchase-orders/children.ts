import { z } from 'zod';
import { id, oneOf } from '../../platform/http/fields.js';
import { pagedQuery } from '../../platform/http/list-schemas.js';
import { memoryPage } from '../../platform/http/paging.js';
import { productId } from '../shipping/schema.js';
import { purchaseOrderProduct, type PurchaseOrder } from './schema.js';

/**
 * The platform's sub-lists of one purchase order: its products (発注対象商品取得,
 * GET /purchase_orders/{id}/products) and its delivery stores (発注対象店舗取得, …/stores).
 * At most 1,000 products per order, so they are filtered, sorted and paged in memory.
 */
export const ORDER_PRODUCT_SORT = ['storageInfoProductId', 'productId', 'quantity', 'updDateTime'] as const;
export const listOrderProductsQuery = pagedQuery(
  {
    product_id: productId.optional(),
    with_deliveries: oneOf(['all', 'none']).optional().describe('all: add each product\'s delivery stores (deliveryStore); none (default): without'),
  },
  ORDER_PRODUCT_SORT,
);

export const ORDER_STORE_SORT = ['storageInfoDeliveryId', 'storageStoreId', 'storageExpectedDateFrom', 'storageExpectedDateTo', 'updDateTime'] as const;
export const listOrderStoresQuery = pagedQuery({ storage_store_id: id().optional() }, ORDER_STORE_SORT);

export const orderProductItem = purchaseOrderProduct.extend({ deliveryStore: purchaseOrderProduct.shape.deliveryStore.optional().describe('with with_deliveries=all') }).meta({ id: 'PurchaseOrderProductItem' });

type Product = NonNullable<PurchaseOrder['products']>[number];
type Store = NonNullable<PurchaseOrder['stores']>[number];

/** One page (with the look-ahead item) of the order's products as the query asks. */
export function productsPage(products: Product[], q: z.infer<typeof listOrderProductsQuery>): z.infer<typeof orderProductItem>[] {
  const items = products.filter((p) => q.product_id === undefined || p.productId === String(Number(q.product_id)));
  return memoryPage(items, q, 'storageInfoProductId', (p, f) => p[f], (f) => f !== 'updDateTime').map((p) => {
    if (q.with_deliveries === 'all') return p;
    const { deliveryStore: _, ...rest } = p;
    return rest;
  });
}

/** One page (with the look-ahead item) of the order's delivery stores as the query asks. */
export function storesPage(stores: Store[], q: z.infer<typeof listOrderStoresQuery>): Store[] {
  const items = stores.filter((s) => q.storage_store_id === undefined || s.storageStoreId === String(Number(q.storage_store_id)));
  return memoryPage(items, q, 'storageInfoDeliveryId', (s, f) => s[f], (f) => f === 'storageInfoDeliveryId' || f === 'storageStoreId');
}

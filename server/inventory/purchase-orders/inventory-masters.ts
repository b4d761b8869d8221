import { dialectOf } from '../../db/engine.js';
import type { Sqlite } from '../../db/open.js';

/**
 * Batch reads of the masters shipments and purchase orders check their lines against: the
 * product master, its category group, whether a supplier handles it, its ordering settings per
 * store (server/db/migrations/0025; the same rules as SupplierRepo.suppliersOfProduct and
 * ProductOrderSettingRepo.effective, which answer one product at a time) and the expected
 * arrivals of open orders. A 1,000-product order asks each question once, not once per line.
 */

/** What a shipment or order line takes from the product master. */
export interface ProductFacts {
  product_id: number;
  price_units: number;
  cost_units: number | null;
  tax_division: '0' | '1' | '2';
  reduce_tax_id: string | null;
  /** The category group of the product's category (null: none). */
  category_group_id: number | null;
}

/** A product's ordering settings at a store; a pair without a row is orderable, shown, unlimited. */
export interface OrderSetting {
  orderable: '0' | '1';
  order_hidden: '0' | '1';
  order_limit: number | null;
}

export const DEFAULT_ORDER_SETTING: OrderSetting = { orderable: '1', order_hidden: '0', order_limit: null };

/** A stored setting with its pair. */
export interface StoredOrderSetting extends OrderSetting {
  product_id: number;
  store_id: number;
}

/** `store/product` key of a per-store map. */
export const pairKey = (storeId: number, productId: number) => `${storeId}/${productId}`;

export class InventoryMasters {
  private readonly products;
  private readonly supplied;
  private readonly settings;
  private readonly arrivals;

  constructor(db: Sqlite) {
    this.products = db.prepare(
      `SELECT p.product_id, p.price_units, p.cost_units, p.tax_division, p.reduce_tax_id, c.category_group_id
       FROM products p LEFT JOIN categories c ON c.contract_id = p.contract_id AND c.category_id = p.category_id
       WHERE p.contract_id = ? AND p.product_id ${dialectOf(db).inJsonList('integer')}`,
    );
    // A product's suppliers are those naming it, else those naming its category (0025).
    this.supplied = db
      .prepare(
        `SELECT p.product_id FROM products p
         WHERE p.contract_id = ? AND p.product_id ${dialectOf(db).inJsonList('integer')}
           AND (EXISTS (SELECT 1 FROM supplier_products sp WHERE sp.contract_id = p.contract_id AND sp.division = '2' AND sp.target_id = p.product_id)
             OR EXISTS (SELECT 1 FROM supplier_products sp WHERE sp.contract_id = p.contract_id AND sp.division = '1' AND sp.target_id = p.category_id))`,
      )
      .pluck();
    this.settings = db.prepare(
      `SELECT product_id, store_id, orderable, order_hidden, order_limit FROM product_order_settings
       WHERE contract_id = ? AND product_id ${dialectOf(db).inJsonList('integer')}`,
    );
    // Expected arrivals: what open orders (2 ordered, 5 provisional) still bring to the store
    // (on_order, kept by a trigger on the order's status; a covering partial index). The cast keeps
    // the sum a number on PostgreSQL, where SUM of a bigint is numeric (read as text).
    this.arrivals = db.prepare(
      `SELECT store_id, product_id, CAST(SUM(quantity) AS BIGINT) AS quantity FROM purchase_order_delivery_products
       WHERE contract_id = ? AND on_order = 1 AND product_id ${dialectOf(db).inJsonList('integer')}
       GROUP BY store_id, product_id`,
    );
  }

  /** The products among `ids` that exist, by id. */
  productFacts(contractId: string, ids: readonly number[]): Map<number, ProductFacts> {
    const rows = this.products.all(contractId, JSON.stringify(ids)) as ProductFacts[];
    return new Map(rows.map((r) => [r.product_id, r]));
  }

  /** The products among `ids` that a supplier handles. */
  suppliedProducts(contractId: string, ids: readonly number[]): Set<number> {
    return new Set(this.supplied.all(contractId, JSON.stringify(ids)) as number[]);
  }

  /** The ordering settings stored for the products (any store), by pairKey; absent pairs take DEFAULT_ORDER_SETTING. */
  orderSettings(contractId: string, productIds: readonly number[]): Map<string, StoredOrderSetting> {
    const rows = this.settings.all(contractId, JSON.stringify(productIds)) as StoredOrderSetting[];
    return new Map(rows.map((r) => [pairKey(r.store_id, r.product_id), r]));
  }

  /** The quantities open purchase orders (status 2 and 5) bring to each store of the products, by pairKey. */
  expectedArrivals(contractId: string, productIds: readonly number[]): Map<string, number> {
    if (productIds.length === 0) return new Map();
    const rows = this.arrivals.all(contractId, JSON.stringify(productIds)) as { store_id: number; product_id: number; quantity: number }[];
    return new Map(rows.map((r) => [pairKey(r.store_id, r.product_id), r.quantity]));
  }
}

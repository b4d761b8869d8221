import type { Clock } from '../../clock.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { NotFoundError } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import type { IdAllocator } from '../../db/ids.js';
import type { ListOrderSettingsQuery, UpdateOrderSetting } from './schema.js';

export interface OrderSettingRow {
  contract_id: string;
  product_id: number;
  store_id: number;
  orderable: '0' | '1';
  order_hidden: '0' | '1';
  order_limit: number | null;
  /** Null for the defaults of a product and store without a row. */
  ins_at: number | null;
  upd_at: number | null;
}

/** What the purchase order rules read (4.14): may the store order the product, and how much may be on order. */
export interface EffectiveOrderSetting {
  orderable: boolean;
  orderHidden: boolean;
  /** null: no limit. */
  orderLimit: number | null;
}

const COLUMNS = { orderable: 'orderable', orderHidden: 'order_hidden', orderLimit: 'order_limit' };
const SORT_COLUMNS = { storeId: 'store_id' };

/** Per-store ordering settings of products (product_order_settings, keyed product/store). */
export class ProductOrderSettingRepo extends MasterRepo<OrderSettingRow, keyof typeof SORT_COLUMNS> {
  private readonly productExists;
  private readonly stores;

  constructor(db: Sqlite, writer: Writer, ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'product_order_setting', columns: COLUMNS, sort: SORT_COLUMNS, noun: 'order setting', param: 'product_id/store_id' });
    this.productExists = db.prepare('SELECT 1 FROM products WHERE contract_id = ? AND product_id = ?').pluck();
    this.stores = new StoreRepo(db, writer, ids, clock);
  }

  /** The settings stored for a product (stores keeping the defaults are not listed); 404 for an unknown product. */
  listOf(contractId: string, productId: string, query: ListOrderSettingsQuery, page: Page<keyof typeof SORT_COLUMNS>): OrderSettingRow[] {
    this.assertProduct(contractId, productId);
    return this.select(contractId, { product_id: Number(productId), store_id: query.store_id === undefined ? undefined : Number(query.store_id) }, page);
  }

  /** The product's settings at the store, the defaults when none were set; 404 for an unknown product or store. */
  settingOf(contractId: string, productId: string, storeId: string): OrderSettingRow {
    this.assertProduct(contractId, productId);
    this.assertStore(contractId, storeId);
    return this.find(contractId, `${Number(productId)}/${Number(storeId)}`) ?? defaults(contractId, Number(productId), Number(storeId));
  }

  /** Sets the keys sent (the others keep their value or default); 404 for an unknown product or store. */
  update(contractId: string, productId: string, storeId: string, patch: UpdateOrderSetting): OrderSettingRow {
    return this.writer.write(() => {
      const current = this.settingOf(contractId, productId, storeId);
      const values: Record<string, unknown> = { ...patch };
      if (patch.orderLimit !== undefined) values.orderLimit = patch.orderLimit === null ? null : Number(patch.orderLimit);
      if (current.ins_at === null) {
        this.insertRow(contractId, {
          product_id: current.product_id,
          store_id: current.store_id,
          orderable: patch.orderable ?? current.orderable,
          order_hidden: patch.orderHidden ?? current.order_hidden,
          order_limit: values.orderLimit === undefined ? null : values.orderLimit,
        });
      } else {
        this.updateFields(contractId, current, values);
      }
      return this.get(contractId, `${current.product_id}/${current.store_id}`);
    });
  }

  /**
   * The settings purchase orders check (4.14: not orderable, hidden from ordering, order limit),
   * for helpers that validate ids themselves: unknown products and stores get the defaults.
   */
  effective(contractId: string, productId: string | number, storeId: string | number): EffectiveOrderSetting {
    const row = this.find(contractId, `${Number(productId)}/${Number(storeId)}`);
    return row
      ? { orderable: row.orderable === '1', orderHidden: row.order_hidden === '1', orderLimit: row.order_limit }
      : { orderable: true, orderHidden: false, orderLimit: null };
  }

  private assertProduct(contractId: string, productId: string): void {
    if (this.productExists.get(contractId, Number(productId)) === undefined) throw NotFoundError.field('product_id', `product ${productId} does not exist`);
  }

  private assertStore(contractId: string, storeId: string): void {
    if (!this.stores.find(contractId, storeId)) throw NotFoundError.field('store_id', `store ${storeId} does not exist`);
  }
}

function defaults(contractId: string, productId: number, storeId: number): OrderSettingRow {
  return { contract_id: contractId, product_id: productId, store_id: storeId, orderable: '1', order_hidden: '0', order_limit: null, ins_at: null, upd_at: null };
}

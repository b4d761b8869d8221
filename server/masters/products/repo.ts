import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { dialectOf } from '../../db/engine.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import { updateRow } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { COST_SCALE, PRICE_SCALE, toUnits } from '../../domain/money.js';
import { InvalidInput } from '../../domain/errors.js';
import { fetchSize, offsetOf, type Page } from '../../platform/http/paging.js';
import { CategoryRepo } from '../categories/repo.js';
import { OptionGroupLinks } from '../product-option-groups/membership.js';
import { ProductLabelRepo } from '../product-labels/repo.js';
import { StoreRepo } from '../stores/repo.js';
import { type CreateProduct, type ListProductStoresQuery, type ListProductsQuery, type UpdateProduct } from './schema.js';

export interface ProductRow {
  contract_id: string;
  product_id: number;
  product_code: string;
  product_name: string;
  category_id: number;
  price_units: number;
  cost_units: number | null;
  tax_division: '0' | '1' | '2';
  reduce_tax_id: '10000001' | '10000002' | '10000003' | '10000004' | null;
  point_not_applicable: '0' | '1';
  tax_free_division: '0' | '1' | '2';
  product_division: '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8';
  /** The option group the product offers (productDivision 0 only); null: none. */
  product_option_group_id: number | null;
  ins_at: number;
  upd_at: number;
}

export interface ReserveItemRow {
  product_id: number;
  no: number;
  value: string;
}

/** How one store handles a product: '0' sells it (also when never set), '1' does not. */
export interface ProductStoreRow {
  product_id: number;
  store_id: number;
  assign_division: '0' | '1';
}

type StoreEntry = { storeId: string; assignDivision: '0' | '1' };

/** A product with its free-item values in label order. */
export interface ProductRecord {
  row: ProductRow;
  items: ReserveItemRow[];
}

const COLUMNS = {
  categoryId: 'category_id',
  productCode: 'product_code',
  productName: 'product_name',
  priceUnits: 'price_units',
  costUnits: 'cost_units',
  taxDivision: 'tax_division',
  reduceTaxId: 'reduce_tax_id',
  pointNotApplicable: 'point_not_applicable',
  taxFreeDivision: 'tax_free_division',
  productDivision: 'product_division',
  productOptionGroupId: 'product_option_group_id',
};
const SORT_COLUMNS = {
  productId: 'product_id',
  productCode: 'product_code',
  price: 'price_units',
  categoryId: 'category_id',
  updDateTime: 'upd_at',
};

const costUnits = (cost: string | null | undefined) => (cost === undefined ? undefined : cost === null ? null : toUnits(cost, COST_SCALE));

export class ProductRepo extends MasterRepo<ProductRow, keyof typeof SORT_COLUMNS> {
  private readonly byCode;
  private readonly inCategory;
  private readonly touch;
  private readonly itemsOf;
  private readonly clearItems;
  private readonly addItem;
  private readonly categories;
  private readonly labels;
  private readonly stores;
  private readonly upsertStore;
  private readonly optionGroups;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'product', columns: COLUMNS, sort: SORT_COLUMNS });
    this.categories = new CategoryRepo(db, writer, ids, clock);
    this.labels = new ProductLabelRepo(db, writer, clock);
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.optionGroups = new OptionGroupLinks(db);
    this.upsertStore = db.prepare(
      `INSERT INTO product_stores (contract_id, product_id, store_id, assign_division, ins_at, upd_at)
       VALUES (@contractId, @productId, @storeId, @assignDivision, @now, @now)
       ON CONFLICT (contract_id, product_id, store_id) DO UPDATE SET assign_division = excluded.assign_division, upd_at = excluded.upd_at
       WHERE product_stores.assign_division <> excluded.assign_division`,
    );
    this.byCode = db.prepare('SELECT product_id FROM products WHERE contract_id = ? AND product_code = ?');
    this.inCategory = db.prepare('SELECT min(product_id) AS first FROM products WHERE contract_id = ? AND category_id = ?');
    this.touch = db.prepare('UPDATE products SET upd_at = ? WHERE contract_id = ? AND product_id = ?');
    this.itemsOf = db.prepare('SELECT product_id, no, value FROM product_reserve_items WHERE contract_id = ? AND product_id = ? ORDER BY no');
    this.clearItems = db.prepare('DELETE FROM product_reserve_items WHERE contract_id = ? AND product_id = ?');
    this.addItem = db.prepare('INSERT INTO product_reserve_items (contract_id, product_id, no, value) VALUES (?, ?, ?, ?)');
  }

  /** The product with its free-item values (404 when absent). */
  record(contractId: string, productId: string | number): ProductRecord {
    const row = this.get(contractId, productId);
    return { row, items: this.itemsOf.all(contractId, row.product_id) as ReserveItemRow[] };
  }

  /** The lowest id of a product filed under the category, for refusing the category's deletion. */
  firstInCategory(contractId: string, categoryId: string | number): number | null {
    return (this.inCategory.get(contractId, categoryId) as { first: number | null }).first;
  }

  create(contractId: string, input: CreateProduct): ProductRecord {
    return this.writer.write(() => {
      this.assertCategory(contractId, input.categoryId);
      this.assertCodeFree(contractId, input.productCode, null);
      const items = input.reserveItems ?? [];
      this.assertLabels(contractId, items);
      if (input.stores) this.assertStores(contractId, input.stores);
      this.assertOptionGroup(contractId, null, input.productDivision ?? '0', input.productOptionGroupId ?? null);
      const productId = this.insertRow(contractId, {
        product_id: this.ids.next('products'),
        product_code: input.productCode,
        product_name: input.productName,
        category_id: Number(input.categoryId),
        price_units: toUnits(input.price, PRICE_SCALE),
        cost_units: costUnits(input.cost) ?? null,
        tax_division: input.taxDivision ?? '0',
        reduce_tax_id: input.reduceTaxId ?? null,
        point_not_applicable: input.pointNotApplicable ?? '0',
        tax_free_division: input.taxFreeDivision ?? '0',
        product_division: input.productDivision ?? '0',
        product_option_group_id: input.productOptionGroupId == null ? null : Number(input.productOptionGroupId),
      });
      this.replaceItems(contractId, Number(productId), items);
      if (input.stores) this.assignStores(contractId, Number(productId), input.stores);
      return this.record(contractId, productId);
    });
  }

  /** The path target first (404), then the references in the body (400); a refused PATCH writes nothing. */
  update(contractId: string, productId: string, patch: UpdateProduct): ProductRecord {
    return this.writer.write(() => {
      const row = this.get(contractId, productId);
      if (patch.categoryId !== undefined) this.assertCategory(contractId, patch.categoryId);
      if (patch.productCode !== undefined) this.assertCodeFree(contractId, patch.productCode, row.product_id);
      if (patch.reserveItems !== undefined) this.assertLabels(contractId, patch.reserveItems);
      if (patch.stores !== undefined) this.assertStores(contractId, patch.stores);
      const optionGroupId = patch.productOptionGroupId === undefined ? row.product_option_group_id : patch.productOptionGroupId;
      this.assertOptionGroup(contractId, row, patch.productDivision ?? row.product_division, optionGroupId);
      const { price, cost, reserveItems, stores, productOptionGroupId, ...rest } = patch;
      const values: Record<string, unknown> = {
        ...rest,
        productOptionGroupId: productOptionGroupId == null ? productOptionGroupId : Number(productOptionGroupId),
        categoryId: patch.categoryId === undefined ? undefined : Number(patch.categoryId),
        priceUnits: price === undefined ? undefined : toUnits(price, PRICE_SCALE),
        costUnits: costUnits(cost),
      };
      const now = this.now();
      const updated = updateRow(this.db, this.ref, contractId, row.product_id, values, COLUMNS, now);
      if (reserveItems !== undefined) this.replaceItems(contractId, row.product_id, reserveItems);
      if (stores !== undefined) this.assignStores(contractId, row.product_id, stores);
      if (!updated && (reserveItems !== undefined || stores !== undefined)) this.touch.run(now, contractId, row.product_id);
      // Reported also when only the free items or the stores changed: they travel with the product.
      this.changed(contractId, this.idOf(row), 'update');
      return this.record(contractId, productId);
    });
  }

  /** 400 while an option group holds the product: the group would list a product that is gone. */
  delete(contractId: string, productId: string): void {
    this.writer.write(() => {
      const row = this.get(contractId, productId);
      const groups = this.optionGroups.groupsHoldingProduct(contractId, row.product_id);
      if (groups.length) throw InvalidInput.field('product_id', `product ${row.product_id} is ${optionOf(groups)}; remove it from there first`);
      this.deleteRow(contractId, row); // its free-item values go with it (ON DELETE CASCADE)
    });
  }

  list(contractId: string, query: ListProductsQuery, page: Page<keyof typeof SORT_COLUMNS>): ProductRecord[] {
    const filters = {
      category_id: query.category_id === undefined ? undefined : Number(query.category_id),
      product_code: query.product_code,
      product_division: query.product_division,
    };
    const rows = this.select(contractId, filters, page);
    return this.withItems(contractId, rows);
  }

  /**
   * GET /products/{id}/stores: the product's handling by every store /stores serves (normal
   * stores and warehouses), '0' where never set; 404 for an unknown product.
   */
  storesOf(contractId: string, productId: string, query: ListProductStoresQuery): ProductStoreRow[] {
    const row = this.get(contractId, productId);
    const conditions: [string, string | number | undefined][] = [
      ['s.store_id = ?', query.store_id === undefined ? undefined : Number(query.store_id)],
      ["COALESCE(ps.assign_division, '0') = ?", query.assign_division],
    ];
    const used = conditions.filter(([, v]) => v !== undefined) as [string, string | number][];
    const desc = query.sort.some((k) => k.field === 'storeId' && k.desc);
    return this.db
      .prepare(
        // The id typed, as the row's: a bare parameter would come back as PostgreSQL's text.
        `SELECT ${dialectOf(this.db).integerOf('?')} AS product_id, s.store_id, COALESCE(ps.assign_division, '0') AS assign_division
         FROM stores s LEFT JOIN product_stores ps
           ON ps.contract_id = s.contract_id AND ps.store_id = s.store_id AND ps.product_id = ?
         WHERE s.contract_id = ? AND s.order_receiving = '0' ${used.map(([sql]) => `AND ${sql}`).join(' ')}
         ORDER BY s.store_id ${desc ? 'DESC' : 'ASC'} LIMIT ? OFFSET ?`,
      )
      .all(row.product_id, row.product_id, contractId, ...used.map(([, v]) => v), fetchSize(query), offsetOf(query)) as ProductStoreRow[];
  }

  /** Sets the handling of the listed stores; the others keep theirs. */
  private assignStores(contractId: string, productId: number, entries: StoreEntry[]): void {
    const now = this.clock.now().getTime();
    for (const e of entries) this.upsertStore.run({ contractId, productId, storeId: Number(e.storeId), assignDivision: e.assignDivision, now });
  }

  /** Each listed store must be one /stores serves (a normal store or a warehouse). */
  private assertStores(contractId: string, entries: StoreEntry[]): void {
    for (const [i, e] of entries.entries()) {
      const store = this.stores.find(contractId, e.storeId);
      if (!store || store.order_receiving === '1') throw InvalidInput.field(`stores[${i}].storeId`, `store ${e.storeId} does not exist`);
    }
  }

  /** One query for the free items of a whole page instead of one per product. */
  private withItems(contractId: string, rows: ProductRow[]): ProductRecord[] {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.product_id);
    const items = this.db
      .prepare(`SELECT product_id, no, value FROM product_reserve_items WHERE contract_id = ? AND product_id IN (${ids.map(() => '?').join(',')}) ORDER BY no`)
      .all(contractId, ...ids) as ReserveItemRow[];
    return rows.map((row) => ({ row, items: items.filter((i) => i.product_id === row.product_id) }));
  }

  private replaceItems(contractId: string, productId: number, items: { no: string; value: string }[]): void {
    this.clearItems.run(contractId, productId);
    for (const item of items) this.addItem.run(contractId, productId, Number(item.no), item.value);
  }

  /**
   * Option groups as the platform links them: only a normal product (productDivision 0) offers
   * one, and it must exist; an option product a group holds keeps productDivision 2.
   */
  private assertOptionGroup(contractId: string, current: ProductRow | null, division: string, groupId: string | number | null): void {
    if (groupId !== null) {
      if (!this.optionGroups.groupExists(contractId, groupId)) throw InvalidInput.field('productOptionGroupId', `product option group ${groupId} does not exist`);
      if (division !== '0') {
        throw InvalidInput.field('productOptionGroupId', `only a product of productDivision 0 (normal) offers an option group; this one's productDivision is ${division}`);
      }
    }
    if (current && division !== '2') {
      const groups = this.optionGroups.groupsHoldingProduct(contractId, current.product_id);
      if (groups.length) throw InvalidInput.field('productDivision', `product ${current.product_id} is ${optionOf(groups)}, so it stays 2; remove it from there first`);
    }
  }

  private assertCategory(contractId: string, categoryId: string): void {
    if (!this.categories.find(contractId, categoryId)) throw InvalidInput.field('categoryId', `category ${categoryId} does not exist`);
  }

  private assertCodeFree(contractId: string, code: string, selfId: number | null): void {
    const other = this.byCode.get(contractId, code) as { product_id: number } | undefined;
    if (other && other.product_id !== selfId) {
      throw InvalidInput.field('productCode', `product code ${code} is already used by product ${other.product_id}`);
    }
  }

  private assertLabels(contractId: string, items: { no: string }[]): void {
    for (const [i, item] of items.entries()) {
      if (!this.labels.find(contractId, Number(item.no))) {
        throw InvalidInput.field(`reserveItems.${i}.no`, `free-item label ${item.no} does not exist`);
      }
    }
  }
}

/** "an option product of product option group 3" (or groups 3, 5), for a detail. */
const optionOf = (groups: readonly number[]) =>
  `an option product of product option ${groups.length === 1 ? `group ${groups[0]}` : `groups ${groups.join(', ')}`}`;

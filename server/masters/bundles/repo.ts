import type { Statement } from 'better-sqlite3';
import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import { updConditions } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { assertBundleDays, assertBundleValue } from '../../domain/bundles.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { PRICE_SCALE, toUnits } from '../../domain/money.js';
import type { Page } from '../../platform/http/paging.js';
import type { ProductBundleGroupRow } from '../product-bundle-groups/repo.js';
import { raiseBundleEvent, raiseBundleProductEvent } from './events.js';
import {
  targetKey,
  type BUNDLE_SORT,
  type BundleProductRow,
  type BundleRecord,
  type BundleTargetInput,
  type CreateBundle,
  type ListBundlesQuery,
  type UpdateBundle,
} from './schema.js';

type SortField = (typeof BUNDLE_SORT)[number];

/** PATCH body key → column of the shared product_bundle_groups row. */
const COLUMNS = {
  productBundleGroupName: 'product_bundle_group_name',
  type: 'division',
  taxDivision: 'tax_division',
  reduceTaxId: 'reduce_tax_id',
  quantity: 'quantity',
  valueUnits: 'value_units',
  priority: 'priority',
  termFrom: 'start_date',
  termTo: 'end_date',
  pointNotApplicable: 'point_not_applicable',
  taxFreeDivision: 'tax_free_division',
  calcDiscount: 'calc_discount',
};
const SORT_COLUMNS: Record<SortField, string> = { productBundleGroupId: 'product_bundle_group_id', termFrom: 'start_date', termTo: 'end_date' };
const DAYS = { first: 'termFrom', last: 'termTo' };

/**
 * The platform's bundle sales (/bundles): spec 2.13's product bundle groups (same table, same
 * ids; /product_bundle_groups shows them too) with the platform's tax settings, priority and
 * targets (product_bundle_products, migration 0042).
 */
export class BundleRepo extends MasterRepo<ProductBundleGroupRow, SortField> {
  private readonly targetsOf: Statement<unknown[]>;
  private readonly targetRow: Statement<unknown[]>;
  private readonly addTarget: Statement<unknown[]>;
  private readonly removeTarget: Statement<unknown[]>;
  private readonly categoryExists: Statement<unknown[]>;
  private readonly productExists: Statement<unknown[]>;
  private readonly touch: Statement<unknown[]>;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'product_bundle_group', columns: COLUMNS, sort: SORT_COLUMNS });
    const targetColumns = 'product_bundle_id, category_id, product_id, product_group_code';
    this.targetsOf = db.prepare(`SELECT ${targetColumns} FROM product_bundle_products WHERE contract_id = ? AND product_bundle_group_id = ? ORDER BY product_bundle_id`);
    this.targetRow = db.prepare('SELECT product_bundle_group_id FROM product_bundle_products WHERE contract_id = ? AND product_bundle_id = ?');
    this.addTarget = db.prepare(`INSERT INTO product_bundle_products (contract_id, product_bundle_group_id, ${targetColumns}) VALUES (?, ?, ?, ?, ?, ?)`);
    this.removeTarget = db.prepare('DELETE FROM product_bundle_products WHERE contract_id = ? AND product_bundle_id = ?');
    this.categoryExists = db.prepare('SELECT 1 FROM categories WHERE contract_id = ? AND category_id = ?');
    this.productExists = db.prepare('SELECT 1 FROM products WHERE contract_id = ? AND product_id = ?');
    this.touch = db.prepare('UPDATE product_bundle_groups SET upd_at = ? WHERE contract_id = ? AND product_bundle_group_id = ?');
  }

  /** The bundle with its targets (404 when absent). */
  record(contractId: string, id: string | number): BundleRecord {
    const row = this.get(contractId, id);
    return { row, products: this.targetsOf.all(contractId, row.product_bundle_group_id) as BundleProductRow[] };
  }

  /** The body's rules in the order of its fields; targets must exist. */
  create(contractId: string, input: CreateBundle): BundleRecord {
    return this.writer.write(() => {
      if (input.quantity === undefined && input.type !== '4') throw InvalidInput.field('quantity', `is required for type ${input.type} (the number of items the bundle takes)`);
      const valueUnits = toUnits(input.value, PRICE_SCALE);
      assertBundleValue(input.type, valueUnits, 'type');
      assertBundleDays(input.termFrom, input.termTo, DAYS, 'last');
      this.assertTargets(contractId, input.products);
      const id = this.insertRow(contractId, {
        product_bundle_group_id: this.ids.next('product_bundle_groups'),
        product_bundle_group_name: input.productBundleGroupName,
        division: input.type,
        // A set sale takes one of each of its targets unless told otherwise.
        quantity: input.quantity === undefined ? input.products.length : Number(input.quantity),
        value_units: valueUnits,
        start_date: input.termFrom,
        end_date: input.termTo,
        tax_division: input.taxDivision ?? '0',
        reduce_tax_id: input.reduceTaxId ?? null,
        priority: input.priority == null ? null : Number(input.priority),
        point_not_applicable: input.pointNotApplicable ?? '0',
        tax_free_division: input.taxFreeDivision ?? '0',
        calc_discount: input.calcDiscount ?? '1',
      });
      raiseBundleEvent(this.events(), contractId, id, 'created');
      this.addTargets(contractId, id, input.products);
      return this.record(contractId, id);
    });
  }

  /**
   * The path target first (404), then the body's rules against the bundle after the change
   * (400); `products` adds targets (one the bundle has already is kept as it is).
   */
  update(contractId: string, id: string, patch: UpdateBundle): BundleRecord {
    return this.writer.write(() => {
      const current = this.get(contractId, id);
      const { value, products, quantity, priority, ...rest } = patch;
      const valueUnits = value === undefined ? undefined : toUnits(value, PRICE_SCALE);
      assertBundleValue(patch.type ?? current.division, valueUnits ?? current.value_units, 'type');
      assertBundleDays(rest.termFrom ?? current.start_date, rest.termTo ?? current.end_date, DAYS, rest.termTo === undefined ? 'first' : 'last');
      const have = new Set((this.targetsOf.all(contractId, current.product_bundle_group_id) as BundleProductRow[]).map(targetKey));
      const added = (products ?? []).filter((p) => !have.has(targetKey(p)));
      this.assertTargets(contractId, products ?? []);
      const values = {
        ...rest,
        valueUnits,
        quantity: quantity === undefined ? undefined : Number(quantity),
        priority: priority === undefined ? undefined : priority === null ? null : Number(priority),
      };
      const written = this.updateFields(contractId, current, values);
      if (!written && added.length) this.targetsChanged(contractId, current);
      raiseBundleEvent(this.events(), contractId, this.idOf(current), 'edited');
      this.addTargets(contractId, this.idOf(current), added);
      return this.record(contractId, id);
    });
  }

  /** Its targets go with it (ON DELETE CASCADE); sales that named it keep the id they were sent. */
  delete(contractId: string, id: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, id);
      this.deleteRow(contractId, current);
      raiseBundleEvent(this.events(), contractId, this.idOf(current), 'deleted');
    });
  }

  /**
   * DELETE /bundles/{id}/products/{product_bundle_id}: 404 for an unknown bundle, target or
   * pair; 400 for the bundle's last target (a bundle keeps at least one, as the platform's).
   */
  removeProduct(contractId: string, id: string, productBundleId: string): void {
    this.writer.write(() => {
      const bundle = this.get(contractId, id);
      const owner = this.targetRow.get(contractId, productBundleId) as { product_bundle_group_id: number } | undefined;
      if (!owner) throw NotFoundError.field('product_bundle_id', `bundle product ${productBundleId} does not exist`);
      if (owner.product_bundle_group_id !== bundle.product_bundle_group_id) {
        throw NotFoundError.field('product_bundle_id', `bundle product ${productBundleId} is not a target of product bundle group ${bundle.product_bundle_group_id}`);
      }
      if ((this.targetsOf.all(contractId, bundle.product_bundle_group_id) as unknown[]).length === 1) {
        throw InvalidInput.field('product_bundle_id', `bundle product ${productBundleId} is the only target of product bundle group ${bundle.product_bundle_group_id}: a bundle keeps at least one`);
      }
      this.removeTarget.run(contractId, Number(productBundleId));
      this.targetsChanged(contractId, bundle);
      raiseBundleProductEvent(this.events(), contractId, this.idOf(bundle), [Number(productBundleId)], 'deleted');
    });
  }

  list(contractId: string, query: ListBundlesQuery, page: Page<SortField>): BundleRecord[] {
    const rows = this.selectWhere(
      contractId,
      [
        ['product_bundle_group_id = ?', query.product_bundle_group_id === undefined ? undefined : Number(query.product_bundle_group_id)],
        ['start_date >= ?', query.term_from],
        ['end_date <= ?', query.term_to],
        ...updConditions(query),
      ],
      page,
    );
    return rows.map((row) => ({ row, products: this.targetsOf.all(contractId, row.product_bundle_group_id) as BundleProductRow[] }));
  }

  private events() {
    return { db: this.db, ids: this.ids, clock: this.clock };
  }

  /** A change of the targets alone is a change of the bundle (they travel with it). */
  private targetsChanged(contractId: string, bundle: ProductBundleGroupRow): void {
    this.touch.run(this.now(), contractId, bundle.product_bundle_group_id);
    this.changed(contractId, this.idOf(bundle), 'update');
  }

  /** A category or product target must exist; a group code is taken as given (this server's products carry none). */
  private assertTargets(contractId: string, entries: readonly BundleTargetInput[]): void {
    for (const [i, entry] of entries.entries()) {
      if (entry.categoryId !== undefined && this.categoryExists.get(contractId, Number(entry.categoryId)) === undefined) {
        throw InvalidInput.field(`products[${i}].categoryId`, `category ${entry.categoryId} does not exist`);
      }
      if (entry.productId !== undefined && this.productExists.get(contractId, Number(entry.productId)) === undefined) {
        throw InvalidInput.field(`products[${i}].productId`, `product ${entry.productId} does not exist`);
      }
    }
  }

  private addTargets(contractId: string, groupId: string, entries: readonly BundleTargetInput[]): void {
    if (!entries.length) return;
    const ids = this.ids.block('product_bundle_products', entries.length).map(Number);
    entries.forEach((e, i) => {
      const category = e.categoryId === undefined ? null : Number(e.categoryId);
      const product = e.productId === undefined ? null : Number(e.productId);
      this.addTarget.run(contractId, Number(groupId), ids[i], category, product, e.productGroupCode ?? null);
    });
    raiseBundleProductEvent(this.events(), contractId, groupId, ids, 'created');
  }
}


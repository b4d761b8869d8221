import type { Clock } from '../../clock.js';
import { dialectOf } from '../../db/engine.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import { updConditions } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import type { CreateSupplier, CreateSupplierProduct, DeleteSupplierProductQuery, ListSupplierProductsQuery, ListSuppliersQuery, UpdateSupplier } from './schema.js';

export interface SupplierRow {
  contract_id: string;
  supplier_id: number;
  supplier_code: string | null;
  supplier_name: string;
  supplier_abbr: string | null;
  post_code: string | null;
  address: string | null;
  phone_number: string | null;
  fax_number: string | null;
  mail_address: string | null;
  display_sequence: number | null;
  ins_at: number;
  upd_at: number;
}

/** division '1': target_id is a category; '2': a product. */
export interface SupplierProductRow {
  contract_id: string;
  supplier_id: number;
  division: '1' | '2';
  target_id: number;
  ins_at: number;
  upd_at: number;
}

const COLUMNS = {
  supplierCode: 'supplier_code',
  supplierName: 'supplier_name',
  supplierAbbr: 'supplier_abbr',
  postCode: 'post_code',
  address: 'address',
  phoneNumber: 'phone_number',
  faxNumber: 'fax_number',
  mailAddress: 'mail_address',
  displaySequence: 'display_sequence',
};
const SORT_COLUMNS = { supplierId: 'supplier_id', supplierCode: 'supplier_code', displaySequence: 'display_sequence', updDateTime: 'upd_at' };
const INSERT_COLUMNS = Object.entries(COLUMNS);

const number = (v: string | null | undefined) => (v === undefined || v === null ? null : Number(v));

/** Suppliers (仕入先), the recipients of purchase orders and shipments, and what each handles. */
export class SupplierRepo extends MasterRepo<SupplierRow, keyof typeof SORT_COLUMNS> {
  private readonly byCode;
  private readonly products: SupplierProductRepo;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'supplier', columns: COLUMNS, sort: SORT_COLUMNS });
    this.byCode = db.prepare('SELECT supplier_id FROM suppliers WHERE contract_id = ? AND supplier_code = ?');
    this.products = new SupplierProductRepo(db, writer, clock);
  }

  create(contractId: string, input: CreateSupplier): SupplierRow {
    return this.writer.write(() => {
      this.assertCodeFree(contractId, input.supplierCode ?? null, null);
      const values: Record<string, unknown> = { supplier_id: this.ids.next('suppliers') };
      for (const [field, column] of INSERT_COLUMNS) values[column] = (input as Record<string, string | null | undefined>)[field] ?? null;
      values.display_sequence = number(input.displaySequence);
      return this.get(contractId, this.insertRow(contractId, values));
    });
  }

  update(contractId: string, supplierId: string, patch: UpdateSupplier): SupplierRow {
    return this.writer.write(() => {
      const current = this.get(contractId, supplierId);
      if (patch.supplierCode !== undefined) this.assertCodeFree(contractId, patch.supplierCode, current.supplier_id);
      const values: Record<string, unknown> = { ...patch };
      if (patch.displaySequence !== undefined) values.displaySequence = number(patch.displaySequence);
      this.updateFields(contractId, current, values);
      return this.get(contractId, supplierId);
    });
  }

  /** Deletes the supplier and what it handles; records that name it (orders, shipments) keep its id. */
  delete(contractId: string, supplierId: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, supplierId);
      this.products.removeAllOf(contractId, current.supplier_id);
      this.deleteRow(contractId, current);
    });
  }

  list(contractId: string, query: ListSuppliersQuery, page: Page<keyof typeof SORT_COLUMNS>): SupplierRow[] {
    return this.selectWhere(
      contractId,
      [
        ['supplier_id = ?', number(query.supplier_id) ?? undefined],
        ['supplier_code = ?', query.supplier_code],
        // LIKE with the client's text as a bound value; its own % and _ are escaped.
        [dialectOf(this.db).likeEscaped('supplier_name', '?'), query.supplier_name === undefined ? undefined : `%${query.supplier_name.replace(/[\\%_]/g, '\\$&')}%`],
        ...updConditions(query),
      ],
      page,
    );
  }

  /** The supplier a body field names, or 400 `[field] supplier N does not exist` (purchase orders, shipments). */
  referenced(contractId: string, supplierId: string | number, field = 'supplierId'): SupplierRow {
    const row = this.find(contractId, supplierId);
    if (!row) throw InvalidInput.field(field, `supplier ${supplierId} does not exist`);
    return row;
  }

  /**
   * The suppliers that handle a product, for purchase orders (split by supplier, 4.14): those
   * registered for the product itself, else those registered for its category; by supplier id.
   */
  suppliersOfProduct(contractId: string, productId: string | number): number[] {
    return this.products.suppliersOf(contractId, Number(productId));
  }

  /** The product's supplier (the first of suppliersOfProduct), or null when none is registered. */
  supplierOfProduct(contractId: string, productId: string | number): number | null {
    return this.suppliersOfProduct(contractId, productId)[0] ?? null;
  }

  listProducts(contractId: string, supplierId: string, query: ListSupplierProductsQuery): SupplierProductRow[] {
    const row = this.get(contractId, supplierId);
    return this.products.listOf(contractId, row.supplier_id, query);
  }

  addProduct(contractId: string, supplierId: string, body: CreateSupplierProduct): SupplierProductRow {
    return this.writer.write(() => {
      const row = this.get(contractId, supplierId);
      return this.products.add(contractId, row.supplier_id, body);
    });
  }

  removeProduct(contractId: string, supplierId: string, query: DeleteSupplierProductQuery): void {
    this.writer.write(() => {
      const row = this.get(contractId, supplierId);
      this.products.remove(contractId, row.supplier_id, query);
    });
  }

  private assertCodeFree(contractId: string, code: string | null, selfId: number | null): void {
    if (code === null) return;
    const other = this.byCode.get(contractId, code) as { supplier_id: number } | undefined;
    if (other && other.supplier_id !== selfId) throw InvalidInput.field('supplierCode', `supplier code ${code} is already used by supplier ${other.supplier_id}`);
  }
}

const PRODUCT_SORT = {
  categoryId: "CASE division WHEN '1' THEN target_id END",
  productId: "CASE division WHEN '2' THEN target_id END",
};

/** supplier_products: a master keyed (supplier_id, division, target_id); written through SupplierRepo. */
class SupplierProductRepo extends MasterRepo<SupplierProductRow, keyof typeof PRODUCT_SORT> {
  private readonly productCategory;
  private readonly categoryExists;
  private readonly ofSupplier;
  private readonly ofTarget;

  constructor(db: Sqlite, writer: Writer, clock: Clock) {
    super(db, writer, clock, { entity: 'supplier_product', columns: {}, sort: PRODUCT_SORT });
    this.productCategory = db.prepare('SELECT category_id FROM products WHERE contract_id = ? AND product_id = ?').pluck();
    this.categoryExists = db.prepare('SELECT 1 FROM categories WHERE contract_id = ? AND category_id = ?').pluck();
    this.ofSupplier = db.prepare('SELECT * FROM supplier_products WHERE contract_id = ? AND supplier_id = ?');
    this.ofTarget = db
      .prepare('SELECT supplier_id FROM supplier_products WHERE contract_id = ? AND division = ? AND target_id = ? ORDER BY supplier_id')
      .pluck();
  }

  listOf(contractId: string, supplierId: number, query: ListSupplierProductsQuery): SupplierProductRow[] {
    return this.selectWhere(
      contractId,
      [
        ['supplier_id = ?', supplierId],
        ["(division = '1' AND target_id = ?)", number(query.category_id) ?? undefined],
        ["(division = '2' AND target_id = ?)", number(query.product_id) ?? undefined],
      ],
      query,
    );
  }

  add(contractId: string, supplierId: number, body: CreateSupplierProduct): SupplierProductRow {
    const [division, targetId, field, noun] =
      body.productId !== undefined ? (['2', body.productId, 'productId', 'product'] as const) : (['1', body.categoryId!, 'categoryId', 'category'] as const);
    const exists = division === '2' ? this.productCategory.get(contractId, Number(targetId)) !== undefined : this.categoryExists.get(contractId, Number(targetId)) !== undefined;
    if (!exists) throw InvalidInput.field(field, `${noun} ${targetId} does not exist`);
    const id = `${supplierId}/${division}/${Number(targetId)}`;
    if (this.find(contractId, id)) throw InvalidInput.field(field, `supplier ${supplierId} already handles ${noun} ${targetId}`);
    this.insertRow(contractId, { supplier_id: supplierId, division, target_id: Number(targetId) });
    return this.get(contractId, id);
  }

  remove(contractId: string, supplierId: number, query: DeleteSupplierProductQuery): void {
    const [division, targetId, param, noun] =
      query.product_id !== undefined ? (['2', query.product_id, 'product_id', 'product'] as const) : (['1', query.category_id!, 'category_id', 'category'] as const);
    const row = this.find(contractId, `${supplierId}/${division}/${Number(targetId)}`);
    if (!row) throw NotFoundError.field(param, `supplier ${supplierId} does not handle ${noun} ${targetId}`);
    this.deleteRow(contractId, row);
  }

  removeAllOf(contractId: string, supplierId: number): void {
    for (const row of this.ofSupplier.all(contractId, supplierId) as SupplierProductRow[]) this.deleteRow(contractId, row);
  }

  suppliersOf(contractId: string, productId: number): number[] {
    // The product's own entries win over its category's.
    const own = this.ofTarget.all(contractId, '2', productId) as number[];
    if (own.length) return own;
    const categoryId = this.productCategory.get(contractId, productId) as number | undefined;
    return categoryId === undefined ? [] : (this.ofTarget.all(contractId, '1', categoryId) as number[]);
  }
}

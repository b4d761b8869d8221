import type { Clock } from '../../clock.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import type { CouponProductKey, CreateCouponProduct, ListCouponProductsQuery, UpdateCouponProduct } from './products-schema.js';

/** type '1' condition of use, '2' goods granted; division: what item_id names (1 category, 2 product, 3 group code). */
export interface CouponProductRow {
  contract_id: string;
  coupon_id: number;
  type: '1' | '2';
  division: '1' | '2' | '3';
  item_id: string;
  sales_price: string | null;
  ins_at: number;
  upd_at: number;
}

const SORT_COLUMNS = { type: 'type', division: 'division', itemId: 'item_id', updDateTime: 'upd_at' };
const NOUNS = { '1': 'category', '2': 'product', '3': 'group code' } as const;

/**
 * coupon_products (クーポン商品): a master keyed (coupon_id, type, division, item_id), reached
 * through its coupon (CouponRepo checks the coupon first). Goods granted (type 2) are products
 * with their price; a condition (type 1) names a category, a product or a group code.
 */
export class CouponProductRepo extends MasterRepo<CouponProductRow, keyof typeof SORT_COLUMNS> {
  private readonly categoryExists;
  private readonly productExists;
  private readonly ofCoupon;

  constructor(db: Sqlite, writer: Writer, clock: Clock) {
    super(db, writer, clock, { entity: 'coupon_product', columns: { salesPrice: 'sales_price' }, sort: SORT_COLUMNS });
    this.categoryExists = db.prepare('SELECT 1 FROM categories WHERE contract_id = ? AND category_id = ?').pluck();
    this.productExists = db.prepare('SELECT 1 FROM products WHERE contract_id = ? AND product_id = ?').pluck();
    this.ofCoupon = db.prepare('SELECT * FROM coupon_products WHERE contract_id = ? AND coupon_id = ?');
  }

  listOf(contractId: string, couponId: number, query: ListCouponProductsQuery): CouponProductRow[] {
    return this.selectWhere(
      contractId,
      [
        ['coupon_id = ?', couponId],
        ['type = ?', query.type],
        ['division = ?', query.division],
      ],
      query,
    );
  }

  /** Registers an item of a coupon that exists; the same type, division and item twice is a 400. */
  add(contractId: string, couponId: number, body: CreateCouponProduct): CouponProductRow {
    if (body.type === '2') {
      if (body.division !== '2') throw InvalidInput.field('division', 'must be 2 (a product id) for goods granted (type 2)');
      if (body.salesPrice === undefined) throw InvalidInput.field('salesPrice', 'is required for goods granted (type 2)');
    }
    const item = this.itemOf(contractId, body.division, body.itemId, (message) => InvalidInput.field('itemId', message));
    const id = `${couponId}/${body.type}/${body.division}/${item}`;
    if (this.find(contractId, id)) throw InvalidInput.field('itemId', `coupon ${couponId} already has ${NOUNS[body.division]} ${item} as type ${body.type}`);
    this.insertRow(contractId, { coupon_id: couponId, type: body.type, division: body.division, item_id: item, sales_price: body.salesPrice ?? null });
    return this.get(contractId, id);
  }

  /** The price of goods granted; only type 2 items have one. */
  update(contractId: string, couponId: number, key: CouponProductKey, body: UpdateCouponProduct): CouponProductRow {
    if (key.type !== '2') throw InvalidInput.field('type', 'must be 2: only goods granted (type 2) have a price to update');
    const row = this.itemAt(contractId, couponId, key);
    this.updateFields(contractId, row, body);
    return this.get(contractId, this.idOf(row));
  }

  remove(contractId: string, couponId: number, key: CouponProductKey): void {
    this.deleteRow(contractId, this.itemAt(contractId, couponId, key));
  }

  removeAllOf(contractId: string, couponId: number): void {
    for (const row of this.ofCoupon.all(contractId, couponId) as CouponProductRow[]) this.deleteRow(contractId, row);
  }

  /** The item a path names: its category or product must exist, then the item itself (404 naming item_id). */
  private itemAt(contractId: string, couponId: number, key: CouponProductKey): CouponProductRow {
    const item = this.itemOf(contractId, key.division, key.item_id, (message) => NotFoundError.field('item_id', message));
    const row = this.find(contractId, `${couponId}/${key.type}/${key.division}/${item}`);
    if (!row) throw NotFoundError.field('item_id', `coupon ${couponId} has no ${NOUNS[key.division]} ${item} as type ${key.type}`);
    return row;
  }

  /** The item id in its stored form: a category or product that exists (an id without leading zeros), or a group code as given. */
  private itemOf(contractId: string, division: CouponProductRow['division'], itemId: string, fail: (message: string) => Error): string {
    if (division === '3') return itemId;
    if (!/^\d{1,9}$/.test(itemId)) throw fail(`must be a ${NOUNS[division]} id of up to 9 digits for division ${division}`);
    const exists = division === '1' ? this.categoryExists.get(contractId, Number(itemId)) : this.productExists.get(contractId, Number(itemId));
    if (exists === undefined) throw fail(`${NOUNS[division]} ${itemId} does not exist`);
    return String(Number(itemId));
  }
}

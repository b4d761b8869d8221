import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { couponValueError, type CouponDivision } from '../../domain/coupons.js';
import { InvalidInput } from '../../domain/errors.js';
import { COUPON_EVENT, raiseEvent } from '../../events/webhook-events.js';
import { formatDecimal } from '../../domain/money.js';
import type { Page } from '../../platform/http/paging.js';
import { assertPeriod } from '../product-bundle-groups/repo.js';
import { CouponProductRepo, type CouponProductRow } from './products-repo.js';
import type { CouponProductKey, CreateCouponProduct, ListCouponProductsQuery, UpdateCouponProduct } from './products-schema.js';
import type { CreateCoupon, ListCouponsQuery, UpdateCoupon } from './schema.js';

export interface CouponRow {
  contract_id: string;
  coupon_id: number;
  coupon_name: string;
  coupon_division: CouponDivision;
  /** Exact decimal text in its shortest form. */
  coupon_value: string;
  start_date: string | null;
  end_date: string | null;
  ins_at: number;
  upd_at: number;
}

const COLUMNS = {
  couponName: 'coupon_name',
  couponDivision: 'coupon_division',
  couponValue: 'coupon_value',
  startDate: 'start_date',
  endDate: 'end_date',
};
/** The notice's action → the change it reports (the event's cause). */
const OPS = { created: 'insert', edited: 'update', deleted: 'delete' } as const;
const SORT_COLUMNS = { couponId: 'coupon_id', couponName: 'coupon_name', startDate: 'start_date', endDate: 'end_date', updDateTime: 'upd_at' };

/** Coupons (クーポン): the master a sale's coupon lines name (server/sales/transactions/coupons.ts). */
export class CouponRepo extends MasterRepo<CouponRow, keyof typeof SORT_COLUMNS> {
  readonly products: CouponProductRepo;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'coupon', columns: COLUMNS, sort: SORT_COLUMNS });
    this.products = new CouponProductRepo(db, writer, clock);
  }

  create(contractId: string, input: CreateCoupon): CouponRow {
    return this.writer.write(() => {
      assertValue(input.couponDivision, input.couponValue, 'couponValue');
      assertPeriod(input.startDate ?? null, input.endDate ?? null);
      const id = this.insertRow(contractId, {
        coupon_id: this.ids.next('coupons'),
        coupon_name: input.couponName,
        coupon_division: input.couponDivision,
        coupon_value: formatDecimal(input.couponValue),
        start_date: input.startDate ?? null,
        end_date: input.endDate ?? null,
      });
      this.notify(contractId, id, 'created');
      return this.get(contractId, id);
    });
  }

  /** The path target first (404); a division or value sent alone is checked with the stored other, as is a period's end. */
  update(contractId: string, couponId: string, patch: UpdateCoupon): CouponRow {
    return this.writer.write(() => {
      const current = this.get(contractId, couponId);
      if (patch.couponDivision !== undefined || patch.couponValue !== undefined) {
        assertValue(patch.couponDivision ?? current.coupon_division, patch.couponValue ?? current.coupon_value, patch.couponValue === undefined ? 'couponDivision' : 'couponValue');
      }
      assertPeriod(
        patch.startDate === undefined ? current.start_date : patch.startDate,
        patch.endDate === undefined ? current.end_date : patch.endDate,
        patch.endDate === undefined ? 'startDate' : 'endDate',
      );
      const values: Record<string, unknown> = { ...patch };
      if (patch.couponValue !== undefined) values.couponValue = formatDecimal(patch.couponValue);
      if (this.updateFields(contractId, current, values)) this.notify(contractId, couponId, 'edited');
      return this.get(contractId, couponId);
    });
  }

  /** Deletes the coupon and its items; sales that used it keep its id, name and benefit. */
  delete(contractId: string, couponId: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, couponId);
      this.products.removeAllOf(contractId, current.coupon_id);
      this.deleteRow(contractId, current);
      this.notify(contractId, couponId, 'deleted');
    });
  }

  list(contractId: string, query: ListCouponsQuery, page: Page<keyof typeof SORT_COLUMNS>): CouponRow[] {
    return this.select(contractId, { coupon_division: query.coupon_division }, page);
  }

  // The coupon's items: the coupon of the path first (404 coupon_id), then the item's own rules.

  listProducts(contractId: string, couponId: string, query: ListCouponProductsQuery): CouponProductRow[] {
    return this.products.listOf(contractId, this.get(contractId, couponId).coupon_id, query);
  }

  addProduct(contractId: string, couponId: string, body: CreateCouponProduct): CouponProductRow {
    return this.writer.write(() => this.edited(contractId, couponId, this.products.add(contractId, this.get(contractId, couponId).coupon_id, body)));
  }

  updateProduct(contractId: string, key: CouponProductKey, body: UpdateCouponProduct): CouponProductRow {
    return this.writer.write(() => this.edited(contractId, key.coupon_id, this.products.update(contractId, this.get(contractId, key.coupon_id).coupon_id, key, body)));
  }

  removeProduct(contractId: string, key: CouponProductKey): void {
    this.writer.write(() => this.edited(contractId, key.coupon_id, this.products.remove(contractId, this.get(contractId, key.coupon_id).coupon_id, key)));
  }

  /** A change of a coupon's items is an edit of the coupon for the notice's receivers. */
  private edited<T>(contractId: string, couponId: string, result: T): T {
    this.notify(contractId, couponId, 'edited');
    return result;
  }

  /** The platform's pos:coupons notice (postwebhookcoupons), in the change's own write. */
  private notify(contractId: string, couponId: string, action: 'created' | 'edited' | 'deleted'): void {
    const id = String(Number(couponId));
    raiseEvent({ db: this.db, ids: this.ids, clock: this.clock }, { contractId, event: COUPON_EVENT, action, payload: { couponIds: [id] }, cause: { entity: 'coupon', id, op: OPS[action] } });
  }
}

function assertValue(division: CouponDivision, value: string, field: 'couponValue' | 'couponDivision'): void {
  const error = couponValueError(division, value);
  if (error) throw InvalidInput.field(field, field === 'couponValue' ? error : `${division} does not fit the stored couponValue ${value}: it ${error}`);
}

import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { assertBundleDays, assertBundleValue, type BundleType } from '../../domain/bundles.js';
import { PRICE_SCALE, toUnits } from '../../domain/money.js';
import type { Page } from '../../platform/http/paging.js';
import { raiseBundleEvent } from '../bundles/events.js';
import type { CreateProductBundleGroup, ListProductBundleGroupsQuery, UpdateProductBundleGroup } from './schema.js';

/** One row of product_bundle_groups, the record /product_bundle_groups and /bundles both show. */
export interface ProductBundleGroupRow {
  contract_id: string;
  product_bundle_group_id: number;
  product_bundle_group_name: string;
  /** The platform's bundle type (domain/bundles.ts); /product_bundle_groups writes 1 and 2. */
  division: BundleType;
  quantity: number;
  /** Thousandths (PRICE scale). */
  value_units: number;
  start_date: string | null;
  end_date: string | null;
  tax_division: '0' | '1' | '2';
  reduce_tax_id: string | null;
  priority: number | null;
  point_not_applicable: '0' | '1';
  tax_free_division: '0' | '1' | '2';
  calc_discount: '0' | '1';
  ins_at: number;
  upd_at: number;
}

const COLUMNS = {
  productBundleGroupName: 'product_bundle_group_name',
  division: 'division',
  quantity: 'quantity',
  valueUnits: 'value_units',
  startDate: 'start_date',
  endDate: 'end_date',
};
const SORT_COLUMNS = {
  productBundleGroupId: 'product_bundle_group_id',
  productBundleGroupName: 'product_bundle_group_name',
  updDateTime: 'upd_at',
};

/**
 * Bundle groups named by transaction lines of product division 4 (spec 2.13 productBundleGroupId).
 * The platform's /bundles (masters/bundles) shows the same rows with their tax settings and
 * targets; a group registered here takes their defaults (migration 0042).
 */
export class ProductBundleGroupRepo extends MasterRepo<ProductBundleGroupRow, keyof typeof SORT_COLUMNS> {
  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'product_bundle_group', columns: COLUMNS, sort: SORT_COLUMNS });
  }

  create(contractId: string, input: CreateProductBundleGroup): ProductBundleGroupRow {
    return this.writer.write(() => {
      assertPeriod(input.startDate ?? null, input.endDate ?? null);
      const id = this.insertRow(contractId, {
        product_bundle_group_id: this.ids.next('product_bundle_groups'),
        product_bundle_group_name: input.productBundleGroupName,
        division: input.division,
        quantity: Number(input.quantity),
        value_units: toUnits(input.value, PRICE_SCALE),
        start_date: input.startDate ?? null,
        end_date: input.endDate ?? null,
      });
      this.notify(contractId, id, 'created');
      return this.get(contractId, id);
    });
  }

  /**
   * The path target first (404); a period sent alone is checked against the stored other end,
   * and the value against the type after the change (a bundle of type 3, made through /bundles,
   * keeps a rate of at most 100).
   */
  update(contractId: string, id: string, patch: UpdateProductBundleGroup): ProductBundleGroupRow {
    return this.writer.write(() => {
      const current = this.get(contractId, id);
      assertPeriod(
        patch.startDate === undefined ? current.start_date : patch.startDate,
        patch.endDate === undefined ? current.end_date : patch.endDate,
        patch.endDate === undefined ? 'startDate' : 'endDate',
      );
      const { quantity, value, ...rest } = patch;
      const valueUnits = value === undefined ? undefined : toUnits(value, PRICE_SCALE);
      assertBundleValue(patch.division ?? current.division, valueUnits ?? current.value_units, 'division');
      this.updateFields(contractId, current, { ...rest, quantity: quantity === undefined ? undefined : Number(quantity), valueUnits });
      this.notify(contractId, this.idOf(current), 'edited');
      return this.get(contractId, id);
    });
  }

  list(contractId: string, query: ListProductBundleGroupsQuery, page: Page<keyof typeof SORT_COLUMNS>): ProductBundleGroupRow[] {
    return this.select(contractId, { division: query.division }, page);
  }

  /** The platform's pos:bundles notice: the same record as a bundle. */
  private notify(contractId: string, id: string, action: 'created' | 'edited'): void {
    raiseBundleEvent({ db: this.db, ids: this.ids, clock: this.clock }, contractId, id, action);
  }
}

/**
 * YYYY-MM-DD strings compare as dates; both ends are days of the sale, so equal dates are one
 * day. The detail names the end the client sent (endDate when both were sent).
 */
export function assertPeriod(startDate: string | null, endDate: string | null, field: 'startDate' | 'endDate' = 'endDate'): void {
  assertBundleDays(startDate, endDate, { first: 'startDate', last: 'endDate' }, field === 'endDate' ? 'last' : 'first');
}

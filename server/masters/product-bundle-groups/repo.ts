import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { PRICE_SCALE, toUnits } from '../../domain/money.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import type { CreateProductBundleGroup, ListProductBundleGroupsQuery, UpdateProductBundleGroup } from './schema.js';

export interface ProductBundleGroupRow {
  contract_id: string;
  product_bundle_group_id: number;
  product_bundle_group_name: string;
  division: '1' | '2';
  quantity: number;
  /** Thousandths (PRICE scale). */
  value_units: number;
  start_date: string | null;
  end_date: string | null;
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

/** Bundle groups named by transaction lines of product division 4 (spec 2.13 productBundleGroupId). */
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
      return this.get(contractId, id);
    });
  }

  /** The path target first (404); a period sent alone is checked against the stored other end. */
  update(contractId: string, id: string, patch: UpdateProductBundleGroup): ProductBundleGroupRow {
    return this.writer.write(() => {
      const current = this.get(contractId, id);
      assertPeriod(
        patch.startDate === undefined ? current.start_date : patch.startDate,
        patch.endDate === undefined ? current.end_date : patch.endDate,
        patch.endDate === undefined ? 'startDate' : 'endDate',
      );
      const { quantity, value, ...rest } = patch;
      const values = {
        ...rest,
        quantity: quantity === undefined ? undefined : Number(quantity),
        valueUnits: value === undefined ? undefined : toUnits(value, PRICE_SCALE),
      };
      this.updateFields(contractId, current, values);
      return this.get(contractId, id);
    });
  }

  list(contractId: string, query: ListProductBundleGroupsQuery, page: Page<keyof typeof SORT_COLUMNS>): ProductBundleGroupRow[] {
    return this.select(contractId, { division: query.division }, page);
  }
}

/**
 * YYYY-MM-DD strings compare as dates; both ends are days of the sale, so equal dates are one
 * day. The detail names the end the client sent (endDate when both were sent).
 */
export function assertPeriod(startDate: string | null, endDate: string | null, field: 'startDate' | 'endDate' = 'endDate'): void {
  if (startDate === null || endDate === null || endDate >= startDate) return;
  throw field === 'endDate'
    ? InvalidInput.field('endDate', `${endDate} is before the start date ${startDate}`)
    : InvalidInput.field('startDate', `${startDate} is after the end date ${endDate}`);
}

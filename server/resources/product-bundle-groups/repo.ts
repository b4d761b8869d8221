import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectPage, updateRow } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { PRICE_SCALE, toUnits } from '../../domain/money.js';
import { BadRequest, NotFound } from '../../http/problem.js';
import type { Page } from '../../http/paging.js';
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
const BUNDLES = { table: 'product_bundle_groups', key: 'product_bundle_group_id' };
const SORT_COLUMNS = {
  productBundleGroupId: 'product_bundle_group_id',
  productBundleGroupName: 'product_bundle_group_name',
  updDateTime: 'upd_at',
};

/** Bundle groups named by transaction lines of product division 4 (spec 2.13 productBundleGroupId). */
export class ProductBundleGroupRepo {
  private readonly byId;
  private readonly insert;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.byId = db.prepare('SELECT * FROM product_bundle_groups WHERE contract_id = ? AND product_bundle_group_id = ?');
    this.insert = db.prepare(
      `INSERT INTO product_bundle_groups (contract_id, product_bundle_group_id, product_bundle_group_name, division, quantity,
         value_units, start_date, end_date, ins_at, upd_at)
       VALUES (@contractId, @productBundleGroupId, @productBundleGroupName, @division, @quantity,
         @valueUnits, @startDate, @endDate, @now, @now)`,
    );
  }

  find(contractId: string, id: string | number): ProductBundleGroupRow | undefined {
    return this.byId.get(contractId, id) as ProductBundleGroupRow | undefined;
  }

  get(contractId: string, id: string): ProductBundleGroupRow {
    const row = this.find(contractId, id);
    if (!row) throw NotFound.field('product_bundle_group_id', `product bundle group ${id} does not exist`);
    return row;
  }

  create(contractId: string, input: CreateProductBundleGroup): ProductBundleGroupRow {
    return this.writer.write(() => {
      assertPeriod(input.startDate ?? null, input.endDate ?? null);
      const productBundleGroupId = this.ids.next('product_bundle_groups');
      this.insert.run({
        contractId,
        productBundleGroupId,
        productBundleGroupName: input.productBundleGroupName,
        division: input.division,
        quantity: Number(input.quantity),
        valueUnits: toUnits(input.value, PRICE_SCALE),
        startDate: input.startDate ?? null,
        endDate: input.endDate ?? null,
        now: this.clock.now().getTime(),
      });
      this.writer.changed({ contractId, entity: 'product_bundle_group', id: productBundleGroupId, op: 'insert' });
      return this.get(contractId, productBundleGroupId);
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
      if (updateRow(this.db, BUNDLES, contractId, current.product_bundle_group_id, values, COLUMNS, this.clock.now().getTime())) {
        this.writer.changed({ contractId, entity: 'product_bundle_group', id: String(current.product_bundle_group_id), op: 'update' });
      }
      return this.get(contractId, id);
    });
  }

  list(contractId: string, query: ListProductBundleGroupsQuery, page: Page<keyof typeof SORT_COLUMNS>): ProductBundleGroupRow[] {
    return selectPage<ProductBundleGroupRow, keyof typeof SORT_COLUMNS>(this.db, BUNDLES, contractId, { division: query.division }, page, SORT_COLUMNS);
  }
}

/**
 * YYYY-MM-DD strings compare as dates; both ends are days of the sale, so equal dates are one
 * day. The detail names the end the client sent (endDate when both were sent).
 */
function assertPeriod(startDate: string | null, endDate: string | null, field: 'startDate' | 'endDate' = 'endDate'): void {
  if (startDate === null || endDate === null || endDate >= startDate) return;
  throw field === 'endDate'
    ? BadRequest.field('endDate', `${endDate} is before the start date ${startDate}`)
    : BadRequest.field('startDate', `${startDate} is after the end date ${endDate}`);
}

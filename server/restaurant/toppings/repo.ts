import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import type { TAX_TYPES } from '../../domain/order-items.js';
import { parseDateTime } from '../../domain/time.js';
import type { Page } from '../../platform/http/paging.js';
import { DEFAULT_CREATED_IN } from '../topping-groups/schema.js';
import { priceDefaults, type CreateTopping, type ListToppingsQuery, type PRICE_TAXES, type TOPPING_SORT, type UpdateTopping } from './schema.js';

export interface ToppingRow {
  contract_id: string;
  topping_id: number;
  topping_group_id: number;
  name: string;
  kana: string | null;
  category_id: number | null;
  note: string | null;
  sort_no: number;
  apply_at: number | null;
  is_open_price: 0 | 1;
  created_in: string;
  tax_rate: string;
  tax_type: (typeof TAX_TYPES)[number];
  amount: string;
  tax: (typeof PRICE_TAXES)[number];
  ins_at: number;
  upd_at: number;
}

type Sort = (typeof TOPPING_SORT)[number];

const COLUMNS = {
  toppingGroupId: 'topping_group_id',
  name: 'name',
  kana: 'kana',
  categoryId: 'category_id',
  note: 'note',
  sortNo: 'sort_no',
  applyAt: 'apply_at',
  isOpenPrice: 'is_open_price',
  createdIn: 'created_in',
  taxRate: 'tax_rate',
  taxType: 'tax_type',
  amount: 'amount',
  tax: 'tax',
};
const SORT_COLUMNS: Record<Sort, string> = { sort_no: 'sort_no', id: 'topping_id', name: 'name' };

/** Toppings: a plain master whose group and category must exist. */
export class ToppingRepo extends MasterRepo<ToppingRow, Sort> {
  private readonly groupExists;
  private readonly categoryExists;
  private readonly members;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'topping', columns: COLUMNS, sort: SORT_COLUMNS });
    this.groupExists = db.prepare('SELECT 1 FROM topping_groups WHERE contract_id = ? AND topping_group_id = ?');
    this.categoryExists = db.prepare('SELECT 1 FROM categories WHERE contract_id = ? AND category_id = ?');
    this.members = db.prepare('SELECT * FROM toppings WHERE contract_id = ? AND topping_group_id = ? ORDER BY sort_no, topping_id');
  }

  /** A topping group's toppings, in sort_no order (then id). */
  membersOf(contractId: string, toppingGroupId: number): ToppingRow[] {
    return this.members.all(contractId, toppingGroupId) as ToppingRow[];
  }

  create(contractId: string, input: CreateTopping): ToppingRow {
    return this.writer.write(() => {
      this.assertReferences(contractId, input);
      const taxType = input.taxType ?? 'normal';
      const price = priceDefaults(taxType, input.taxRate, input.tax);
      const id = this.insertRow(contractId, {
        topping_id: this.ids.next('toppings'),
        topping_group_id: Number(input.toppingGroupId),
        name: input.name,
        kana: input.kana ?? null,
        category_id: input.categoryId === undefined ? null : Number(input.categoryId),
        note: input.note ?? null,
        sort_no: input.sortNo ?? 0,
        apply_at: input.applyDatetime === undefined ? null : parseDateTime(input.applyDatetime),
        is_open_price: input.isOpenPrice ? 1 : 0,
        created_in: input.createdIn ?? DEFAULT_CREATED_IN,
        tax_rate: price.taxRate,
        tax_type: taxType,
        amount: input.amount ?? '0',
        tax: price.tax,
      });
      return this.get(contractId, id);
    });
  }

  /** Only the keys sent change; a new taxType without taxRate or tax takes that type's defaults. */
  update(contractId: string, toppingId: string, patch: UpdateTopping): ToppingRow {
    return this.writer.write(() => {
      const current = this.get(contractId, toppingId);
      this.assertReferences(contractId, patch);
      const { applyDatetime, categoryId, isOpenPrice, taxRate, tax, ...rest } = patch;
      const values: Record<string, unknown> = { ...rest };
      if (patch.toppingGroupId !== undefined) values.toppingGroupId = Number(patch.toppingGroupId);
      if (categoryId !== undefined) values.categoryId = categoryId === null ? null : Number(categoryId);
      if (applyDatetime !== undefined) values.applyAt = applyDatetime === null ? null : parseDateTime(applyDatetime);
      if (isOpenPrice !== undefined) values.isOpenPrice = isOpenPrice ? 1 : 0;
      if (patch.taxType !== undefined || taxRate !== undefined || tax !== undefined) {
        const taxType = patch.taxType ?? current.tax_type;
        const typeChanged = patch.taxType !== undefined && patch.taxType !== current.tax_type;
        const price = priceDefaults(taxType, taxRate ?? (typeChanged ? undefined : Number(current.tax_rate)), tax ?? (typeChanged ? undefined : current.tax));
        Object.assign(values, { taxType, taxRate: price.taxRate, tax: price.tax });
      }
      this.updateFields(contractId, current, values);
      return this.get(contractId, toppingId);
    });
  }

  delete(contractId: string, toppingId: string): void {
    this.writer.write(() => this.deleteRow(contractId, this.get(contractId, toppingId)));
  }

  /** GET /toppings: by group and category; sort_no order unless a sort is given. */
  list(contractId: string, query: ListToppingsQuery, page: Page<Sort>): ToppingRow[] {
    const filters = {
      topping_group_id: query.group_id === undefined ? undefined : Number(query.group_id),
      category_id: query.category_id === undefined ? undefined : Number(query.category_id),
    };
    return this.select(contractId, filters, { ...page, sort: page.sort.length ? page.sort : [{ field: 'sort_no', desc: false }] });
  }

  private assertReferences(contractId: string, input: { toppingGroupId?: string; categoryId?: string | null }): void {
    if (input.toppingGroupId !== undefined && !this.groupExists.get(contractId, input.toppingGroupId)) {
      throw InvalidInput.field('toppingGroupId', `topping group ${input.toppingGroupId} does not exist`);
    }
    if (input.categoryId !== undefined && input.categoryId !== null && !this.categoryExists.get(contractId, input.categoryId)) {
      throw InvalidInput.field('categoryId', `category ${input.categoryId} does not exist`);
    }
  }
}

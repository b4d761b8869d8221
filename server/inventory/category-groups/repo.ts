import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import type { CreateCategoryGroup, ListCategoryGroupsQuery, UpdateCategoryGroup } from './schema.js';

export interface CategoryGroupRow {
  contract_id: string;
  category_group_id: number;
  category_group_code: string | null;
  category_group_name: string;
  display_sequence: number | null;
  ins_at: number;
  upd_at: number;
}

const COLUMNS = { categoryGroupCode: 'category_group_code', categoryGroupName: 'category_group_name', displaySequence: 'display_sequence' };
const SORT_COLUMNS = {
  categoryGroupId: 'category_group_id',
  categoryGroupCode: 'category_group_code',
  displaySequence: 'display_sequence',
  updDateTime: 'upd_at',
};

/** Category groups (部門グループ): a supporting master of categories (2.1) and purchase orders (2.10). */
export class CategoryGroupRepo extends MasterRepo<CategoryGroupRow, keyof typeof SORT_COLUMNS> {
  private readonly byCode;
  private readonly firstCategory;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'category_group', columns: COLUMNS, sort: SORT_COLUMNS });
    this.byCode = db.prepare('SELECT category_group_id FROM category_groups WHERE contract_id = ? AND category_group_code = ?');
    this.firstCategory = db.prepare('SELECT category_id FROM categories WHERE contract_id = ? AND category_group_id = ? ORDER BY category_id LIMIT 1').pluck();
  }

  create(contractId: string, input: CreateCategoryGroup): CategoryGroupRow {
    return this.writer.write(() => {
      this.assertCodeFree(contractId, input.categoryGroupCode ?? null, null);
      const id = this.insertRow(contractId, {
        category_group_id: this.ids.next('category_groups'),
        category_group_code: input.categoryGroupCode ?? null,
        category_group_name: input.categoryGroupName,
        display_sequence: input.displaySequence === undefined || input.displaySequence === null ? null : Number(input.displaySequence),
      });
      return this.get(contractId, id);
    });
  }

  update(contractId: string, groupId: string, patch: UpdateCategoryGroup): CategoryGroupRow {
    return this.writer.write(() => {
      const current = this.get(contractId, groupId);
      if (patch.categoryGroupCode !== undefined) this.assertCodeFree(contractId, patch.categoryGroupCode, current.category_group_id);
      const values: Record<string, unknown> = { ...patch };
      if (typeof patch.displaySequence === 'string') values.displaySequence = Number(patch.displaySequence);
      this.updateFields(contractId, current, values);
      return this.get(contractId, groupId);
    });
  }

  /** A group still named by a category is refused (400): clear the categories' categoryGroupId first. */
  delete(contractId: string, groupId: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, groupId);
      const category = this.firstCategory.get(contractId, current.category_group_id) as number | undefined;
      if (category !== undefined) throw InvalidInput.field('category_group_id', `category group ${groupId} is used by category ${category}`);
      this.deleteRow(contractId, current);
    });
  }

  list(contractId: string, query: ListCategoryGroupsQuery, page: Page<keyof typeof SORT_COLUMNS>): CategoryGroupRow[] {
    const filters = {
      category_group_id: query.category_group_id === undefined ? undefined : Number(query.category_group_id),
      category_group_code: query.category_group_code,
    };
    return this.select(contractId, filters, page);
  }

  /** The group a body field names, or 400 `[field] category group N does not exist`. */
  referenced(contractId: string, groupId: string, field = 'categoryGroupId'): CategoryGroupRow {
    const row = this.find(contractId, groupId);
    if (!row) throw InvalidInput.field(field, `category group ${groupId} does not exist`);
    return row;
  }

  private assertCodeFree(contractId: string, code: string | null, selfId: number | null): void {
    if (code === null) return;
    const other = this.byCode.get(contractId, code) as { category_group_id: number } | undefined;
    if (other && other.category_group_id !== selfId) {
      throw InvalidInput.field('categoryGroupCode', `category group code ${code} is already used by category group ${other.category_group_id}`);
    }
  }
}

import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import { setClause } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import { CategoryGroupRepo } from '../../inventory/category-groups/repo.js';
import { MAX_LEVEL, type CreateCategory, type ListCategoriesQuery, type UpdateCategory } from './schema.js';

export interface CategoryRow {
  contract_id: string;
  category_id: number;
  category_code: string | null;
  category_name: string;
  category_abbr: string | null;
  display_sequence: number | null;
  display_flag: '0' | '1';
  tax_division: '0' | '1' | '2';
  point_not_applicable: '0' | '1';
  tax_free_division: '0' | '1' | '2';
  reduce_tax_id: '10000001' | '10000002' | '10000003' | '10000004' | null;
  color: string | null;
  category_group_id: number | null;
  parent_category_id: number | null;
  level: number;
  tag: string | null;
  ins_at: number;
  upd_at: number;
}

const COLUMNS = {
  categoryName: 'category_name',
  categoryCode: 'category_code',
  categoryAbbr: 'category_abbr',
  displaySequence: 'display_sequence',
  displayFlag: 'display_flag',
  taxDivision: 'tax_division',
  pointNotApplicable: 'point_not_applicable',
  taxFreeDivision: 'tax_free_division',
  reduceTaxId: 'reduce_tax_id',
  color: 'color',
  categoryGroupId: 'category_group_id',
  parentCategoryId: 'parent_category_id',
  tag: 'tag',
};
const SORT_COLUMNS = {
  categoryId: 'category_id',
  categoryCode: 'category_code',
  displaySequence: 'display_sequence',
  level: 'level',
  updDateTime: 'upd_at',
};

const tooDeep = (detail: string) => InvalidInput.field('parentCategoryId', `${detail}: level would exceed ${MAX_LEVEL}`);

export class CategoryRepo extends MasterRepo<CategoryRow, keyof typeof SORT_COLUMNS> {
  private readonly byCode;
  private readonly firstChild;
  private readonly firstUser;
  private readonly subtreeOf;
  private readonly shiftLevel;
  private readonly groups;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    // `level` follows from the parent: written along with any PATCH that changes the row, never sent.
    super(db, writer, clock, { entity: 'category', columns: { ...COLUMNS, level: 'level' }, sort: SORT_COLUMNS });
    this.groups = new CategoryGroupRepo(db, writer, ids, clock);
    this.byCode = db.prepare('SELECT category_id FROM categories WHERE contract_id = ? AND category_code = ?');
    this.firstChild = db.prepare('SELECT category_id FROM categories WHERE contract_id = ? AND parent_category_id = ? LIMIT 1');
    // Products and menus name their category without a foreign key (their tables came later
    // and a failed FK would be a 500); the delete asks them here instead.
    this.firstUser = db.prepare(
      `SELECT 'product' AS kind, product_id AS id FROM products WHERE contract_id = @contractId AND category_id = @categoryId
       UNION ALL
       SELECT 'menu', menu_id FROM menus WHERE contract_id = @contractId AND category_id = @categoryId
       LIMIT 1`,
    );
    // UNION (not UNION ALL) so even a corrupt cycle in the file cannot make the walk endless.
    this.subtreeOf = db.prepare(
      `WITH RECURSIVE sub (category_id, level) AS (
         SELECT category_id, level FROM categories WHERE contract_id = @contractId AND category_id = @categoryId
         UNION
         SELECT c.category_id, c.level FROM categories c JOIN sub ON c.parent_category_id = sub.category_id
         WHERE c.contract_id = @contractId)
       SELECT category_id, level FROM sub`,
    );
    this.shiftLevel = db.prepare(
      'UPDATE categories SET level = level + @delta, upd_at = @now WHERE contract_id = @contractId AND category_id = @categoryId',
    );
  }

  create(contractId: string, input: CreateCategory): CategoryRow {
    return this.writer.write(() => {
      this.assertCodeFree(contractId, input.categoryCode ?? null, null);
      if (input.categoryGroupId) this.groups.referenced(contractId, input.categoryGroupId); // spec 2.1: an existing group
      const parentId = input.parentCategoryId ?? null;
      let level = 1;
      if (parentId !== null) {
        const parent = this.parent(contractId, parentId);
        level = parent.level + 1;
        if (level > MAX_LEVEL) throw tooDeep(`category ${parentId} is at level ${parent.level}, so a category under it would be at level ${level}`);
      }
      const id = this.insertRow(contractId, {
        category_id: this.ids.next('categories'),
        category_code: input.categoryCode ?? null,
        category_name: input.categoryName,
        category_abbr: input.categoryAbbr ?? null,
        display_sequence: input.displaySequence ?? null,
        display_flag: input.displayFlag ?? '1',
        tax_division: input.taxDivision ?? '0',
        point_not_applicable: input.pointNotApplicable ?? '0',
        tax_free_division: input.taxFreeDivision ?? '0',
        reduce_tax_id: input.reduceTaxId ?? null,
        color: input.color ?? null,
        category_group_id: input.categoryGroupId ?? null,
        parent_category_id: parentId,
        level,
        tag: input.tag ?? null,
      });
      return this.get(contractId, id);
    });
  }

  update(contractId: string, categoryId: string, patch: UpdateCategory): CategoryRow {
    return this.writer.write(() => {
      const current = this.get(contractId, categoryId);
      if (patch.categoryCode !== undefined) this.assertCodeFree(contractId, patch.categoryCode, current.category_id);
      if (patch.categoryGroupId) this.groups.referenced(contractId, patch.categoryGroupId);
      const now = this.clock.now().getTime();
      const level = patch.parentCategoryId === undefined ? current.level : this.reparent(contractId, current, patch.parentCategoryId, now);
      if (setClause(patch, COLUMNS)) this.updateFields(contractId, current, { ...patch, level }, now);
      return this.get(contractId, categoryId);
    });
  }

  delete(contractId: string, categoryId: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, categoryId);
      if (this.firstChild.get(contractId, current.category_id)) {
        throw InvalidInput.field('category_id', `category ${categoryId} has child categories`);
      }
      const user = this.firstUser.get({ contractId, categoryId: current.category_id }) as { kind: string; id: number } | undefined;
      if (user) throw InvalidInput.field('category_id', `category ${categoryId} is used by ${user.kind} ${user.id}`);
      this.deleteRow(contractId, current);
    });
  }

  list(contractId: string, query: ListCategoriesQuery, page: Page<keyof typeof SORT_COLUMNS>): CategoryRow[] {
    const { category_code, parent_category_id, level, display_flag } = query;
    const filters = { category_code, parent_category_id, level, display_flag };
    return this.select(contractId, filters, page);
  }

  /**
   * Moves `current` under `parentId` (null: to the top) and shifts the levels of its whole
   * subtree by the same step; returns the category's new level. Refuses, before anything is
   * written, a parent that is missing, the category itself or one of its descendants, and a
   * move that would push any category of the subtree below level 3.
   */
  private reparent(contractId: string, current: CategoryRow, parentId: string | null, now: number): number {
    const self = current.category_id;
    const subtree = this.subtreeOf.all({ contractId, categoryId: self }) as { category_id: number; level: number }[];
    let level = 1;
    if (parentId !== null) {
      const parent = this.parent(contractId, parentId);
      if (parent.category_id === self) throw InvalidInput.field('parentCategoryId', `category ${self} cannot be its own parent`);
      if (subtree.some((c) => c.category_id === parent.category_id)) {
        throw InvalidInput.field('parentCategoryId', `category ${parentId} is a descendant of category ${self}`);
      }
      level = parent.level + 1;
      const deepest = Math.max(...subtree.map((c) => c.level)) + level - current.level;
      if (level > MAX_LEVEL) throw tooDeep(`category ${parentId} is at level ${parent.level}, so category ${self} under it would be at level ${level}`);
      if (deepest > MAX_LEVEL) throw tooDeep(`under category ${parentId} the descendants of category ${self} would reach level ${deepest}`);
    }
    const delta = level - current.level;
    if (delta !== 0) {
      for (const c of subtree) {
        if (c.category_id === self) continue; // the caller writes the category's own row
        this.shiftLevel.run({ delta, now, contractId, categoryId: c.category_id });
        this.writer.changed({ contractId, entity: 'category', id: String(c.category_id), op: 'update' });
      }
    }
    return level;
  }

  private parent(contractId: string, parentId: string): CategoryRow {
    const parent = this.find(contractId, parentId);
    if (!parent) throw InvalidInput.field('parentCategoryId', `category ${parentId} does not exist`);
    return parent;
  }

  private assertCodeFree(contractId: string, code: string | null, selfId: number | null): void {
    if (code === null) return;
    const other = this.byCode.get(contractId, code) as { category_id: number } | undefined;
    if (other && other.category_id !== selfId) {
      throw InvalidInput.field('categoryCode', `category code ${code} is already used by category ${other.category_id}`);
    }
  }
}

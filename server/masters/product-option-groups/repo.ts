import type { Statement } from 'better-sqlite3';
import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import { updConditions } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { OPTION_GROUP_PRODUCT_EVENT, raiseEvent } from '../../events/webhook-events.js';
import type { Page } from '../../platform/http/paging.js';
import type { ToppingGroupRow } from '../../restaurant/topping-groups/repo.js';
import { DEFAULT_CREATED_IN } from '../../restaurant/topping-groups/schema.js';
import { conditionAfter, type ConditionId, type OptionCondition } from './condition.js';
import { OptionGroupLinks, raiseOptionGroupEvent } from './membership.js';
import type {
  CreateProductOptionGroup,
  ListProductOptionGroupsQuery,
  OptionGroupRecord,
  PRODUCT_OPTION_GROUP_SORT,
  UpdateProductOptionGroup,
} from './schema.js';

type SortField = (typeof PRODUCT_OPTION_GROUP_SORT)[number];

/** How the shared topping_groups row stores a condition (the restaurant API's rule.condition). */
const STORED_CONDITION = { '0': null, '1': 'all', '2': 'category' } as const satisfies Record<ConditionId, ToppingGroupRow['rule_condition']>;

const COLUMNS = { productOptionGroupName: 'name', ruleCondition: 'rule_condition', ruleMax: 'rule_max', ruleMin: 'rule_min' };
const SORT_COLUMNS: Record<SortField, string> = {
  productOptionGroupId: 'topping_group_id',
  // No condition ('0') first, then all ('1') and category ('2'), as the codes sort.
  conditionId: "COALESCE(rule_condition, '')",
  updDateTime: 'upd_at',
};

const conditionOf = (row: ToppingGroupRow): OptionCondition => ({
  conditionId: row.rule_condition === null ? '0' : row.rule_condition === 'all' ? '1' : '2',
  max: row.rule_max,
  min: row.rule_min,
});

const storedCondition = (c: OptionCondition) => ({ ruleCondition: STORED_CONDITION[c.conditionId], ruleMax: c.max, ruleMin: c.min });

/**
 * Product option groups: the restaurant API's topping groups (same table, same ids) with the
 * platform's POS fields and their option products (migration 0039).
 */
export class ProductOptionGroupRepo extends MasterRepo<ToppingGroupRow, SortField> {
  private readonly links: OptionGroupLinks;
  private readonly productDivision: Statement<unknown[]>;
  private readonly addOption: Statement<unknown[]>;
  private readonly removeOption: Statement<unknown[]>;
  private readonly clearOptions: Statement<unknown[]>;
  private readonly touch: Statement<unknown[]>;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, {
      entity: 'topping_group',
      columns: COLUMNS,
      sort: SORT_COLUMNS,
      noun: 'product option group',
      param: 'product_option_group_id',
    });
    this.links = new OptionGroupLinks(db);
    this.productDivision = db.prepare('SELECT product_division FROM products WHERE contract_id = ? AND product_id = ?');
    this.addOption = db.prepare('INSERT INTO product_option_group_products (contract_id, product_option_group_id, product_id) VALUES (?, ?, ?)');
    this.removeOption = db.prepare('DELETE FROM product_option_group_products WHERE contract_id = ? AND product_option_group_id = ? AND product_id = ?');
    this.clearOptions = db.prepare('DELETE FROM product_option_group_products WHERE contract_id = ? AND product_option_group_id = ?');
    this.touch = db.prepare('UPDATE topping_groups SET upd_at = ? WHERE contract_id = ? AND topping_group_id = ?');
  }

  /** The group with its option products (404 when absent). */
  record(contractId: string, id: string | number): Required<OptionGroupRecord> {
    const row = this.get(contractId, id);
    return { row, products: this.links.optionProducts(contractId, row.topping_group_id) };
  }

  create(contractId: string, input: CreateProductOptionGroup): OptionGroupRecord {
    return this.writer.write(() => {
      const condition = storedCondition(conditionAfter(null, input));
      this.assertOptionProducts(contractId, input.products);
      const id = this.insertRow(contractId, {
        topping_group_id: this.ids.next('topping_groups'),
        name: input.productOptionGroupName,
        created_in: DEFAULT_CREATED_IN,
        rule_condition: condition.ruleCondition,
        rule_max: condition.ruleMax,
        rule_min: condition.ruleMin,
      });
      this.replaceOptions(contractId, Number(id), input.products);
      this.notifyGroup(contractId, id, 'created');
      this.notifyProducts(contractId, id, input.products, 'created');
      return this.record(contractId, id);
    });
  }

  /** The path target first (404), then the body's rules (400); `products` replaces the whole list. */
  update(contractId: string, id: string, patch: UpdateProductOptionGroup): OptionGroupRecord {
    return this.writer.write(() => {
      const current = this.get(contractId, id);
      const condition = storedCondition(conditionAfter(conditionOf(current), patch));
      if (patch.products !== undefined) {
        this.assertOptionProducts(contractId, patch.products);
        this.replaceOptions(contractId, current.topping_group_id, patch.products);
      }
      // The condition columns are always written, so a change of the products alone is reported too.
      this.updateFields(contractId, current, { productOptionGroupName: patch.productOptionGroupName, ...condition });
      this.notifyGroup(contractId, this.idOf(current), 'edited');
      if (patch.products !== undefined) this.notifyProducts(contractId, this.idOf(current), patch.products, 'bulk-update');
      return this.record(contractId, id);
    });
  }

  /** 400 while toppings belong to the group or a product offers it (membership.ts, both views' rule). */
  delete(contractId: string, id: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, id);
      this.links.assertUnused(contractId, current.topping_group_id, { param: 'product_option_group_id', noun: 'product option group' });
      this.deleteRow(contractId, current); // its option products go with it (ON DELETE CASCADE)
      this.notifyGroup(contractId, this.idOf(current), 'deleted');
    });
  }

  /**
   * DELETE /product_option_groups/{id}/products/{product_id}: 404 for an unknown group, product
   * or pair; 400 for the group's last option product (a group keeps at least one).
   */
  removeProduct(contractId: string, id: string, productId: string): void {
    this.writer.write(() => {
      const group = this.get(contractId, id);
      if (this.productDivision.get(contractId, productId) === undefined) throw NotFoundError.field('product_id', `product ${productId} does not exist`);
      const options = this.links.optionProducts(contractId, group.topping_group_id);
      if (!options.includes(Number(productId))) {
        throw NotFoundError.field('product_id', `product ${productId} is not an option product of product option group ${group.topping_group_id}`);
      }
      if (options.length === 1) {
        throw InvalidInput.field('product_id', `product ${productId} is the only option product of product option group ${group.topping_group_id}: a group keeps at least one`);
      }
      this.removeOption.run(contractId, group.topping_group_id, Number(productId));
      this.touch.run(this.now(), contractId, group.topping_group_id);
      this.changed(contractId, this.idOf(group), 'update');
      this.notifyProducts(contractId, this.idOf(group), [{ productId: Number(productId) }], 'deleted');
    });
  }

  list(contractId: string, query: ListProductOptionGroupsQuery, page: Page<SortField>): OptionGroupRecord[] {
    const condition = query.condition_id === undefined ? undefined : (STORED_CONDITION[query.condition_id] ?? '');
    const rows = this.selectWhere(
      contractId,
      [['name = ?', query.product_option_group_name], ["COALESCE(rule_condition, '') = ?", condition], ...updConditions(query)],
      page,
    );
    return rows.map((row) => ({ row }));
  }

  /** The platform's pos:option-groups notice, in the write's transaction. */
  private notifyGroup(contractId: string, id: string, action: 'created' | 'edited' | 'deleted'): void {
    raiseOptionGroupEvent({ db: this.db, ids: this.ids, clock: this.clock }, contractId, id, action);
  }

  /** The platform's pos:product-options notice: the pairs added, removed, or the whole new list (bulk-update). */
  private notifyProducts(contractId: string, id: string, products: readonly { productId: number }[], action: 'created' | 'deleted' | 'bulk-update'): void {
    const ids = products.map((p) => ({ productOptionGroupId: id, productId: String(p.productId) }));
    raiseEvent({ db: this.db, ids: this.ids, clock: this.clock }, { contractId, event: OPTION_GROUP_PRODUCT_EVENT, action, payload: { ids }, cause: { entity: 'topping_group', id } });
  }

  /** Every listed product must exist and be an option product (productDivision 2). */
  private assertOptionProducts(contractId: string, entries: readonly { productId: number }[]): void {
    for (const [i, { productId }] of entries.entries()) {
      const found = this.productDivision.get(contractId, productId) as { product_division: string } | undefined;
      if (!found) throw InvalidInput.field(`products[${i}].productId`, `product ${productId} does not exist`);
      if (found.product_division !== '2') {
        throw InvalidInput.field(`products[${i}].productId`, `product ${productId} is not an option product (its productDivision is ${found.product_division}, not 2)`);
      }
    }
  }

  private replaceOptions(contractId: string, groupId: number, entries: readonly { productId: number }[]): void {
    this.clearOptions.run(contractId, groupId);
    for (const { productId } of entries) this.addOption.run(contractId, groupId, productId);
  }
}

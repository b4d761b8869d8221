import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { OptionGroupLinks, raiseOptionGroupEvent } from '../../masters/product-option-groups/membership.js';
import type { Page } from '../../platform/http/paging.js';
import { DEFAULT_CREATED_IN, type CreateToppingGroup, type RULE_CONDITIONS, type UpdateToppingGroup } from './schema.js';

export interface ToppingGroupRow {
  contract_id: string;
  topping_group_id: number;
  name: string;
  created_in: string;
  rule_condition: (typeof RULE_CONDITIONS)[number] | null;
  rule_min: number | null;
  rule_max: number | null;
  ins_at: number;
  upd_at: number;
}

type Rule = CreateToppingGroup['rule'];

const COLUMNS = {
  name: 'name',
  createdIn: 'created_in',
  ruleCondition: 'rule_condition',
  ruleMin: 'rule_min',
  ruleMax: 'rule_max',
};
const SORT_COLUMNS = { id: 'topping_group_id', name: 'name' };

/** The rule's three columns: all null when there is no condition. */
const ruleColumns = (rule: Rule) => ({
  ruleCondition: rule?.condition ?? null,
  ruleMin: rule?.min ?? null,
  ruleMax: rule?.max ?? null,
});

export class ToppingGroupRepo extends MasterRepo<ToppingGroupRow, keyof typeof SORT_COLUMNS> {
  /** The group's toppings and the products offering it (the POS side's option groups are these groups). */
  private readonly links;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'topping_group', columns: COLUMNS, sort: SORT_COLUMNS });
    this.links = new OptionGroupLinks(db);
  }

  create(contractId: string, input: CreateToppingGroup): ToppingGroupRow {
    return this.writer.write(() => {
      const rule = ruleColumns(input.rule);
      const id = this.insertRow(contractId, {
        topping_group_id: this.ids.next('topping_groups'),
        name: input.name,
        created_in: input.createdIn ?? DEFAULT_CREATED_IN,
        rule_condition: rule.ruleCondition,
        rule_min: rule.ruleMin,
        rule_max: rule.ruleMax,
      });
      this.notify(contractId, id, 'created');
      return this.get(contractId, id);
    });
  }

  update(contractId: string, id: string, patch: UpdateToppingGroup): ToppingGroupRow {
    return this.writer.write(() => {
      const current = this.get(contractId, id);
      const { rule, ...rest } = patch;
      const values = rule === undefined ? rest : { ...rest, ...ruleColumns(rule) };
      this.updateFields(contractId, current, values);
      this.notify(contractId, this.idOf(current), 'edited');
      return this.get(contractId, id);
    });
  }

  /** Refused (400) while toppings belong to the group or a product offers it: move or delete them first. */
  delete(contractId: string, id: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, id);
      this.links.assertUnused(contractId, current.topping_group_id, { param: 'topping_group_id', noun: 'topping group' });
      this.deleteRow(contractId, current);
      this.notify(contractId, this.idOf(current), 'deleted');
    });
  }

  /** The same group is a product option group on the POS side: the platform's pos:option-groups notice. */
  private notify(contractId: string, id: string, action: 'created' | 'edited' | 'deleted'): void {
    raiseOptionGroupEvent({ db: this.db, ids: this.ids, clock: this.clock }, contractId, id, action);
  }

  list(contractId: string, page: Page<keyof typeof SORT_COLUMNS>): ToppingGroupRow[] {
    return this.select(contractId, {}, page);
  }
}

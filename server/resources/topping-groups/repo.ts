import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectPage, updateRow } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import type { Page } from '../../http/paging.js';
import { NotFound } from '../../http/problem.js';
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
const GROUPS = { table: 'topping_groups', key: 'topping_group_id' };
const SORT_COLUMNS = { id: 'topping_group_id', name: 'name' };

/** The rule's three columns: all null when there is no condition. */
const ruleColumns = (rule: Rule) => ({
  ruleCondition: rule?.condition ?? null,
  ruleMin: rule?.min ?? null,
  ruleMax: rule?.max ?? null,
});

export class ToppingGroupRepo {
  private readonly byId;
  private readonly insert;
  private readonly remove;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.byId = db.prepare('SELECT * FROM topping_groups WHERE contract_id = ? AND topping_group_id = ?');
    this.insert = db.prepare(
      `INSERT INTO topping_groups (contract_id, topping_group_id, name, created_in, rule_condition, rule_min, rule_max, ins_at, upd_at)
       VALUES (@contractId, @id, @name, @createdIn, @ruleCondition, @ruleMin, @ruleMax, @now, @now)`,
    );
    this.remove = db.prepare('DELETE FROM topping_groups WHERE contract_id = ? AND topping_group_id = ?');
  }

  get(contractId: string, id: string): ToppingGroupRow {
    const row = this.byId.get(contractId, id) as ToppingGroupRow | undefined;
    if (!row) throw NotFound.field('topping_group_id', `topping group ${id} does not exist`);
    return row;
  }

  create(contractId: string, input: CreateToppingGroup): ToppingGroupRow {
    return this.writer.write(() => {
      const id = this.ids.next('topping_groups');
      this.insert.run({
        contractId,
        id,
        name: input.name,
        createdIn: input.createdIn ?? DEFAULT_CREATED_IN,
        ...ruleColumns(input.rule),
        now: this.clock.now().getTime(),
      });
      this.writer.changed({ contractId, entity: 'topping_group', id, op: 'insert' });
      return this.get(contractId, id);
    });
  }

  update(contractId: string, id: string, patch: UpdateToppingGroup): ToppingGroupRow {
    return this.writer.write(() => {
      const current = this.get(contractId, id);
      const { rule, ...rest } = patch;
      const values = rule === undefined ? rest : { ...rest, ...ruleColumns(rule) };
      if (updateRow(this.db, GROUPS, contractId, current.topping_group_id, values, COLUMNS, this.clock.now().getTime())) {
        this.writer.changed({ contractId, entity: 'topping_group', id: String(current.topping_group_id), op: 'update' });
      }
      return this.get(contractId, id);
    });
  }

  delete(contractId: string, id: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, id);
      this.remove.run(contractId, current.topping_group_id);
      this.writer.changed({ contractId, entity: 'topping_group', id: String(current.topping_group_id), op: 'delete' });
    });
  }

  list(contractId: string, page: Page<keyof typeof SORT_COLUMNS>): ToppingGroupRow[] {
    return selectPage<ToppingGroupRow, keyof typeof SORT_COLUMNS>(this.db, GROUPS, contractId, {}, page, SORT_COLUMNS);
  }
}

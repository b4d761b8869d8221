import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectPage, updateRow } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { BadRequest, NotFound } from '../../http/problem.js';
import type { Page } from '../../http/paging.js';
import type { CreateCustomerGroup, ListCustomerGroupsQuery, UpdateCustomerGroup } from './schema.js';

export interface CustomerGroupSectionRow {
  contract_id: string;
  section_id: number;
  label: string;
  ins_at: number;
  upd_at: number;
}

export interface CustomerGroupRow {
  contract_id: string;
  customer_group_id: number;
  section_id: number;
  label: string;
  display_flag: '0' | '1';
  display_sequence: number;
  ins_at: number;
  upd_at: number;
}

/** Sections are fixed slots 1..5 per contract, created or relabelled by PUT. */
export class CustomerGroupSectionRepo {
  private readonly byId;
  private readonly all;
  private readonly insert;
  private readonly relabel;

  constructor(
    db: Sqlite,
    private readonly writer: Writer,
    private readonly clock: Clock,
  ) {
    this.byId = db.prepare('SELECT * FROM customer_group_sections WHERE contract_id = ? AND section_id = ?');
    this.all = db.prepare('SELECT * FROM customer_group_sections WHERE contract_id = ? ORDER BY section_id');
    this.insert = db.prepare(
      `INSERT INTO customer_group_sections (contract_id, section_id, label, ins_at, upd_at)
       VALUES (@contractId, @sectionId, @label, @now, @now)`,
    );
    this.relabel = db.prepare(
      `UPDATE customer_group_sections SET label = @label, upd_at = @now
       WHERE contract_id = @contractId AND section_id = @sectionId`,
    );
  }

  find(contractId: string, sectionId: number): CustomerGroupSectionRow | undefined {
    return this.byId.get(contractId, sectionId) as CustomerGroupSectionRow | undefined;
  }

  list(contractId: string): CustomerGroupSectionRow[] {
    return this.all.all(contractId) as CustomerGroupSectionRow[];
  }

  /** Creates the section or replaces its label; insDateTime stays that of the first PUT. */
  put(contractId: string, sectionId: number, label: string): CustomerGroupSectionRow {
    return this.writer.write(() => {
      const exists = this.find(contractId, sectionId) !== undefined;
      const args = { contractId, sectionId, label, now: this.clock.now().getTime() };
      (exists ? this.relabel : this.insert).run(args);
      this.writer.changed({ contractId, entity: 'customer_group_section', id: String(sectionId), op: exists ? 'update' : 'insert' });
      return this.find(contractId, sectionId)!;
    });
  }
}

const COLUMNS = {
  customerGroupSectionId: 'section_id',
  label: 'label',
  displayFlag: 'display_flag',
  displaySequence: 'display_sequence',
};
const GROUPS = { table: 'customer_groups', key: 'customer_group_id' };
const SORT_COLUMNS = {
  customerGroupId: 'customer_group_id',
  customerGroupSectionId: 'section_id',
  displaySequence: 'display_sequence',
};

export class CustomerGroupRepo {
  private readonly byId;
  private readonly sectionExists;
  private readonly insert;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.byId = db.prepare('SELECT * FROM customer_groups WHERE contract_id = ? AND customer_group_id = ?');
    this.sectionExists = db.prepare('SELECT 1 FROM customer_group_sections WHERE contract_id = ? AND section_id = ?');
    this.insert = db.prepare(
      `INSERT INTO customer_groups
         (contract_id, customer_group_id, section_id, label, display_flag, display_sequence, ins_at, upd_at)
       VALUES (@contractId, @customerGroupId, @sectionId, @label, @displayFlag, @displaySequence, @now, @now)`,
    );
  }

  find(contractId: string, customerGroupId: string): CustomerGroupRow | undefined {
    return this.byId.get(contractId, customerGroupId) as CustomerGroupRow | undefined;
  }

  get(contractId: string, customerGroupId: string): CustomerGroupRow {
    const row = this.find(contractId, customerGroupId);
    if (!row) throw NotFound.field('customer_group_id', `customer group ${customerGroupId} does not exist`);
    return row;
  }

  create(contractId: string, input: CreateCustomerGroup): CustomerGroupRow {
    return this.writer.write(() => {
      const sectionId = this.assertSection(contractId, input.customerGroupSectionId);
      const customerGroupId = this.ids.next('customer_groups');
      this.insert.run({
        contractId,
        customerGroupId,
        sectionId,
        label: input.label,
        displayFlag: input.displayFlag ?? '1',
        displaySequence: Number(input.displaySequence ?? '0'),
        now: this.clock.now().getTime(),
      });
      this.writer.changed({ contractId, entity: 'customer_group', id: customerGroupId, op: 'insert' });
      return this.get(contractId, customerGroupId);
    });
  }

  /** Spec 4.1: the path target is checked first (404), then the section sent (400). */
  update(contractId: string, customerGroupId: string, patch: UpdateCustomerGroup): CustomerGroupRow {
    return this.writer.write(() => {
      this.get(contractId, customerGroupId);
      const values: Record<string, unknown> = { ...patch };
      if (patch.customerGroupSectionId !== undefined) {
        values.customerGroupSectionId = this.assertSection(contractId, patch.customerGroupSectionId);
      }
      if (patch.displaySequence !== undefined) values.displaySequence = Number(patch.displaySequence);
      if (updateRow(this.db, GROUPS, contractId, customerGroupId, values, COLUMNS, this.clock.now().getTime())) {
        this.writer.changed({ contractId, entity: 'customer_group', id: customerGroupId, op: 'update' });
      }
      return this.get(contractId, customerGroupId);
    });
  }

  list(contractId: string, query: ListCustomerGroupsQuery, page: Page<keyof typeof SORT_COLUMNS>): CustomerGroupRow[] {
    const sectionId = query.customer_group_section_id === undefined ? undefined : Number(query.customer_group_section_id);
    const filters = { section_id: sectionId, display_flag: query.display_flag };
    return selectPage<CustomerGroupRow, keyof typeof SORT_COLUMNS>(this.db, GROUPS, contractId, filters, page, SORT_COLUMNS);
  }

  /** The section as a number ("03" and "3" are the same slot); 400 when it does not exist. */
  private assertSection(contractId: string, given: string): number {
    const sectionId = Number(given);
    if (!this.sectionExists.get(contractId, sectionId)) {
      throw BadRequest.field('customerGroupSectionId', `customer group section ${given} does not exist`);
    }
    return sectionId;
  }
}

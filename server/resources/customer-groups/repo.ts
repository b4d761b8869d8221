import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectPage, updateRow } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { BadRequest, NotFound } from '../../http/problem.js';
import type { Page, UpdRange } from '../../http/paging.js';
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

const SECTIONS = { table: 'customer_group_sections', key: 'section_id' };
const SECTION_SORT_COLUMNS = { customerGroupSectionId: 'section_id', updDateTime: 'upd_at' };

/**
 * Sections are fixed slots 1..5 per contract, created, relabelled or (label "") deleted by PUT
 * as the platform's section update does.
 */
export class CustomerGroupSectionRepo {
  private readonly byId;
  private readonly insert;
  private readonly relabel;
  private readonly remove;
  private readonly groupsOf;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly clock: Clock,
  ) {
    this.byId = db.prepare('SELECT * FROM customer_group_sections WHERE contract_id = ? AND section_id = ?');
    this.insert = db.prepare(
      `INSERT INTO customer_group_sections (contract_id, section_id, label, ins_at, upd_at)
       VALUES (@contractId, @sectionId, @label, @now, @now)`,
    );
    this.relabel = db.prepare(
      `UPDATE customer_group_sections SET label = @label, upd_at = @now
       WHERE contract_id = @contractId AND section_id = @sectionId`,
    );
    this.remove = db.prepare('DELETE FROM customer_group_sections WHERE contract_id = ? AND section_id = ?');
    this.groupsOf = db.prepare('SELECT customer_group_id FROM customer_groups WHERE contract_id = ? AND section_id = ? ORDER BY customer_group_id').pluck();
  }

  find(contractId: string, sectionId: number): CustomerGroupSectionRow | undefined {
    return this.byId.get(contractId, sectionId) as CustomerGroupSectionRow | undefined;
  }

  list(contractId: string, page: Page<keyof typeof SECTION_SORT_COLUMNS> & UpdRange): CustomerGroupSectionRow[] {
    return selectPage<CustomerGroupSectionRow, keyof typeof SECTION_SORT_COLUMNS>(this.db, SECTIONS, contractId, {}, page, SECTION_SORT_COLUMNS);
  }

  /**
   * Creates the section or replaces its label (insDateTime stays that of the first PUT). An
   * empty label deletes the section: refused (400) while customer groups are filed under it;
   * the answer is the section with label "" and the deletion time, also when it did not exist.
   */
  put(contractId: string, sectionId: number, label: string): CustomerGroupSectionRow {
    return this.writer.write(() => {
      const existing = this.find(contractId, sectionId);
      const now = this.clock.now().getTime();
      if (label === '') {
        if (!existing) return { contract_id: contractId, section_id: sectionId, label: '', ins_at: now, upd_at: now };
        const groups = this.groupsOf.all(contractId, sectionId) as number[];
        if (groups.length) {
          throw BadRequest.field(
            'customerGroupSectionLabel',
            `section ${sectionId} cannot be deleted: customer groups ${groups.join(', ')} belong to it`,
          );
        }
        this.remove.run(contractId, sectionId);
        this.writer.changed({ contractId, entity: 'customer_group_section', id: String(sectionId), op: 'delete' });
        return { ...existing, label: '', upd_at: now };
      }
      const args = { contractId, sectionId, label, now };
      (existing ? this.relabel : this.insert).run(args);
      this.writer.changed({ contractId, entity: 'customer_group_section', id: String(sectionId), op: existing ? 'update' : 'insert' });
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

import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Page, UpdRange } from '../../platform/http/paging.js';
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

const SECTION_SORT_COLUMNS = { customerGroupSectionId: 'section_id', updDateTime: 'upd_at' };

/**
 * Sections are fixed slots 1..5 per contract, created, relabelled or (label "") deleted by PUT
 * as the platform's section update does.
 */
export class CustomerGroupSectionRepo extends MasterRepo<CustomerGroupSectionRow, keyof typeof SECTION_SORT_COLUMNS> {
  private readonly groupsOf;

  constructor(db: Sqlite, writer: Writer, clock: Clock) {
    super(db, writer, clock, { entity: 'customer_group_section', columns: { label: 'label' }, sort: SECTION_SORT_COLUMNS });
    this.groupsOf = db.prepare('SELECT customer_group_id FROM customer_groups WHERE contract_id = ? AND section_id = ? ORDER BY customer_group_id').pluck();
  }

  list(contractId: string, page: Page<keyof typeof SECTION_SORT_COLUMNS> & UpdRange): CustomerGroupSectionRow[] {
    return this.select(contractId, {}, page);
  }

  /**
   * Creates the section or replaces its label (insDateTime stays that of the first PUT). An
   * empty label deletes the section: refused (400) while customer groups are filed under it;
   * the answer is the section with label "" and the deletion time, also when it did not exist.
   */
  put(contractId: string, sectionId: number, label: string): CustomerGroupSectionRow {
    return this.writer.write(() => {
      const existing = this.find(contractId, sectionId);
      const now = this.now();
      if (label === '') {
        if (!existing) return { contract_id: contractId, section_id: sectionId, label: '', ins_at: now, upd_at: now };
        const groups = this.groupsOf.all(contractId, sectionId) as number[];
        if (groups.length) {
          throw InvalidInput.field(
            'customerGroupSectionLabel',
            `section ${sectionId} cannot be deleted: customer groups ${groups.join(', ')} belong to it`,
          );
        }
        this.deleteRow(contractId, existing);
        return { ...existing, label: '', upd_at: now };
      }
      if (existing) this.updateFields(contractId, existing, { label });
      else this.insertRow(contractId, { section_id: sectionId, label });
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
const SORT_COLUMNS = {
  customerGroupId: 'customer_group_id',
  customerGroupSectionId: 'section_id',
  displaySequence: 'display_sequence',
};

export class CustomerGroupRepo extends MasterRepo<CustomerGroupRow, keyof typeof SORT_COLUMNS> {
  private readonly sectionExists;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'customer_group', columns: COLUMNS, sort: SORT_COLUMNS });
    this.sectionExists = db.prepare('SELECT 1 FROM customer_group_sections WHERE contract_id = ? AND section_id = ?');
  }

  create(contractId: string, input: CreateCustomerGroup): CustomerGroupRow {
    return this.writer.write(() => {
      const sectionId = this.assertSection(contractId, input.customerGroupSectionId);
      const id = this.insertRow(contractId, {
        customer_group_id: this.ids.next('customer_groups'),
        section_id: sectionId,
        label: input.label,
        display_flag: input.displayFlag ?? '1',
        display_sequence: Number(input.displaySequence ?? '0'),
      });
      return this.get(contractId, id);
    });
  }

  /** Spec 4.1: the path target is checked first (404), then the section sent (400). */
  update(contractId: string, customerGroupId: string, patch: UpdateCustomerGroup): CustomerGroupRow {
    return this.writer.write(() => {
      const current = this.get(contractId, customerGroupId);
      const values: Record<string, unknown> = { ...patch };
      if (patch.customerGroupSectionId !== undefined) {
        values.customerGroupSectionId = this.assertSection(contractId, patch.customerGroupSectionId);
      }
      if (patch.displaySequence !== undefined) values.displaySequence = Number(patch.displaySequence);
      this.updateFields(contractId, current, values);
      return this.get(contractId, customerGroupId);
    });
  }

  list(contractId: string, query: ListCustomerGroupsQuery, page: Page<keyof typeof SORT_COLUMNS>): CustomerGroupRow[] {
    const sectionId = query.customer_group_section_id === undefined ? undefined : Number(query.customer_group_section_id);
    return this.select(contractId, { section_id: sectionId, display_flag: query.display_flag }, page);
  }

  /** The section as a number ("03" and "3" are the same slot); 400 when it does not exist. */
  private assertSection(contractId: string, given: string): number {
    const sectionId = Number(given);
    if (!this.sectionExists.get(contractId, sectionId)) {
      throw InvalidInput.field('customerGroupSectionId', `customer group section ${given} does not exist`);
    }
    return sectionId;
  }
}

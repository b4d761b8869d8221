import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import type { Page } from '../../platform/http/paging.js';
import type { CreateDiscountDivision, DISCOUNT_DIVISION_SORT, ListDiscountDivisionsQuery, UpdateDiscountDivision } from './schema.js';

export interface DiscountDivisionRow {
  contract_id: string;
  discount_division: number;
  award_type: '1' | '2';
  discount_division_name: string;
  display_sequence: number | null;
  display_flag: '0' | '1';
  ins_at: number;
  upd_at: number;
}

type SortField = (typeof DISCOUNT_DIVISION_SORT)[number];

const COLUMNS = {
  awardType: 'award_type',
  discountDivisionName: 'discount_division_name',
  displaySequence: 'display_sequence',
  displayFlag: 'display_flag',
};
const SORT_COLUMNS: Record<SortField, string> = { discountDivision: 'discount_division', displaySequence: 'display_sequence' };

const sequence = (value: string | null | undefined) => (value == null ? value : Number(value));

/** The contract's discount divisions (値引・割引区分): a plain master. */
export class DiscountDivisionRepo extends MasterRepo<DiscountDivisionRow, SortField> {
  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'discount_division', columns: COLUMNS, sort: SORT_COLUMNS });
  }

  create(contractId: string, input: CreateDiscountDivision): DiscountDivisionRow {
    return this.writer.write(() => {
      const id = this.insertRow(contractId, {
        discount_division: this.ids.next('discount_divisions'),
        award_type: input.awardType,
        discount_division_name: input.discountDivisionName,
        display_sequence: sequence(input.displaySequence) ?? null,
        display_flag: input.displayFlag ?? '1',
      });
      return this.get(contractId, id);
    });
  }

  update(contractId: string, id: string, patch: UpdateDiscountDivision): DiscountDivisionRow {
    return this.writer.write(() => {
      const current = this.get(contractId, id);
      this.updateFields(contractId, current, { ...patch, displaySequence: sequence(patch.displaySequence) });
      return this.get(contractId, id);
    });
  }

  /** Sales keep the division number they were made with; deleting it changes no sale. */
  delete(contractId: string, id: string): void {
    this.writer.write(() => this.deleteRow(contractId, this.get(contractId, id)));
  }

  list(contractId: string, query: ListDiscountDivisionsQuery, page: Page<SortField>): DiscountDivisionRow[] {
    return this.select(
      contractId,
      {
        discount_division: query.discount_division === undefined ? undefined : Number(query.discount_division),
        award_type: query.award_type,
        display_flag: query.display_flag,
      },
      page,
    );
  }
}

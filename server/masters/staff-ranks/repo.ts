import type { Clock } from '../../clock.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import type { Contract } from '../../platform/contracts/repo.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import type { CreateStaffRank, ListStaffRanksQuery, UpdateStaffRank } from './schema.js';

export interface StaffRankRow {
  contract_id: string;
  staff_rank: string;
  full_name: string;
  display_name: string | null;
  display_flag: '0' | '1';
  display_sequence: number;
  staff_discount_rate: string;
  use_product_staff_discount_rate_division: '0' | '1';
  staff_application_selling_price_division: '0' | '1' | '2';
  ins_at: number;
  upd_at: number;
}

const COLUMNS = {
  staffRankFullName: 'full_name',
  staffRankDisplayName: 'display_name',
  displayFlag: 'display_flag',
  displaySequence: 'display_sequence',
  staffDiscountRate: 'staff_discount_rate',
  useProductStaffDiscountRateDivision: 'use_product_staff_discount_rate_division',
  staffApplicationSellingPriceDivision: 'staff_application_selling_price_division',
};
const SORT_COLUMNS = { staffRank: 'staff_rank', displaySequence: 'display_sequence' };

/**
 * Spec 4.8: with member head-office linkage, head office maintains the ranks, so this
 * instance refuses to change them (checked before the rank is looked up).
 */
export function assertNoHeadOfficeLinkage(contract: Contract): void {
  if (contract.settings.memberHeadOfficeLinkage) {
    throw InvalidInput.field('staff_rank', 'staff ranks cannot be changed: the contract has member head-office linkage, so head office maintains them');
  }
}

export class StaffRankRepo extends MasterRepo<StaffRankRow, keyof typeof SORT_COLUMNS> {
  constructor(db: Sqlite, writer: Writer, clock: Clock) {
    super(db, writer, clock, { entity: 'staff_rank', columns: COLUMNS, sort: SORT_COLUMNS });
  }

  create(contractId: string, input: CreateStaffRank): StaffRankRow {
    return this.writer.write(() => {
      if (this.find(contractId, input.staffRank)) {
        throw InvalidInput.field('staffRank', `staff rank ${input.staffRank} already exists`);
      }
      this.insertRow(contractId, {
        staff_rank: input.staffRank,
        full_name: input.staffRankFullName,
        display_name: input.staffRankDisplayName ?? null,
        display_flag: input.displayFlag ?? '1',
        display_sequence: Number(input.displaySequence ?? '0'),
        staff_discount_rate: input.staffDiscountRate ?? '0',
        use_product_staff_discount_rate_division: input.useProductStaffDiscountRateDivision ?? '0',
        staff_application_selling_price_division: input.staffApplicationSellingPriceDivision ?? '0',
      });
      return this.get(contractId, input.staffRank);
    });
  }

  update(contractId: string, code: string, patch: UpdateStaffRank): StaffRankRow {
    return this.writer.write(() => {
      const current = this.get(contractId, code);
      const values: Record<string, unknown> = { ...patch };
      if (patch.displaySequence !== undefined) values.displaySequence = Number(patch.displaySequence);
      this.updateFields(contractId, current, values);
      return this.get(contractId, code);
    });
  }

  list(contractId: string, query: ListStaffRanksQuery, page: Page<keyof typeof SORT_COLUMNS>): StaffRankRow[] {
    return this.select(contractId, { display_flag: query.display_flag }, page);
  }
}

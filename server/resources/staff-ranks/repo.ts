import type { Clock } from '../../clock.js';
import type { Sqlite } from '../../db/open.js';
import { selectPage, updateRow } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import type { Contract } from '../contracts/repo.js';
import { BadRequest, NotFound } from '../../http/problem.js';
import type { Page } from '../../http/paging.js';
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
const RANKS = { table: 'staff_ranks', key: 'staff_rank' };
const SORT_COLUMNS = { staffRank: 'staff_rank', displaySequence: 'display_sequence' };

/**
 * Spec 4.8: with member head-office linkage, head office maintains the ranks, so this
 * instance refuses to change them (checked before the rank is looked up).
 */
export function assertNoHeadOfficeLinkage(contract: Contract): void {
  if (contract.settings.memberHeadOfficeLinkage) {
    throw BadRequest.field('staff_rank', 'staff ranks cannot be changed: the contract has member head-office linkage, so head office maintains them');
  }
}

export class StaffRankRepo {
  private readonly byCode;
  private readonly insert;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly clock: Clock,
  ) {
    this.byCode = db.prepare('SELECT * FROM staff_ranks WHERE contract_id = ? AND staff_rank = ?');
    this.insert = db.prepare(
      `INSERT INTO staff_ranks (contract_id, staff_rank, full_name, display_name, display_flag, display_sequence,
         staff_discount_rate, use_product_staff_discount_rate_division, staff_application_selling_price_division, ins_at, upd_at)
       VALUES (@contractId, @staffRank, @staffRankFullName, @staffRankDisplayName, @displayFlag, @displaySequence,
         @staffDiscountRate, @useProductStaffDiscountRateDivision, @staffApplicationSellingPriceDivision, @now, @now)`,
    );
  }

  find(contractId: string, code: string): StaffRankRow | undefined {
    return this.byCode.get(contractId, code) as StaffRankRow | undefined;
  }

  get(contractId: string, code: string): StaffRankRow {
    const row = this.find(contractId, code);
    if (!row) throw NotFound.field('staff_rank', `staff rank ${code} does not exist`);
    return row;
  }

  create(contractId: string, input: CreateStaffRank): StaffRankRow {
    return this.writer.write(() => {
      if (this.find(contractId, input.staffRank)) {
        throw BadRequest.field('staffRank', `staff rank ${input.staffRank} already exists`);
      }
      this.insert.run({
        contractId,
        staffRank: input.staffRank,
        staffRankFullName: input.staffRankFullName,
        staffRankDisplayName: input.staffRankDisplayName ?? null,
        displayFlag: input.displayFlag ?? '1',
        displaySequence: Number(input.displaySequence ?? '0'),
        staffDiscountRate: input.staffDiscountRate ?? '0',
        useProductStaffDiscountRateDivision: input.useProductStaffDiscountRateDivision ?? '0',
        staffApplicationSellingPriceDivision: input.staffApplicationSellingPriceDivision ?? '0',
        now: this.clock.now().getTime(),
      });
      this.writer.changed({ contractId, entity: 'staff_rank', id: input.staffRank, op: 'insert' });
      return this.get(contractId, input.staffRank);
    });
  }

  update(contractId: string, code: string, patch: UpdateStaffRank): StaffRankRow {
    return this.writer.write(() => {
      this.get(contractId, code);
      const values: Record<string, unknown> = { ...patch };
      if (patch.displaySequence !== undefined) values.displaySequence = Number(patch.displaySequence);
      if (updateRow(this.db, RANKS, contractId, code, values, COLUMNS, this.clock.now().getTime())) {
        this.writer.changed({ contractId, entity: 'staff_rank', id: code, op: 'update' });
      }
      return this.get(contractId, code);
    });
  }

  list(contractId: string, query: ListStaffRanksQuery, page: Page<keyof typeof SORT_COLUMNS>): StaffRankRow[] {
    return selectPage<StaffRankRow, keyof typeof SORT_COLUMNS>(this.db, RANKS, contractId, { display_flag: query.display_flag }, page, SORT_COLUMNS);
  }
}

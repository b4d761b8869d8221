import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import { updConditions } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import type { BARGAIN_SORT, CreateBargain, ListBargainsQuery, UpdateBargain } from './schema.js';

export interface BargainRow {
  contract_id: string;
  bargain_id: number;
  bargain_name: string;
  term_start: string;
  term_end: string;
  ins_at: number;
  upd_at: number;
}

export interface BargainStoreRow {
  contract_id: string;
  bargain_store_id: number;
  bargain_id: number;
  store_id: number;
  ins_at: number;
  upd_at: number;
}

export interface BargainProductRow {
  contract_id: string;
  bargain_product_id: number;
  bargain_id: number;
  target_division: '1' | '2' | '3';
  target_id: string;
  division: '1' | '2' | '3';
  /** Thousandths (PRICE scale). */
  value_units: number;
  ins_at: number;
  upd_at: number;
}

type SortField = (typeof BARGAIN_SORT)[number];

const COLUMNS = { bargainName: 'bargain_name', termStart: 'term_start', termEnd: 'term_end' };
const SORT_COLUMNS: Record<SortField, string> = { bargainId: 'bargain_id', termStart: 'term_start', termEnd: 'term_end', updDateTime: 'upd_at' };

/** Bargains (セール): a named sale period; its stores and targets are in targets.ts. */
export class BargainRepo extends MasterRepo<BargainRow, SortField> {
  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'bargain', columns: COLUMNS, sort: SORT_COLUMNS });
  }

  create(contractId: string, input: CreateBargain): BargainRow {
    return this.writer.write(() => {
      assertTerm(input.termStart, input.termEnd, 'termEnd');
      const id = this.insertRow(contractId, {
        bargain_id: this.ids.next('bargains'),
        bargain_name: input.bargainName,
        term_start: input.termStart,
        term_end: input.termEnd,
      });
      return this.get(contractId, id);
    });
  }

  /** The path target first (404); a term end sent alone is checked against the stored other end. */
  update(contractId: string, id: string, patch: UpdateBargain): BargainRow {
    return this.writer.write(() => {
      const current = this.get(contractId, id);
      assertTerm(patch.termStart ?? current.term_start, patch.termEnd ?? current.term_end, patch.termEnd === undefined ? 'termStart' : 'termEnd');
      this.updateFields(contractId, current, patch);
      return this.get(contractId, id);
    });
  }

  /** Its stores and targets go with it (ON DELETE CASCADE). */
  delete(contractId: string, id: string): void {
    this.writer.write(() => this.deleteRow(contractId, this.get(contractId, id)));
  }

  list(contractId: string, _query: ListBargainsQuery, page: Page<SortField> & ListBargainsQuery): BargainRow[] {
    return this.selectWhere(contractId, updConditions(page), page);
  }

  /** Reports a change of the bargain's stores or targets: they travel with the bargain. */
  childrenChanged(contractId: string, bargain: BargainRow): void {
    this.changed(contractId, this.idOf(bargain), 'update');
  }
}

/** Both days belong to the sale, so they may be equal; the detail names the end the client sent. */
function assertTerm(start: string, end: string, field: 'termStart' | 'termEnd'): void {
  if (end >= start) return;
  throw field === 'termEnd'
    ? InvalidInput.field('termEnd', `${end} is before termStart ${start}`)
    : InvalidInput.field('termStart', `${start} is after termEnd ${end}`);
}

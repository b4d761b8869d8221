import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import type { Page } from '../../platform/http/paging.js';
import type { CreateReceiptProviso, ListReceiptProvisosQuery, RECEIPT_PROVISO_SORT, UpdateReceiptProviso } from './schema.js';

export interface ReceiptProvisoRow {
  contract_id: string;
  receipt_proviso_code: number;
  receipt_proviso_name: string;
  initial_value_flag: '0' | '1';
  display_sequence: number | null;
  display_flag: '0' | '1';
  ins_at: number;
  upd_at: number;
}

type Sort = (typeof RECEIPT_PROVISO_SORT)[number];
const COLUMNS = {
  receiptProvisoName: 'receipt_proviso_name',
  initialValueFlag: 'initial_value_flag',
  displaySequence: 'display_sequence',
  displayFlag: 'display_flag',
};
const SORT_COLUMNS: Record<Sort, string> = { receiptProvisoCode: 'receipt_proviso_code', displaySequence: 'display_sequence' };

/** Receipt provisos (領収書但し書き, /receipt_provisoes): a plain master, codes minted by the allocator. */
export class ReceiptProvisoRepo extends MasterRepo<ReceiptProvisoRow, Sort> {
  private readonly initialOthers;

  constructor(
    db: Sqlite,
    writer: Writer,
    private readonly ids: IdAllocator,
    clock: Clock,
  ) {
    super(db, writer, clock, { entity: 'receipt_proviso', columns: COLUMNS, sort: SORT_COLUMNS });
    this.initialOthers = db.prepare("SELECT * FROM receipt_provisos WHERE contract_id = ? AND initial_value_flag = '1' AND receipt_proviso_code <> ?");
  }

  create(contractId: string, input: CreateReceiptProviso): ReceiptProvisoRow {
    return this.writer.write(() => {
      const code = this.ids.next('receipt_provisos');
      this.insertRow(contractId, {
        receipt_proviso_code: Number(code),
        receipt_proviso_name: input.receiptProvisoName,
        initial_value_flag: input.initialValueFlag ?? '0',
        display_sequence: input.displaySequence == null ? null : Number(input.displaySequence),
        display_flag: input.displayFlag ?? '1',
      });
      if (input.initialValueFlag === '1') this.soleInitial(contractId, code);
      return this.get(contractId, code);
    });
  }

  update(contractId: string, code: string, patch: UpdateReceiptProviso): ReceiptProvisoRow {
    return this.writer.write(() => {
      const current = this.get(contractId, code);
      const values: Record<string, unknown> = { ...patch };
      if (typeof patch.displaySequence === 'string') values.displaySequence = Number(patch.displaySequence);
      this.updateFields(contractId, current, values);
      if (patch.initialValueFlag === '1') this.soleInitial(contractId, code);
      return this.get(contractId, code);
    });
  }

  delete(contractId: string, code: string): void {
    this.writer.write(() => this.deleteRow(contractId, this.get(contractId, code)));
  }

  list(contractId: string, query: ListReceiptProvisosQuery, page: Page<Sort>): ReceiptProvisoRow[] {
    return this.select(
      contractId,
      {
        receipt_proviso_code: query.receipt_proviso_code === undefined ? undefined : Number(query.receipt_proviso_code),
        initial_value_flag: query.initial_value_flag,
        display_flag: query.display_flag,
      },
      page,
    );
  }

  /** A receipt starts with one proviso: marking one as the initial value unmarks the one that was. */
  private soleInitial(contractId: string, code: string): void {
    for (const other of this.initialOthers.all(contractId, Number(code)) as ReceiptProvisoRow[]) {
      this.updateFields(contractId, other, { initialValueFlag: '0' });
    }
  }
}

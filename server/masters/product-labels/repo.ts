import type { Clock } from '../../clock.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import type { CreateLabel, UpdateLabel } from './schema.js';

export interface LabelRow {
  contract_id: string;
  no: number;
  label: string;
  ins_at: number;
  upd_at: number;
}

/** Free-item labels of products (slots 1..50); a product's values refer to them by number. */
export class ProductLabelRepo extends MasterRepo<LabelRow> {
  private readonly all;
  private readonly usedBy;

  constructor(db: Sqlite, writer: Writer, clock: Clock) {
    super(db, writer, clock, { entity: 'product_reserve_item_label', noun: 'free-item label', columns: { label: 'label' }, sort: {} });
    this.all = db.prepare('SELECT * FROM product_reserve_item_labels WHERE contract_id = ? ORDER BY no');
    this.usedBy = db.prepare(
      `SELECT min(product_id) AS first, count(*) AS n FROM product_reserve_items WHERE contract_id = ? AND no = ?`,
    );
  }

  list(contractId: string): LabelRow[] {
    return this.all.all(contractId) as LabelRow[];
  }

  create(contractId: string, input: CreateLabel): LabelRow {
    return this.writer.write(() => {
      const no = Number(input.no);
      if (this.find(contractId, no)) throw InvalidInput.field('no', `free-item label ${no} already exists`);
      this.insertRow(contractId, { no, label: input.label });
      return this.get(contractId, no);
    });
  }

  update(contractId: string, no: number, patch: UpdateLabel): LabelRow {
    return this.writer.write(() => {
      this.updateFields(contractId, this.get(contractId, no), patch);
      return this.get(contractId, no);
    });
  }

  /** Spec 4.18: 404 when absent, 400 while a product carries a value for it (the detail names one). */
  delete(contractId: string, no: number): void {
    this.writer.write(() => {
      const current = this.get(contractId, no);
      const used = this.usedBy.get(contractId, no) as { first: number | null; n: number };
      if (used.first !== null) {
        const others = used.n > 1 ? ` and ${used.n - 1} other product${used.n > 2 ? 's' : ''}` : '';
        throw InvalidInput.field('no', `free-item label ${no} is in use by product ${used.first}${others}`);
      }
      this.deleteRow(contractId, current);
    });
  }
}

import type { Clock } from '../../clock.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { BadRequest, NotFound } from '../../http/problem.js';
import type { CreateLabel, UpdateLabel } from './schema.js';

export interface LabelRow {
  contract_id: string;
  no: number;
  label: string;
  ins_at: number;
  upd_at: number;
}

/** Free-item labels of products (slots 1..50); a product's values refer to them by number. */
export class ProductLabelRepo {
  private readonly byNo;
  private readonly all;
  private readonly insert;
  private readonly relabel;
  private readonly usedBy;
  private readonly remove;

  constructor(
    db: Sqlite,
    private readonly writer: Writer,
    private readonly clock: Clock,
  ) {
    this.byNo = db.prepare('SELECT * FROM product_reserve_item_labels WHERE contract_id = ? AND no = ?');
    this.all = db.prepare('SELECT * FROM product_reserve_item_labels WHERE contract_id = ? ORDER BY no');
    this.insert = db.prepare(
      `INSERT INTO product_reserve_item_labels (contract_id, no, label, ins_at, upd_at)
       VALUES (@contractId, @no, @label, @now, @now)`,
    );
    this.relabel = db.prepare(
      'UPDATE product_reserve_item_labels SET label = @label, upd_at = @now WHERE contract_id = @contractId AND no = @no',
    );
    this.usedBy = db.prepare(
      `SELECT min(product_id) AS first, count(*) AS n FROM product_reserve_items WHERE contract_id = ? AND no = ?`,
    );
    this.remove = db.prepare('DELETE FROM product_reserve_item_labels WHERE contract_id = ? AND no = ?');
  }

  find(contractId: string, no: number): LabelRow | undefined {
    return this.byNo.get(contractId, no) as LabelRow | undefined;
  }

  get(contractId: string, no: number): LabelRow {
    const row = this.find(contractId, no);
    if (!row) throw NotFound.field('no', `free-item label ${no} does not exist`);
    return row;
  }

  list(contractId: string): LabelRow[] {
    return this.all.all(contractId) as LabelRow[];
  }

  create(contractId: string, input: CreateLabel): LabelRow {
    return this.writer.write(() => {
      const no = Number(input.no);
      if (this.find(contractId, no)) throw BadRequest.field('no', `free-item label ${no} already exists`);
      this.insert.run({ contractId, no, label: input.label, now: this.clock.now().getTime() });
      this.writer.changed({ contractId, entity: 'product_reserve_item_label', id: String(no), op: 'insert' });
      return this.get(contractId, no);
    });
  }

  update(contractId: string, no: number, patch: UpdateLabel): LabelRow {
    return this.writer.write(() => {
      this.get(contractId, no);
      if (patch.label === undefined) return this.get(contractId, no);
      this.relabel.run({ contractId, no, label: patch.label, now: this.clock.now().getTime() });
      this.writer.changed({ contractId, entity: 'product_reserve_item_label', id: String(no), op: 'update' });
      return this.get(contractId, no);
    });
  }

  /** Spec 4.18: 404 when absent, 400 while a product carries a value for it (the detail names one). */
  delete(contractId: string, no: number): void {
    this.writer.write(() => {
      this.get(contractId, no);
      const used = this.usedBy.get(contractId, no) as { first: number | null; n: number };
      if (used.first !== null) {
        const others = used.n > 1 ? ` and ${used.n - 1} other product${used.n > 2 ? 's' : ''}` : '';
        throw BadRequest.field('no', `free-item label ${no} is in use by product ${used.first}${others}`);
      }
      this.remove.run(contractId, no);
      this.writer.changed({ contractId, entity: 'product_reserve_item_label', id: String(no), op: 'delete' });
    });
  }
}

import type { Clock } from '../../clock.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';

export interface ProductAttributeRow {
  contract_id: string;
  no: number;
  name: string;
  ins_at: number;
  upd_at: number;
}

/** The product attributes (商品属性): fixed slots 1..3 per contract, each a name. */
export class ProductAttributeRepo extends MasterRepo<ProductAttributeRow> {
  private readonly all;

  constructor(db: Sqlite, writer: Writer, clock: Clock) {
    super(db, writer, clock, { entity: 'product_attribute', noun: 'product attribute', columns: { name: 'name' }, sort: {} });
    this.all = db.prepare('SELECT * FROM product_attributes WHERE contract_id = ? ORDER BY no');
  }

  list(contractId: string): ProductAttributeRow[] {
    return this.all.all(contractId) as ProductAttributeRow[];
  }

  /** The platform's PUT: registers the slot when it has no name yet, renames it otherwise. */
  put(contractId: string, no: number, name: string): ProductAttributeRow {
    return this.writer.write(() => {
      const existing = this.find(contractId, no);
      if (existing) this.updateFields(contractId, existing, { name });
      else this.insertRow(contractId, { no, name });
      return this.get(contractId, no);
    });
  }
}

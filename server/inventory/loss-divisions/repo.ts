import type { Clock } from '../../clock.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Page, UpdRange } from '../../platform/http/paging.js';
import type { CreateLossDivision, LOSS_DIVISION_SORT, UpdateLossDivision } from './schema.js';

export interface LossDivisionRow {
  contract_id: string;
  division_code: string;
  division_name: string;
  ins_at: number;
  upd_at: number;
}

const COLUMNS = { divisionName: 'division_name' };
const SORT_COLUMNS: Record<(typeof LOSS_DIVISION_SORT)[number], string> = { divisionCode: 'division_code', updDateTime: 'upd_at' };

/** Loss divisions (ロス区分): the contract's list of why goods are lost; a loss names one by its code. */
export class LossDivisionRepo extends MasterRepo<LossDivisionRow, keyof typeof SORT_COLUMNS> {
  private readonly firstLoss;

  constructor(db: Sqlite, writer: Writer, clock: Clock) {
    super(db, writer, clock, { entity: 'loss_division', columns: COLUMNS, sort: SORT_COLUMNS });
    this.firstLoss = db.prepare('SELECT loss_id FROM losses WHERE contract_id = ? AND division = ? ORDER BY loss_id LIMIT 1').pluck();
  }

  create(contractId: string, input: CreateLossDivision): LossDivisionRow {
    return this.writer.write(() => {
      if (this.find(contractId, input.divisionCode)) throw InvalidInput.field('divisionCode', `loss division ${input.divisionCode} already exists`);
      this.insertRow(contractId, { division_code: input.divisionCode, division_name: input.divisionName });
      return this.get(contractId, input.divisionCode);
    });
  }

  update(contractId: string, code: string, patch: UpdateLossDivision): LossDivisionRow {
    return this.writer.write(() => {
      const current = this.get(contractId, code);
      this.updateFields(contractId, current, patch);
      return this.get(contractId, code);
    });
  }

  /** A division a loss still names is refused (400): its losses would name nothing. */
  delete(contractId: string, code: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, code);
      const loss = this.firstLoss.get(contractId, current.division_code) as number | undefined;
      if (loss !== undefined) throw InvalidInput.field('division_code', `loss division ${code} is used by loss ${loss}`);
      this.deleteRow(contractId, current);
    });
  }

  list(contractId: string, _query: unknown, page: Page<keyof typeof SORT_COLUMNS> & UpdRange): LossDivisionRow[] {
    return this.select(contractId, {}, page);
  }

  /** The division a body field names, or 400 `[field] loss division N does not exist`. */
  referenced(contractId: string, code: string, field = 'division'): LossDivisionRow {
    const row = this.find(contractId, code);
    if (!row) throw InvalidInput.field(field, `loss division ${code} does not exist`);
    return row;
  }
}

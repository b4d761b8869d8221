import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { dialectOf } from '../../db/engine.js';
import type { Sqlite } from '../../db/open.js';
import { selectFilteredPage, updConditions, type Condition } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { lossStockDeltas, type LossLine } from '../../domain/losses.js';
import { STOCK_DIVISION } from '../../domain/stock.js';
import { parseDateTime } from '../../domain/time.js';
import { LOSS_EVENT, raiseEvent } from '../../events/webhook-events.js';
import { StaffRepo } from '../../masters/staffs/repo.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import type { Page, UpdRange } from '../../platform/http/paging.js';
import { LossDivisionRepo } from '../loss-divisions/repo.js';
import { StockMovements } from '../stock/movements.js';
import { linesOf, LossDetails } from './details.js';
import type { CreateLoss, ListLossesQuery, LOSS_SORT, LossDetailRow, LossRow, LossRowNamed, UpdateLoss } from './schema.js';

export const LOSS_ENTITY = 'loss';
const LOSSES = { table: 'losses', key: 'loss_id' };
const SORT_COLUMNS: Record<(typeof LOSS_SORT)[number], string> = {
  lossId: 'loss_id',
  storeId: 'store_id',
  division: 'division',
  lossDateTime: 'loss_at',
  updDateTime: 'upd_at',
};

/**
 * Losses (ロス登録, issue 26): store-made records with their details, written in one transaction
 * with the stock they move and their `pos:losses` notice. A loss takes its quantities out of its
 * store's stock through StockMovements (stock division 14, loss, dated at lossDateTime); an edit
 * moves the difference and a delete gives the quantities back (server/domain/losses.ts).
 */
export class LossRepo {
  private readonly byId;
  private readonly insertHead;
  private readonly updateHead;
  private readonly deleteHead;
  private readonly staffNames;
  private readonly stores;
  private readonly staffs;
  private readonly divisions;
  private readonly stock;
  readonly details: LossDetails;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.staffs = new StaffRepo(db, writer, ids, clock);
    this.divisions = new LossDivisionRepo(db, writer, clock);
    this.stock = new StockMovements(db, writer, ids, clock);
    this.details = new LossDetails(db, ids);
    this.byId = db.prepare('SELECT * FROM losses WHERE contract_id = ? AND loss_id = ?');
    this.insertHead = db.prepare(
      `INSERT INTO losses (contract_id, loss_id, store_id, division, loss_at, memo, identification_no, staff_id, ins_at, upd_at)
       VALUES (@contractId, @lossId, @storeId, @division, @lossAt, @memo, @identificationNo, @staffId, @now, @now)`,
    );
    this.updateHead = db.prepare(
      `UPDATE losses SET division = @division, memo = @memo, identification_no = @identificationNo, staff_id = @staffId, upd_at = @now
       WHERE contract_id = @contractId AND loss_id = @lossId`,
    );
    this.deleteHead = db.prepare('DELETE FROM losses WHERE contract_id = ? AND loss_id = ?');
    this.staffNames = db.prepare(`SELECT staff_id, staff_name FROM staffs WHERE contract_id = ? AND staff_id ${dialectOf(db).inJsonList('integer')}`);
  }

  get(contractId: string, lossId: string | number): LossRow {
    const row = this.byId.get(contractId, lossId) as LossRow | undefined;
    if (!row) throw NotFoundError.field('loss_id', `loss ${lossId} does not exist`);
    return row;
  }

  /** The loss with its staff member's name, and its details. */
  withDetails(contractId: string, lossId: string | number): { row: LossRowNamed; details: LossDetailRow[] } {
    const row = this.get(contractId, lossId);
    return { row: this.named(contractId, [row])[0]!, details: this.details.list(contractId, row.loss_id) };
  }

  list(contractId: string, query: ListLossesQuery, page: Page<(typeof LOSS_SORT)[number]> & UpdRange): LossRowNamed[] {
    const conditions: Condition[] = [['store_id = ?', query.store_id], ['division = ?', query.division], ...updConditions(page)];
    return this.named(contractId, selectFilteredPage<LossRow, (typeof LOSS_SORT)[number]>(this.db, LOSSES, contractId, conditions, page, SORT_COLUMNS));
  }

  create(contractId: string, body: CreateLoss): LossRow {
    return this.writer.write(() => {
      const store = this.stores.referenced(contractId, body.storeId, { field: 'storeId' });
      this.divisions.referenced(contractId, body.division);
      if (body.staffId !== undefined) this.assertStaff(contractId, body.staffId);
      const now = this.clock.now().getTime();
      const lossId = this.ids.next('losses');
      this.insertHead.run({
        contractId,
        lossId,
        storeId: store.store_id,
        division: body.division,
        lossAt: parseDateTime(body.lossDateTime)!,
        memo: body.memo ?? null,
        identificationNo: body.identificationNo ?? null,
        staffId: body.staffId === undefined ? null : Number(body.staffId),
        now,
      });
      const loss = this.get(contractId, lossId);
      this.details.add(contractId, loss, body.details, now);
      this.moveStock(contractId, loss, [], linesOf(this.details.list(contractId, loss.loss_id)));
      this.report(contractId, lossId, 'insert', 'created');
      return loss;
    });
  }

  update(contractId: string, lossId: string, body: UpdateLoss): LossRow {
    return this.writer.write(() => {
      const current = this.get(contractId, lossId);
      if (body.division !== undefined) this.divisions.referenced(contractId, body.division);
      if (body.staffId !== undefined && body.staffId !== null) this.assertStaff(contractId, body.staffId);
      const now = this.clock.now().getTime();
      const before = linesOf(this.details.list(contractId, current.loss_id));
      if (body.details) this.details.apply(contractId, current, body.details, now);
      this.updateHead.run({
        contractId,
        lossId: current.loss_id,
        division: body.division ?? current.division,
        memo: body.memo === undefined ? current.memo : body.memo,
        identificationNo: body.identificationNo === undefined ? current.identification_no : body.identificationNo,
        staffId: body.staffId === undefined ? current.staff_id : body.staffId === null ? null : Number(body.staffId),
        now,
      });
      const after = this.get(contractId, current.loss_id);
      this.moveStock(contractId, after, before, linesOf(this.details.list(contractId, after.loss_id)));
      this.report(contractId, String(current.loss_id), 'update', 'edited');
      return after;
    });
  }

  /** Deletes a loss and its details; its quantities go back into the store's stock. */
  delete(contractId: string, lossId: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, lossId);
      const before = linesOf(this.details.list(contractId, current.loss_id));
      this.details.removeOf(contractId, current.loss_id);
      this.deleteHead.run(contractId, current.loss_id);
      this.moveStock(contractId, current, before, []);
      this.report(contractId, String(current.loss_id), 'delete', 'deleted');
    });
  }

  /** Each product's difference leaves (or comes back to) the loss's store: stock division 14, dated when the loss happened. */
  private moveStock(contractId: string, loss: LossRow, before: readonly LossLine[], after: readonly LossLine[]): void {
    for (const d of lossStockDeltas(before, after)) {
      this.stock.move(contractId, {
        storeId: loss.store_id,
        productId: d.productId,
        delta: String(d.delta),
        division: STOCK_DIVISION.loss,
        targetAt: loss.loss_at,
        ref: { staffId: loss.staff_id },
      });
    }
  }

  /**
   * The platform's `pos:losses` notice and the change for sync, in the write's own transaction;
   * the notice first, so a linked store's change hook forwards it with the loss.
   */
  private report(contractId: string, lossId: string, op: 'insert' | 'update' | 'delete', action: 'created' | 'edited' | 'deleted'): void {
    raiseEvent(
      { db: this.db, ids: this.ids, clock: this.clock },
      { contractId, event: LOSS_EVENT, action, payload: { lossIds: [lossId] }, cause: { entity: LOSS_ENTITY, id: lossId, op } },
    );
    this.writer.changed({ contractId, entity: LOSS_ENTITY, id: lossId, op });
  }

  private named(contractId: string, rows: LossRow[]): LossRowNamed[] {
    const ids = [...new Set(rows.flatMap((r) => (r.staff_id === null ? [] : [r.staff_id])))];
    const names = new Map(ids.length === 0 ? [] : (this.staffNames.all(contractId, JSON.stringify(ids)) as { staff_id: number; staff_name: string }[]).map((s) => [s.staff_id, s.staff_name]));
    return rows.map((r) => ({ ...r, staff_name: r.staff_id === null ? null : (names.get(r.staff_id) ?? null) }));
  }

  private assertStaff(contractId: string, staffId: string): void {
    if (!this.staffs.find(contractId, staffId)) throw InvalidInput.field('staffId', `staff ${staffId} does not exist`);
  }
}

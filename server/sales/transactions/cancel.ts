import type { Sqlite } from '../../db/open.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { exact } from '../../domain/rounding.js';
import { STOCK_DIVISION, stockDeltasOf, type StockHeader, type StockLine } from '../../domain/stock.js';
import type { Actor } from '../../masters/customers/repo.js';
import type { Contract } from '../../platform/contracts/repo.js';
import { LayawayRepo } from '../layaways/repo.js';
import type { LayawayDetailRow, LayawayRow } from '../layaways/schema.js';
import { assertDayOpen, transactionOfClosedDay } from '../closing/open-day.js';
import type { Rec } from './catalog.js';
import { TransactionCancelRepo } from './cancel-repo.js';
import type { TransactionRegistry } from './register.js';
import type { TransactionRecord } from './repo.js';

/**
 * The platform's 取消 (cancel), as against 返品取消 (return-cancel, dispose.ts): the sale is
 * made as if it had never happened, and no offsetting transaction is written. Only a normal
 * sale that is neither cancelled nor part of a return-cancel may be cancelled; each refusal is
 * a 400 naming transaction_id.
 */
export function assertCancellable(h: Rec): void {
  const id = h.transactionHeadId;
  if (h.transactionHeadDivision !== '1') {
    throw InvalidInput.field('transaction_id', `transaction ${id} is not a sale (transactionHeadDivision ${h.transactionHeadDivision}): only a sale can be cancelled`);
  }
  if (h.cancelDivision === '1') throw InvalidInput.field('transaction_id', `transaction ${id} is already cancelled (cancelDivision 1)`);
  if (h.disposeDivision === '1') {
    throw InvalidInput.field('transaction_id', `transaction ${id} has been return-cancelled (disposeDivision 1): its return-cancel already reverses it`);
  }
  if (h.disposeDivision === '2') {
    throw InvalidInput.field(
      'transaction_id',
      `transaction ${id} is a return-cancel (disposeDivision 2, of transaction ${h.disposeServerTransactionHeadId}) and cannot be cancelled`,
    );
  }
}

/** What a cancel answers: the cancelled sale, or the cancelled layaway with its lines. */
export type Cancelled = { transaction: TransactionRecord } | { layaway: { row: LayawayRow; details: LayawayDetailRow[] } };

/**
 * POST /transactions/{transaction_id}/cancel, in one write: the sale becomes cancelDivision 1
 * with cancelDateTime now; the goods it took (or brought back) return to the store's stock as
 * movements of the same stock division with the opposite sign, so the sale's movements net to
 * zero; the member gets back the points and miles it gave and took (cause sale_cancel). The
 * closing figures and the settlement's cash already leave cancelled sales out. A sale of a
 * closed day is refused (the open-day rule); a retry finds it cancelled and moves nothing.
 */
export class TransactionCanceller {
  private readonly cancels;
  private readonly layaways;

  constructor(
    db: Sqlite,
    private readonly reg: TransactionRegistry,
  ) {
    this.cancels = new TransactionCancelRepo(db);
    this.layaways = new LayawayRepo(db, reg.writer, reg.ids, reg.clock);
  }

  cancel(contract: Contract, transactionId: string, actor: Actor | null): Cancelled {
    const cid = contract.contractId;
    const reg = this.reg;
    return reg.writer.write((): Cancelled => {
      const record = reg.repo.find(cid, transactionId);
      if (!record) {
        // A layaway (transactionHeadDivision 10) is kept in records of its own; the platform cancels it here too (its rule: layaways/repo.ts).
        if (!this.layaways.find(cid, transactionId)) throw NotFoundError.field('transaction_id', `transaction ${transactionId} does not exist`);
        const row = this.layaways.cancel(contract, transactionId);
        return { layaway: this.layaways.find(cid, row.transaction_head_id)! };
      }
      const h = record.header;
      assertCancellable(h);
      // The sale's own closed mark says whether its day is closed (see BusinessDay.closedMark).
      const day = { contractId: cid, storeId: h.storeId as number, date: (h.sumDate ?? null) as string | null, closedMark: h.sumDivision === '2' };
      assertDayOpen(reg.closings, day, { field: 'transaction_id', message: transactionOfClosedDay(h.transactionHeadId) });

      const headId = h.transactionHeadId as number;
      const now = reg.clock.now().getTime();
      this.cancels.markCancelled(cid, headId, now);
      reg.writer.changed({ contractId: cid, entity: 'transaction', id: String(headId), op: 'update' });
      this.givePointsBack(cid, record, actor);
      this.giveStockBack(cid, record, actor);
      return { transaction: reg.repo.find(cid, headId)! };
    });
  }

  /** What the sale applied to its member (only if it applied it) goes back. */
  private givePointsBack(contractId: string, record: TransactionRecord, actor: Actor | null): void {
    const h = record.header;
    if (!record.pointsApplied || h.customerId === null || h.customerId === undefined) return;
    if (!this.reg.customers.find(contractId, h.customerId as number)) return;
    const d = (name: string) => exact(h[name] ?? 0);
    const delta = { point: d('spendPoint').minus(d('newPoint')), mile: d('earnMile').plus(d('adjustmentMile')).neg() };
    this.reg.customers.movePoints(contractId, h.customerId as number, delta, 'sale_cancel', { transactionHeadId: h.transactionHeadId, actor, allowNegative: true });
  }

  /**
   * The stock the sale moved when it was registered, moved back under the same divisions. A sale
   * that picked up a layaway also puts the layaway's goods back on sale (division 07, stockAmount
   * +quantity): the customer gives them back, and the layaway stays picked up (it is not kept again).
   */
  private giveStockBack(contractId: string, record: TransactionRecord, actor: Actor | null): void {
    const h = record.header;
    const pickedUp = this.reg.pickUps.goodsPickedUpBy(contractId, h.transactionHeadId as number);
    const moved = stockDeltasOf({ ...h, cancelDivision: '0' } as StockHeader, record.details as unknown as StockLine[], pickedUp);
    const ref = { transactionHeadId: h.transactionHeadId, clientId: actor?.clientId ?? null, staffId: actor?.staffId ?? null };
    for (const m of moved) {
      this.reg.stock.move(contractId, { storeId: h.storeId as number, productId: m.productId, delta: m.delta.neg(), division: m.division, ref });
    }
    for (const g of pickedUp) {
      this.reg.stock.move(contractId, { storeId: h.storeId as number, productId: g.productId, delta: String(g.quantity), division: STOCK_DIVISION.layaway, ref });
    }
  }
}

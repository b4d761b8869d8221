import type { Sqlite } from '../../db/open.js';

/** SQL of the cancel (POST /transactions/{id}/cancel): the one UPDATE that voids a sale. */
export class TransactionCancelRepo {
  private readonly cancel;

  constructor(db: Sqlite) {
    // points_applied goes to 0 with the cancel: the points it applied were given back in the same write.
    this.cancel = db.prepare(
      `UPDATE transactions SET cancel_division = '1', cancel_at = @now, upd_at = @now, points_applied = '0'
       WHERE contract_id = @contractId AND transaction_head_id = @id`,
    );
  }

  /** Marks a sale cancelled: cancelDivision 1, cancelDateTime now. */
  markCancelled(contractId: string, transactionHeadId: number, now: number): void {
    this.cancel.run({ contractId, id: transactionHeadId, now });
  }
}

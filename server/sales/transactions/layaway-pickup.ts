import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { ConflictError, InvalidInput } from '../../domain/errors.js';
import { layawayClosedReason, layawayStockMoves } from '../../domain/layaways.js';
import { formatDecimal } from '../../domain/money.js';
import { pickedUpNotSold, type PickedUpGoods, type StockLine } from '../../domain/stock.js';
import { LayawayRepo } from '../layaways/repo.js';
import type { LayawayDetailRow } from '../layaways/schema.js';
import type { CreateTransaction } from './schema.js';

/** The request field of a sale that names the layaway it picks up (引取). */
export const PICK_UP_FIELD = 'layawayServerTransactionHeadId';

/** A layaway a sale is about to pick up: its id and its goods per product. */
export interface PickUp {
  layawayId: number;
  goods: PickedUpGoods[];
}

/**
 * A sale that picks up a layaway (POST /transactions with layawayServerTransactionHeadId): the
 * layaway must be of the sale's store and still kept, and the sale must sell its goods; in the
 * sale's write the layaway becomes picked up (status 1) and its goods leave the laid-away stock,
 * while the sale does not take them from the available stock again (server/domain/stock.ts).
 */
export class LayawayPickUps {
  private readonly layaways: LayawayRepo;

  constructor(db: Sqlite, writer: Writer, ids: IdAllocator, clock: Clock) {
    this.layaways = new LayawayRepo(db, writer, ids, clock);
  }

  /** The layaway `body` picks up, checked against the sale; null when it names none. */
  check(contractId: string, body: CreateTransaction, storeId: number, details: readonly Record<string, unknown>[]): PickUp | null {
    const layawayId = body.layawayServerTransactionHeadId;
    if (layawayId === undefined) return null;
    const plainSale = body.transactionHeadDivision === '1' && (body.cancelDivision ?? '0') === '0' && (body.disposeDivision ?? '0') === '0';
    if (!plainSale) {
      throw InvalidInput.field(PICK_UP_FIELD, 'can be set only on a sale (transactionHeadDivision 1) that is neither cancelled (cancelDivision 1) nor a return-cancel (disposeDivision 2)');
    }
    const found = this.layaways.find(contractId, layawayId);
    if (!found) throw InvalidInput.field(PICK_UP_FIELD, `layaway ${layawayId} does not exist`);
    const r = found.row;
    if (r.store_id !== storeId) throw InvalidInput.field(PICK_UP_FIELD, `layaway ${layawayId} belongs to store ${r.store_id}, not to store ${storeId}`);
    const ended = layawayClosedReason({ transactionHeadId: r.transaction_head_id, status: r.status, pickUpTransactionHeadId: r.pick_up_transaction_head_id, cancelDivision: r.cancel_division });
    if (ended) throw ConflictError.field(PICK_UP_FIELD, ended);
    const goods = goodsOf(found.details);
    const short = pickedUpNotSold(details as unknown as StockLine[], goods);
    if (short) {
      throw InvalidInput.field(
        PICK_UP_FIELD,
        `layaway ${layawayId} keeps ${formatDecimal(short.laidAway)} of product ${short.productId} but the sale sells ${formatDecimal(short.sold)}; a pick-up sells every laid-away good`,
      );
    }
    return { layawayId: r.transaction_head_id, goods };
  }

  /** Marks the layaway picked up by the sale and moves its goods out of the laid-away stock. */
  pickUp(contractId: string, pickUp: PickUp, saleId: number): void {
    this.layaways.pickUp(contractId, pickUp.layawayId, saleId, PICK_UP_FIELD);
  }

  /** The goods of the layaway the sale picked up (none when it picked up none). */
  goodsPickedUpBy(contractId: string, saleId: number): PickedUpGoods[] {
    const found = this.layaways.pickedUpBy(contractId, saleId);
    return found ? goodsOf(found.details) : [];
  }
}

function goodsOf(details: readonly LayawayDetailRow[]): PickedUpGoods[] {
  const lines = details.map((d) => ({ productId: d.product_id, salesPrice: d.sales_price, unitDiscountPrice: d.unit_discount_price, quantity: d.quantity }));
  return layawayStockMoves(lines).map((m) => ({ productId: m.productId, quantity: m.layawayDelta }));
}

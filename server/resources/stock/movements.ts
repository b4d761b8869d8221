import { Decimal } from 'decimal.js';
import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { formatDecimal } from '../../domain/money.js';
import { stockDeltasOf, type StockHeader, type StockLine } from '../../domain/stock.js';

/**
 * Why a stock quantity moved (stock_movements.cause): sales and returns of transactions (sale,
 * return), store-to-store shipping sent (shipping_out) and received (receiving), shipments to
 * suppliers shipped (shipment), and the stock routes (manual_set: PATCH /stock/{id}; manual_add:
 * POST /stock/{id}/add; bulk_add: POST /stock/add/bulk).
 */
export const STOCK_CAUSES = ['sale', 'return', 'shipping_out', 'receiving', 'shipment', 'manual_set', 'manual_add', 'bulk_add'] as const;
export type StockCause = (typeof STOCK_CAUSES)[number];

/** The record that moved the stock (any that apply). */
export interface StockRef {
  transactionHeadId?: string | number | null;
  shippingId?: string | number | null;
  shipmentId?: string | number | null;
  storageInfoId?: string | number | null;
  /** The movement's memo (the stock routes' stockHistory.memo). */
  memo?: string | null;
  /** Who asked for it: the API client, and the staff member of a user token. */
  clientId?: string | null;
  staffId?: string | number | null;
}

export interface StockMove {
  storeId: string | number;
  productId: string | number;
  /** A decimal string (or Decimal), may be negative; zero records nothing. */
  delta: string | Decimal;
  cause: StockCause;
  ref?: StockRef;
  /** Record a zero movement too (PATCH /stock setting the quantity it already has keeps its history). */
  keepZero?: boolean;
}

export interface StockRow {
  contract_id: string;
  store_id: number;
  product_id: number;
  stock_amount: string;
  layaway_stock_amount: string;
  ins_at: number;
  upd_at: number;
}

export interface StockMovementRow {
  contract_id: string;
  movement_id: number;
  store_id: number;
  product_id: number;
  cause: StockCause;
  delta: string;
  amount_after: string;
  memo: string | null;
  transaction_head_id: number | null;
  shipping_id: number | null;
  shipment_id: number | null;
  storage_info_id: number | null;
  client_id: string | null;
  staff_id: number | null;
  moved_at: number;
}

/** What a move did: the quantity row after it and the movement recorded (null for a zero delta). */
export interface StockMoveResult {
  stock: StockRow;
  movement: StockMovementRow | null;
}

/** Registry names (server/db/entities.ts) of the quantity row and of its movements. */
export const STOCK_ENTITY = 'stock';
export const STOCK_MOVEMENT_ENTITY = 'stock_movement';

/** The `stock` record id of a store's quantity of a product (composite key store_id/product_id). */
export const stockId = (storeId: string | number, productId: string | number): string => `${storeId}/${productId}`;

const int = (v: string | number | null | undefined): number | null => (v === undefined || v === null ? null : Number(v));

/**
 * The one way a stock quantity changes: `move` records the movement (a sales-kind synced record,
 * written once) and adds its delta to the store's quantity, in the caller's write (or its own).
 * The quantity row is reported as a balance-only change: sync never sends it as a row (last
 * writer wins would lose another store's movements); central adds each pushed movement and hands
 * the stores the new quantity (sync/balances.ts). It checks nothing about the store, the product
 * or limits: callers validate first (sales never fail for stock).
 */
export class StockMovements {
  private readonly select;
  private readonly upsert;
  private readonly insertMovement;
  private readonly movementById;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.select = db.prepare('SELECT * FROM stock WHERE contract_id = ? AND store_id = ? AND product_id = ?');
    this.upsert = db.prepare(
      `INSERT INTO stock (contract_id, store_id, product_id, stock_amount, ins_at, upd_at) VALUES (@contractId, @storeId, @productId, @amount, @now, @now)
       ON CONFLICT (contract_id, store_id, product_id) DO UPDATE SET stock_amount = excluded.stock_amount, upd_at = excluded.upd_at`,
    );
    this.insertMovement = db.prepare(
      `INSERT INTO stock_movements (contract_id, movement_id, store_id, product_id, cause, delta, amount_after, memo,
         transaction_head_id, shipping_id, shipment_id, storage_info_id, client_id, staff_id, moved_at)
       VALUES (@contractId, @movementId, @storeId, @productId, @cause, @delta, @after, @memo,
         @transactionHeadId, @shippingId, @shipmentId, @storageInfoId, @clientId, @staffId, @now)`,
    );
    this.movementById = db.prepare('SELECT * FROM stock_movements WHERE contract_id = ? AND movement_id = ?');
  }

  /** The store's quantity row of a product, or undefined when it never moved. */
  find(contractId: string, storeId: string | number, productId: string | number): StockRow | undefined {
    return this.select.get(contractId, Number(storeId), Number(productId)) as StockRow | undefined;
  }

  /** The store's quantity of a product as a decimal string ('0' when it never moved). */
  amount(contractId: string, storeId: string | number, productId: string | number): string {
    return this.find(contractId, storeId, productId)?.stock_amount ?? '0';
  }

  /**
   * The stock a registered transaction moves at its store (server/domain/stock.ts): a sale takes
   * its goods, return lines and return-cancels bring them back; one movement per product and
   * cause, referencing the transaction. Call it in the write that registers the transaction.
   */
  moveTransaction(contractId: string, record: { header: Record<string, unknown>; details: readonly Record<string, unknown>[] }): void {
    const h = record.header;
    const deltas = stockDeltasOf(h as StockHeader, record.details as unknown as StockLine[]);
    // On the sale's hot path: the rows are written, not read back (move() answers them).
    this.writer.write(() => {
      for (const d of deltas) {
        this.record(contractId, { storeId: h.storeId as number, productId: d.productId, delta: d.delta, cause: d.cause, ref: { transactionHeadId: h.transactionHeadId as number } });
      }
    });
  }

  /**
   * Adds `delta` to the store's quantity of the product and records the movement with its cause
   * and references. A zero delta records nothing and answers the row as it is (a row at 0 when it
   * never moved, not stored), unless `keepZero`.
   */
  move(contractId: string, m: StockMove): StockMoveResult {
    return this.writer.write(() => {
      const storeId = Number(m.storeId);
      const productId = Number(m.productId);
      const movementId = this.record(contractId, m);
      if (movementId === null) {
        const now = this.clock.now().getTime();
        return {
          stock: this.find(contractId, storeId, productId) ?? { contract_id: contractId, store_id: storeId, product_id: productId, stock_amount: '0', layaway_stock_amount: '0', ins_at: now, upd_at: now },
          movement: null,
        };
      }
      return {
        stock: this.find(contractId, storeId, productId)!,
        movement: this.movementById.get(contractId, Number(movementId)) as StockMovementRow,
      };
    });
  }

  /** Writes the move (quantity and movement, both reported); the movement's id, or null for a zero delta not kept. Call inside a write. */
  private record(contractId: string, m: StockMove): string | null {
    const storeId = Number(m.storeId);
    const productId = Number(m.productId);
    const delta = new Decimal(m.delta);
    if (delta.isZero() && !m.keepZero) return null;
    const current = this.find(contractId, storeId, productId);
    const after = formatDecimal(delta.plus(current?.stock_amount ?? '0'));
    const now = this.clock.now().getTime();
    this.upsert.run({ contractId, storeId, productId, amount: after, now });
    const movementId = this.ids.next('stock_movements');
    const ref = m.ref ?? {};
    this.insertMovement.run({
      contractId,
      movementId: Number(movementId),
      storeId,
      productId,
      cause: m.cause,
      delta: formatDecimal(delta),
      after,
      memo: ref.memo ?? null,
      transactionHeadId: int(ref.transactionHeadId),
      shippingId: int(ref.shippingId),
      shipmentId: int(ref.shipmentId),
      storageInfoId: int(ref.storageInfoId),
      clientId: ref.clientId ?? null,
      staffId: int(ref.staffId),
      now,
    });
    this.writer.changed({ contractId, entity: STOCK_ENTITY, id: stockId(storeId, productId), op: current ? 'update' : 'insert', balanceOnly: true });
    this.writer.changed({ contractId, entity: STOCK_MOVEMENT_ENTITY, id: movementId, op: 'insert' });
    return movementId;
  }
}

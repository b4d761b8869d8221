import { Decimal } from 'decimal.js';
import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { formatDecimal } from '../../domain/money.js';
import { stockDeltasOf, type PickedUpGoods, type StockDivision, type StockHeader, type StockLine } from '../../domain/stock.js';

/** The record that moved the stock (any that apply). */
export interface StockRef {
  transactionHeadId?: string | number | null;
  shippingId?: string | number | null;
  shipmentId?: string | number | null;
  storageInfoId?: string | number | null;
  /** The stores a store-to-store shipping moves between (the platform's fromStoreId and toStoreId). */
  fromStoreId?: string | number | null;
  toStoreId?: string | number | null;
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
  /** Why it moved, as the platform's stockDivision code (server/domain/stock.ts). */
  division: StockDivision;
  ref?: StockRef;
  /** Record a zero movement too (PATCH /stock setting the quantity it already has keeps its history). */
  keepZero?: boolean;
  /** The platform's targetDateTime (epoch ms) when the change belongs to another time than now (a loss's lossDateTime). */
  targetAt?: number;
  /** Added to the store's laid-away quantity (layawayStockAmount): a layaway (07) keeps goods for a customer. */
  layawayDelta?: string | Decimal;
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
  stock_division: StockDivision;
  delta: string;
  amount_after: string;
  /** What it added to the store's laid-away quantity, and that quantity right after it. */
  layaway_delta: string;
  layaway_amount_after: string;
  target_at: number;
  from_store_id: number | null;
  to_store_id: number | null;
  /** The product master's at the movement; price in thousandths, cost in hundred-thousandths. */
  tax_division: string | null;
  price_units: number | null;
  cost_units: number | null;
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
      `INSERT INTO stock (contract_id, store_id, product_id, stock_amount, layaway_stock_amount, ins_at, upd_at)
       VALUES (@contractId, @storeId, @productId, @amount, @layaway, @now, @now)
       ON CONFLICT (contract_id, store_id, product_id) DO UPDATE SET stock_amount = excluded.stock_amount,
         layaway_stock_amount = excluded.layaway_stock_amount, upd_at = excluded.upd_at`,
    );
    // One row even without the product; the subquery is named, as PostgreSQL before 16 requires.
    this.insertMovement = db.prepare(
      `INSERT INTO stock_movements (contract_id, movement_id, store_id, product_id, stock_division, delta, amount_after, layaway_delta, layaway_amount_after, target_at,
         from_store_id, to_store_id, tax_division, price_units, cost_units, memo,
         transaction_head_id, shipping_id, shipment_id, storage_info_id, client_id, staff_id, moved_at)
       SELECT @contractId, @movementId, @storeId, @productId, @division, @delta, @after, @layawayDelta, @layawayAfter, @targetAt,
         @fromStoreId, @toStoreId, CASE WHEN p.tax_division IN ('0', '1', '2') THEN p.tax_division END, p.price_units, p.cost_units, @memo,
         @transactionHeadId, @shippingId, @shipmentId, @storageInfoId, @clientId, @staffId, @now
       FROM (SELECT 1) AS one LEFT JOIN products p ON p.contract_id = @contractId AND p.product_id = @productId`,
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
   * stock division, referencing the transaction and its staff member. Call it in the write that registers the transaction.
   * `pickedUp`: the goods of the layaway the sale picks up, which the sale does not take again.
   */
  moveTransaction(contractId: string, record: { header: Record<string, unknown>; details: readonly Record<string, unknown>[] }, pickedUp: readonly PickedUpGoods[] = []): void {
    const h = record.header;
    const deltas = stockDeltasOf(h as StockHeader, record.details as unknown as StockLine[], pickedUp);
    // On the sale's hot path: the rows are written, not read back (move() answers them).
    this.writer.write(() => {
      for (const d of deltas) {
        this.record(contractId, {
          storeId: h.storeId as number,
          productId: d.productId,
          delta: d.delta,
          division: d.division,
          ref: { transactionHeadId: h.transactionHeadId as number, staffId: (h.staffId as string | number | null | undefined) ?? null },
        });
      }
    });
  }

  /**
   * Adds `delta` to the store's quantity of the product and records the movement with its stock
   * division and references, and the product master's tax division, price and cost as they are
   * now. A zero delta records nothing and answers the row as it is (a row at 0 when it never
   * moved, not stored), unless `keepZero`.
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
    const layawayDelta = new Decimal(m.layawayDelta ?? 0);
    if (delta.isZero() && layawayDelta.isZero() && !m.keepZero) return null;
    const current = this.find(contractId, storeId, productId);
    const after = formatDecimal(delta.plus(current?.stock_amount ?? '0'));
    const layawayAfter = formatDecimal(layawayDelta.plus(current?.layaway_stock_amount ?? '0'));
    const now = this.clock.now().getTime();
    this.upsert.run({ contractId, storeId, productId, amount: after, layaway: layawayAfter, now });
    const movementId = this.ids.next('stock_movements');
    const ref = m.ref ?? {};
    this.insertMovement.run({
      contractId,
      movementId: Number(movementId),
      storeId,
      productId,
      division: m.division,
      delta: formatDecimal(delta),
      after,
      layawayDelta: formatDecimal(layawayDelta),
      layawayAfter,
      memo: ref.memo ?? null,
      transactionHeadId: int(ref.transactionHeadId),
      shippingId: int(ref.shippingId),
      shipmentId: int(ref.shipmentId),
      storageInfoId: int(ref.storageInfoId),
      fromStoreId: int(ref.fromStoreId),
      toStoreId: int(ref.toStoreId),
      clientId: ref.clientId ?? null,
      staffId: int(ref.staffId),
      targetAt: m.targetAt ?? now,
      now,
    });
    this.writer.changed({ contractId, entity: STOCK_ENTITY, id: stockId(storeId, productId), op: current ? 'update' : 'insert', balanceOnly: true });
    this.writer.changed({ contractId, entity: STOCK_MOVEMENT_ENTITY, id: movementId, op: 'insert' });
    return movementId;
  }
}

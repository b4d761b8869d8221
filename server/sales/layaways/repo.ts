import type { Clock } from '../../clock.js';
import { dialectOf } from '../../db/engine.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectFilteredPage, type Condition } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { ConflictError, InvalidInput, NotFoundError } from '../../domain/errors.js';
import { LAYAWAY_STATUS, layawayClosedReason, layawayEndMoves, layawayStockMoves, layawayTotals, layawayTotalsMismatch, type LayawayLine } from '../../domain/layaways.js';
import { formatDecimal } from '../../domain/money.js';
import { STOCK_DIVISION } from '../../domain/stock.js';
import { formatDate, parseDateTime } from '../../domain/time.js';
import { StockMovements } from '../../inventory/stock/movements.js';
import { CustomerRepo } from '../../masters/customers/repo.js';
import { StaffRepo } from '../../masters/staffs/repo.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { bodyHash } from '../transactions/request-keys.js';
import { TerminalRepo } from '../../masters/terminals/repo.js';
import type { Contract } from '../../platform/contracts/repo.js';
import type { Page } from '../../platform/http/paging.js';
import { DailySummaryRepo } from '../closing/closing-repo.js';
import { assertDayOpen, releaseFirstAt } from '../closing/open-day.js';
import { LAYAWAY_RANGES, type CreateLayaway, type LAYAWAY_SORT, type LayawayDetailRow, type LayawayRow, type ListLayawaysQuery } from './schema.js';

/** Registry name (server/db/entities.ts) of a layaway with its details. */
export const LAYAWAY_ENTITY = 'layaway';
/** A terminal clock may run a little ahead; a layaway dated more than a day ahead is a mistake (as a sale). */
const MAX_AHEAD_MS = 24 * 3600 * 1000;
const SORT_COLUMNS: Record<(typeof LAYAWAY_SORT)[number], string> = {
  transactionHeadId: 'transaction_head_id',
  transactionDateTime: 'transaction_at',
  storeId: 'store_id',
  terminalId: 'terminal_id',
  customerId: 'customer_id',
  terminalTranId: 'terminal_tran_id',
  terminalTranDateTime: 'terminal_tran_at',
  updDateTime: 'upd_at',
};

/**
 * Layaways (取置き, issue 26): store-made records with their lines, written in one transaction with
 * the stock they move. A layaway takes its goods out of its store's available stock and lays
 * them away for the customer (stock division 07: stockAmount down, layawayStockAmount up).
 */
export class LayawayRepo {
  private readonly stores;
  private readonly terminals;
  private readonly customers;
  private readonly staffs;
  private readonly closings;
  private readonly stock;
  private readonly byId;
  private readonly detailsOf;
  private readonly insertHead;
  private readonly insertDetail;
  private readonly productIds;
  private readonly byTerminalTran;
  private readonly byPickUp;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.terminals = new TerminalRepo(db, writer, clock);
    this.customers = new CustomerRepo(db, writer, ids, clock);
    this.staffs = new StaffRepo(db, writer, ids, clock);
    this.closings = new DailySummaryRepo(db);
    this.stock = new StockMovements(db, writer, ids, clock);
    this.byId = db.prepare('SELECT * FROM layaways WHERE contract_id = ? AND transaction_head_id = ?');
    this.detailsOf = db.prepare('SELECT * FROM layaway_details WHERE contract_id = ? AND transaction_head_id = ? ORDER BY transaction_detail_id');
    this.insertHead = db.prepare(
      `INSERT INTO layaways (contract_id, transaction_head_id, transaction_at, store_id, terminal_id, terminal_tran_id, terminal_tran_at,
         customer_id, staff_id, subtotal, subtotal_discount_price, total, amount, memo, body_hash, ins_at, upd_at)
       VALUES (@contractId, @id, @now, @storeId, @terminalId, @terminalTranId, @terminalTranAt,
         @customerId, @staffId, @subtotal, @subtotalDiscountPrice, @total, @amount, @memo, @bodyHash, @now, @now)`,
    );
    this.insertDetail = db.prepare(
      `INSERT INTO layaway_details (contract_id, transaction_head_id, transaction_detail_id, product_id, sales_price, unit_discount_price, quantity, ins_at, upd_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.byPickUp = db.prepare('SELECT transaction_head_id FROM layaways WHERE contract_id = ? AND pick_up_transaction_head_id = ?').pluck();
    this.byTerminalTran = db.prepare('SELECT * FROM layaways WHERE contract_id = ? AND store_id = ? AND terminal_id = ? AND terminal_tran_id = ?');
    this.productIds = db.prepare(`SELECT product_id FROM products WHERE contract_id = ? AND product_id ${dialectOf(db).inJsonList('integer')}`).pluck();
  }

  /** The layaway and its lines, or undefined. */
  find(contractId: string, id: string | number): { row: LayawayRow; details: LayawayDetailRow[] } | undefined {
    const row = this.byId.get(contractId, Number(id)) as LayawayRow | undefined;
    return row && { row, details: this.detailsOf.all(contractId, row.transaction_head_id) as LayawayDetailRow[] };
  }

  /** The layaway the sale `pickUpTransactionHeadId` picked up, with its lines, or undefined. */
  pickedUpBy(contractId: string, pickUpTransactionHeadId: number): { row: LayawayRow; details: LayawayDetailRow[] } | undefined {
    const id = this.byPickUp.get(contractId, pickUpTransactionHeadId) as number | undefined;
    return id === undefined ? undefined : this.find(contractId, id);
  }

  list(contractId: string, query: ListLayawaysQuery): LayawayRow[] {
    const values = query as Record<string, unknown>;
    const conditions: Condition[] = [
      ['transaction_head_id >= ?', numberOrUndefined(query['transaction_head_id-from'])],
      ['transaction_head_id <= ?', numberOrUndefined(query['transaction_head_id-to'])],
      ['store_id = ?', numberOrUndefined(query.store_id)],
      ['terminal_id = ?', numberOrUndefined(query.terminal_id)],
      ['customer_id = ?', numberOrUndefined(query.customer_id)],
      ...LAYAWAY_RANGES.flatMap(({ query: name, column }): Condition[] => [
        [`${column} >= ?`, timeOrUndefined(values[`${name}-from`])],
        [`${column} <= ?`, timeOrUndefined(values[`${name}-to`])],
      ]),
    ];
    return selectFilteredPage<LayawayRow, (typeof LAYAWAY_SORT)[number]>(
      this.db,
      { table: 'layaways', key: 'transaction_head_id' },
      contractId,
      conditions,
      query as Page<(typeof LAYAWAY_SORT)[number]>,
      SORT_COLUMNS,
    );
  }

  /**
   * Registers a layaway: its masters checked, its day open, its totals the server's; its goods laid
   * away. Once: the same store, terminal and terminalTranId sent again with the same body answer
   * the first layaway (`replayed`), with another body a 409.
   */
  create(contract: Contract, body: CreateLayaway): { row: LayawayRow; details: LayawayDetailRow[]; replayed: boolean } {
    const cid = contract.contractId;
    return this.writer.write(() => {
      const hash = bodyHash(body);
      const known = this.byTerminalTran.get(cid, Number(body.storeId), Number(body.terminalId), body.terminalTranId) as LayawayRow | undefined;
      if (known) {
        if (known.body_hash !== hash) {
          throw ConflictError.field('terminalTranId', `layaway ${known.transaction_head_id} was registered with this store, terminal and terminalTranId and a different body`);
        }
        return { ...this.find(cid, known.transaction_head_id)!, replayed: true };
      }
      const store = this.stores.referenced(cid, body.storeId, { open: true });
      const terminal = this.terminals.find(cid, body.terminalId);
      if (!terminal) throw InvalidInput.field('terminalId', `terminal ${body.terminalId} does not exist`);
      if (terminal.store_id !== store.store_id) {
        throw InvalidInput.field('terminalId', `terminal ${body.terminalId} belongs to store ${terminal.store_id}, not to store ${store.store_id}`);
      }
      if (body.customerId !== undefined && !this.customers.find(cid, body.customerId)) throw InvalidInput.field('customerId', `member ${body.customerId} does not exist`);
      if (body.staffId !== undefined && !this.staffs.find(cid, body.staffId)) throw InvalidInput.field('staffId', `staff ${body.staffId} does not exist`);
      const now = this.clock.now().getTime();
      const terminalTranAt = parseDateTime(body.terminalTranDateTime)!;
      if (terminalTranAt > now + MAX_AHEAD_MS) throw InvalidInput.field('terminalTranDateTime', 'is more than a day ahead of the server clock; check the terminal clock');
      assertDayOpen(
        this.closings,
        { contractId: cid, storeId: store.store_id, date: formatDate(terminalTranAt, contract.timeZone) },
        { field: 'terminalTranDateTime', message: releaseFirstAt },
      );
      const lines = this.linesOf(cid, body);
      const totals = layawayTotals(lines, body.subtotalDiscountPrice ?? '0');
      const mismatch = layawayTotalsMismatch(body, totals);
      if (mismatch) throw InvalidInput.field(mismatch.field, `sent ${mismatch.sent} but the server computes ${mismatch.computed}`);

      const id = Number(this.ids.next('transactions'));
      this.insertHead.run({
        contractId: cid,
        id,
        now,
        storeId: store.store_id,
        terminalId: terminal.terminal_id,
        terminalTranId: body.terminalTranId,
        terminalTranAt,
        customerId: body.customerId === undefined ? null : Number(body.customerId),
        staffId: body.staffId === undefined ? null : Number(body.staffId),
        subtotal: formatDecimal(totals.subtotal),
        subtotalDiscountPrice: formatDecimal(body.subtotalDiscountPrice ?? '0'),
        total: formatDecimal(totals.total),
        amount: totals.amount,
        memo: body.memo ?? null,
        bodyHash: hash,
      });
      body.details.forEach((d, i) => {
        const line = lines[i]!;
        this.insertDetail.run(cid, id, Number(d.transactionDetailId), line.productId, formatDecimal(line.salesPrice), formatDecimal(line.unitDiscountPrice), line.quantity, now, now);
      });
      for (const move of layawayStockMoves(lines)) {
        this.stock.move(cid, {
          storeId: store.store_id,
          productId: move.productId,
          delta: String(move.delta),
          layawayDelta: String(move.layawayDelta),
          division: STOCK_DIVISION.layaway,
          targetAt: terminalTranAt,
          ref: { transactionHeadId: id, staffId: body.staffId ?? null },
        });
      }
      this.writer.changed({ contractId: cid, entity: LAYAWAY_ENTITY, id: String(id), op: 'insert' });
      return { ...this.find(cid, id)!, replayed: false };
    });
  }

  /**
   * Picks a layaway up (引取): the sale `pickUpTransactionHeadId` takes its goods, so they leave the
   * laid-away stock (stock division 07, layawayStockAmount −quantity; the available stock gave them
   * when the layaway was made, so the picking sale must not take them again). Status 1. Call it in
   * the write that registers the picking sale; `field` names the sale's request field.
   */
  pickUp(contractId: string, layawayId: string | number, pickUpTransactionHeadId: number, field = 'layawayServerTransactionHeadId'): LayawayRow {
    return this.writer.write(() => {
      const found = this.open(contractId, layawayId, field, InvalidInput);
      const now = this.clock.now().getTime();
      this.db
        .prepare('UPDATE layaways SET status = ?, pick_up_transaction_head_id = ?, upd_at = ? WHERE contract_id = ? AND transaction_head_id = ?')
        .run(LAYAWAY_STATUS.pickedUp, pickUpTransactionHeadId, now, contractId, found.row.transaction_head_id);
      this.endStock(contractId, found, 'pickUp', pickUpTransactionHeadId);
      return this.find(contractId, found.row.transaction_head_id)!.row;
    });
  }

  /**
   * Cancels a layaway (取消): its goods go back on sale (stock division 07, stockAmount +quantity,
   * layawayStockAmount −quantity), cancelDivision 1. The store's day must be open (the movement is
   * dated now); `field` names the request's id of the layaway.
   */
  cancel(contract: Contract, layawayId: string | number, field = 'transaction_id'): LayawayRow {
    const cid = contract.contractId;
    return this.writer.write(() => {
      const found = this.open(cid, layawayId, field, NotFoundError);
      const now = this.clock.now().getTime();
      assertDayOpen(this.closings, { contractId: cid, storeId: found.row.store_id, date: formatDate(now, contract.timeZone) }, { field, message: releaseFirstAt });
      this.db
        .prepare("UPDATE layaways SET cancel_division = '1', cancel_at = ?, upd_at = ? WHERE contract_id = ? AND transaction_head_id = ?")
        .run(now, now, cid, found.row.transaction_head_id);
      this.endStock(cid, found, 'cancel', found.row.transaction_head_id);
      return this.find(cid, found.row.transaction_head_id)!.row;
    });
  }

  /** The layaway while its goods are kept: unknown is `missing` (404 by path, 400 in a body), ended is a 409. */
  private open(contractId: string, layawayId: string | number, field: string, missing: typeof NotFoundError | typeof InvalidInput) {
    const found = /^\d{1,15}$/.test(String(layawayId)) ? this.find(contractId, layawayId) : undefined;
    if (!found) throw missing.field(field, `layaway ${layawayId} does not exist`);
    const r = found.row;
    const ended = layawayClosedReason({ transactionHeadId: r.transaction_head_id, status: r.status, pickUpTransactionHeadId: r.pick_up_transaction_head_id, cancelDivision: r.cancel_division });
    if (ended) throw ConflictError.field(field, ended);
    return found;
  }

  private endStock(contractId: string, found: { row: LayawayRow; details: LayawayDetailRow[] }, how: 'pickUp' | 'cancel', by: number): void {
    const lines = found.details.map((d) => ({ productId: d.product_id, salesPrice: d.sales_price, unitDiscountPrice: d.unit_discount_price, quantity: d.quantity }));
    for (const move of layawayEndMoves(lines, how)) {
      this.stock.move(contractId, {
        storeId: found.row.store_id,
        productId: move.productId,
        delta: String(move.delta),
        layawayDelta: String(move.layawayDelta),
        division: STOCK_DIVISION.layaway,
        ref: { transactionHeadId: by, staffId: found.row.staff_id },
      });
    }
    this.writer.changed({ contractId, entity: LAYAWAY_ENTITY, id: String(found.row.transaction_head_id), op: 'update' });
  }

  /** The lines as the rules take them; each line's number unique, each product known. */
  private linesOf(contractId: string, body: CreateLayaway): LayawayLine[] {
    const seen = new Set<string>();
    body.details.forEach((d, i) => {
      const key = String(Number(d.transactionDetailId));
      if (seen.has(key)) throw InvalidInput.field(`details[${i}].transactionDetailId`, `${d.transactionDetailId} is already the number of another line`);
      seen.add(key);
    });
    const known = new Set(this.productIds.all(contractId, JSON.stringify(body.details.map((d) => Number(d.productId)))) as number[]);
    return body.details.map((d, i) => {
      if (!known.has(Number(d.productId))) throw InvalidInput.field(`details[${i}].productId`, `product ${d.productId} does not exist`);
      return { productId: Number(d.productId), salesPrice: d.salesPrice, unitDiscountPrice: d.unitDiscountPrice ?? '0', quantity: Number(d.quantity) };
    });
  }
}

const numberOrUndefined = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const timeOrUndefined = (v: unknown) => (typeof v === 'string' ? (parseDateTime(v) ?? undefined) : undefined);

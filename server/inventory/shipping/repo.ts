import { dialectOf } from '../../db/engine.js';
import type { Sqlite } from '../../db/open.js';
import { selectFilteredPage, setClause, updConditions, type Condition } from '../../db/sql.js';
import type { ApprovalStatus, ModificationStatus, ShippingStatus } from '../../domain/shipping.js';
import type { Page, UpdRange } from '../../platform/http/paging.js';

/** The registry name (server/db/entities.ts) reported to writer.changed for a shipping and both its sides' details. */
export const SHIPPING_ENTITY = 'shipping';

export interface ShippingRow {
  contract_id: string;
  shipping_id: number;
  shipping_store_id: number;
  receiving_store_id: number;
  receiving_desired_date: string | null;
  receiving_expected_date_from: string;
  receiving_expected_date_to: string;
  shipping_date: string;
  staff_id: number | null;
  request_staff_id: number | null;
  memo: string | null;
  identification_no: string | null;
  status: ShippingStatus;
  approval_status: ApprovalStatus;
  approved_at: number | null;
  modification_request_status: ModificationStatus;
  modification_requested_at: number | null;
  modification_checked_at: number | null;
  receiving_date: string | null;
  receiving_staff_id: number | null;
  shipped_at: number | null;
  received_at: number | null;
  ins_at: number;
  upd_at: number;
}

export interface ShippingDetailRow {
  contract_id: string;
  shipping_id: number;
  shipping_detail_id: number;
  product_id: number;
  quantity: number;
  stocked_quantity: number;
  ins_at: number;
  upd_at: number;
}

export interface ReceivingDetailRow {
  contract_id: string;
  shipping_id: number;
  receiving_detail_id: number;
  product_id: number;
  scheduled_quantity: number;
  inspection_quantity: number | null;
  stockout_quantity: number | null;
  stockout_reason: string | null;
  inspection_date: string | null;
  ins_at: number;
  upd_at: number;
}

/** The shipping header's columns a write may set (the operations map body keys to these). */
export type ShippingValues = Partial<Omit<ShippingRow, 'contract_id' | 'shipping_id' | 'ins_at' | 'upd_at'>>;
const HEADER_COLUMNS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    'shipping_store_id', 'receiving_store_id', 'receiving_desired_date', 'receiving_expected_date_from', 'receiving_expected_date_to',
    'shipping_date', 'staff_id', 'request_staff_id', 'memo', 'identification_no', 'status', 'approval_status', 'approved_at',
    'modification_request_status', 'modification_requested_at', 'modification_checked_at', 'receiving_date', 'receiving_staff_id',
    'shipped_at', 'received_at',
  ].map((c) => [c, c]),
);

export const SHIPPING_SORT = ['shippingId', 'shippingStoreId', 'receivingStoreId', 'shippingDate', 'receivingExpectedDateFrom', 'receivingExpectedDateTo', 'status', 'updDateTime'] as const;
const SORT_COLUMNS: Record<(typeof SHIPPING_SORT)[number], string> = {
  shippingId: 'shipping_id',
  shippingStoreId: 'shipping_store_id',
  receivingStoreId: 'receiving_store_id',
  shippingDate: 'shipping_date',
  receivingExpectedDateFrom: 'receiving_expected_date_from',
  receivingExpectedDateTo: 'receiving_expected_date_to',
  status: 'status',
  updDateTime: 'upd_at',
};
export const RECEIVING_SORT = ['receivingId', 'receivingStoreId', 'shippingStoreId', 'receivingDate', 'receivingExpectedDateFrom', 'updDateTime'] as const;
const RECEIVING_SORT_COLUMNS: Record<(typeof RECEIVING_SORT)[number], string> = {
  receivingId: 'shipping_id',
  receivingStoreId: 'receiving_store_id',
  shippingStoreId: 'shipping_store_id',
  receivingDate: 'receiving_date',
  receivingExpectedDateFrom: 'receiving_expected_date_from',
  updDateTime: 'upd_at',
};

/** Columns the lists filter on by equality. */
const FILTER_COLUMNS: Readonly<Record<string, string>> = { ...HEADER_COLUMNS, shipping_id: 'shipping_id' };
/** Equality filters of the lists: column → value (undefined: not filtered). */
export type ShippingFilters = Partial<Record<string, string | number>>;

const SHIPPINGS = { table: 'shippings', key: 'shipping_id' };

/** SQL of shippings and both sides' details; the rules live in domain/shipping.ts and operations.ts. */
export class ShippingRepo {
  private readonly byId;
  private readonly insertRow;
  private readonly detailsOf;
  private readonly detailsOfMany;
  private readonly insertDetail;
  private readonly updateDetail;
  private readonly receivingOf;
  private readonly insertReceiving;
  private readonly updateScheduled;
  private readonly updateInspection;
  private readonly productExists;
  private readonly staffExists;

  constructor(private readonly db: Sqlite) {
    this.byId = db.prepare('SELECT * FROM shippings WHERE contract_id = ? AND shipping_id = ?');
    this.insertRow = db.prepare(
      `INSERT INTO shippings (contract_id, shipping_id, shipping_store_id, receiving_store_id, receiving_desired_date,
         receiving_expected_date_from, receiving_expected_date_to, shipping_date, staff_id, request_staff_id, memo, identification_no,
         status, approval_status, approved_at, shipped_at, ins_at, upd_at)
       VALUES (@contract_id, @shipping_id, @shipping_store_id, @receiving_store_id, @receiving_desired_date,
         @receiving_expected_date_from, @receiving_expected_date_to, @shipping_date, @staff_id, @request_staff_id, @memo, @identification_no,
         @status, @approval_status, @approved_at, @shipped_at, @now, @now)`,
    );
    this.detailsOf = db.prepare('SELECT * FROM shipping_details WHERE contract_id = ? AND shipping_id = ? ORDER BY shipping_detail_id');
    this.detailsOfMany = db.prepare(
      `SELECT * FROM shipping_details WHERE contract_id = ? AND shipping_id ${dialectOf(db).inJsonList('integer')} ORDER BY shipping_id, shipping_detail_id`,
    );
    this.insertDetail = db.prepare(
      `INSERT INTO shipping_details (contract_id, shipping_id, shipping_detail_id, product_id, quantity, stocked_quantity, ins_at, upd_at)
       VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
    );
    this.updateDetail = db.prepare(
      'UPDATE shipping_details SET quantity = ?, stocked_quantity = ?, upd_at = ? WHERE contract_id = ? AND shipping_id = ? AND shipping_detail_id = ?',
    );
    this.receivingOf = db.prepare('SELECT * FROM shipping_receiving_details WHERE contract_id = ? AND shipping_id = ? ORDER BY receiving_detail_id');
    this.insertReceiving = db.prepare(
      `INSERT INTO shipping_receiving_details (contract_id, shipping_id, receiving_detail_id, product_id, scheduled_quantity,
         inspection_quantity, stockout_quantity, stockout_reason, inspection_date, ins_at, upd_at)
       VALUES (@contractId, @shippingId, @receivingDetailId, @productId, @scheduled, @inspection, @stockout, @reason, @date, @now, @now)`,
    );
    this.updateScheduled = db.prepare(
      'UPDATE shipping_receiving_details SET scheduled_quantity = ?, upd_at = ? WHERE contract_id = ? AND shipping_id = ? AND product_id = ?',
    );
    this.updateInspection = db.prepare(
      `UPDATE shipping_receiving_details SET inspection_quantity = @inspection, stockout_quantity = @stockout, stockout_reason = @reason,
         inspection_date = @date, upd_at = @now
       WHERE contract_id = @contractId AND shipping_id = @shippingId AND receiving_detail_id = @receivingDetailId`,
    );
    this.productExists = db.prepare('SELECT 1 FROM products WHERE contract_id = ? AND product_id = ?').pluck();
    this.staffExists = db.prepare('SELECT 1 FROM staffs WHERE contract_id = ? AND staff_id = ?').pluck();
  }

  find(contractId: string, shippingId: string | number): ShippingRow | undefined {
    return this.byId.get(contractId, shippingId) as ShippingRow | undefined;
  }

  hasProduct(contractId: string, productId: string | number): boolean {
    return this.productExists.get(contractId, productId) !== undefined;
  }

  hasStaff(contractId: string, staffId: string | number): boolean {
    return this.staffExists.get(contractId, staffId) !== undefined;
  }

  insert(row: Omit<ShippingRow, 'ins_at' | 'upd_at' | 'modification_request_status' | 'modification_requested_at' | 'modification_checked_at' | 'receiving_date' | 'receiving_staff_id' | 'received_at'>, now: number): void {
    this.insertRow.run({ ...row, now });
  }

  /** Sets the given header columns and upd_at (the header changes whenever either side does). */
  update(contractId: string, shippingId: number, values: ShippingValues, now: number): void {
    const set = setClause(values, HEADER_COLUMNS);
    this.db
      .prepare(`UPDATE shippings SET ${set ? `${set}, ` : ''}upd_at = @now WHERE contract_id = @contractId AND shipping_id = @shippingId`)
      .run({ ...values, now, contractId, shippingId });
  }

  details(contractId: string, shippingId: number): ShippingDetailRow[] {
    return this.detailsOf.all(contractId, shippingId) as ShippingDetailRow[];
  }

  /** The shipping details of several records (a list page), grouped by shipping id. */
  detailsOfPage(contractId: string, shippingIds: number[]): Map<number, ShippingDetailRow[]> {
    const out = new Map<number, ShippingDetailRow[]>(shippingIds.map((id) => [id, []]));
    if (!shippingIds.length) return out;
    for (const d of this.detailsOfMany.all(contractId, JSON.stringify(shippingIds)) as ShippingDetailRow[]) out.get(d.shipping_id)!.push(d);
    return out;
  }

  addDetail(contractId: string, shippingId: number, detailId: string, productId: number, quantity: number, now: number): void {
    this.insertDetail.run(contractId, shippingId, detailId, productId, quantity, now, now);
  }

  setDetail(contractId: string, shippingId: number, detailId: number, quantity: number, stockedQuantity: number, now: number): void {
    this.updateDetail.run(quantity, stockedQuantity, now, contractId, shippingId, detailId);
  }

  receivingDetails(contractId: string, shippingId: number): ReceivingDetailRow[] {
    return this.receivingOf.all(contractId, shippingId) as ReceivingDetailRow[];
  }

  addReceivingDetail(
    contractId: string,
    shippingId: number,
    d: { receivingDetailId: string; productId: number; scheduled: number; inspection?: number | null; stockout?: number | null; reason?: string | null; date?: string | null },
    now: number,
  ): void {
    this.insertReceiving.run({ contractId, shippingId, inspection: null, stockout: null, reason: null, date: null, ...d, now });
  }

  setScheduled(contractId: string, shippingId: number, productId: number, scheduled: number, now: number): void {
    this.updateScheduled.run(scheduled, now, contractId, shippingId, productId);
  }

  setInspection(
    contractId: string,
    shippingId: number,
    d: { receivingDetailId: number; inspection: number | null; stockout: number | null; reason: string | null; date: string | null },
    now: number,
  ): void {
    this.updateInspection.run({ contractId, shippingId, ...d, now });
  }

  /** A page of shippings: equality filters, the update-time range, the client's sort then the id. */
  list(contractId: string, filters: ShippingFilters, page: Page<(typeof SHIPPING_SORT)[number]> & UpdRange): ShippingRow[] {
    return selectFilteredPage<ShippingRow, (typeof SHIPPING_SORT)[number]>(this.db, SHIPPINGS, contractId, [...equal(filters), ...updConditions(page)], page, SORT_COLUMNS);
  }

  /** A page of receivings: shippings sent out (status 1 and later), filtered and sorted as the receiving side names them. */
  listReceiving(contractId: string, filters: ShippingFilters, page: Page<(typeof RECEIVING_SORT)[number]> & UpdRange): ShippingRow[] {
    const conditions: Condition[] = [["status <> '0' AND ?", 1], ...equal(filters), ...updConditions(page)];
    return selectFilteredPage<ShippingRow, (typeof RECEIVING_SORT)[number]>(this.db, SHIPPINGS, contractId, conditions, page, RECEIVING_SORT_COLUMNS);
  }
}

/** Only mapped columns reach the SQL text, never client input. */
const equal = (filters: ShippingFilters): Condition[] =>
  Object.entries(filters)
    .filter(([column]) => FILTER_COLUMNS[column] !== undefined)
    .map(([column, value]): Condition => [`${FILTER_COLUMNS[column]} = ?`, value]);

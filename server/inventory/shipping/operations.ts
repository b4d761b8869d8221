import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import {
  approvalDecision,
  approvalMove,
  assertCanCompleteModification,
  assertCanRequestModification,
  assertShippingUpdatable,
  initialApproval,
  INSPECTION,
  MAX_SHIPPING_DETAILS,
  MODIFIED,
  NOT_RECEIVED,
  NOT_SHIPPED,
  RECEIVED,
  receivedQuantity,
  reflectScheduled,
  REQUESTED,
  ShippingRuleError,
  statusMove,
  type ShippingStatus,
} from '../../domain/shipping.js';
import { STOCK_DIVISION } from '../../domain/stock.js';
import { formatDate } from '../../domain/time.js';
import { ConflictError, InvalidInput, NotFoundError } from '../../domain/errors.js';
import type { Contract } from '../../platform/contracts/repo.js';
import { StockMovements, type StockRef } from '../stock/movements.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { approvalFunctionUsed } from './approval-setting.js';
import { SHIPPING_ENTITY, ShippingRepo, type ShippingDetailRow, type ShippingRow, type ShippingValues } from './repo.js';
import type { Approval, CreateShipping, ModificationRequest, ShippingDetailInput, UpdateShipping } from './schema.js';

/** Who asked for a write: recorded on the stock movements it makes. */
export interface Actor {
  clientId?: string | null;
  staffId?: string | null;
}

/** A record and its shipping side's details, as the write answers show them. */
export interface ShippingRecord {
  row: ShippingRow;
  details: ShippingDetailRow[];
}

/** Runs a rule of domain/shipping.ts and turns its refusal into the problem it names (400 or 409). */
export function ruled<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof ShippingRuleError)) throw error;
    throw error.status === 409 ? new ConflictError(`[${error.field}] ${error.message}`) : InvalidInput.field(error.field, error.message);
  }
}

const n = (v: string) => Number(v);
const nullableId = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : n(v));

/**
 * Store-to-store shipping (spec 2.8, 3.1, 3.4, 4.2, 4.19): each write is one transaction that
 * checks the rules, writes the record and both sides' details, and moves the stock through
 * StockMovements: the shipping store's stock leaves when the shipping is sent out (and by the
 * difference when a sent shipping's quantities are corrected), the receiving store's stock enters
 * when the receiving completes. Each move happens once: the shipping details keep how much has
 * already left (stocked_quantity), and the receiving completes once (status 2 → 3).
 */
export class ShippingOperations {
  readonly repo: ShippingRepo;
  private readonly stores;
  private readonly stock;

  constructor(
    db: Sqlite,
    readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.repo = new ShippingRepo(db);
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.stock = new StockMovements(db, writer, ids, clock);
  }

  now(): number {
    return this.clock.now().getTime();
  }

  nextReceivingDetailId(): string {
    return this.ids.next('shipping_receiving_details');
  }

  /** The path's shipping, or 404. */
  get(contractId: string, shippingId: string): ShippingRow {
    const row = this.repo.find(contractId, shippingId);
    if (!row) throw NotFoundError.field('shipping_id', `shipping ${shippingId} does not exist`);
    return row;
  }

  record(contractId: string, row: ShippingRow): ShippingRecord {
    return { row: this.repo.find(contractId, row.shipping_id)!, details: this.repo.details(contractId, row.shipping_id) };
  }

  create(contract: Contract, input: CreateShipping, actor: Actor = {}): ShippingRecord {
    const { contractId } = contract;
    return this.writer.write(() => {
      this.stores.referenced(contractId, input.shippingStoreId, { field: 'shippingStoreId' });
      this.stores.referenced(contractId, input.receivingStoreId, { field: 'receivingStoreId' });
      if (input.receivingStoreId === input.shippingStoreId) throw InvalidInput.field('receivingStoreId', 'must be another store than shippingStoreId');
      this.assertDateRange(input.receivingExpectedDateFrom, input.receivingExpectedDateTo);
      this.assertStaff(contractId, 'staffId', input.staffId);
      this.assertStaff(contractId, 'requestStaffId', input.requestStaffId);
      const seen = new Map<string, number>();
      input.details.forEach((d, i) => this.assertNewProduct(contractId, `details.${i}.productId`, d.productId, seen, i));
      const status = input.status as ShippingStatus;
      const approval = ruled(() => initialApproval(approvalFunctionUsed(contract), status, input.approvalStatus));

      const now = this.now();
      const shippingId = this.ids.next('shippings');
      this.repo.insert(
        {
          contract_id: contractId,
          shipping_id: n(shippingId),
          shipping_store_id: n(input.shippingStoreId),
          receiving_store_id: n(input.receivingStoreId),
          receiving_desired_date: input.receivingDesiredDate ?? null,
          receiving_expected_date_from: input.receivingExpectedDateFrom,
          receiving_expected_date_to: input.receivingExpectedDateTo,
          shipping_date: input.shippingDate,
          staff_id: nullableId(input.staffId) ?? null,
          request_staff_id: nullableId(input.requestStaffId) ?? null,
          memo: input.memo ?? null,
          identification_no: input.identificationNo ?? null,
          status,
          approval_status: approval.approvalStatus,
          approved_at: approval.stamp ? now : null,
          shipped_at: status === NOT_RECEIVED ? now : null,
        },
        now,
      );
      for (const d of input.details) this.repo.addDetail(contractId, n(shippingId), this.ids.next('shipping_details'), n(d.productId), n(d.quantity), now);
      const row = this.repo.find(contractId, shippingId)!;
      if (status === NOT_RECEIVED) this.sendOut(contractId, row, now, actor);
      this.writer.changed({ contractId, entity: SHIPPING_ENTITY, id: shippingId, op: 'insert' });
      return this.record(contractId, row);
    });
  }

  /**
   * PATCH /shipping/{id}: the shipping side's fields and details, the approval, and one status
   * step. Any key but `status` is an edit of the shipping side (refused in inspection unless a
   * modification request is open, 3.1). Edits before inspection reach the receiving side at once;
   * edits under a request wait for its completion (4.19).
   */
  update(contract: Contract, shippingId: string, patch: UpdateShipping, actor: Actor = {}): ShippingRecord {
    const { contractId } = contract;
    return this.writer.write(() => {
      const row = this.get(contractId, shippingId);
      const now = this.now();
      const sentStatus = patch.status as ShippingStatus | undefined;
      const edits = Object.keys(patch).some((k) => k !== 'status');
      ruled(() => assertShippingUpdatable({ shippingId, status: row.status, modificationRequestStatus: row.modification_request_status }, edits, sentStatus));
      const values: ShippingValues = {};
      if (patch.approvalStatus !== undefined) {
        const sent = patch.approvalStatus;
        const { stamp } = ruled(() => approvalMove(row.approval_status, sent));
        values.approval_status = sent;
        if (stamp) values.approved_at = now;
      }
      const move = ruled(() => statusMove(row.status, sentStatus, values.approval_status ?? row.approval_status));

      this.assertDateRange(patch.receivingExpectedDateFrom ?? row.receiving_expected_date_from, patch.receivingExpectedDateTo ?? row.receiving_expected_date_to);
      this.assertStaff(contractId, 'staffId', patch.staffId);
      this.assertStaff(contractId, 'requestStaffId', patch.requestStaffId);
      if (patch.receivingExpectedDateFrom !== undefined) values.receiving_expected_date_from = patch.receivingExpectedDateFrom;
      if (patch.receivingExpectedDateTo !== undefined) values.receiving_expected_date_to = patch.receivingExpectedDateTo;
      if (patch.shippingDate !== undefined) values.shipping_date = patch.shippingDate;
      if (patch.receivingDesiredDate !== undefined) values.receiving_desired_date = patch.receivingDesiredDate;
      if (patch.staffId !== undefined) values.staff_id = nullableId(patch.staffId);
      if (patch.requestStaffId !== undefined) values.request_staff_id = nullableId(patch.requestStaffId);
      if (patch.memo !== undefined) values.memo = patch.memo;
      if (patch.identificationNo !== undefined) values.identification_no = patch.identificationNo;
      if (patch.details) this.applyDetails(contractId, row.shipping_id, patch.details, now);

      if (move === 'ship') Object.assign(values, { status: NOT_RECEIVED, shipped_at: now });
      if (move === 'inspect') values.status = INSPECTION;
      if (move === 'receive') Object.assign(values, { status: RECEIVED, received_at: now, receiving_date: row.receiving_date ?? formatDate(now, contract.timeZone) });
      this.repo.update(contractId, row.shipping_id, values, now);
      const after = this.repo.find(contractId, row.shipping_id)!;
      if (move === 'ship') this.sendOut(contractId, after, now, actor);
      else if (after.status !== NOT_SHIPPED) {
        // A sent shipping's corrected quantities leave (or return to) the shipping store at once;
        // before inspection they reach the receiving side too.
        this.moveShippedStock(contractId, after, now, actor);
        if (row.status === NOT_RECEIVED) this.reflect(contractId, after.shipping_id, now);
      }
      if (move === 'receive') this.completeReceiving(contractId, after, now, actor);
      this.writer.changed({ contractId, entity: SHIPPING_ENTITY, id: shippingId, op: 'update' });
      return this.record(contractId, after);
    });
  }

  /**
   * The approval operation (出庫承認): approves or rejects a shipping not sent out yet, with the
   * dates and memo it may change at the same time. Approving sends it out in the same write (the
   * shipping store's stock leaves, the receiving side is generated), as PATCH with status 1 does.
   */
  approve(contract: Contract, shippingId: string, body: Approval, actor: Actor = {}): ShippingRecord {
    const { contractId } = contract;
    return this.writer.write(() => {
      const row = this.get(contractId, shippingId);
      const { sendOut } = ruled(() => approvalDecision(row.status, row.approval_status, body.approvalStatus));
      const { approvalStatus, ...fields } = body;
      const patch: UpdateShipping = { ...fields, approvalStatus, ...(sendOut ? { status: NOT_RECEIVED } : {}) };
      return this.update(contract, shippingId, patch, actor);
    });
  }

  /** 4.2: opens a modification request during receiving inspection; a memo given replaces the memo. */
  requestModification(contract: Contract, shippingId: string, body: ModificationRequest): ShippingRecord {
    const { contractId } = contract;
    return this.writer.write(() => {
      const row = this.get(contractId, shippingId);
      ruled(() => assertCanRequestModification({ shippingId, status: row.status, modificationRequestStatus: row.modification_request_status }));
      const now = this.now();
      const values: ShippingValues = { modification_request_status: REQUESTED, modification_requested_at: now };
      if (body?.memo !== undefined) values.memo = body.memo;
      this.repo.update(contractId, row.shipping_id, values, now);
      this.writer.changed({ contractId, entity: SHIPPING_ENTITY, id: shippingId, op: 'update' });
      return this.record(contractId, row);
    });
  }

  /**
   * 4.19: completes the open request (1 → 2): the shipping details edited under it become the
   * receiving details' scheduled quantities, and the receiving may be updated again.
   */
  completeModification(contract: Contract, shippingId: string): ShippingRecord {
    const { contractId } = contract;
    return this.writer.write(() => {
      const row = this.get(contractId, shippingId);
      ruled(() => assertCanCompleteModification({ shippingId, modificationRequestStatus: row.modification_request_status }));
      const now = this.now();
      this.reflect(contractId, row.shipping_id, now);
      this.repo.update(contractId, row.shipping_id, { modification_request_status: MODIFIED, modification_checked_at: now }, now);
      this.writer.changed({ contractId, entity: SHIPPING_ENTITY, id: shippingId, op: 'update' });
      return this.record(contractId, row);
    });
  }

  /** Sending out (status 1): the shipping store's stock leaves and the receiving side is generated. */
  private sendOut(contractId: string, row: ShippingRow, now: number, actor: Actor): void {
    this.moveShippedStock(contractId, row, now, actor);
    this.reflect(contractId, row.shipping_id, now);
  }

  /** Moves out of the shipping store what its details list beyond what has already left. */
  private moveShippedStock(contractId: string, row: ShippingRow, now: number, actor: Actor): void {
    for (const d of this.repo.details(contractId, row.shipping_id)) {
      if (d.quantity === d.stocked_quantity) continue;
      this.stock.move(contractId, {
        storeId: row.shipping_store_id,
        productId: d.product_id,
        delta: String(d.stocked_quantity - d.quantity),
        division: STOCK_DIVISION.shippingOut,
        ref: this.ref(row, actor),
      });
      this.repo.setDetail(contractId, row.shipping_id, d.shipping_detail_id, d.quantity, d.quantity, now);
    }
  }

  /** The shipping details' quantities become the receiving details' scheduled quantities. */
  reflect(contractId: string, shippingId: number, now: number): void {
    const shipping = this.repo.details(contractId, shippingId).map((d) => ({ productId: d.product_id, quantity: d.quantity }));
    const receiving = this.repo.receivingDetails(contractId, shippingId).map((r) => ({ productId: r.product_id, scheduledQuantity: r.scheduled_quantity }));
    const { insert, update } = reflectScheduled(shipping, receiving);
    for (const s of insert) {
      this.repo.addReceivingDetail(contractId, shippingId, { receivingDetailId: this.nextReceivingDetailId(), productId: s.productId, scheduled: s.quantity }, now);
    }
    for (const s of update) this.repo.setScheduled(contractId, shippingId, s.productId, s.quantity, now);
  }

  /**
   * The receiving completes (status 3, once): each receiving detail's counted quantity enters the
   * receiving store; a detail never counted is taken as received in full (its scheduled quantity,
   * nothing missing, inspected on the receiving date).
   */
  completeReceiving(contractId: string, row: ShippingRow, now: number, actor: Actor): void {
    for (const d of this.repo.receivingDetails(contractId, row.shipping_id)) {
      const quantities = { scheduledQuantity: d.scheduled_quantity, inspectionQuantity: d.inspection_quantity, stockoutQuantity: d.stockout_quantity };
      if (d.inspection_quantity === null) {
        this.repo.setInspection(
          contractId,
          row.shipping_id,
          { receivingDetailId: d.receiving_detail_id, inspection: d.scheduled_quantity, stockout: 0, reason: d.stockout_reason, date: row.receiving_date },
          now,
        );
      }
      this.stock.move(contractId, {
        storeId: row.receiving_store_id,
        productId: d.product_id,
        delta: String(receivedQuantity(quantities)),
        division: STOCK_DIVISION.receiving,
        ref: this.ref(row, actor),
      });
    }
  }

  private ref(row: ShippingRow, actor: Actor): StockRef {
    return {
      shippingId: row.shipping_id,
      fromStoreId: row.shipping_store_id,
      toStoreId: row.receiving_store_id,
      clientId: actor.clientId ?? null,
      staffId: actor.staffId ?? null,
    };
  }

  /** Changes (by shippingDetailId) or adds (by productId) shipping details; at most 1000 in all. */
  private applyDetails(contractId: string, shippingId: number, inputs: ShippingDetailInput[], now: number): void {
    const existing = this.repo.details(contractId, shippingId);
    const byId = new Map(existing.map((d) => [String(d.shipping_detail_id), d]));
    const products = new Map(existing.map((d) => [String(d.product_id), -1]));
    const changed = new Set<string>();
    const added: { productId: string; quantity: number }[] = [];
    inputs.forEach((input, i) => {
      const at = `details.${i}`;
      if (input.shippingDetailId === undefined) {
        if (input.productId === undefined) throw InvalidInput.field(`${at}.productId`, 'is required to add a detail (no shippingDetailId)');
        this.assertNewProduct(contractId, `${at}.productId`, input.productId, products, i);
        added.push({ productId: input.productId, quantity: n(input.quantity) });
        return;
      }
      const detail = byId.get(input.shippingDetailId);
      if (!detail) throw InvalidInput.field(`${at}.shippingDetailId`, `shipping detail ${input.shippingDetailId} is not a detail of shipping ${shippingId}`);
      if (changed.has(input.shippingDetailId)) throw InvalidInput.field(`${at}.shippingDetailId`, `shipping detail ${input.shippingDetailId} is given twice`);
      if (input.productId !== undefined && input.productId !== String(detail.product_id)) {
        throw InvalidInput.field(`${at}.productId`, `shipping detail ${input.shippingDetailId} is of product ${detail.product_id}, not ${input.productId}`);
      }
      changed.add(input.shippingDetailId);
      this.repo.setDetail(contractId, shippingId, detail.shipping_detail_id, n(input.quantity), detail.stocked_quantity, now);
    });
    if (existing.length + added.length > MAX_SHIPPING_DETAILS) {
      throw InvalidInput.field('details', `a shipping has at most ${MAX_SHIPPING_DETAILS} details: ${existing.length} existing plus ${added.length} added`);
    }
    for (const a of added) this.repo.addDetail(contractId, shippingId, this.ids.next('shipping_details'), n(a.productId), a.quantity, now);
  }

  /** A product a body adds: it must exist and be listed once (`seen`: product → the position that listed it, -1 already stored). */
  private assertNewProduct(contractId: string, field: string, productId: string, seen: Map<string, number>, i: number): void {
    if (!this.repo.hasProduct(contractId, productId)) throw InvalidInput.field(field, `product ${productId} does not exist`);
    const first = seen.get(productId);
    if (first !== undefined) throw InvalidInput.field(field, first < 0 ? `product ${productId} is already in the shipping` : `product ${productId} is already in details[${first}]`);
    seen.set(productId, i);
  }

  private assertStaff(contractId: string, field: string, staffId: string | null | undefined): void {
    if (staffId !== undefined && staffId !== null && !this.repo.hasStaff(contractId, staffId)) throw InvalidInput.field(field, `staff ${staffId} does not exist`);
  }

  private assertDateRange(from: string, to: string): void {
    if (to < from) throw InvalidInput.field('receivingExpectedDateTo', `must not be before receivingExpectedDateFrom (${from})`);
  }
}

import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectFilteredPage, updConditions, type Condition } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { formatDecimal } from '../../domain/money.js';
import { approvalMove, assertShippedEditable, initialApproval, resolveRecipient, ShipmentRuleError, type Recipient } from '../../domain/shipments.js';
import { standardTaxRateAt } from '../../domain/tax.js';
import { TaxRateBook } from '../../masters/tax-rates/repo.js';
import { formatDate } from '../../domain/time.js';
import type { Page, UpdRange } from '../../platform/http/paging.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { ContractRepo, type Contract } from '../../platform/contracts/repo.js';
import { StaffRepo } from '../../masters/staffs/repo.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { SupplierRepo } from '../suppliers/repo.js';
import { ShipmentDetails } from './details.js';
import type { CreateShipment, ListShipmentsQuery, ShipmentDetailRow, ShipmentRow, SHIPMENT_SORT, UpdateShipment } from './schema.js';

export const SHIPMENT_ENTITY = 'shipment';
const SHIPMENTS = { table: 'shipments', key: 'shipment_id' };
const SORT_COLUMNS: Record<(typeof SHIPMENT_SORT)[number], string> = {
  shipmentId: 'shipment_id',
  shipmentDate: 'shipment_date',
  shipmentStoreId: 'shipment_store_id',
  updDateTime: 'upd_at',
};
/** PATCH keys that are plain columns (the recipient, approval, status and details have rules). */
const HEADER_COLUMNS = {
  shipmentDivision: 'shipment_division',
  shipmentDate: 'shipment_date',
  memo: 'memo',
  staffId: 'staff_id',
  taxRate: 'tax_rate',
  identificationNo: 'identification_no',
  roundingDivision: 'rounding_division',
} as const;

const asRuleError = <T>(fn: () => T): T => {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ShipmentRuleError) throw InvalidInput.field(error.field, error.message);
    throw error;
  }
};

/**
 * Shipments (spec 2.9, 3.2, 3.3, 4.12): store-made records with their details, written in one
 * transaction with the stock they move. Status 2 (shipped) takes each detail's quantity out of
 * the shipment store's stock through StockMovements (stock division 10, shipment), once: a
 * detail keeps how much already left (shipped_quantity), and only a difference moves again.
 */
export class ShipmentRepo {
  private readonly byId;
  private readonly insertHeader;
  private readonly contracts;
  private readonly stores;
  private readonly staffs;
  private readonly suppliers;
  readonly details: ShipmentDetails;
  private readonly taxRates;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.contracts = new ContractRepo(db, writer, clock);
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.staffs = new StaffRepo(db, writer, ids, clock);
    this.suppliers = new SupplierRepo(db, writer, ids, clock);
    this.details = new ShipmentDetails(db, writer, ids, clock);
    this.taxRates = new TaxRateBook(db);
    this.byId = db.prepare('SELECT * FROM shipments WHERE contract_id = ? AND shipment_id = ?');
    this.insertHeader = db.prepare(
      `INSERT INTO shipments (contract_id, shipment_id, shipment_store_id, recipient_type, recipient_id, recipient_name,
         shipment_division, shipment_date, memo, staff_id, tax_rate, identification_no, rounding_division, status,
         approval_status, approval_at, ins_at, upd_at)
       VALUES (@contractId, @shipmentId, @shipmentStoreId, @recipientType, @recipientId, @recipientName,
         @shipmentDivision, @shipmentDate, @memo, @staffId, @taxRate, @identificationNo, @roundingDivision, @status,
         @approvalStatus, @approvalAt, @now, @now)`,
    );
  }

  find(contractId: string, shipmentId: string | number): ShipmentRow | undefined {
    return this.byId.get(contractId, shipmentId) as ShipmentRow | undefined;
  }

  get(contractId: string, shipmentId: string | number): ShipmentRow {
    const row = this.find(contractId, shipmentId);
    if (!row) throw NotFoundError.field('shipment_id', `shipment ${shipmentId} does not exist`);
    return row;
  }

  /** The details of a shipment, in detail id order. */
  detailsOf(contractId: string, shipmentId: number): ShipmentDetailRow[] {
    return this.details.list(contractId, shipmentId);
  }

  list(contractId: string, query: ListShipmentsQuery, page: Page<(typeof SHIPMENT_SORT)[number]> & UpdRange): ShipmentRow[] {
    const conditions: Condition[] = [
      ['shipment_store_id = ?', query.shipment_store_id],
      ['recipient_type = ?', query.recipient_type],
      ['recipient_id = ?', query.recipient_id],
      ['shipment_division = ?', query.shipment_division],
      ['status = ?', query.status],
      ['approval_status = ?', query.approval_status],
      ['identification_no = ?', query.identification_no],
      ['shipment_date >= ?', query['shipment_date-from']],
      ['shipment_date <= ?', query['shipment_date-to']],
      ...updConditions(page),
    ];
    return selectFilteredPage<ShipmentRow, (typeof SHIPMENT_SORT)[number]>(this.db, SHIPMENTS, contractId, conditions, page, SORT_COLUMNS);
  }

  create(contract: Contract, body: CreateShipment): ShipmentRow {
    const contractId = contract.contractId;
    return this.writer.write(() => {
      const settings = this.contracts.inventorySettings(contractId);
      const store = this.stores.referenced(contractId, body.shipmentStoreId, { field: 'shipmentStoreId' });
      const recipient = this.recipient(contractId, undefined, body);
      if (body.staffId !== undefined) this.assertStaff(contractId, body.staffId);
      const now = this.clock.now().getTime();
      const rounding = body.roundingDivision ?? '1';
      const products = this.details.productsOfNew(contractId, body.details);
      const approval = asRuleError(() => initialApproval(settings.inventoryApproval, body.status, body.approvalStatus));
      const shipmentId = this.ids.next('shipments');
      this.insertHeader.run({
        contractId,
        shipmentId,
        shipmentStoreId: store.store_id,
        recipientType: recipient.recipientType,
        recipientId: recipient.recipientId === null ? null : Number(recipient.recipientId),
        recipientName: recipient.recipientName,
        shipmentDivision: body.shipmentDivision ?? '0',
        shipmentDate: body.shipmentDate ?? formatDate(now, contract.timeZone),
        memo: body.memo ?? null,
        staffId: body.staffId === undefined ? null : Number(body.staffId),
        taxRate: body.taxRate ?? formatDecimal(standardTaxRateAt(this.taxRates.ratesOf(contractId), now)),
        identificationNo: body.identificationNo ?? null,
        roundingDivision: rounding,
        status: body.status,
        approvalStatus: approval.approvalStatus,
        approvalAt: approval.stamp ? now : null,
        now,
      });
      this.details.add(contractId, shipmentId, body.details, products, rounding, now);
      this.details.moveStock(contractId, this.get(contractId, shipmentId), null);
      this.writer.changed({ contractId, entity: SHIPMENT_ENTITY, id: shipmentId, op: 'insert' });
      return this.get(contractId, shipmentId);
    });
  }

  update(contract: Contract, shipmentId: string, body: UpdateShipment): ShipmentRow {
    const contractId = contract.contractId;
    return this.writer.write(() => {
      const current = this.get(contractId, shipmentId);
      const settings = this.contracts.inventorySettings(contractId);
      asRuleError(() => assertShippedEditable(current.status, body.status, settings.shippedShipmentEditForbidden, shipmentId));
      const now = this.clock.now().getTime();
      const sets: Record<string, unknown> = {};
      for (const [key, column] of Object.entries(HEADER_COLUMNS)) {
        const value = body[key as keyof typeof HEADER_COLUMNS];
        if (value !== undefined) sets[column] = key === 'staffId' && value !== null ? Number(value) : value;
      }
      if (body.staffId !== undefined && body.staffId !== null) this.assertStaff(contractId, body.staffId);
      if (body.shipmentStoreId !== undefined) {
        sets.shipment_store_id = this.stores.referenced(contractId, body.shipmentStoreId, { field: 'shipmentStoreId' }).store_id;
      }
      if (body.recipientType !== undefined || body.recipientId !== undefined || body.recipientName !== undefined) {
        const recipient = this.recipient(contractId, recipientOf(current), body);
        sets.recipient_type = recipient.recipientType;
        sets.recipient_id = recipient.recipientId === null ? null : Number(recipient.recipientId);
        sets.recipient_name = recipient.recipientName;
      }
      if (body.approvalStatus !== undefined) {
        const { stamp } = asRuleError(() => approvalMove(current.approval_status, body.approvalStatus!));
        sets.approval_status = body.approvalStatus;
        if (stamp) sets.approval_at = now;
      }
      if (body.status !== undefined) sets.status = body.status;
      const rounding = body.roundingDivision ?? current.rounding_division;
      if (body.details) this.details.apply(contractId, current, body.details, rounding, now);
      const assignments = Object.keys(sets).map((c) => `${c} = @${c}`);
      this.db
        .prepare(`UPDATE shipments SET ${[...assignments, 'upd_at = @now'].join(', ')} WHERE contract_id = @contractId AND shipment_id = @shipmentId`)
        .run({ ...sets, now, contractId, shipmentId: current.shipment_id });
      this.details.moveStock(contractId, this.get(contractId, current.shipment_id), current);
      this.writer.changed({ contractId, entity: SHIPMENT_ENTITY, id: String(current.shipment_id), op: 'update' });
      return this.get(contractId, current.shipment_id);
    });
  }

  /** The recipient after the body, a supplier's name looked up (400 when it does not exist). */
  private recipient(contractId: string, current: Recipient | undefined, body: CreateShipment | UpdateShipment): Recipient {
    const resolved = asRuleError(() => resolveRecipient(current, body));
    if (resolved.supplierId === null) return resolved;
    const supplier = this.suppliers.referenced(contractId, resolved.supplierId, 'recipientId');
    return { recipientType: resolved.recipientType, recipientId: resolved.recipientId, recipientName: supplier.supplier_name };
  }

  private assertStaff(contractId: string, staffId: string): void {
    if (!this.staffs.find(contractId, staffId)) throw InvalidInput.field('staffId', `staff ${staffId} does not exist`);
  }
}

const recipientOf = (row: ShipmentRow): Recipient => ({
  recipientType: row.recipient_type,
  recipientId: row.recipient_id === null ? null : String(row.recipient_id),
  recipientName: row.recipient_name,
});

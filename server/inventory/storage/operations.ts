import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { productTaxRateAt } from '../../domain/inventory-prices.js';
import { COST_SCALE, formatDecimal, fromUnits } from '../../domain/money.js';
import { STOCK_DIVISION } from '../../domain/stock.js';
import {
  assertStorageUpdatable,
  missingInspectionDate,
  NOT_STORED,
  STORED,
  StorageRuleError,
  storageStatusOf,
  storedQuantity,
  type StorageQuantities,
} from '../../domain/storage.js';
import { StaffRepo } from '../../masters/staffs/repo.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { TaxRateBook } from '../../masters/tax-rates/repo.js';
import type { Contract } from '../../platform/contracts/repo.js';
import { InventoryMasters, type ProductFacts } from '../purchase-orders/inventory-masters.js';
import { StockMovements } from '../stock/movements.js';
import { SupplierRepo } from '../suppliers/repo.js';
import { STORAGE_ENTITY, StorageRepo, type DetailValues, type NewStorageDetail, type StorageDetailRow, type StorageRow, type StorageValues } from './repo.js';
import type { CreateStorage, StorageDetailUpdate, UpdateStorage } from './schema.js';

/** Who takes a step: the API client, and the staff member of a user token (the stock movements' staffId). */
export interface Actor {
  clientId?: string | null;
  staffId?: string | null;
}

export interface StorageRecord {
  row: StorageRow;
  details: StorageDetailRow[];
}

/** One delivery store of a purchase order registered as ordered, and the products delivered there. */
export interface OrderedDelivery {
  storageInfoId: number;
  supplierId: number | null;
  storeId: number;
  expectedFrom: string;
  expectedTo: string;
  memo: string | null;
  staffId: number | null;
  identificationNo: string | null;
  roundingDivision: '0' | '1' | '2';
  products: { productId: number; taxRate: string; cost: string; quantity: number }[];
}

const ruled = <T>(fn: () => T): T => {
  try {
    return fn();
  } catch (error) {
    if (error instanceof StorageRuleError) throw InvalidInput.field(error.field, error.message);
    throw error;
  }
};

const quantity = (v: string | undefined): number | null => (v === undefined ? null : Number(v));
const quantitiesOf = (d: StorageDetailRow): StorageQuantities => ({
  scheduledQuantity: d.scheduled_quantity,
  inspectionQuantity: d.inspection_quantity,
  stockoutQuantity: d.stockout_quantity,
  compulsoryCompleteFlag: d.compulsory_complete_flag,
});

/**
 * Storage (入荷): goods from a supplier arriving at a store. Registered on its own (POST /storage)
 * or made by a purchase order registered as ordered (one per delivery store); the store records
 * what it counted, and the write after which every detail is inspected completes it: the counted
 * quantities enter the store's stock (division 03, purchase) in that same write, once.
 */
export class StorageOperations {
  readonly repo: StorageRepo;
  private readonly stores;
  private readonly staffs;
  private readonly suppliers;
  private readonly masters;
  private readonly stock;
  private readonly taxRates;

  constructor(
    db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.repo = new StorageRepo(db);
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.staffs = new StaffRepo(db, writer, ids, clock);
    this.suppliers = new SupplierRepo(db, writer, ids, clock);
    this.masters = new InventoryMasters(db);
    this.stock = new StockMovements(db, writer, ids, clock);
    this.taxRates = new TaxRateBook(db);
  }

  get(contractId: string, storageId: string): StorageRow {
    const row = this.repo.find(contractId, storageId);
    if (!row) throw NotFoundError.field('storage_id', `storage ${storageId} does not exist`);
    return row;
  }

  record(contractId: string, storageId: number): StorageRecord {
    return { row: this.repo.find(contractId, storageId)!, details: this.repo.details(contractId, storageId) };
  }

  /** POST /storage: checks the body against the masters, fills the platform's defaults and writes it; complete at once when every detail is inspected. */
  create(contract: Contract, body: CreateStorage, actor: Actor = {}): StorageRecord {
    const { contractId } = contract;
    return this.writer.write(() => {
      this.suppliers.referenced(contractId, body.supplierId, 'supplierId');
      this.stores.referenced(contractId, body.storageStoreId, { field: 'storageStoreId' });
      if (body.staffId !== undefined && !this.staffs.find(contractId, body.staffId)) throw InvalidInput.field('staffId', `staff ${body.staffId} does not exist`);
      const from = body.storageExpectedDateFrom ?? body.storageDate;
      const to = body.storageExpectedDateTo ?? body.storageDate;
      if (to < from) throw InvalidInput.field('storageExpectedDateTo', `${to} is earlier than storageExpectedDateFrom ${from}`);
      const productIds = body.details.map((d) => Number(d.productId));
      const facts = this.masters.productFacts(contractId, productIds);
      const now = this.clock.now().getTime();
      const detailIds = this.ids.block('storage_details', body.details.length);
      const rates = this.taxRates.ratesOf(contractId);
      const details = body.details.map((d, i): NewStorageDetail => {
        const fact = facts.get(productIds[i]!);
        if (!fact) throw InvalidInput.field(`details[${i}].productId`, `product ${d.productId} does not exist`);
        const inspection = quantity(d.inspectionQuantity);
        const stockout = quantity(d.stockoutQuantity);
        const inspectionDate = d.inspectionDate ?? null;
        if (missingInspectionDate({ inspectionQuantity: inspection, stockoutQuantity: stockout, inspectionDate })) {
          throw InvalidInput.field(`details[${i}].inspectionDate`, 'is required with inspectionQuantity or stockoutQuantity');
        }
        return {
          storage_detail_id: Number(detailIds[i]),
          product_id: fact.product_id,
          tax_rate: d.taxRate ?? formatDecimal(productTaxRateAt(rates, fact.reduce_tax_id, now)),
          cost: d.cost ?? costOf(fact),
          scheduled_quantity: d.scheduledQuantity === undefined ? (inspection ?? 0) + (stockout ?? 0) : Number(d.scheduledQuantity),
          inspection_quantity: inspection,
          stockout_quantity: stockout,
          stockout_reason: d.stockoutReason ?? null,
          inspection_date: inspectionDate,
          number_memo: d.numberMemo ?? null,
          date_memo: d.dateMemo ?? null,
          compulsory_complete_flag: d.compulsoryCompleteFlag ?? '0',
        };
      });
      const storageId = Number(this.ids.next('storages'));
      const status = storageStatusOf(NOT_STORED, details.map((d) => quantitiesOf(d as StorageDetailRow)));
      this.repo.insert(
        contractId,
        {
          storage_id: storageId,
          storage_info_id: null,
          supplier_id: Number(body.supplierId),
          storage_store_id: Number(body.storageStoreId),
          storage_expected_date_from: from,
          storage_expected_date_to: to,
          storage_date: body.storageDate,
          memo: body.memo ?? null,
          staff_id: body.staffId === undefined ? null : Number(body.staffId),
          identification_no: body.identificationNo ?? null,
          rounding_division: body.roundingDivision ?? '1',
          status,
        },
        details,
        now,
      );
      if (status === STORED) this.complete(contractId, storageId, now, actor);
      this.writer.changed({ contractId, entity: STORAGE_ENTITY, id: String(storageId), op: 'insert' });
      return this.record(contractId, storageId);
    });
  }

  /**
   * The storages a purchase order registered as ordered makes: one per delivery store with the
   * products delivered there (scheduled: the ordered quantity), no storage date yet. Call it in
   * the write that registers the order.
   */
  createForOrder(contractId: string, deliveries: readonly OrderedDelivery[]): void {
    const now = this.clock.now().getTime();
    for (const delivery of deliveries) {
      if (!delivery.products.length) continue;
      const storageId = Number(this.ids.next('storages'));
      const detailIds = this.ids.block('storage_details', delivery.products.length);
      this.repo.insert(
        contractId,
        {
          storage_id: storageId,
          storage_info_id: delivery.storageInfoId,
          supplier_id: delivery.supplierId,
          storage_store_id: delivery.storeId,
          storage_expected_date_from: delivery.expectedFrom,
          storage_expected_date_to: delivery.expectedTo,
          storage_date: null,
          memo: delivery.memo,
          staff_id: delivery.staffId,
          identification_no: delivery.identificationNo,
          rounding_division: delivery.roundingDivision,
          status: NOT_STORED,
        },
        delivery.products.map((p, i) => ({
          storage_detail_id: Number(detailIds[i]),
          product_id: p.productId,
          tax_rate: p.taxRate,
          cost: p.cost,
          scheduled_quantity: p.quantity,
          inspection_quantity: null,
          stockout_quantity: null,
          stockout_reason: null,
          inspection_date: null,
          number_memo: null,
          date_memo: null,
          compulsory_complete_flag: '0',
        })),
        now,
      );
      this.writer.changed({ contractId, entity: STORAGE_ENTITY, id: String(storageId), op: 'insert' });
    }
  }

  /** PATCH /storage/{storage_id}: the storage date, identification number and inspections of existing details. */
  update(contract: Contract, storageId: string, patch: UpdateStorage, actor: Actor = {}): StorageRecord {
    const { contractId } = contract;
    return this.writer.write(() => {
      const row = this.get(contractId, storageId);
      ruled(() => assertStorageUpdatable(storageId, row.status));
      const storageDate = patch.storageDate ?? row.storage_date;
      if (storageDate === null) throw InvalidInput.field('storageDate', `is required: storage ${storageId} has no storage date yet`);
      const now = this.clock.now().getTime();
      if (patch.details) this.applyDetails(contractId, row.storage_id, patch.details, now);
      const status = storageStatusOf(row.status, this.repo.details(contractId, row.storage_id).map(quantitiesOf));
      const values: StorageValues = { storage_date: storageDate, status };
      if (patch.identificationNo !== undefined) values.identification_no = patch.identificationNo;
      this.repo.update(contractId, row.storage_id, values, now);
      if (status === STORED) this.complete(contractId, row.storage_id, now, actor);
      this.writer.changed({ contractId, entity: STORAGE_ENTITY, id: storageId, op: 'update' });
      return this.record(contractId, row.storage_id);
    });
  }

  /** Records the inspections of existing details (the platform adds none on update). */
  private applyDetails(contractId: string, storageId: number, inputs: readonly StorageDetailUpdate[], now: number): void {
    const byId = new Map(this.repo.details(contractId, storageId).map((d) => [String(d.storage_detail_id), d]));
    const done = new Set<string>();
    inputs.forEach((input, i) => {
      const at = `details[${i}]`;
      const detailId = String(Number(input.storageDetailId));
      const detail = byId.get(detailId);
      if (!detail) throw InvalidInput.field(`${at}.storageDetailId`, `storage detail ${input.storageDetailId} is not a detail of storage ${storageId}`);
      if (done.has(detailId)) throw InvalidInput.field(`${at}.storageDetailId`, `storage detail ${input.storageDetailId} is given twice`);
      done.add(detailId);
      const values: DetailValues = {
        inspection_quantity: input.inspectionQuantity === undefined ? undefined : Number(input.inspectionQuantity),
        stockout_quantity: input.stockoutQuantity === undefined ? undefined : Number(input.stockoutQuantity),
        stockout_reason: input.stockoutReason,
        inspection_date: input.inspectionDate,
        number_memo: input.numberMemo,
        date_memo: input.dateMemo,
        compulsory_complete_flag: input.compulsoryCompleteFlag,
      };
      const after = {
        inspectionQuantity: values.inspection_quantity ?? detail.inspection_quantity,
        stockoutQuantity: values.stockout_quantity ?? detail.stockout_quantity,
        inspectionDate: values.inspection_date ?? detail.inspection_date,
      };
      if (missingInspectionDate(after)) throw InvalidInput.field(`${at}.inspectionDate`, 'is required with inspectionQuantity or stockoutQuantity');
      this.repo.updateDetail(contractId, storageId, detail.storage_detail_id, values, now);
    });
  }

  /** Completion: each detail's counted quantity enters the store's stock, one movement per product (division 03). */
  private complete(contractId: string, storageId: number, now: number, actor: Actor): void {
    const row = this.repo.find(contractId, storageId)!;
    this.repo.update(contractId, storageId, { stored_at: now }, now);
    for (const d of this.repo.details(contractId, storageId)) {
      this.stock.move(contractId, {
        storeId: row.storage_store_id,
        productId: d.product_id,
        delta: String(storedQuantity(quantitiesOf(d))),
        division: STOCK_DIVISION.purchase,
        ref: { storageInfoId: row.storage_info_id, clientId: actor.clientId ?? null, staffId: actor.staffId ?? row.staff_id },
      });
    }
  }
}

const costOf = (fact: ProductFacts) => (fact.cost_units === null ? '0' : fromUnits(fact.cost_units, COST_SCALE));

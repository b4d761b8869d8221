import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { dialectOf } from '../../db/engine.js';
import type { Sqlite } from '../../db/open.js';
import { selectFilteredPage, updConditions, type Condition } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { COST_SCALE, formatDecimal, fromUnits } from '../../domain/money.js';
import { productTaxRateAt } from '../../domain/inventory-prices.js';
import { TaxRateBook } from '../../masters/tax-rates/repo.js';
import { applySplit, assertOrderable, ORDERED, PurchaseOrderRuleError, SPLIT_SUPPLIER } from '../../domain/purchase-orders.js';
import { formatDate } from '../../domain/time.js';
import type { Page, UpdRange } from '../../platform/http/paging.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { ContractRepo, type Contract } from '../../platform/contracts/repo.js';
import { StaffRepo } from '../../masters/staffs/repo.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { SupplierRepo } from '../suppliers/repo.js';
import { StorageOperations, type OrderedDelivery } from '../storage/operations.js';
import { DEFAULT_ORDER_SETTING, InventoryMasters, pairKey, type ProductFacts } from './inventory-masters.js';
import type {
  CreatePurchaseOrder,
  ListPurchaseOrdersQuery,
  OrderDeliveryRow,
  OrderProductRow,
  OrderStoreRow,
  PURCHASE_ORDER_SORT,
  PurchaseOrderRecord,
  PurchaseOrderRow,
} from './schema.js';

export const PURCHASE_ORDER_ENTITY = 'purchase_order';
const ORDERS = { table: 'purchase_orders', key: 'storage_info_id' };
type SortField = (typeof PURCHASE_ORDER_SORT)[number];
const SORT_COLUMNS: Record<SortField, string> = { storageInfoId: 'storage_info_id', orderedDate: 'ordered_date', updDateTime: 'upd_at' };

const ruled = <T>(fn: () => T): T => {
  try {
    return fn();
  } catch (error) {
    if (error instanceof PurchaseOrderRuleError) throw InvalidInput.field(error.field, error.message);
    throw error;
  }
};

/**
 * Purchase orders (spec 2.10, 4.14): store-made records with their products, each product's
 * delivery quantities and the delivery stores, registered in one transaction. Every check reads
 * its masters once for the whole body (a registration may carry 1,000 products).
 */
export class PurchaseOrderRepo {
  private readonly byId;
  private readonly productsOf;
  private readonly deliveriesOf;
  private readonly storesOf;
  private readonly insertOrder;
  private readonly insertProduct;
  private readonly insertDelivery;
  private readonly insertStore;
  private readonly contracts;
  private readonly stores;
  private readonly staffs;
  private readonly masters;
  private readonly suppliers;
  private readonly storage;
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
    this.masters = new InventoryMasters(db);
    this.suppliers = new SupplierRepo(db, writer, ids, clock);
    this.storage = new StorageOperations(db, writer, ids, clock);
    this.taxRates = new TaxRateBook(db);
    this.byId = db.prepare('SELECT * FROM purchase_orders WHERE contract_id = ? AND storage_info_id = ?');
    const ofOrders = (table: string, order: string) =>
      db.prepare(`SELECT * FROM ${table} WHERE contract_id = ? AND storage_info_id ${dialectOf(db).inJsonList('integer')} ORDER BY storage_info_id, ${order}`);
    this.productsOf = ofOrders('purchase_order_products', 'storage_info_product_id');
    this.deliveriesOf = ofOrders('purchase_order_delivery_products', 'storage_info_delivery_product_id');
    this.storesOf = ofOrders('purchase_order_stores', 'storage_info_delivery_id');
    this.insertOrder = db.prepare(
      `INSERT INTO purchase_orders (contract_id, storage_info_id, recipient_order_id, order_source_store_id, order_staff_name,
         division_unit, category_group_id, ordered_date, memo, identification_no, rounding_division, status, staff_id, ins_at, upd_at)
       VALUES (@contract_id, @storage_info_id, @recipient_order_id, @order_source_store_id, @order_staff_name,
         @division_unit, @category_group_id, @ordered_date, @memo, @identification_no, @rounding_division, @status, @staff_id, @ins_at, @upd_at)`,
    );
    this.insertProduct = db.prepare(
      `INSERT INTO purchase_order_products (contract_id, storage_info_product_id, storage_info_id, product_id, tax_rate, cost, tax_division, quantity, ins_at, upd_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertDelivery = db.prepare(
      `INSERT INTO purchase_order_delivery_products (contract_id, storage_info_delivery_product_id, storage_info_product_id, storage_info_id, product_id, store_id, quantity)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertStore = db.prepare(
      `INSERT INTO purchase_order_stores (contract_id, storage_info_delivery_id, storage_info_id, storage_store_id, storage_expected_date_from, storage_expected_date_to, ins_at, upd_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  get(contractId: string, id: string | number): PurchaseOrderRow {
    const row = this.byId.get(contractId, id) as PurchaseOrderRow | undefined;
    if (!row) throw NotFoundError.field('purchase_order_id', `purchase order ${id} does not exist`);
    return row;
  }

  list(contractId: string, query: ListPurchaseOrdersQuery, page: Page<SortField> & UpdRange): PurchaseOrderRow[] {
    const conditions: Condition[] = [
      ['recipient_order_id = ?', query.recipient_order_id],
      ['order_source_store_id = ?', query.order_source_store_id],
      ['status = ?', query.status],
      ['division_unit = ?', query.division_unit],
      ['staff_id = ?', query.staff_id],
      ['identification_no = ?', query.identification_no],
      ['ordered_date >= ?', query['ordered_date-from']],
      ['ordered_date <= ?', query['ordered_date-to']],
      [
        `EXISTS (SELECT 1 FROM purchase_order_stores s WHERE s.contract_id = purchase_orders.contract_id
           AND s.storage_info_id = purchase_orders.storage_info_id AND s.storage_store_id = ?)`,
        query.storage_store_id,
      ],
      ...updConditions(page),
    ];
    return selectFilteredPage<PurchaseOrderRow, SortField>(this.db, ORDERS, contractId, conditions, page, SORT_COLUMNS);
  }

  /** Orders with the children asked for, in the order given. */
  records(contractId: string, rows: readonly PurchaseOrderRow[], withProducts: boolean, withStores: boolean): PurchaseOrderRecord[] {
    const ids = JSON.stringify(rows.map((r) => r.storage_info_id));
    const products = new Map<number, { row: OrderProductRow; deliveries: OrderDeliveryRow[] }[]>();
    const byProduct = new Map<number, OrderDeliveryRow[]>();
    if (withProducts && rows.length) {
      for (const p of this.productsOf.all(contractId, ids) as OrderProductRow[]) {
        const deliveries: OrderDeliveryRow[] = [];
        byProduct.set(p.storage_info_product_id, deliveries);
        const list = products.get(p.storage_info_id) ?? products.set(p.storage_info_id, []).get(p.storage_info_id)!;
        list.push({ row: p, deliveries });
      }
      for (const d of this.deliveriesOf.all(contractId, ids) as OrderDeliveryRow[]) byProduct.get(d.storage_info_product_id)?.push(d);
    }
    const stores = new Map<number, OrderStoreRow[]>();
    if (withStores && rows.length) {
      for (const s of this.storesOf.all(contractId, ids) as OrderStoreRow[]) {
        (stores.get(s.storage_info_id) ?? stores.set(s.storage_info_id, []).get(s.storage_info_id)!).push(s);
      }
    }
    return rows.map((row) => ({
      row,
      products: withProducts ? (products.get(row.storage_info_id) ?? []) : null,
      stores: withStores ? (stores.get(row.storage_info_id) ?? []) : null,
    }));
  }

  /** Spec 4.14: checks the whole body against the masters and settings, then writes the order in one transaction. */
  create(contract: Contract, body: CreatePurchaseOrder): PurchaseOrderRecord {
    const contractId = contract.contractId;
    return this.writer.write(() => {
      const settings = this.contracts.inventorySettings(contractId);
      if (body.recipientOrderId !== undefined) this.suppliers.referenced(contractId, body.recipientOrderId, 'recipientOrderId');
      if (body.orderSourceStoreId !== undefined) this.stores.referenced(contractId, body.orderSourceStoreId, { field: 'orderSourceStoreId' });
      if (body.staffId !== undefined && !this.staffs.find(contractId, body.staffId)) {
        throw InvalidInput.field('staffId', `staff ${body.staffId} does not exist`);
      }
      body.stores.forEach((s, i) => this.stores.referenced(contractId, s.storageStoreId, { field: `stores[${i}].storageStoreId` }));
      const productIds = body.products.map((p) => Number(p.productId));
      const facts = this.masters.productFacts(contractId, productIds);
      body.products.forEach((p, i) => {
        if (!facts.has(Number(p.productId))) throw InvalidInput.field(`products[${i}].productId`, `product ${p.productId} does not exist`);
      });
      const ordered = productIds.map((id) => facts.get(id)!);
      const supplied = settings.orderSplitUnit === SPLIT_SUPPLIER ? this.masters.suppliedProducts(contractId, productIds) : null;
      const categoryGroupId = ruled(() =>
        applySplit(
          settings.orderSplitUnit,
          body.recipientOrderId,
          ordered.map((f) => ({ productId: f.product_id, categoryGroupId: f.category_group_id, hasSupplier: supplied?.has(f.product_id) ?? true })),
        ),
      );
      this.assertOrderingSettings(contractId, body, productIds);

      const now = this.clock.now().getTime();
      const today = formatDate(now, contract.timeZone);
      const orderId = Number(this.ids.next('purchase_orders'));
      const row: PurchaseOrderRow = {
        contract_id: contractId,
        storage_info_id: orderId,
        recipient_order_id: body.recipientOrderId === undefined ? null : Number(body.recipientOrderId),
        order_source_store_id: body.orderSourceStoreId === undefined ? null : Number(body.orderSourceStoreId),
        order_staff_name: body.orderStaffName ?? null,
        division_unit: settings.orderSplitUnit,
        category_group_id: categoryGroupId,
        ordered_date: body.orderedDate ?? today,
        memo: body.memo ?? null,
        identification_no: body.identificationNo ?? null,
        rounding_division: body.roundingDivision ?? '1',
        status: body.status,
        staff_id: body.staffId === undefined ? null : Number(body.staffId),
        ins_at: now,
        upd_at: now,
      };
      this.insertOrder.run(row);
      const storeIds = this.ids.block('purchase_order_stores', body.stores.length);
      const stores = body.stores.map((s, i): OrderStoreRow => {
        const from = s.storageExpectedDateFrom ?? today;
        const to = s.storageExpectedDateTo ?? today;
        if (to < from) throw InvalidInput.field(`stores[${i}].storageExpectedDateTo`, `${to} is earlier than storageExpectedDateFrom ${from}`);
        const storeRow = { storage_info_delivery_id: Number(storeIds[i]), storage_info_id: orderId, storage_store_id: Number(s.storageStoreId), storage_expected_date_from: from, storage_expected_date_to: to, ins_at: now, upd_at: now };
        this.insertStore.run(contractId, storeRow.storage_info_delivery_id, orderId, storeRow.storage_store_id, from, to, now, now);
        return storeRow;
      });
      // Ids of every child row in one step each; defaults computed once per distinct value.
      const productIdsMinted = this.ids.block('purchase_order_products', body.products.length);
      const deliveryIds = this.ids.block('purchase_order_delivery_products', body.products.reduce((n, p) => n + p.deliveryStore.length, 0));
      const once = memo();
      const rates = this.taxRates.ratesOf(contractId);
      let next = 0;
      const products = body.products.map((p, i) => {
        const fact = ordered[i]!;
        const productId = Number(productIdsMinted[i]);
        let quantity = 0;
        for (const d of p.deliveryStore) quantity += Number(d.quantity);
        const productRow: OrderProductRow = {
          storage_info_product_id: productId,
          storage_info_id: orderId,
          product_id: fact.product_id,
          tax_rate: p.taxRate ?? once(`rate:${fact.reduce_tax_id}`, () => formatDecimal(productTaxRateAt(rates, fact.reduce_tax_id, now))),
          cost: p.cost ?? once(`units:${fact.cost_units}`, () => costOf(fact)),
          tax_division: fact.tax_division,
          quantity,
          ins_at: now,
          upd_at: now,
        };
        this.insertProduct.run(contractId, productId, orderId, fact.product_id, productRow.tax_rate, productRow.cost, fact.tax_division, quantity, now, now);
        const deliveries = p.deliveryStore.map((d): OrderDeliveryRow => {
          const delivery = { storage_info_delivery_product_id: Number(deliveryIds[next++]), storage_info_product_id: productId, store_id: Number(d.storeId), quantity: Number(d.quantity) };
          this.insertDelivery.run(contractId, delivery.storage_info_delivery_product_id, productId, orderId, fact.product_id, delivery.store_id, delivery.quantity);
          return delivery;
        });
        return { row: productRow, deliveries };
      });
      this.writer.changed({ contractId, entity: PURCHASE_ORDER_ENTITY, id: String(orderId), op: 'insert' });
      // An order placed (status 2) is expected at each delivery store: its storages wait there.
      if (row.status === ORDERED) this.storage.createForOrder(contractId, deliveriesOf(row, products, stores));
      return { row, products, stores };
    });
  }

  /**
   * 4.14's ordering settings of each product at each delivery store. Expected arrivals (what
   * open orders, status 2 or 5, still bring) are read only for products with an order limit.
   */
  private assertOrderingSettings(contractId: string, body: CreatePurchaseOrder, productIds: readonly number[]): void {
    const settings = this.masters.orderSettings(contractId, productIds);
    if (settings.size === 0) return;
    const limited = [...new Set([...settings.values()].filter((s) => s.order_limit !== null).map((s) => s.product_id))];
    const arrivals = this.masters.expectedArrivals(contractId, limited);
    body.products.forEach((p, i) => {
      const productId = productIds[i]!;
      p.deliveryStore.forEach((d, j) => {
        const storeId = Number(d.storeId);
        const s = settings.get(pairKey(storeId, productId)) ?? DEFAULT_ORDER_SETTING;
        ruled(() =>
          assertOrderable(
            `products[${i}].deliveryStore[${j}]`,
            { productId, storeId },
            { orderable: s.orderable === '1', hidden: s.order_hidden === '1', limit: s.order_limit },
            arrivals.get(pairKey(storeId, productId)) ?? 0,
            Number(d.quantity),
          ),
        );
      });
    });
  }
}

/** What each delivery store of an order receives (the storages the order makes). */
function deliveriesOf(row: PurchaseOrderRow, products: NonNullable<PurchaseOrderRecord['products']>, stores: readonly OrderStoreRow[]): OrderedDelivery[] {
  return stores.map((s) => ({
    storageInfoId: row.storage_info_id,
    supplierId: row.recipient_order_id,
    storeId: s.storage_store_id,
    expectedFrom: s.storage_expected_date_from,
    expectedTo: s.storage_expected_date_to,
    memo: row.memo,
    staffId: row.staff_id,
    identificationNo: row.identification_no,
    roundingDivision: row.rounding_division,
    products: products.flatMap(({ row: p, deliveries }) =>
      deliveries.filter((d) => d.store_id === s.storage_store_id).map((d) => ({ productId: p.product_id, taxRate: p.tax_rate, cost: p.cost, quantity: d.quantity })),
    ),
  }));
}

const costOf = (fact: ProductFacts) => (fact.cost_units === null ? '0' : fromUnits(fact.cost_units, COST_SCALE));

/** A per-registration cache: a value computed once per key (1,000 lines share few rates and costs). */
function memo() {
  const values = new Map<string, string>();
  return (key: string, compute: () => string): string => {
    let value = values.get(key);
    if (value === undefined) values.set(key, (value = compute()));
    return value;
  };
}

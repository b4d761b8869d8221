import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { dialectOf } from '../../db/engine.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { productTaxRateAt, taxIncludedPrice } from '../../domain/inventory-prices.js';
import { COST_SCALE, formatDecimal, fromUnits, PRICE_SCALE } from '../../domain/money.js';
import { MAX_SHIPMENT_DETAILS, SHIPPED, stockToMove, type ShipmentStatus } from '../../domain/shipments.js';
import { STOCK_DIVISION } from '../../domain/stock.js';
import type { RoundingCode } from '../../domain/transaction-totals-types.js';
import { InvalidInput } from '../../domain/errors.js';
import { InventoryMasters, type ProductFacts } from '../purchase-orders/inventory-masters.js';
import { StockMovements } from '../stock/movements.js';
import { TaxRateBook } from '../../masters/tax-rates/repo.js';
import type { CreateShipment, ShipmentDetailRow, ShipmentRow, UpdateShipmentDetail } from './schema.js';

/** A detail's values as stored (before its id and times). */
interface DetailValues {
  product_id: number;
  tax_rate: string;
  cost: string;
  price: string;
  quantity: number;
  memo: string | null;
}

type NewDetail = CreateShipment['details'][number];

/**
 * The details of shipments (spec 2.9, 4.12) and the stock they move: SQL of shipment_details,
 * the defaults a detail takes from the product master, and the 'shipment' stock movements.
 */
export class ShipmentDetails {
  private readonly ofShipment;
  private readonly ofShipments;
  private readonly insert;
  private readonly update;
  private readonly markShipped;
  private readonly masters;
  private readonly stock;
  private readonly taxRates;

  constructor(
    db: Sqlite,
    writer: Writer,
    private readonly ids: IdAllocator,
    clock: Clock,
  ) {
    this.masters = new InventoryMasters(db);
    this.stock = new StockMovements(db, writer, ids, clock);
    this.taxRates = new TaxRateBook(db);
    this.ofShipment = db.prepare('SELECT * FROM shipment_details WHERE contract_id = ? AND shipment_id = ? ORDER BY shipment_detail_id');
    this.ofShipments = db.prepare(
      `SELECT * FROM shipment_details WHERE contract_id = ? AND shipment_id ${dialectOf(db).inJsonList('integer')}
       ORDER BY shipment_id, shipment_detail_id`,
    );
    this.insert = db.prepare(
      `INSERT INTO shipment_details (contract_id, shipment_detail_id, shipment_id, product_id, tax_rate, cost, price, quantity, memo, ins_at, upd_at)
       VALUES (@contractId, @detailId, @shipmentId, @product_id, @tax_rate, @cost, @price, @quantity, @memo, @now, @now)`,
    );
    this.update = db.prepare(
      `UPDATE shipment_details SET product_id = @product_id, tax_rate = @tax_rate, cost = @cost, price = @price,
         quantity = @quantity, memo = @memo, upd_at = @now
       WHERE contract_id = @contractId AND shipment_detail_id = @detailId`,
    );
    this.markShipped = db.prepare('UPDATE shipment_details SET shipped_quantity = ? WHERE contract_id = ? AND shipment_detail_id = ?');
  }

  list(contractId: string, shipmentId: number): ShipmentDetailRow[] {
    return this.ofShipment.all(contractId, shipmentId) as ShipmentDetailRow[];
  }

  /** The details of several shipments (a list page), by shipment id. */
  byShipment(contractId: string, shipmentIds: readonly number[]): Map<number, ShipmentDetailRow[]> {
    const map = new Map<number, ShipmentDetailRow[]>(shipmentIds.map((id) => [id, []]));
    for (const d of this.ofShipments.all(contractId, JSON.stringify(shipmentIds)) as ShipmentDetailRow[]) map.get(d.shipment_id)!.push(d);
    return map;
  }

  /** The products of a registration's details, each required to exist (400 naming its line). */
  productsOfNew(contractId: string, details: readonly NewDetail[]): Map<number, ProductFacts> {
    return this.productsOf(contractId, details.map((d, i) => ({ id: d.productId, field: `details[${i}].productId` })));
  }

  /** Inserts the registration's details (their products read by productsOfNew). */
  add(contractId: string, shipmentId: string | number, details: readonly NewDetail[], products: Map<number, ProductFacts>, rounding: RoundingCode, now: number): void {
    for (const d of details) this.insertNew(contractId, shipmentId, d, products.get(Number(d.productId))!, rounding, now);
  }

  /**
   * 4.12's details of an update: an existing one by shipmentDetailId (its product unchanged on a
   * shipped shipment), a new one without (productId and quantity required); existing plus
   * added at most 500. Details not sent stay as they are.
   */
  apply(contractId: string, current: ShipmentRow, input: readonly UpdateShipmentDetail[], rounding: RoundingCode, now: number): void {
    const existing = new Map(this.list(contractId, current.shipment_id).map((d) => [d.shipment_detail_id, d]));
    const added = input.filter((d) => d.shipmentDetailId === undefined).length;
    if (existing.size + added > MAX_SHIPMENT_DETAILS) {
      throw InvalidInput.field('details', `a shipment has at most ${MAX_SHIPMENT_DETAILS} details: ${existing.size} existing and ${added} added would make ${existing.size + added}`);
    }
    const seen = new Set<number>();
    input.forEach((d, i) => {
      if (d.shipmentDetailId === undefined) {
        if (d.productId === undefined) throw InvalidInput.field(`details[${i}].productId`, 'is required for a new detail (one without shipmentDetailId)');
        if (d.quantity === undefined) throw InvalidInput.field(`details[${i}].quantity`, 'is required for a new detail (one without shipmentDetailId)');
        return;
      }
      const id = Number(d.shipmentDetailId);
      const detail = existing.get(id);
      if (!detail) throw InvalidInput.field(`details[${i}].shipmentDetailId`, `shipment detail ${d.shipmentDetailId} does not exist in shipment ${current.shipment_id}`);
      if (seen.has(id)) throw InvalidInput.field(`details[${i}].shipmentDetailId`, `shipment detail ${id} is given twice`);
      seen.add(id);
      if (current.status === SHIPPED && d.productId !== undefined && Number(d.productId) !== detail.product_id) {
        throw InvalidInput.field(`details[${i}].productId`, `shipment ${current.shipment_id} is shipped: the product of its detail ${id} cannot be changed`);
      }
    });
    // One read of every product involved: those sent (which must exist) and those of the
    // existing details sent (a price follows its product master when its tax rate changes).
    const sent = input.flatMap((d, i) => (d.productId === undefined ? [] : [{ id: d.productId, field: `details[${i}].productId` }]));
    const kept = input.flatMap((d) => (d.shipmentDetailId === undefined ? [] : [existing.get(Number(d.shipmentDetailId))!.product_id]));
    const products = this.productsOf(contractId, sent, kept);
    for (const d of input) {
      const detail = d.shipmentDetailId === undefined ? undefined : existing.get(Number(d.shipmentDetailId))!;
      if (!detail) {
        this.insertNew(contractId, current.shipment_id, { ...d, productId: d.productId!, quantity: d.quantity!, memo: d.memo ?? undefined }, products.get(Number(d.productId))!, rounding, now);
        continue;
      }
      const productId = d.productId === undefined ? detail.product_id : Number(d.productId);
      const productChanged = productId !== detail.product_id;
      const taxRate = d.taxRate ?? detail.tax_rate;
      const values: DetailValues = {
        product_id: productId,
        tax_rate: taxRate,
        cost: d.cost ?? detail.cost,
        price: detail.price,
        quantity: d.quantity === undefined ? detail.quantity : Number(d.quantity),
        memo: d.memo === undefined ? detail.memo : d.memo,
      };
      // The price follows the product master when the product or its tax rate changes (a
      // product since deleted from the master keeps the price it had).
      const product = products.get(productId);
      if (product && (productChanged || taxRate !== detail.tax_rate)) {
        const filled = productValues(product, taxRate, rounding, d.cost);
        values.price = filled.price;
        if (productChanged) values.cost = filled.cost;
      }
      this.update.run({ contractId, detailId: detail.shipment_detail_id, ...values, now });
    }
  }

  /**
   * Stock leaves the shipment store once the shipment is shipped: each detail moves what has not
   * left yet (stock division 10, shipment), so sending status 2 again moves nothing and a later
   * quantity edit moves the difference. A shipped shipment moved to another store first gives
   * back what left the old one.
   */
  moveStock(contractId: string, after: ShipmentRow, before: ShipmentRow | null): void {
    const storeChanged = before !== null && before.shipment_store_id !== after.shipment_store_id;
    const ref = { shipmentId: after.shipment_id, staffId: after.staff_id };
    for (const d of this.list(contractId, after.shipment_id)) {
      let shipped = d.shipped_quantity;
      if (storeChanged && shipped !== 0) {
        this.stock.move(contractId, { storeId: before.shipment_store_id, productId: d.product_id, delta: String(shipped), division: STOCK_DIVISION.shipment, ref });
        shipped = 0;
      }
      const delta = stockToMove(after.status as ShipmentStatus, d.quantity, shipped);
      if (delta !== 0) this.stock.move(contractId, { storeId: after.shipment_store_id, productId: d.product_id, delta: String(-delta), division: STOCK_DIVISION.shipment, ref });
      if (shipped + delta !== d.shipped_quantity) this.markShipped.run(shipped + delta, contractId, d.shipment_detail_id);
    }
  }

  /** A new detail: the tax rate in force for its product now unless sent, cost and price from the product. */
  private insertNew(contractId: string, shipmentId: string | number, d: NewDetail, product: ProductFacts, rounding: RoundingCode, now: number): void {
    const taxRate = d.taxRate ?? formatDecimal(productTaxRateAt(this.taxRates.ratesOf(contractId), product.reduce_tax_id, now));
    const values: DetailValues = { product_id: product.product_id, tax_rate: taxRate, ...productValues(product, taxRate, rounding, d.cost), quantity: Number(d.quantity), memo: d.memo ?? null };
    this.insert.run({ contractId, detailId: this.ids.next('shipment_details'), shipmentId, ...values, now });
  }

  /**
   * The products of the lines: `required` ones must exist (400 naming the line's field); `also`
   * are read when they exist (products of existing details).
   */
  private productsOf(contractId: string, required: readonly { id: string; field: string }[], also: readonly number[] = []): Map<number, ProductFacts> {
    const products = this.masters.productFacts(contractId, [...new Set([...required.map((r) => Number(r.id)), ...also])]);
    for (const r of required) if (!products.has(Number(r.id))) throw InvalidInput.field(r.field, `product ${r.id} does not exist`);
    return products;
  }
}

/** A line's cost (sent, else the product's, else 0) and tax-included price (from the product). */
function productValues(product: ProductFacts, taxRate: string, rounding: RoundingCode, cost: string | undefined): { cost: string; price: string } {
  const price = taxIncludedPrice(fromUnits(product.price_units, PRICE_SCALE), product.tax_division, taxRate, rounding);
  return {
    cost: cost ?? (product.cost_units === null ? '0' : fromUnits(product.cost_units, COST_SCALE)),
    price: formatDecimal(price),
  };
}

import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { InvalidInput } from '../../domain/errors.js';
import { productTaxRateAt } from '../../domain/inventory-prices.js';
import { assertDetailCount, type LossLine } from '../../domain/losses.js';
import { COST_SCALE, formatDecimal, fromUnits } from '../../domain/money.js';
import type { TaxRates } from '../../domain/tax.js';
import { TaxRateBook } from '../../masters/tax-rates/repo.js';
import { InventoryMasters, type ProductFacts } from '../purchase-orders/inventory-masters.js';
import type { CreateLoss, LossDetailRow, LossRow, UpdateLossDetail } from './schema.js';

type NewDetail = CreateLoss['details'][number];

/** The lines of a loss as the stock sees them. */
export const linesOf = (details: readonly LossDetailRow[]): LossLine[] => details.map((d) => ({ productId: d.product_id, quantity: d.quantity }));

/**
 * The details of losses: SQL of loss_details and the values a line takes from the product
 * master (its tax rate at the loss's time unless sent, its cost when the line is made).
 */
export class LossDetails {
  private readonly ofLoss;
  private readonly insert;
  private readonly update;
  private readonly removeAll;
  private readonly masters;
  private readonly taxRates;

  constructor(
    db: Sqlite,
    private readonly ids: IdAllocator,
  ) {
    this.masters = new InventoryMasters(db);
    this.taxRates = new TaxRateBook(db);
    this.ofLoss = db.prepare('SELECT * FROM loss_details WHERE contract_id = ? AND loss_id = ? ORDER BY loss_detail_id');
    this.insert = db.prepare(
      `INSERT INTO loss_details (contract_id, loss_detail_id, loss_id, product_id, tax_rate, cost, quantity, ins_at, upd_at)
       VALUES (@contractId, @detailId, @lossId, @productId, @taxRate, @cost, @quantity, @now, @now)`,
    );
    this.update = db.prepare(
      `UPDATE loss_details SET product_id = @productId, tax_rate = @taxRate, cost = @cost, quantity = @quantity, upd_at = @now
       WHERE contract_id = @contractId AND loss_detail_id = @detailId`,
    );
    this.removeAll = db.prepare('DELETE FROM loss_details WHERE contract_id = ? AND loss_id = ?');
  }

  list(contractId: string, lossId: number): LossDetailRow[] {
    return this.ofLoss.all(contractId, lossId) as LossDetailRow[];
  }

  /** Inserts a registration's details (call in the write), each product required to exist (400 naming its line). */
  add(contractId: string, loss: LossRow, details: readonly NewDetail[], now: number): void {
    const products = this.productsOf(contractId, details.map((d, i) => ({ id: d.productId, field: `details[${i}].productId` })));
    const rates = this.taxRates.ratesOf(contractId);
    for (const d of details) this.insertNew(loss, d, products.get(Number(d.productId))!, rates, now);
  }

  /**
   * An update's details: an existing one by lossDetailId, a new one without (productId and
   * quantity required); existing plus added at most 1000. Details not sent stay as they are.
   */
  apply(contractId: string, loss: LossRow, input: readonly UpdateLossDetail[], now: number): void {
    const existing = new Map(this.list(contractId, loss.loss_id).map((d) => [d.loss_detail_id, d]));
    assertDetailCount(existing.size, input.filter((d) => d.lossDetailId === undefined).length);
    const seen = new Set<number>();
    input.forEach((d, i) => {
      if (d.lossDetailId === undefined) {
        if (d.productId === undefined) throw InvalidInput.field(`details[${i}].productId`, 'is required for a new detail (one without lossDetailId)');
        if (d.quantity === undefined) throw InvalidInput.field(`details[${i}].quantity`, 'is required for a new detail (one without lossDetailId)');
        return;
      }
      const detailId = Number(d.lossDetailId);
      if (!existing.has(detailId)) throw InvalidInput.field(`details[${i}].lossDetailId`, `loss detail ${d.lossDetailId} does not exist in loss ${loss.loss_id}`);
      if (seen.has(detailId)) throw InvalidInput.field(`details[${i}].lossDetailId`, `loss detail ${detailId} is given twice`);
      seen.add(detailId);
    });
    const products = this.productsOf(
      contractId,
      input.flatMap((d, i) => (d.productId === undefined ? [] : [{ id: d.productId, field: `details[${i}].productId` }])),
    );
    const rates = this.taxRates.ratesOf(contractId);
    for (const d of input) {
      const detail = d.lossDetailId === undefined ? undefined : existing.get(Number(d.lossDetailId))!;
      if (!detail) {
        this.insertNew(loss, { productId: d.productId!, quantity: d.quantity!, taxRate: d.taxRate }, products.get(Number(d.productId))!, rates, now);
        continue;
      }
      const product = d.productId === undefined ? undefined : products.get(Number(d.productId))!;
      const productChanged = product !== undefined && product.product_id !== detail.product_id;
      this.update.run({
        contractId,
        detailId: detail.loss_detail_id,
        productId: product?.product_id ?? detail.product_id,
        // Another product takes its own rate and cost, as a new line would.
        taxRate: d.taxRate ?? (productChanged ? taxRateOf(rates, product, loss) : detail.tax_rate),
        cost: productChanged ? costOf(product) : detail.cost,
        quantity: d.quantity === undefined ? detail.quantity : Number(d.quantity),
        now,
      });
    }
  }

  /** Removes every line of a loss (its delete). */
  removeOf(contractId: string, lossId: number): void {
    this.removeAll.run(contractId, lossId);
  }

  private insertNew(loss: LossRow, d: Pick<NewDetail, 'productId' | 'quantity' | 'taxRate'>, product: ProductFacts, rates: TaxRates, now: number): void {
    this.insert.run({
      contractId: loss.contract_id,
      detailId: this.ids.next('loss_details'),
      lossId: loss.loss_id,
      productId: product.product_id,
      taxRate: d.taxRate ?? taxRateOf(rates, product, loss),
      cost: costOf(product),
      quantity: Number(d.quantity),
      now,
    });
  }

  /** The products the lines name, each required to exist (400 naming the line's field). */
  private productsOf(contractId: string, required: readonly { id: string; field: string }[]): Map<number, ProductFacts> {
    const products = this.masters.productFacts(contractId, [...new Set(required.map((r) => Number(r.id)))]);
    for (const r of required) if (!products.has(Number(r.id))) throw InvalidInput.field(r.field, `product ${r.id} does not exist`);
    return products;
  }
}

/** The product's tax rate in force when the loss happened, of the contract's rates. */
const taxRateOf = (rates: TaxRates, product: ProductFacts, loss: LossRow) => formatDecimal(productTaxRateAt(rates, product.reduce_tax_id, loss.loss_at));
/** The product master's cost (tax excluded), 0 when it has none. */
const costOf = (product: ProductFacts) => (product.cost_units === null ? '0' : fromUnits(product.cost_units, COST_SCALE));

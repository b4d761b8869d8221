import type { Decimal } from 'decimal.js';
import { formatDecimal, fromUnits } from '../../domain/money.js';
import { exact } from '../../domain/rounding.js';
import type { TaxDivision, TotalsLine } from '../../domain/transaction-totals-types.js';
import { InvalidInput } from '../../domain/errors.js';
import type { CategoryRow } from '../../masters/categories/repo.js';
import type { ProductRow } from '../../masters/products/repo.js';
import { DETAIL_FIELDS, type Rec } from './catalog.js';
import type { DetailInput } from './schema.js';

/** What the line rules look up: the lines' products and categories (fetched in one query each). */
export interface LineMasters {
  products: Map<number, ProductRow>;
  categories: Map<number, CategoryRow>;
  bundleGroupExists(id: string): boolean;
}

export interface ResolvedLines {
  /** Storage records without the computed fields (the caller adds them). */
  recs: Rec[];
  totals: TotalsLine[];
}

const PARENTS = new Set(['4', '5', '6']);
/** Parents of bundle children (7) and bundle discount lines (8): bundle (4) and simple bundle (6), not a set sale (5). */
const BUNDLE_PARENTS = new Set(['4', '6']);
/** reduceTaxId 10000002 is "selectable, standard rate" (not applied): the line keeps the header rate. */
const NOT_REDUCED = '10000002';
const ZERO = exact(0);
/** Canonical storage form of a decimal input ("0150.50" → "150.5"); null when absent. */
export const canon = (s: string | null | undefined) => (s === undefined || s === null ? null : formatDecimal(s));

/**
 * The rules of the detail lines (spec 2.13 "Detail lines"), in the order sent; each 400 names
 * `details[i].<field>` with i the index as sent. Defaults come from the product master. A line's
 * rate: its taxRate, else its reduceTaxRate, else `reducedTaxRate` (the reduced rate at
 * terminalTranDateTime) when it has a reduceTaxId other than 10000002, else the header's rate.
 */
export function resolveLines(input: readonly DetailInput[], masters: LineMasters, headerTaxRate: Decimal, reducedTaxRate: Decimal): ResolvedLines {
  const at = (i: number, field: string) => `details[${i}].${field}`;
  const indexOf = new Map<number, number>();
  input.forEach((l, i) => {
    const id = Number(l.transactionDetailId);
    const first = indexOf.get(id);
    if (first !== undefined) throw InvalidInput.field(at(i, 'transactionDetailId'), `${id} is already the id of details[${first}]`);
    indexOf.set(id, i);
  });

  const divisions = input.map((l) => l.productDivision ?? productOf(l, masters)?.product_division ?? '0');
  const recs: Rec[] = [];
  const totals: TotalsLine[] = [];
  input.forEach((l, i) => {
    const product = productOf(l, masters);
    if (l.productId !== undefined && !product) throw InvalidInput.field(at(i, 'productId'), `product ${l.productId} does not exist`);
    const division = divisions[i]!;
    const parent = parentOf(l, i, division, indexOf, divisions, at);
    if (l.productBundleGroupId !== undefined) {
      if (division !== '4') throw InvalidInput.field(at(i, 'productBundleGroupId'), 'can be set only on a bundle parent line (productDivision 4)');
      if (!masters.bundleGroupExists(l.productBundleGroupId)) {
        throw InvalidInput.field(at(i, 'productBundleGroupId'), `product bundle group ${l.productBundleGroupId} does not exist`);
      }
    }
    const categoryId = l.categoryId === undefined ? (product?.category_id ?? null) : Number(l.categoryId);
    const category = categoryId === null ? undefined : masters.categories.get(categoryId);
    if (categoryId !== null && !category) throw InvalidInput.field(at(i, 'categoryId'), `category ${categoryId} does not exist`);
    if (product && categoryId !== product.category_id) {
      throw InvalidInput.field(at(i, 'categoryId'), `${categoryId} differs from the product's category ${product.category_id}`);
    }
    if (l.unitDiscountRate !== undefined && l.unitDiscountPrice === undefined) {
      throw InvalidInput.field(at(i, 'unitDiscountPrice'), 'is required when unitDiscountRate is set (the amount is not computed from the rate)');
    }
    if (l.standardTaxRate !== undefined && !exact(l.standardTaxRate).eq(headerTaxRate)) {
      throw InvalidInput.field(at(i, 'standardTaxRate'), `sent ${l.standardTaxRate} but the server computes ${formatDecimal(headerTaxRate)}`);
    }
    if (PARENTS.has(division) && !input.some((c) => c.parentTransactionDetailId !== undefined && Number(c.parentTransactionDetailId) === Number(l.transactionDetailId))) {
      throw InvalidInput.field(at(i, 'productDivision'), `a parent line (productDivision ${division}) needs at least one child line`);
    }

    const reduceTaxId = l.reduceTaxId ?? product?.reduce_tax_id ?? null;
    const reducedRate = l.reduceTaxRate !== undefined ? exact(l.reduceTaxRate) : reduceTaxId !== null && reduceTaxId !== NOT_REDUCED ? reducedTaxRate : null;
    const taxRate = l.taxRate !== undefined ? exact(l.taxRate) : (reducedRate ?? headerTaxRate);
    const rec = {} as Rec;
    for (const f of DETAIL_FIELDS) {
      const v = (l as Record<string, string | undefined>)[f.name];
      if (v === undefined) continue;
      rec[f.name] = f.kind === 'int' ? Number(v) : f.kind === 'text' ? v : canon(v);
    }
    Object.assign(rec, {
      parentTransactionDetailId: parent,
      transactionDetailDivision: l.transactionDetailDivision ?? '1',
      productCode: l.productCode ?? product?.product_code ?? null,
      productName: l.productName ?? product?.product_name ?? null,
      taxDivision: l.taxDivision ?? product?.tax_division ?? '0',
      price: canon(l.price) ?? (product ? fromUnits(product.price_units, 3) : null),
      cost: canon(l.cost) ?? (product?.cost_units != null ? fromUnits(product.cost_units, 5) : null),
      categoryId,
      categoryName: l.categoryName ?? category?.category_name ?? null,
      salesDivision: l.salesDivision ?? '0',
      productDivision: division,
      inventoryReservationDivision: l.inventoryReservationDivision ?? '0',
      pointNotApplicable: l.pointNotApplicable ?? product?.point_not_applicable ?? '0',
      calcDiscount: l.calcDiscount ?? '1',
      taxFreeDivision: l.taxFreeDivision ?? product?.tax_free_division ?? '0',
      taxRate: formatDecimal(taxRate),
      standardTaxRate: formatDecimal(headerTaxRate),
      reduceTaxId,
      reduceTaxRate: reducedRate === null ? null : formatDecimal(reducedRate),
    });
    recs.push(rec);
    const d = (v: string | number | null | undefined) => (v === null || v === undefined ? ZERO : exact(v));
    totals.push({
      transactionDetailId: rec.transactionDetailId as number,
      parentTransactionDetailId: parent,
      transactionDetailDivision: rec.transactionDetailDivision as TotalsLine['transactionDetailDivision'],
      productDivision: division,
      taxDivision: rec.taxDivision as TaxDivision,
      salesDivision: rec.salesDivision as '0' | '1',
      calcDiscount: rec.calcDiscount as '0' | '1',
      pointNotApplicable: rec.pointNotApplicable as '0' | '1',
      salesPrice: d(rec.salesPrice),
      unitDiscountPrice: d(rec.unitDiscountPrice),
      quantity: d(rec.quantity),
      cost: d(rec.cost),
      taxRate,
      taxFree: d(rec.taxFree),
      applyStaffDiscountPrice: d(rec.applyStaffDiscountPrice),
      applyBargainDiscountPrice: d(rec.applyBargainDiscountPrice),
    });
  });
  assertNoParentCycle(input, indexOf, at);
  return { recs, totals };
}

/** A line may not be its own ancestor (1 → 2 → 1): the first line of a cycle, as sent, is the 400. */
function assertNoParentCycle(input: readonly DetailInput[], indexOf: Map<number, number>, at: (i: number, field: string) => string): void {
  const parentIndex = (i: number) => {
    const p = input[i]!.parentTransactionDetailId;
    return p === undefined ? undefined : indexOf.get(Number(p));
  };
  input.forEach((l, i) => {
    let j = parentIndex(i);
    for (let steps = 0; j !== undefined && steps < input.length; steps++) {
      if (j === i) throw InvalidInput.field(at(i, 'parentTransactionDetailId'), `line ${l.transactionDetailId} would be its own ancestor (the parent lines form a cycle)`);
      j = parentIndex(j);
    }
  });
}

function productOf(l: DetailInput, masters: LineMasters): ProductRow | undefined {
  return l.productId === undefined ? undefined : masters.products.get(Number(l.productId));
}

/** parentTransactionDetailId: refused on 0 and 4, required (a 4/5/6 line) on 7 and 8, else a line of this transaction. */
function parentOf(
  l: DetailInput,
  i: number,
  division: string,
  indexOf: Map<number, number>,
  divisions: string[],
  at: (i: number, field: string) => string,
): number | null {
  const field = at(i, 'parentTransactionDetailId');
  if (l.parentTransactionDetailId === undefined) {
    if (division === '7' || division === '8') throw InvalidInput.field(field, `is required for productDivision ${division} (the id of its bundle parent line)`);
    return null;
  }
  const parent = Number(l.parentTransactionDetailId);
  if (division === '0' || division === '4') throw InvalidInput.field(field, `cannot be set for productDivision ${division}`);
  const j = indexOf.get(parent);
  if (j === undefined || j === i) throw InvalidInput.field(field, `${parent} is not the id of another line of this transaction`);
  if ((division === '7' || division === '8') && !BUNDLE_PARENTS.has(divisions[j]!)) {
    throw InvalidInput.field(field, `must name a bundle parent line (productDivision 4 or 6); line ${parent} is of productDivision ${divisions[j]}`);
  }
  return parent;
}

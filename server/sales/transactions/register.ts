import { Decimal } from 'decimal.js';
import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { decimalError, formatDecimal, toUnits } from '../../domain/money.js';
import { exact } from '../../domain/rounding.js';
import { compareSentTotals, formatTotals, type SentTotals } from '../../domain/sent-totals.js';
import { reducedTaxRateAt, standardTaxRateAt } from '../../domain/tax.js';
import { computeTransactionTotals } from '../../domain/transaction-totals.js';
import { TotalsError, type TotalsInput, type TransactionTotals } from '../../domain/transaction-totals-types.js';
import { formatDate, parseDateTime } from '../../domain/time.js';
import { ConflictError, InvalidInput } from '../../domain/errors.js';
import type { Contract } from '../../platform/contracts/repo.js';
import { CustomerRepo, type CustomerRow } from '../../masters/customers/repo.js';
import { DailySummaryRepo } from '../closing/closing-repo.js';
import { assertDayOpen, releaseFirstAt } from '../closing/open-day.js';
import { POINT } from '../../masters/customers/schema.js';
import { PaymentMethodRepo } from '../../masters/payment-methods/repo.js';
import { ProductBundleGroupRepo } from '../../masters/product-bundle-groups/repo.js';
import { StaffRepo } from '../../masters/staffs/repo.js';
import { StockMovements } from '../../inventory/stock/movements.js';
import { StoreRepo, type StoreRow } from '../../masters/stores/repo.js';
import { TaxRateBook } from '../../masters/tax-rates/repo.js';
import { assertDisposable, defaultUuid } from './dispose.js';
import { TerminalRepo } from '../../masters/terminals/repo.js';
import { HEADER_FIELDS, type Field, type Rec } from './catalog.js';
import { resolveLines } from './lines.js';
import { adjustmentMileMismatch, cashOf, totalsOf, units } from './totals.js';
import { assertCouponsAllowed, resolveCoupons, resolveDepositOthers } from './payments.js';
import { applyCouponMaster } from './coupons.js';
import { CouponRepo } from '../../masters/coupons/repo.js';
import { LayawayPickUps } from './layaway-pickup.js';
import { TransactionRepo, type TransactionRecord } from './repo.js';
import { bodyHash, RequestKeyRepo, requestKeys } from './request-keys.js';
import type { CreateTransaction } from './schema.js';

const MEMBER_DIVISIONS = ['6', '7', '13', '14'];
/** A terminal clock may run a little ahead; a sale dated more than a day ahead is a mistake. */
const MAX_AHEAD_MS = 24 * 3600 * 1000;
/** Amount inputs of the totals that are stored as "0" when not sent. */
const ZERO_DEFAULTS = ['subtotalDiscountPrice', 'pointDiscount', 'couponDiscount', 'commission', 'carriage', 'spendPoint'];

/** A sent header value in its storage form. */
function stored(f: Field, v: string): string | number {
  switch (f.kind) {
    case 'int':
      return Number(v);
    case 'units':
      return toUnits(v, 3);
    case 'time':
      return parseDateTime(v)!;
    case 'dec':
    case 'amt':
      return formatDecimal(v);
    default:
      return v;
  }
}

/** POST /transactions: the rules of spec 2.13, the totals of the model, one write. */
export class TransactionRegistry {
  readonly repo: TransactionRepo;
  readonly customers: CustomerRepo;
  readonly methods: PaymentMethodRepo;
  readonly terminals: TerminalRepo;
  readonly stores: StoreRepo;
  /** The stock a sale, its return lines or a return-cancel move, in the sale's write (issue 14). */
  readonly stock: StockMovements;
  private readonly staffs: StaffRepo;
  private readonly bundles: ProductBundleGroupRepo;
  /** The closings in force, for the open-day rule (also asked by a return-cancel by path, dispose.ts). */
  readonly closings: DailySummaryRepo;
  private readonly requestKeys: RequestKeyRepo;
  /** The coupon master a sale's coupon lines name (issue 26). */
  private readonly coupons: CouponRepo;
  private readonly taxRates: TaxRateBook;
  /** The layaway a sale picks up (layawayServerTransactionHeadId), also asked by a cancel (cancel.ts). */
  readonly pickUps: LayawayPickUps;

  constructor(
    db: Sqlite,
    readonly writer: Writer,
    readonly ids: IdAllocator,
    readonly clock: Clock,
  ) {
    this.repo = new TransactionRepo(db);
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.terminals = new TerminalRepo(db, writer, clock);
    this.customers = new CustomerRepo(db, writer, ids, clock);
    this.staffs = new StaffRepo(db, writer, ids, clock);
    this.methods = new PaymentMethodRepo(db, writer, ids, clock);
    this.bundles = new ProductBundleGroupRepo(db, writer, ids, clock);
    this.closings = new DailySummaryRepo(db);
    this.requestKeys = new RequestKeyRepo(db);
    this.coupons = new CouponRepo(db, writer, ids, clock);
    this.taxRates = new TaxRateBook(db);
    this.stock = new StockMovements(db, writer, ids, clock);
    this.pickUps = new LayawayPickUps(db, writer, ids, clock);
  }

  /**
   * Registers a sale once: a request whose key (the terminal's store/terminal/terminalTranId, or
   * the Idempotency-Key header) is already known answers the transaction it made when the body
   * is the same (`replayed`), and is a 409 when it differs. The keys commit with the sale.
   */
  register(contract: Contract, body: CreateTransaction, idempotencyKey?: string): { record: TransactionRecord; replayed: boolean } {
    assertCouponsAllowed(contract.plan, body.coupons);
    return this.writer.write(() => {
      const cid = contract.contractId;
      const keys = requestKeys(body, idempotencyKey);
      const hash = bodyHash(body);
      for (const key of keys) {
        const known = this.requestKeys.find(cid, key);
        if (!known) continue;
        if (known.body_hash !== hash) {
          throw ConflictError.field(
            key.field,
            `transaction ${known.transaction_head_id} was registered with this ${key.kind === 'terminal' ? 'store, terminal and terminalTranId' : 'key'} and a different body`,
          );
        }
        return { record: this.repo.find(cid, known.transaction_head_id)!, replayed: true };
      }
      const now = this.clock.now().getTime();
      const { record, customer } = this.build(contract, body, now);
      const pickUp = this.pickUps.check(cid, body, record.header.storeId as number, record.details);
      this.repo.insert(cid, record, now);
      const h = record.header;
      for (const key of keys) this.requestKeys.record(cid, key, hash, h.transactionHeadId as number, now);
      this.writer.changed({ contractId: cid, entity: 'transaction', id: String(h.transactionHeadId), op: 'insert' });
      if (h.disposeServerTransactionHeadId !== null && h.disposeServerTransactionHeadId !== undefined) {
        // As 4.7: the source becomes disposeDivision 1. Points move once, by this transaction's own (negative) values.
        this.repo.markDisposed(cid, h.disposeServerTransactionHeadId as number, now);
        this.writer.changed({ contractId: cid, entity: 'transaction', id: String(h.disposeServerTransactionHeadId), op: 'update' });
      }
      if (customer && record.pointsApplied) this.addMemberPoints(cid, customer, h, 1);
      // A pick-up's goods left the available stock with the layaway: the layaway hands them over, the sale takes only the rest.
      if (pickUp) this.pickUps.pickUp(cid, pickUp, h.transactionHeadId as number);
      this.stock.moveTransaction(cid, record, pickUp?.goods);
      return { record, replayed: false };
    });
  }

  /**
   * Adds (sign 1) or takes back (-1) the points and miles a transaction gave and spent, recorded
   * as a point movement of `movedBy` (the sale, or the return-cancel that reverses it).
   */
  addMemberPoints(contractId: string, customer: CustomerRow, h: Rec, sign: 1 | -1, movedBy: string | number = h.transactionHeadId as number): void {
    const d = (name: string) => exact(h[name] ?? 0);
    const points = d('newPoint').minus(d('spendPoint')).times(sign);
    const miles = d('earnMile').plus(d('adjustmentMile')).times(sign);
    if (points.isZero() && miles.isZero()) return;
    this.customers.addPoints(contractId, String(customer.customer_id), points, miles, sign === 1 ? 'sale' : 'return_cancel', movedBy);
  }

  private build(contract: Contract, body: CreateTransaction, now: number): { record: TransactionRecord; customer: CustomerRow | undefined } {
    const cid = contract.contractId;
    const division = body.transactionHeadDivision;
    const sale = division === '1';
    const store = this.stores.referenced(cid, body.storeId, { open: true });
    const sumDivision = body.sumDivision ?? '0';
    this.assertClosing(cid, body, sumDivision, store);
    if (MEMBER_DIVISIONS.includes(division) && body.customerId === undefined) {
      throw InvalidInput.field('customerId', `is required for transactionHeadDivision ${division} (points and miles of a member)`);
    }
    if (body.customerId === undefined) {
      const mile = (['adjustmentMileDivision', 'adjustmentMileValue'] as const).find((f) => body[f] !== undefined);
      if (mile) throw InvalidInput.field(mile, 'can be set only on a member sale (customerId): without a member the mile fields are null');
    }
    const customer = body.customerId === undefined ? undefined : this.customers.find(cid, body.customerId);
    let staffName: string | null = null;
    if (body.staffId !== undefined) {
      const staff = this.staffs.find(cid, body.staffId);
      if (!staff) throw InvalidInput.field('staffId', `staff ${body.staffId} does not exist`);
      staffName = staff.staff_name;
    }
    const disposeDivision = body.disposeDivision ?? '0';
    if (disposeDivision === '2') {
      if (body.disposeServerTransactionHeadId === undefined) throw InvalidInput.field('disposeServerTransactionHeadId', 'is required when disposeDivision is 2');
      const source = this.repo.find(cid, body.disposeServerTransactionHeadId);
      if (!source) throw InvalidInput.field('disposeServerTransactionHeadId', `transaction ${body.disposeServerTransactionHeadId} does not exist`);
      assertDisposable(source.header, 'disposeServerTransactionHeadId');
    } else if (body.disposeServerTransactionHeadId !== undefined) {
      throw InvalidInput.field('disposeServerTransactionHeadId', 'can be set only when disposeDivision is 2');
    }
    if (sale && body.terminalTranDateTime === undefined) throw InvalidInput.field('terminalTranDateTime', 'is required for a sale (transactionHeadDivision 1)');
    const terminalTranAt = body.terminalTranDateTime === undefined ? now : parseDateTime(body.terminalTranDateTime)!;
    if (terminalTranAt > now + MAX_AHEAD_MS) {
      throw InvalidInput.field('terminalTranDateTime', 'is more than a day ahead of the server clock; check the terminal clock');
    }
    // A sale is dated on its sumDate when registered closed, else on its sale date.
    const day = { contractId: cid, storeId: store.store_id, date: body.sumDate ?? formatDate(terminalTranAt, contract.timeZone) };
    assertDayOpen(this.closings, day, { field: body.sumDate === undefined ? 'terminalTranDateTime' : 'sumDate', message: releaseFirstAt });
    // The rates in force at the sale's terminal time, of the contract's dated rate masters.
    const rates = this.taxRates.ratesOf(cid);
    const taxRate = body.taxRate === undefined ? standardTaxRateAt(rates, terminalTranAt) : exact(body.taxRate);
    if (body.sumDate !== undefined) assertSumDate(body.sumDate, formatDate(now, contract.timeZone), formatDate(terminalTranAt, contract.timeZone));

    const header = {} as Rec;
    const sent = body as unknown as Record<string, unknown>;
    for (const f of HEADER_FIELDS) {
      const v = sent[f.name];
      if (typeof v === 'string') header[f.name] = stored(f, v);
    }
    for (const name of ZERO_DEFAULTS) header[name] ??= '0';
    const groups = ['', '2', '3', '4', '5'].map((n) => {
      const v = sent[`customerGroupId${n}`] as string | undefined;
      return [`customerGroupId${n}`, v === undefined ? (customer?.[`customer_group_id${n}` as 'customer_group_id'] ?? null) : Number(v)];
    });
    const cancelDivision = body.cancelDivision ?? '0';
    Object.assign(header, Object.fromEntries(groups), {
      transactionHeadId: Number(this.ids.next('transactions')),
      transactionDateTime: now,
      cancelDivision,
      cancelDateTime: cancelDivision === '1' ? now : null,
      roundingDivision: body.roundingDivision ?? '00',
      storeId: store.store_id,
      terminalTranDateTime: terminalTranAt,
      sumDivision,
      customerRank: body.customerRank ?? customer?.rank ?? null,
      customerPinCode: body.customerPinCode ?? customer?.pin_code ?? null,
      staffName,
      taxFreeSalesDivision: body.taxFreeSalesDivision ?? '0',
      ...storeDefaults(body, store),
      returnSales: body.returnSales ?? '0',
      disposeDivision,
      sellDivision: body.sellDivision ?? '0',
      taxRate: formatDecimal(taxRate),
      taxRounding: body.taxRounding ?? contract.settings.taxRounding,
      discountRoundingDivision: body.discountRoundingDivision ?? contract.settings.discountRoundingDivision,
      transactionUuid: body.transactionUuid ?? defaultUuid(now, body.terminalId ?? null),
      updDateTime: now,
    });

    const details = body.details ?? [];
    if (sale && !details.length) throw InvalidInput.field('details', 'at least one line is required for a sale (transactionHeadDivision 1)');
    const lines = details.length ? this.resolveLines(cid, body, taxRate, reducedTaxRateAt(rates, terminalTranAt)) : { recs: [], totals: [] };
    if (body.subtotalDiscountRate !== undefined && body.subtotalDiscountPrice === undefined) {
      throw InvalidInput.field('subtotalDiscountPrice', 'is required when subtotalDiscountRate is set (the amount is not computed from the rate)');
    }
    const payments = resolveDepositOthers(body.depositOthers ?? [], (id) => this.methods.find(cid, id));
    assertPointSpend(body, customer, cancelDivision);
    const member = body.customerId === undefined ? null : { known: !!customer, point: exact(customer?.point ?? 0), mile: exact(customer?.mile ?? 0) };
    const computed = totalsOf(header, lines.totals, member, body);
    const mismatch = compareSentTotals({ header: sent, lines: details } as SentTotals, computed) ?? adjustmentMileMismatch(body, computed);
    if (mismatch) throw InvalidInput.field(mismatch.field, `sent ${mismatch.sent} but the server computes ${mismatch.computed}`);
    if (sale && disposeDivision === '0') assertNotNegativeWithoutReturn(details, computed.header.subtotal);
    const formatted = formatTotals(computed);
    for (const [name, value] of Object.entries(formatted.header)) {
      header[name] = name === 'total' ? units('total', computed.header.total) : value;
    }
    lines.recs.forEach((rec, i) => Object.assign(rec, formatted.lines[i]));
    // A cancelled (voided) transaction records what the terminal sent; it moves no money.
    Object.assign(header, cashOf(body, computed.header.total, payments, sale, cancelDivision === '0'));
    return {
      record: {
        header,
        details: lines.recs,
        depositOthers: payments.recs,
        // A return-cancel's coupon lines are its source's: only other transactions are checked against the master.
        coupons: applyCouponMaster(resolveCoupons(body.coupons ?? []), disposeDivision === '2' ? null : formatDate(terminalTranAt, contract.timeZone), (id) =>
          this.coupons.find(cid, id),
        ),
        // A cancelled transaction, or one of an unknown member, leaves the member's points alone.
        pointsApplied: !!customer && cancelDivision === '0',
      },
      customer,
    };
  }

  /**
   * A terminal id may not name a terminal of another store; sumDivision 2 (closed) needs sumDate;
   * a terminal id naming no terminal, or none, needs a closed transaction.
   */
  private assertClosing(cid: string, body: CreateTransaction, sumDivision: string, store: StoreRow): void {
    const terminal = body.terminalId === undefined ? undefined : this.terminals.find(cid, body.terminalId);
    if (terminal && terminal.store_id !== store.store_id) {
      throw InvalidInput.field('terminalId', `terminal ${body.terminalId} belongs to store ${terminal.store_id}, not to store ${store.store_id}`);
    }
    if (sumDivision === '2') {
      if (body.sumDate === undefined) throw InvalidInput.field('sumDate', 'is required when sumDivision is 2 (a closed transaction)');
      return;
    }
    for (const field of ['sumDate', 'adjustmentDateTime'] as const) {
      if (body[field] !== undefined) throw InvalidInput.field(field, 'can be set only on a closed transaction (sumDivision 2)');
    }
    if (body.terminalId === undefined) {
      throw InvalidInput.field('terminalId', 'is required unless the transaction is registered as closed (sumDivision 2 with sumDate): it could never be settled');
    }
    if (!terminal) {
      throw InvalidInput.field(
        'terminalId',
        `terminal ${body.terminalId} does not exist; a transaction of an unknown terminal must be registered as closed (sumDivision 2 with sumDate)`,
      );
    }
  }

  private resolveLines(cid: string, body: CreateTransaction, taxRate: Decimal, reducedTaxRate: Decimal) {
    const details = body.details!;
    const productIds = [...new Set(details.filter((l) => l.productId !== undefined).map((l) => Number(l.productId)))];
    const products = this.repo.products(cid, productIds);
    const categoryIds = new Set(details.filter((l) => l.categoryId !== undefined).map((l) => Number(l.categoryId)));
    for (const p of products.values()) categoryIds.add(p.category_id);
    const masters = {
      products,
      categories: this.repo.categories(cid, [...categoryIds]),
      bundleGroupExists: (id: string) => this.bundles.find(cid, id) !== undefined,
    };
    return resolveLines(details, masters, taxRate, reducedTaxRate);
  }
}

/** A closed transaction's sumDate lies between its sale date (terminalTranDateTime's date) and today (contract zone). */
function assertSumDate(sumDate: string, today: string, saleDate: string): void {
  if (sumDate > today) throw InvalidInput.field('sumDate', `${sumDate} is after today (${today})`);
  if (sumDate < saleDate) throw InvalidInput.field('sumDate', `${sumDate} is before the sale date ${saleDate} (terminalTranDateTime)`);
}

/**
 * A normal line may carry a negative price (a discount line) but may not turn a sale negative:
 * selling back is a return line (transactionDetailDivision 2). A return-cancel is its own kind.
 */
function assertNotNegativeWithoutReturn(details: CreateTransaction['details'] & object, subtotal: Decimal): void {
  if (!subtotal.isNegative() || details.some((l) => l.transactionDetailDivision === '2')) return;
  const i = details.findIndex((l) => (l.transactionDetailDivision ?? '1') === '1' && exact(l.salesPrice ?? l.price ?? '0').isNegative());
  const field = i < 0 ? 'details' : `details[${i}].${details[i]!.salesPrice !== undefined ? 'salesPrice' : 'price'}`;
  throw InvalidInput.field(field, `makes the sale negative (subtotal ${formatDecimal(subtotal)}) without a return line; a returned item is a line with transactionDetailDivision 2`);
}

/**
 * Points spent on a sale are a discount: `spendPoint` needs its `pointDiscount`, and a member cannot spend
 * more points than the balance holds (the balance never goes below zero). A cancelled
 * transaction or an unknown member moves no points, so only the pairing is checked there.
 */
function assertPointSpend(body: CreateTransaction, customer: CustomerRow | undefined, cancelDivision: string): void {
  const spend = exact(body.spendPoint ?? 0);
  if (!spend.greaterThan(0)) return;
  // On a sale the points spent are its point discount; a point-subtract transaction (7) spends without one.
  if (body.transactionHeadDivision === '1' && (body.pointDiscount === undefined || exact(body.pointDiscount).isZero())) {
    throw InvalidInput.field('pointDiscount', `is required when spendPoint is set: the ${formatDecimal(spend)} points spent are the discount`);
  }
  if (customer && cancelDivision === '0' && spend.greaterThan(exact(customer.point ?? 0))) {
    throw InvalidInput.field('spendPoint', `${formatDecimal(spend)} exceeds the ${formatDecimal(exact(customer.point ?? 0))} points member ${customer.customer_id} holds`);
  }
}

function storeDefaults(body: CreateTransaction, store: StoreRow) {
  return {
    pointGivingDivision: body.pointGivingDivision ?? store.point_giving_division,
    pointGivingUnitPrice: formatDecimal(body.pointGivingUnitPrice ?? store.point_giving_unit_price),
    pointGivingUnit: formatDecimal(body.pointGivingUnit ?? store.point_giving_unit),
    pointSpendDivision: body.pointSpendDivision ?? store.point_spend_division,
    mileageDivision: body.mileageDivision ?? store.mileage_division,
    mileageLabel: body.mileageLabel ?? store.mileage_label ?? 'mile',
  };
}

import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { formatDecimal } from '../../domain/money.js';
import { changeSaleMember, type MemberTotals, type PointUpdateDivision, type SaleMemberFields } from '../../domain/points.js';
import { exact, ZERO } from '../../domain/rounding.js';
import { computeTransactionTotals } from '../../domain/transaction-totals.js';
import { TotalsError, type TaxDivision, type TotalsInput, type TotalsLine } from '../../domain/transaction-totals-types.js';
import { CustomerRepo, type Actor, type CustomerRow } from '../../masters/customers/repo.js';
import type { Contract } from '../../platform/contracts/repo.js';
import { DailySummaryRepo } from '../closing/closing-repo.js';
import { assertDayOpen, transactionOfClosedDay } from '../closing/open-day.js';
import type { Rec } from './catalog.js';
import { TransactionCustomerRepo, type MemberField } from './customer-repo.js';
import { TransactionRepo, type TransactionRecord } from './repo.js';

/** The platform's body of the transaction member update: the member by id or code, and how points move. */
export interface TransactionCustomerChange {
  customerId?: string | undefined;
  customerCode?: string | undefined;
  pointUpdateDivision?: PointUpdateDivision | undefined;
}

const MEMBER_TOTALS = ['newPoint', 'point', 'totalPoint', 'currentMile', 'earnMile', 'adjustmentMile', 'totalMile'] as const;

/**
 * Attaching a member to a registered sale afterwards (PATCH /transactions/{id}/customer): the
 * points are given once. The sale gets its member (or another member), points move as
 * pointUpdateDivision says (domain/points.ts changeSaleMember decides how much), in
 * one write with the member balances and their recorded movements (sale_detach, sale_attach).
 * Order of refusals: unknown transaction (404 transaction_id); unknown member (400 customerId
 * or customerCode); the member it already has: nothing changes, the sale is answered as it is,
 * however often it is sent; then the sale's state (400 transaction_id): not a sale, return-
 * cancelled or a return-cancel, of a closed day; a cancelled sale with points to move (400
 * pointUpdateDivision); a member balance that would go below zero (400 pointUpdateDivision).
 */
export class MemberAttacher {
  private readonly transactions;
  private readonly members;
  private readonly customers;
  private readonly closings;

  constructor(
    db: Sqlite,
    private readonly writer: Writer,
    ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.transactions = new TransactionRepo(db);
    this.members = new TransactionCustomerRepo(db);
    this.customers = new CustomerRepo(db, writer, ids, clock);
    this.closings = new DailySummaryRepo(db);
  }

  attach(contract: Contract, transactionId: string, body: TransactionCustomerChange, actor: Actor | null): TransactionRecord {
    const cid = contract.contractId;
    return this.writer.write(() => {
      const record = this.transactions.find(cid, transactionId);
      if (!record) throw NotFoundError.field('transaction_id', `transaction ${transactionId} does not exist`);
      const member = this.memberOf(cid, body);
      const h = record.header;
      if (h.customerId === member.customer_id) return record;
      assertMemberChangeable(this.closings, cid, h);

      const division = body.pointUpdateDivision ?? '0';
      if (h.cancelDivision === '1' && division !== '0') {
        throw InvalidInput.field('pointUpdateDivision', `transaction ${h.transactionHeadId} is cancelled (cancelDivision 1): it moves no points; send 0`);
      }
      const old = h.customerId === null || h.customerId === undefined ? undefined : this.customers.find(cid, h.customerId);
      const applied = !!record.pointsApplied && !!old;
      const sale = saleMemberFields(h);
      const change = changeSaleMember({
        division,
        applied,
        sale,
        newMember: { point: exact(member.point), mile: exact(member.mile) },
        recomputed: division === '2' ? recomputedMemberTotals(record, member) : null,
      });
      const ref = { transactionHeadId: h.transactionHeadId, actor, fields: { point: 'pointUpdateDivision', mile: 'pointUpdateDivision' } };
      if (change.fromOld && old) this.customers.movePoints(cid, old.customer_id, change.fromOld, 'sale_detach', ref);
      if (change.toNew) this.customers.movePoints(cid, member.customer_id, change.toNew, 'sale_attach', ref);

      const values: Partial<Record<MemberField, string | number | null>> = {
        customerId: member.customer_id,
        customerRank: member.rank,
        customerGroupId: member.customer_group_id,
        customerGroupId2: member.customer_group_id2,
        customerGroupId3: member.customer_group_id3,
        customerGroupId4: member.customer_group_id4,
        customerGroupId5: member.customer_group_id5,
        customerPinCode: member.pin_code,
      };
      for (const name of MEMBER_TOTALS) {
        const v = change.header[name];
        if (v !== undefined) values[name] = v === null ? null : formatDecimal(v);
      }
      const headId = h.transactionHeadId as number;
      this.members.setMember(cid, headId, values, change.pointsApplied, this.clock.now().getTime());
      this.writer.changed({ contractId: cid, entity: 'transaction', id: String(headId), op: 'update' });
      return this.transactions.find(cid, headId)!;
    });
  }

  /** The member named by customerId, else by customerCode; both sent must name the same member. */
  private memberOf(cid: string, body: TransactionCustomerChange): CustomerRow {
    const byId = body.customerId === undefined ? undefined : this.customers.find(cid, body.customerId);
    if (body.customerId !== undefined && !byId) throw InvalidInput.field('customerId', `customer ${body.customerId} does not exist`);
    if (body.customerCode === undefined) return byId!;
    const byCode = this.customers.findByCode(cid, body.customerCode);
    if (!byCode) throw InvalidInput.field('customerCode', `no customer has the code ${body.customerCode}`);
    if (byId && byId.customer_id !== byCode.customer_id) {
      throw InvalidInput.field('customerCode', `${body.customerCode} is the code of customer ${byCode.customer_id}, not of customer ${byId.customer_id}`);
    }
    return byCode;
  }
}

/** Only a sale that is not return-cancelled, not a return-cancel and not in a closed day may change its member. */
function assertMemberChangeable(closings: DailySummaryRepo, contractId: string, h: Rec): void {
  const id = h.transactionHeadId;
  if (h.transactionHeadDivision !== '1') {
    throw InvalidInput.field('transaction_id', `transaction ${id} is not a sale (transactionHeadDivision ${h.transactionHeadDivision}): only a sale's member can be changed`);
  }
  if (h.disposeDivision === '1') throw InvalidInput.field('transaction_id', `transaction ${id} has been return-cancelled: its member can no longer change`);
  if (h.disposeDivision === '2') {
    throw InvalidInput.field('transaction_id', `transaction ${id} is a return-cancel (of transaction ${h.disposeServerTransactionHeadId}): its member follows the source`);
  }
  // The sale's own closed mark says whether its day is closed (see BusinessDay.closedMark).
  const day = { contractId, storeId: h.storeId as number, date: (h.sumDate ?? null) as string | null, closedMark: h.sumDivision === '2' };
  assertDayOpen(closings, day, { field: 'transaction_id', message: transactionOfClosedDay(id) });
}

const dec = (v: string | number | null | undefined) => (v === null || v === undefined ? null : exact(v));

function saleMemberFields(h: Rec): SaleMemberFields {
  return {
    newPoint: dec(h.newPoint),
    spendPoint: dec(h.spendPoint),
    currentMile: dec(h.currentMile),
    earnMile: dec(h.earnMile),
    adjustmentMile: dec(h.adjustmentMile),
  };
}

/**
 * The sale's member totals as POST /transactions computes them for a member sale: the stored
 * lines and header amounts through the same totals model, with the sale's own point settings
 * (pointGivingDivision, pointGivingUnitPrice, pointGivingUnit, pointSpendDivision,
 * mileageDivision: the store's when the terminal sent none) and the member's balances now.
 */
function recomputedMemberTotals(record: TransactionRecord, member: CustomerRow): MemberTotals {
  const h = record.header;
  const d = (v: string | number | null | undefined) => dec(v) ?? ZERO;
  const lines: TotalsLine[] = record.details.map((l) => ({
    transactionDetailId: l.transactionDetailId as number,
    parentTransactionDetailId: (l.parentTransactionDetailId ?? null) as number | null,
    transactionDetailDivision: (l.transactionDetailDivision ?? '1') as TotalsLine['transactionDetailDivision'],
    productDivision: (l.productDivision ?? '0') as string,
    taxDivision: (l.taxDivision ?? '0') as TaxDivision,
    salesDivision: (l.salesDivision ?? '0') as '0' | '1',
    calcDiscount: (l.calcDiscount ?? '1') as '0' | '1',
    pointNotApplicable: (l.pointNotApplicable ?? '0') as '0' | '1',
    salesPrice: d(l.salesPrice),
    unitDiscountPrice: d(l.unitDiscountPrice),
    quantity: d(l.quantity),
    cost: d(l.cost),
    taxRate: d(l.taxRate),
    taxFree: d(l.taxFree),
    applyStaffDiscountPrice: d(l.applyStaffDiscountPrice),
    applyBargainDiscountPrice: d(l.applyBargainDiscountPrice),
  }));
  const input: TotalsInput = {
    lines,
    taxRounding: h.taxRounding as TotalsInput['taxRounding'],
    roundingDivision: (h.roundingDivision ?? '00') as string,
    manualRoundingPrice: h.roundingDivision === '99' ? d(h.roundingPrice) : null,
    subtotalDiscountPrice: d(h.subtotalDiscountPrice),
    pointDiscount: d(h.pointDiscount),
    couponDiscount: d(h.couponDiscount),
    commission: d(h.commission),
    carriage: d(h.carriage),
    pointSpendDivision: h.pointSpendDivision as TotalsInput['pointSpendDivision'],
    member: { known: true, point: exact(member.point), mile: exact(member.mile) },
    pointGivingDivision: h.pointGivingDivision as TotalsInput['pointGivingDivision'],
    pointGivingUnitPrice: d(h.pointGivingUnitPrice),
    pointGivingUnit: d(h.pointGivingUnit),
    spendPoint: d(h.spendPoint),
    mileageDivision: h.mileageDivision as TotalsInput['mileageDivision'],
    adjustmentMileDivision: (h.adjustmentMileDivision ?? null) as TotalsInput['adjustmentMileDivision'],
    adjustmentMileValue: dec(h.adjustmentMileValue),
  };
  try {
    const { newPoint, point, totalPoint, currentMile, earnMile, adjustmentMile, totalMile } = computeTransactionTotals(input).header;
    return { newPoint, point, totalPoint, currentMile, earnMile, adjustmentMile, totalMile };
  } catch (e) {
    if (e instanceof TotalsError) throw InvalidInput.field('pointUpdateDivision', `the points of transaction ${h.transactionHeadId} cannot be computed: [${e.field}] ${e.message}`);
    throw e;
  }
}

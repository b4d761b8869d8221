import { z } from 'zod';
import { customerGroup } from '../../masters/customer-groups/schema.js';
import { customer } from '../../masters/customers/schema.js';
import { staff } from '../../masters/staffs/schema.js';
import { store } from '../../masters/stores/schema.js';
import { COUPON_FIELDS, DETAIL_FIELDS, HEADER_FIELDS, OTHER_FIELDS, presentRec, SUMMARY_DETAIL_FIELDS, type Field } from './catalog.js';
import type { ChildrenWanted } from './query.js';
import type { TransactionRecord } from './repo.js';

// --- output (spec 2.13) -----------------------------------------------------------------------

const strings = (list: readonly Field[]) => Object.fromEntries(list.map((f) => [f.name, z.string().nullable()]));
const optionalStrings = (list: readonly Field[]) => Object.fromEntries(list.map((f) => [f.name, z.string().nullable().optional()]));

// 2.13 lists transactionHeadId among the fields of each detail line and other payment.
const headId = { transactionHeadId: z.string() };
export const transactionDetail = z.object({ ...headId, ...strings(DETAIL_FIELDS) }).meta({ id: 'TransactionDetail' });
export const transactionDetailSummary = z
  .object({ ...headId, ...strings(SUMMARY_DETAIL_FIELDS) })
  .meta({ id: 'TransactionDetailSummary', description: 'a line as with_details=summary answers it: some of its fields' });
export const transactionDepositOther = z.object({ ...headId, ...strings(OTHER_FIELDS) }).meta({ id: 'TransactionDepositOther' });
export const transactionCoupon = z.object(strings(COUPON_FIELDS)).meta({ id: 'TransactionCoupon' });
const arrays = {
  details: z.array(transactionDetail),
  depositOthers: z.array(transactionDepositOther),
  coupons: z.array(transactionCoupon),
};
/** Lines as a read answers them: every field (with_details=all) or the summary fields. */
const readDetails = z.array(z.union([transactionDetail, transactionDetailSummary]));

export const transaction = z.object({ ...strings(HEADER_FIELDS), ...arrays }).meta({ id: 'Transaction' });

/** A list entry: the header (the `fields` chosen, else all) and the records its `with_*` parameters add. */
export const transactionListItem = z
  .object({
    ...optionalStrings(HEADER_FIELDS),
    details: readDetails.optional(),
    depositOthers: arrays.depositOthers.optional(),
    coupons: arrays.coupons.optional(),
  })
  .meta({ id: 'TransactionListItem' });

/** The staff member of a sale as `with_staff=all` adds it: who they are (their personal data is GET /staffs/{id}'s). */
export const transactionStaff = staff
  .pick({ staffId: true, staffCode: true, staffName: true, staffKana: true })
  .meta({ id: 'TransactionStaff' });

/** GET one: the header, the child records (unless a `with_*` says none) and the related records asked for. */
export const transactionRead = z
  .object({
    ...strings(HEADER_FIELDS),
    details: readDetails.optional(),
    depositOthers: arrays.depositOthers.optional(),
    coupons: arrays.coupons.optional(),
    store: store.nullable().optional().describe('with_store=all: the store of the sale'),
    customer: customer.nullable().optional().describe('with_customer=all: the member of the sale; null when none'),
    customerGroups: z.array(customerGroup).optional().describe('with_customer_groups=all: the groups customerGroupId to customerGroupId5 name, in that order'),
    staff: transactionStaff.nullable().optional().describe('with_staff=all: the staff member of the sale; null when none'),
  })
  .meta({ id: 'TransactionRead' });

export type Transaction = z.infer<typeof transaction>;
export type TransactionListItem = z.infer<typeof transactionListItem>;
export type TransactionRead = z.infer<typeof transactionRead>;
export type TransactionDetailOut = z.infer<typeof transactionDetail>;

export function presentTransaction(t: TransactionRecord, zone: string): Transaction {
  return { ...presentRec(HEADER_FIELDS, t.header, zone), ...presentChildren(t, zone, { details: 'all', depositOthers: true, coupons: true }) } as Transaction;
}

/** The lines of a transaction, every field (GET /transactions/{id}/details). */
export function presentDetail(transactionHeadId: string, rec: TransactionRecord['details'][number], zone: string): TransactionDetailOut {
  return { transactionHeadId, ...presentRec(DETAIL_FIELDS, rec, zone) } as TransactionDetailOut;
}

/** The child records `wanted` asks for, each under its key. */
export function presentChildren(t: TransactionRecord, zone: string, wanted: ChildrenWanted): Partial<Transaction> {
  const transactionHeadId = String(t.header.transactionHeadId);
  const out: Record<string, unknown> = {};
  if (wanted.details !== 'none') {
    const list = wanted.details === 'all' ? DETAIL_FIELDS : SUMMARY_DETAIL_FIELDS;
    out.details = t.details.map((r) => ({ transactionHeadId, ...presentRec(list, r, zone) }));
  }
  if (wanted.depositOthers) out.depositOthers = t.depositOthers.map((r) => ({ transactionHeadId, ...presentRec(OTHER_FIELDS, r, zone) }));
  if (wanted.coupons) out.coupons = t.coupons.map((r) => presentRec(COUPON_FIELDS, r, zone));
  return out as Partial<Transaction>;
}

/** A list entry: the header limited to `fields` (all when undefined), then the child records asked for. */
export function presentListItem(t: TransactionRecord, zone: string, wanted: ChildrenWanted, fields?: readonly string[]): TransactionListItem {
  const header = presentRec(HEADER_FIELDS, t.header, zone);
  const chosen = fields ? Object.fromEntries(HEADER_FIELDS.filter((f) => fields.includes(f.name)).map((f) => [f.name, header[f.name]])) : header;
  return { ...chosen, ...presentChildren(t, zone, wanted) } as TransactionListItem;
}

/** GET one: the header, the child records `wanted` asks for, then the related records. */
export function presentRead(t: TransactionRecord, zone: string, wanted: ChildrenWanted, related: Partial<TransactionRead>): TransactionRead {
  return { ...presentRec(HEADER_FIELDS, t.header, zone), ...presentChildren(t, zone, wanted), ...related } as TransactionRead;
}

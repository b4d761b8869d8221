import { z } from 'zod';
import { COUPON_FIELDS, DETAIL_FIELDS, HEADER_FIELDS, OTHER_FIELDS, presentRec, type Field } from './catalog.js';
import type { TransactionRecord } from './repo.js';

// --- output (spec 2.13) -----------------------------------------------------------------------

const strings = (list: readonly Field[]) => Object.fromEntries(list.map((f) => [f.name, z.string().nullable()]));

// 2.13 lists transactionHeadId among the fields of each detail line and other payment.
const headId = { transactionHeadId: z.string() };
export const transactionDetail = z.object({ ...headId, ...strings(DETAIL_FIELDS) }).meta({ id: 'TransactionDetail' });
export const transactionDepositOther = z.object({ ...headId, ...strings(OTHER_FIELDS) }).meta({ id: 'TransactionDepositOther' });
export const transactionCoupon = z.object(strings(COUPON_FIELDS)).meta({ id: 'TransactionCoupon' });
const arrays = {
  details: z.array(transactionDetail),
  depositOthers: z.array(transactionDepositOther),
  coupons: z.array(transactionCoupon),
};
export const transaction = z.object({ ...strings(HEADER_FIELDS), ...arrays }).meta({ id: 'Transaction' });
export const transactionListItem = z
  .object({
    ...strings(HEADER_FIELDS),
    details: arrays.details.optional(),
    depositOthers: arrays.depositOthers.optional(),
    coupons: arrays.coupons.optional(),
  })
  .meta({ id: 'TransactionListItem' });

export type Transaction = z.infer<typeof transaction>;
export type TransactionListItem = z.infer<typeof transactionListItem>;

export function presentTransaction(t: TransactionRecord, zone: string): Transaction {
  const transactionHeadId = String(t.header.transactionHeadId);
  return {
    ...presentRec(HEADER_FIELDS, t.header, zone),
    details: t.details.map((r) => ({ transactionHeadId, ...presentRec(DETAIL_FIELDS, r, zone) })),
    depositOthers: t.depositOthers.map((r) => ({ transactionHeadId, ...presentRec(OTHER_FIELDS, r, zone) })),
    coupons: t.coupons.map((r) => presentRec(COUPON_FIELDS, r, zone)),
  } as Transaction;
}

/** A list entry: the header only, or the whole transaction with `with_details=all`. */
export function presentListItem(t: TransactionRecord, zone: string, withChildren: boolean): TransactionListItem {
  return withChildren ? presentTransaction(t, zone) : (presentRec(HEADER_FIELDS, t.header, zone) as TransactionListItem);
}

import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { clearable, id, intString, name, patchBody } from '../../platform/http/fields.js';
import { masterListQuery, POS_PAGE } from '../../platform/http/paging.js';
import type { PaymentMethodGroupRow } from './repo.js';

export const paymentMethodGroup = z
  .object({
    paymentMethodGroupId: z.string(),
    paymentMethodGroupName: z.string(),
    displaySequence: z.string().nullable().describe('integer-formatted; null when unset'),
    insDateTime: z.string(),
    updDateTime: z.string(),
  })
  .meta({ id: 'PaymentMethodGroup' });

export type PaymentMethodGroup = z.infer<typeof paymentMethodGroup>;

export const paymentMethodGroupParams = z.object({ payment_method_group_id: id() });

/** A display sequence that may be unset: an integer string, cleared by null or "". */
export const optionalSequence = clearable(intString).optional();

export const createPaymentMethodGroupBody = z.strictObject({
  paymentMethodGroupName: name(85),
  displaySequence: optionalSequence,
});

export const updatePaymentMethodGroupBody = patchBody({
  paymentMethodGroupName: name(85).optional(),
  displaySequence: optionalSequence,
});

export const PAYMENT_METHOD_GROUP_SORT = ['paymentMethodGroupId', 'paymentMethodGroupName', 'displaySequence', 'updDateTime'] as const;

export const listPaymentMethodGroupsQuery = z.strictObject({
  ...masterListQuery(PAYMENT_METHOD_GROUP_SORT, POS_PAGE),
});

export type CreatePaymentMethodGroup = z.infer<typeof createPaymentMethodGroupBody>;
export type UpdatePaymentMethodGroup = z.infer<typeof updatePaymentMethodGroupBody>;

/** An integer string as stored (INTEGER, so "007" reads back "7"); null stays null. */
export const sequenceValue = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : Number(v));

export function presentPaymentMethodGroup(row: PaymentMethodGroupRow, zone: string): PaymentMethodGroup {
  return {
    paymentMethodGroupId: String(row.payment_method_group_id),
    paymentMethodGroupName: row.payment_method_group_name,
    displaySequence: row.display_sequence === null ? null : String(row.display_sequence),
    insDateTime: formatDateTime(row.ins_at, zone),
    updDateTime: formatDateTime(row.upd_at, zone),
  };
}

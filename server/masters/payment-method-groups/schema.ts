import { z } from 'zod';
import { clearable, intString, name } from '../../platform/http/fields.js';
import { idParams, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { PaymentMethodGroupRow } from './repo.js';

export const paymentMethodGroup = masterRecord('PaymentMethodGroup', {
  paymentMethodGroupId: z.string(),
  paymentMethodGroupName: z.string(),
  displaySequence: z.string().nullable().describe('integer-formatted; null when unset'),
});

export type PaymentMethodGroup = z.infer<typeof paymentMethodGroup>;

export const paymentMethodGroupParams = idParams('payment_method_group_id');

/** A display sequence that may be unset: an integer string, cleared by null or "". */
export const optionalSequence = clearable(intString).optional();

const fields = { paymentMethodGroupName: name(85), displaySequence: optionalSequence };
export const createPaymentMethodGroupBody = z.strictObject(fields);
export const updatePaymentMethodGroupBody = patchOf(fields);

export const PAYMENT_METHOD_GROUP_SORT = ['paymentMethodGroupId', 'paymentMethodGroupName', 'displaySequence', 'updDateTime'] as const;
export const listPaymentMethodGroupsQuery = masterQuery({}, PAYMENT_METHOD_GROUP_SORT);

export type CreatePaymentMethodGroup = z.infer<typeof createPaymentMethodGroupBody>;
export type UpdatePaymentMethodGroup = z.infer<typeof updatePaymentMethodGroupBody>;

/** An integer string as stored (INTEGER, so "007" reads back "7"); null stays null. */
export const sequenceValue = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : Number(v));

export const presentPaymentMethodGroup: Presenter<PaymentMethodGroupRow, PaymentMethodGroup> = presenterOf(paymentMethodGroup);

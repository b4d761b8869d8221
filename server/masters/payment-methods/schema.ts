import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { decimalError, PRICE } from '../../domain/money.js';
import { clearable, decimalText, digits, id, name, oneOf, text } from '../../platform/http/fields.js';
import { idParams, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import { optionalSequence } from '../payment-method-groups/schema.js';
import type { PaymentMethodRow } from './repo.js';

export const FLAGS = ['0', '1'] as const;

const flagOut = (meaning: string) => z.enum(FLAGS).describe(meaning);

export const paymentMethod = masterRecord('PaymentMethod', {
  paymentMethodId: z.string(),
  paymentMethodCode: z.string().describe('1 to 20 half-width alphanumerics, unique in the contract'),
  paymentMethodName: z.string(),
  paymentDivision: z.string().describe('the shop\'s payment division code, 1 or 2 digits; copied onto other-payment lines of transactions'),
  paymentUnitPrice: z
    .string()
    .nullable()
    .describe('exact decimal; with a unit price the amount received (depositOthers) is a count of units; null when unset'),
  paymentChangeFlag: flagOut('0 no change is given, 1 change is given'),
  paymentSecuritiesFlag: flagOut('0 not securities, 1 securities (gift certificates and the like)'),
  individualApplicationFlag: flagOut('1 registered by the individual-application payment method registration operation; read-only'),
  paymentMethodGroupId: z.string().nullable(),
  displaySequence: z.string().nullable().describe('integer-formatted; null when unset'),
});

export type PaymentMethod = z.infer<typeof paymentMethod>;

export const paymentMethodParams = idParams('payment_method_id');

const paymentMethodCode = z.string().regex(/^[A-Za-z0-9]{1,20}$/, 'must be 1 to 20 half-width alphanumerics (A-Z, a-z, 0-9)');
const paymentDivision = digits(2);
const unitPrice = decimalText(PRICE).refine((s) => decimalError(s, PRICE) !== null || !new Decimal(s).isZero(), {
  message: 'must be greater than 0; send null for no unit price',
});
const flag = oneOf(FLAGS);

// Set by the route that registers the method, never by a body (spec 2.13: only methods of the
// individual-application registration operation honour denomination and card company fields).
const individualApplicationFlag = z
  .never({ error: 'is read-only: it is 1 only for methods registered with POST /payment_methods/individual_application and never changes' })
  .optional();

const writable = {
  paymentMethodCode,
  paymentMethodName: name(85),
  paymentDivision,
  paymentUnitPrice: clearable(unitPrice).optional(),
  paymentChangeFlag: flag.optional(),
  paymentSecuritiesFlag: flag.optional(),
  individualApplicationFlag,
  paymentMethodGroupId: clearable(id()).optional(),
  displaySequence: optionalSequence,
};

export const createPaymentMethodBody = z.strictObject(writable);

export const updatePaymentMethodBody = patchOf(writable);

export const PAYMENT_METHOD_SORT = ['paymentMethodId', 'paymentMethodCode', 'displaySequence', 'updDateTime'] as const;

export const listPaymentMethodsQuery = masterQuery(
  {
    payment_method_code: text(20).optional(),
    payment_division: paymentDivision.optional(),
    payment_method_group_id: id().optional(),
    individual_application_flag: flag.optional(),
  },
  PAYMENT_METHOD_SORT,
);

export type CreatePaymentMethod = z.infer<typeof createPaymentMethodBody>;
export type UpdatePaymentMethod = z.infer<typeof updatePaymentMethodBody>;
export type ListPaymentMethodsQuery = z.infer<typeof listPaymentMethodsQuery>;

export const presentPaymentMethod: Presenter<PaymentMethodRow, PaymentMethod> = presenterOf(paymentMethod, {
  individualApplicationFlag: (row) => row.individual_application,
});

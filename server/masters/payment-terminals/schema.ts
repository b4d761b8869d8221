import { z } from 'zod';
import { clearable, halfWidthCode, id, name, oneOf } from '../../platform/http/fields.js';
import { idParams, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { PaymentTerminalRow } from './repo.js';

export const KINDS = ['CAT', 'CCT'] as const;

export const paymentTerminal = masterRecord('PaymentTerminal', {
  paymentTerminalId: z.string().describe('the creditTerminalId a register terminal links (spec 2.11)'),
  storeId: z.string().nullable().describe('store where the device is installed; null when not assigned'),
  name: z.string(),
  kind: z.enum(KINDS).describe('CAT or CCT'),
  deviceCode: z.string().nullable().describe("the device's own identifier (serial or terminal code)"),
});

export type PaymentTerminal = z.infer<typeof paymentTerminal>;

export const paymentTerminalParams = idParams('payment_terminal_id');

const fields = {
  storeId: clearable(id()).optional(),
  name: name(85),
  kind: oneOf(KINDS),
  deviceCode: clearable(halfWidthCode(64)).optional(),
};
export const createPaymentTerminalBody = z.strictObject(fields);
export const updatePaymentTerminalBody = patchOf(fields);

export const PAYMENT_TERMINAL_SORT = ['paymentTerminalId', 'storeId', 'name', 'updDateTime'] as const;
export const listPaymentTerminalsQuery = masterQuery({ store_id: id().optional(), kind: oneOf(KINDS).optional() }, PAYMENT_TERMINAL_SORT);

export type CreatePaymentTerminal = z.infer<typeof createPaymentTerminalBody>;
export type UpdatePaymentTerminal = z.infer<typeof updatePaymentTerminalBody>;
export type ListPaymentTerminalsQuery = z.infer<typeof listPaymentTerminalsQuery>;

export const presentPaymentTerminal: Presenter<PaymentTerminalRow, PaymentTerminal> = presenterOf(paymentTerminal);

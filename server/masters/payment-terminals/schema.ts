import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { clearable, halfWidthCode, id, name, oneOf, patchBody } from '../../platform/http/fields.js';
import { masterListQuery, POS_PAGE } from '../../platform/http/paging.js';
import type { PaymentTerminalRow } from './repo.js';

export const KINDS = ['CAT', 'CCT'] as const;

export const paymentTerminal = z
  .object({
    paymentTerminalId: z.string().describe('the creditTerminalId a register terminal links (spec 2.11)'),
    storeId: z.string().nullable().describe('store where the device is installed; null when not assigned'),
    name: z.string(),
    kind: z.enum(KINDS).describe('CAT or CCT'),
    deviceCode: z.string().nullable().describe("the device's own identifier (serial or terminal code)"),
    insDateTime: z.string(),
    updDateTime: z.string(),
  })
  .meta({ id: 'PaymentTerminal' });

export type PaymentTerminal = z.infer<typeof paymentTerminal>;

export const paymentTerminalParams = z.object({ payment_terminal_id: id() });

export const createPaymentTerminalBody = z.strictObject({
  storeId: clearable(id()).optional(),
  name: name(85),
  kind: oneOf(KINDS),
  deviceCode: clearable(halfWidthCode(64)).optional(),
});

export const updatePaymentTerminalBody = patchBody({
  storeId: clearable(id()).optional(),
  name: name(85).optional(),
  kind: oneOf(KINDS).optional(),
  deviceCode: clearable(halfWidthCode(64)).optional(),
});

export const PAYMENT_TERMINAL_SORT = ['paymentTerminalId', 'storeId', 'name', 'updDateTime'] as const;

export const listPaymentTerminalsQuery = z.strictObject({
  store_id: id().optional(),
  kind: oneOf(KINDS).optional(),
  ...masterListQuery(PAYMENT_TERMINAL_SORT, POS_PAGE),
});

export type CreatePaymentTerminal = z.infer<typeof createPaymentTerminalBody>;
export type UpdatePaymentTerminal = z.infer<typeof updatePaymentTerminalBody>;
export type ListPaymentTerminalsQuery = z.infer<typeof listPaymentTerminalsQuery>;

export function presentPaymentTerminal(row: PaymentTerminalRow, zone: string): PaymentTerminal {
  return {
    paymentTerminalId: String(row.payment_terminal_id),
    storeId: row.store_id === null ? null : String(row.store_id),
    name: row.name,
    kind: row.kind,
    deviceCode: row.device_code,
    insDateTime: formatDateTime(row.ins_at, zone),
    updDateTime: formatDateTime(row.upd_at, zone),
  };
}

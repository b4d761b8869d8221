import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { clearable, halfWidthCode, id, name, oneOf, patchBody } from '../../platform/http/fields.js';
import { masterListQuery, POS_PAGE } from '../../platform/http/paging.js';
import type { TerminalRow } from './repo.js';

export const USE_STOP_DIVISIONS = ['0', '1'] as const; // 0 use, 1 do not use
export const FLAGS = ['0', '1'] as const; // 0 no, 1 yes

// Spec 2.11.
export const terminal = z
  .object({
    terminalId: z.string(),
    storeId: z.string(),
    terminalName: z.string(),
    uuid: z.string().nullable().describe('unique terminal identifier; null until a device is paired'),
    useStopDivision: z.enum(USE_STOP_DIVISIONS).describe('0 use, 1 do not use'),
    transactionEditableFlag: z.enum(FLAGS).describe('0 no, 1 yes; 1 needs Premium Plus, Food Business or Retail Business'),
    selfCheckoutAvailableFlag: z.enum(FLAGS).describe('0 no, 1 yes; 1 needs Retail Business'),
    smartIdEngineAvailableFlag: z.enum(FLAGS).describe('0 no, 1 yes'),
    creditTerminalId: z.string().nullable().describe('payment terminal (CAT/CCT) id'),
    cashDrawerId: z.string().nullable(),
    parentTerminalId: z.string().nullable(),
    insDateTime: z.string(),
    updDateTime: z.string(),
  })
  .meta({ id: 'Terminal' });

export type Terminal = z.infer<typeof terminal>;

export const terminalParams = z.object({ terminal_id: id() });

/** A UUID or any device identifier: half-width characters, compared without case. */
const uuid = halfWidthCode(64);

const optionalFields = {
  uuid: clearable(uuid).optional(),
  useStopDivision: oneOf(USE_STOP_DIVISIONS).optional(),
  transactionEditableFlag: oneOf(FLAGS).optional(),
  selfCheckoutAvailableFlag: oneOf(FLAGS).optional(),
  smartIdEngineAvailableFlag: oneOf(FLAGS).optional(),
  creditTerminalId: clearable(id()).optional(),
  cashDrawerId: clearable(id()).optional(),
  parentTerminalId: clearable(id()).optional(),
};

// Spec 4.16: the fields of 2.11 (terminalId and the times are the server's).
export const createTerminalBody = z.strictObject({
  storeId: id(),
  terminalName: name(85),
  ...optionalFields,
});

export const updateTerminalBody = patchBody({
  storeId: id().optional(),
  terminalName: name(85).optional(),
  ...optionalFields,
});

export const TERMINAL_SORT = ['terminalId', 'storeId', 'terminalName', 'updDateTime'] as const;

export const listTerminalsQuery = z.strictObject({
  store_id: id().optional(),
  uuid: uuid.optional(),
  use_stop_division: oneOf(USE_STOP_DIVISIONS).optional(),
  ...masterListQuery(TERMINAL_SORT, POS_PAGE),
});

export type CreateTerminal = z.infer<typeof createTerminalBody>;
export type UpdateTerminal = z.infer<typeof updateTerminalBody>;
export type ListTerminalsQuery = z.infer<typeof listTerminalsQuery>;

const idOrNull = (v: number | null) => (v === null ? null : String(v));

export function presentTerminal(row: TerminalRow, zone: string): Terminal {
  return {
    terminalId: String(row.terminal_id),
    storeId: String(row.store_id),
    terminalName: row.terminal_name,
    uuid: row.uuid,
    useStopDivision: row.use_stop_division,
    transactionEditableFlag: row.transaction_editable_flag,
    selfCheckoutAvailableFlag: row.self_checkout_available_flag,
    smartIdEngineAvailableFlag: row.smart_id_engine_available_flag,
    creditTerminalId: idOrNull(row.credit_terminal_id),
    cashDrawerId: idOrNull(row.cash_drawer_id),
    parentTerminalId: idOrNull(row.parent_terminal_id),
    insDateTime: formatDateTime(row.ins_at, zone),
    updDateTime: formatDateTime(row.upd_at, zone),
  };
}

import { z } from 'zod';
import { clearable, halfWidthCode, id, name, oneOf } from '../../platform/http/fields.js';
import { idParams, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { TerminalRow } from './repo.js';

export const USE_STOP_DIVISIONS = ['0', '1'] as const; // 0 use, 1 do not use
export const FLAGS = ['0', '1'] as const; // 0 no, 1 yes

// Spec 2.11.
export const terminal = masterRecord('Terminal', {
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
});

export type Terminal = z.infer<typeof terminal>;

export const terminalParams = idParams('terminal_id');

/** A UUID or any device identifier: half-width characters, compared without case. */
const uuid = halfWidthCode(64);

const fields = {
  storeId: id(),
  terminalName: name(85),
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
export const createTerminalBody = z.strictObject(fields);
export const updateTerminalBody = patchOf(fields);

export const TERMINAL_SORT = ['terminalId', 'storeId', 'terminalName', 'updDateTime'] as const;

export const listTerminalsQuery = masterQuery(
  { store_id: id().optional(), uuid: uuid.optional(), use_stop_division: oneOf(USE_STOP_DIVISIONS).optional() },
  TERMINAL_SORT,
);

export type CreateTerminal = z.infer<typeof createTerminalBody>;
export type UpdateTerminal = z.infer<typeof updateTerminalBody>;
export type ListTerminalsQuery = z.infer<typeof listTerminalsQuery>;

export const presentTerminal: Presenter<TerminalRow, Terminal> = presenterOf(terminal);

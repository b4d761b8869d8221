import { z } from 'zod';
import { digits, name, oneOf } from '../../platform/http/fields.js';
import { fieldSelection, masterRecord, pagedQuery, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { ReceiptProvisoRow } from './repo.js';

export const FLAGS = ['0', '1'] as const;
export const NAME_MAX = 85;

/** A display order: 1 to 999, "string format: int" as the platform carries it. */
const displaySequence = z.string().regex(/^(?:[1-9]\d{0,2})$/, 'must be an integer from 1 to 999');

/** A receipt proviso (領収書但し書き): the wording a receipt offers for what was paid ("お品代として"). */
export const receiptProviso = masterRecord('ReceiptProviso', {
  receiptProvisoCode: z.string().describe('minted at registration'),
  receiptProvisoName: z.string(),
  initialValueFlag: z.enum(FLAGS).describe('1: the proviso a receipt starts with (at most one is)'),
  displaySequence: z.string().nullable().describe('1 to 999; null when unset'),
  displayFlag: z.enum(FLAGS).describe('0 hidden at the register, 1 shown'),
});
export type ReceiptProviso = z.infer<typeof receiptProviso>;

export const receiptProvisoFields = fieldSelection(receiptProviso, 'ReceiptProviso', 'receipt proviso');

export const receiptProvisoParams = z.object({ receipt_proviso_code: digits(9) });

const provisoName = z
  .string({ error: (issue) => (issue.input === null ? 'cannot be cleared; a proviso needs its wording' : undefined) })
  .pipe(name(NAME_MAX))
  .meta({ maxLength: NAME_MAX });

const writable = {
  receiptProvisoName: provisoName,
  initialValueFlag: oneOf(FLAGS).optional(),
  displaySequence: z.union([displaySequence, z.literal(''), z.null()]).transform((v) => (v === '' ? null : v)).optional(),
  displayFlag: oneOf(FLAGS).optional(),
};

export const createReceiptProvisoBody = z.strictObject(writable);
export const updateReceiptProvisoBody = patchOf(writable);

export const RECEIPT_PROVISO_SORT = ['receiptProvisoCode', 'displaySequence'] as const;
export const listReceiptProvisosQuery = pagedQuery(
  {
    fields: receiptProvisoFields.query,
    receipt_proviso_code: digits(9).optional(),
    initial_value_flag: oneOf(FLAGS).optional(),
    display_flag: oneOf(FLAGS).optional(),
  },
  RECEIPT_PROVISO_SORT,
);

export type CreateReceiptProviso = z.infer<typeof createReceiptProvisoBody>;
export type UpdateReceiptProviso = z.infer<typeof updateReceiptProvisoBody>;
export type ListReceiptProvisosQuery = z.infer<typeof listReceiptProvisosQuery>;

export const presentReceiptProviso: Presenter<ReceiptProvisoRow, ReceiptProviso> = presenterOf(receiptProviso);

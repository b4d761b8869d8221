import { z } from 'zod';
import { clearable, id, name, oneOf } from '../../platform/http/fields.js';
import { fieldSelection, idParams, intText, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { DiscountDivisionRow } from './repo.js';

/** awardType: 1 an amount off (値引), 2 a rate off (割引). */
export const AWARD_TYPES = ['1', '2'] as const;
export const DISPLAY_FLAGS = ['0', '1'] as const;

export const discountDivision = masterRecord('DiscountDivision', {
  discountDivision: z.string().describe('the number a sale names as unitDiscountDivision or subtotalDiscountDivision'),
  awardType: z.enum(AWARD_TYPES).describe('1 an amount off (値引), 2 a rate off (割引)'),
  discountDivisionName: z.string(),
  displaySequence: z.string().nullable().describe('1 to 999; null when unset'),
  displayFlag: z.enum(DISPLAY_FLAGS).describe('0 not offered at the register, 1 offered'),
});

export type DiscountDivision = z.infer<typeof discountDivision>;

/** Spec 4.3 `fields` of list and get. */
export const discountDivisionFields = fieldSelection(discountDivision, 'DiscountDivision', 'discount division');

export const discountDivisionParams = idParams('discount_division');

const displaySequence = z.string().regex(/^(?:[1-9]\d{0,2})$/, 'must be an integer from 1 to 999');

const writable = {
  awardType: oneOf(AWARD_TYPES),
  discountDivisionName: name(85),
  displaySequence: clearable(displaySequence).optional().describe('1 to 999; null or "" clears it'),
  displayFlag: oneOf(DISPLAY_FLAGS).optional().describe('default 1'),
};

export const createDiscountDivisionBody = z.strictObject(writable);
export const updateDiscountDivisionBody = patchOf(writable);

export const DISCOUNT_DIVISION_SORT = ['discountDivision', 'displaySequence'] as const;

export const listDiscountDivisionsQuery = masterQuery(
  {
    discount_division: id().optional(),
    award_type: oneOf(AWARD_TYPES).optional(),
    display_flag: oneOf(DISPLAY_FLAGS).optional(),
    fields: discountDivisionFields.query,
  },
  DISCOUNT_DIVISION_SORT,
);

export type CreateDiscountDivision = z.infer<typeof createDiscountDivisionBody>;
export type UpdateDiscountDivision = z.infer<typeof updateDiscountDivisionBody>;
export type ListDiscountDivisionsQuery = z.infer<typeof listDiscountDivisionsQuery>;

export const presentDiscountDivision: Presenter<DiscountDivisionRow, DiscountDivision> = presenterOf(discountDivision, {
  displaySequence: (row) => intText(row.display_sequence),
});

import { z } from 'zod';
import { digits, name } from '../../platform/http/fields.js';
import { fieldSelection, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { LossDivisionRow } from './repo.js';

/** The most characters of a division's name (as the platform's other names). */
export const DIVISION_NAME_MAX = 85;

/**
 * A loss division's code (ロス区分コード): the platform types it "string format: int", and it is
 * a path segment, so digits only; kept as sent ("01" and "1" are two codes).
 */
export const divisionCode = digits(9);

/** A loss division (ロス区分): why goods were lost (廃棄, 盗難, その他, ...); every loss names one. */
export const lossDivision = masterRecord('LossDivision', {
  divisionCode: z.string().describe('the code a loss names in its division'),
  divisionName: z.string(),
});
export type LossDivision = z.infer<typeof lossDivision>;

/** `fields` of GET and list. */
export const lossDivisionFields = fieldSelection(lossDivision, 'LossDivision', 'loss division');

export const lossDivisionParams = z.object({ division_code: divisionCode });

const writable = { divisionName: name(DIVISION_NAME_MAX) };
export const createLossDivisionBody = z.strictObject({ divisionCode, ...writable });
export const updateLossDivisionBody = patchOf(writable);

export const LOSS_DIVISION_SORT = ['divisionCode', 'updDateTime'] as const;
export const listLossDivisionsQuery = masterQuery({ fields: lossDivisionFields.query }, LOSS_DIVISION_SORT);

export type CreateLossDivision = z.infer<typeof createLossDivisionBody>;
export type UpdateLossDivision = z.infer<typeof updateLossDivisionBody>;
export type ListLossDivisionsQuery = z.infer<typeof listLossDivisionsQuery>;

export const presentLossDivision: Presenter<LossDivisionRow, LossDivision> = presenterOf(lossDivision);

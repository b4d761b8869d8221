import { z } from 'zod';
import { name, patchBody } from '../../platform/http/fields.js';
import { masterRecord, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { LabelRow } from './repo.js';

/** Free-item labels are fixed slots 1..50 per contract, like customer group sections. */
export const MAX_LABEL_NO = 50;

/** A label number as the path and bodies carry it: 1 to 50 without leading zeros. */
export const labelNo = z.string().regex(/^(?:[1-9]|[1-4]\d|50)$/, `must be 1 to ${MAX_LABEL_NO}`);

export const reserveItemLabel = masterRecord('ProductReserveItemLabel', {
  no: z.string().describe(`free-item number, 1 to ${MAX_LABEL_NO}`),
  label: z.string(),
});

export type ReserveItemLabel = z.infer<typeof reserveItemLabel>;

export const labelParams = z.object({ no: labelNo });

export const createLabelBody = z.strictObject({ no: labelNo, label: name(85) });

// The only field besides the number; a label cannot be cleared (name() refuses "").
export const updateLabelBody = patchBody({ label: name(85).optional() });

export type CreateLabel = z.infer<typeof createLabelBody>;
export type UpdateLabel = z.infer<typeof updateLabelBody>;

export const presentLabel: Presenter<LabelRow, ReserveItemLabel> = presenterOf(reserveItemLabel);

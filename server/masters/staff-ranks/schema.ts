import { z } from 'zod';
import { clearable, intString, name, oneOf, text } from '../../platform/http/fields.js';
import { masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { StaffRankRow } from './repo.js';

export const DISPLAY_FLAGS = ['0', '1'] as const; // 0 invalid, 1 valid
export const USE_PRODUCT_RATE_DIVISIONS = ['0', '1'] as const; // 0 ignore the product master staff rate, 1 use it
/** Price at staff sale during a sale period: 0 sale price × staff rate, 1 the cheaper, 2 the dearer. */
export const SELLING_PRICE_DIVISIONS = ['0', '1', '2'] as const;
export const NAME_MAX = 85;

/**
 * The rank's code as the admin screen shows it; it is also a path segment, so half-width
 * letters, digits, hyphen and underscore only (no '/', '?', '%').
 */
export const staffRankCode = z.string().regex(/^[A-Za-z0-9_-]{1,20}$/, 'must be 1 to 20 half-width letters, digits, - or _');

/**
 * A percentage from 0 to 100 with at most two decimals, kept as exact text (never a float) in
 * its shortest form: "05.50" is stored and answered as "5.5", "100.00" as "100".
 */
export const discountRate = z
  .string()
  .regex(/^\d{1,3}(\.\d{1,2})?$/, 'must be a percentage from 0 to 100 with at most 2 decimals, like 12.5')
  .transform((s, ctx) => {
    const [whole, fraction = ''] = s.split('.') as [string, string?];
    const integer = whole.replace(/^0+(?=\d)/, '');
    const decimals = fraction.replace(/0+$/, '');
    if (Number(integer) > 100 || (integer === '100' && decimals !== '')) {
      ctx.addIssue({ code: 'custom', message: 'must be a percentage from 0 to 100 with at most 2 decimals, like 12.5' });
      return z.NEVER;
    }
    return decimals ? `${integer}.${decimals}` : integer;
  });

export const staffRank = masterRecord('StaffRank', {
  staffRank: z.string().describe('the code in the admin screen'),
  staffRankFullName: z.string(),
  staffRankDisplayName: z.string().describe('shown at staff sale; the full name when unset'),
  displayFlag: z.enum(DISPLAY_FLAGS).describe('0 invalid, 1 valid'),
  displaySequence: z.string().describe('list order priority, integer-formatted'),
  staffDiscountRate: z.string().describe('percent, 0 to 100, at most 2 decimals'),
  useProductStaffDiscountRateDivision: z.enum(USE_PRODUCT_RATE_DIVISIONS).describe('0 do not use the product master staff-sale rate, 1 use it'),
  staffApplicationSellingPriceDivision: z
    .enum(SELLING_PRICE_DIVISIONS)
    .describe('during a sale period: 0 sale price × staff rate, 1 the cheaper of sale and staff price, 2 the dearer'),
});

export type StaffRank = z.infer<typeof staffRank>;

export const staffRankParams = z.object({ staff_rank: staffRankCode });

const fullName = z
  .string({ error: (issue) => (issue.input === null ? 'cannot be cleared; a staff rank needs a name' : undefined) })
  .pipe(name(NAME_MAX))
  .meta({ maxLength: NAME_MAX });

/** Spec 4.8's body keys; the display name falls back to the full name when cleared. */
const writable = {
  staffRankFullName: fullName,
  // Blank is unset too: a display name of spaces would show nothing at a staff sale.
  staffRankDisplayName: clearable(text(NAME_MAX))
    .transform((v) => (v !== null && v.trim() === '' ? null : v))
    .optional(),
  displayFlag: oneOf(DISPLAY_FLAGS).optional(),
  displaySequence: intString.optional(),
  staffDiscountRate: discountRate.optional(),
  useProductStaffDiscountRateDivision: oneOf(USE_PRODUCT_RATE_DIVISIONS).optional(),
  staffApplicationSellingPriceDivision: oneOf(SELLING_PRICE_DIVISIONS).optional(),
};

export const createStaffRankBody = z.strictObject({ staffRank: staffRankCode, ...writable });
export const updateStaffRankBody = patchOf(writable);

export const STAFF_RANK_SORT = ['staffRank', 'displaySequence'] as const;

export const listStaffRanksQuery = masterQuery({ display_flag: oneOf(DISPLAY_FLAGS).optional() }, STAFF_RANK_SORT);

export type CreateStaffRank = z.infer<typeof createStaffRankBody>;
export type UpdateStaffRank = z.infer<typeof updateStaffRankBody>;
export type ListStaffRanksQuery = z.infer<typeof listStaffRanksQuery>;

export const presentStaffRank: Presenter<StaffRankRow, StaffRank> = presenterOf(staffRank, {
  staffRankFullName: (row) => row.full_name,
  staffRankDisplayName: (row) => row.display_name ?? row.full_name,
});

import { z } from 'zod';
import { clearable, date, digits, halfWidthCode, name, oneOf, text } from '../../platform/http/fields.js';
import { idParams, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { StaffRow } from './repo.js';

export const GENDERS = ['0', '1', '9'] as const; // 0 male, 1 female, 9 unselected
export const DASHBOARD_TYPES = [0, 1] as const; // screen after login: 0 staff top, 1 administrator top

/** Lengths we chose (the spec names none); recorded in docs/decisions.md. */
export const STAFF_LIMITS = {
  staffName: 50,
  staffKana: 50,
  postCode: 10,
  address: 255,
  phone: 20,
  staffCode: 20,
  terminationReason: 255,
  roleInEmployeeList: 85,
  career: 1000,
  memo: 1000,
  adminMemo: 1000,
} as const;

export const staff = masterRecord('Staff', {
  staffId: z.string(),
  staffName: z.string(),
  staffKana: z.string().nullable().describe('full-width katakana reading'),
  gender: z.enum(GENDERS).describe('0 male, 1 female, 9 unselected'),
  birthday: z.string().nullable().describe('YYYY-MM-DD'),
  postCode: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  employeeClassificationId: z.string().nullable(),
  dashboardType: z.number().int().describe('screen right after login: 0 staff top, 1 administrator top'),
  staffCode: z.string().nullable().describe('employee number; the username of a back-office login'),
  hireDate: z.string().nullable().describe('YYYY-MM-DD'),
  terminationDate: z.string().nullable().describe('YYYY-MM-DD'),
  terminationReason: z.string().nullable(),
  roleInEmployeeList: z.string().nullable(),
  career: z.string().nullable(),
  passCode: z.string().nullable().describe('clock-in passcode, 4 half-width digits'),
  displaySequence: z.number().int().nullable(),
  memo: z.string().nullable(),
  adminMemo: z.string().nullable(),
  adminFlag: z.boolean().describe('administrator right'),
  foreignerFlag: z.boolean(),
  stampScreenDisplayFlag: z.boolean().describe('shown on the clock-in screen'),
  personalWebStampScreenDisplayFlag: z.boolean().describe('shown on the individual web clock-in screen'),
});

export type Staff = z.infer<typeof staff>;

export const staffParams = idParams('staff_id');

/**
 * Full-width katakana: the Katakana block U+30A1..U+30FF (so the long vowel mark ー and the
 * middle dot ・ are in) and the full-width space U+3000 between family and given name.
 * Half-width katakana, hiragana and ASCII are refused; at least one katakana letter.
 */
export const KATAKANA = /^[\u30A1-\u30FF\u3000]+$/u;
const katakana = text(STAFF_LIMITS.staffKana).refine((s) => KATAKANA.test(s) && /[\u30A1-\u30FF]/u.test(s), {
  message: 'must be full-width katakana (ー, ・ and the full-width space allowed)',
});

/** Post codes and phone numbers: half-width digits with hyphens (and +, parentheses for phones). */
const postCode = z.string().regex(new RegExp(`^[0-9-]{1,${STAFF_LIMITS.postCode}}$`), `must be 1 to ${STAFF_LIMITS.postCode} half-width digits or hyphens`);
const phone = z.string().regex(new RegExp(`^[0-9+()-]{1,${STAFF_LIMITS.phone}}$`), `must be 1 to ${STAFF_LIMITS.phone} half-width digits, hyphens, + or parentheses`);
const passCode = z.string().regex(/^[0-9]{4}$/, 'must be exactly 4 half-width digits');

/** Fields that always have a value: null is refused with a message saying why. */
const kept = (what: string) => (issue: { input?: unknown }) => (issue.input === null ? `cannot be cleared; ${what}` : undefined);

const staffName = z
  .string({ error: kept('a staff member needs a name') })
  .pipe(name(STAFF_LIMITS.staffName))
  .meta({ maxLength: STAFF_LIMITS.staffName });
const gender = z.enum(GENDERS, {
  error: (issue) => (issue.input === null ? 'cannot be cleared; send 9 for unselected' : `must be one of ${GENDERS.join(', ')}`),
});
const dashboardType = z.union([z.literal(0), z.literal(1)], {
  error: (issue) => (issue.input === null ? 'cannot be cleared; send 0 or 1' : 'must be the integer 0 or 1'),
});
const flag = z.boolean({ error: (issue) => (issue.input === null ? 'cannot be cleared; send true or false' : 'must be true or false') });
const SEQUENCE_MESSAGE = 'must be an integer from 0 to 999999999';
const displaySequence = z
  .union([z.int().min(0).max(999_999_999), z.literal(''), z.null()], { error: SEQUENCE_MESSAGE })
  .transform((v) => (v === '' ? null : v));

/** Every field of spec 2.3 except staffId; nullable ones are cleared by null or "". */
const writable = {
  staffName,
  staffKana: clearable(katakana).optional(),
  gender: gender.optional(),
  birthday: clearable(date).optional(),
  postCode: clearable(postCode).optional(),
  address: clearable(text(STAFF_LIMITS.address)).optional(),
  phone: clearable(phone).optional(),
  employeeClassificationId: clearable(digits(9)).optional(),
  dashboardType: dashboardType.optional(),
  staffCode: clearable(halfWidthCode(STAFF_LIMITS.staffCode)).optional(),
  hireDate: clearable(date).optional(),
  terminationDate: clearable(date).optional(),
  terminationReason: clearable(text(STAFF_LIMITS.terminationReason)).optional(),
  roleInEmployeeList: clearable(text(STAFF_LIMITS.roleInEmployeeList)).optional(),
  career: clearable(text(STAFF_LIMITS.career)).optional(),
  passCode: clearable(passCode).optional(),
  displaySequence: displaySequence.optional(),
  memo: clearable(text(STAFF_LIMITS.memo)).optional(),
  adminMemo: clearable(text(STAFF_LIMITS.adminMemo)).optional(),
  adminFlag: flag.optional(),
  foreignerFlag: flag.optional(),
  stampScreenDisplayFlag: flag.optional(),
  personalWebStampScreenDisplayFlag: flag.optional(),
};

export const createStaffBody = z.strictObject(writable);
export const updateStaffBody = patchOf(writable);

export const updatedStaff = z.object({ staffId: z.string() }).meta({ id: 'UpdatedStaff' });

export const STAFF_SORT = ['staffId', 'staffCode', 'staffKana', 'displaySequence', 'hireDate'] as const;

export const listStaffsQuery = masterQuery({ staff_code: z.string().optional(), gender: oneOf(GENDERS).optional() }, STAFF_SORT);

/** The staff update's errors have type, title and detail only (spec 4.4). */
export const bareProblem = z
  .object({ type: z.string(), title: z.string(), detail: z.string() })
  .meta({ id: 'ProblemWithoutStatus' });

export type CreateStaff = z.infer<typeof createStaffBody>;
export type UpdateStaff = z.infer<typeof updateStaffBody>;
export type ListStaffsQuery = z.infer<typeof listStaffsQuery>;

export const presentStaff: Presenter<StaffRow, Staff> = presenterOf(staff);

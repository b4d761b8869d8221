import { z } from 'zod';
import { nameCharacterProblem } from '../../domain/text-rules.js';
import { formatDateTime } from '../../domain/time.js';
import { dateTime, id, patchBody, text } from '../../platform/http/fields.js';
import { idParams, pagedQuery } from '../../platform/http/list-schemas.js';
import { RESTAURANT_PAGE } from '../../platform/http/paging.js';

/** Spec 2.4 states; `paid` is set by the payment side only, never by a request. */
export const RESERVATION_STATUSES = ['waiting', 'coming', 'finished', 'paid', 'canceled'] as const;
export const SETTABLE_STATUSES = ['waiting', 'coming', 'finished', 'canceled'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** Spec 2.4: on read the Asia/Tokyo zone applies, whatever offset was saved and whatever the contract zone. */
export const RESERVATION_ZONE = 'Asia/Tokyo';
export const DEFAULT_RESERVED_FROM = 'pos';
export const IMPORTED_RESERVED_FROM = 'external';

const charCount = (s: string) => [...s].length;

/**
 * A name under spec 4.13's character rules, at most `max` characters. With `clearable`,
 * null or "" clears it (stored null).
 */
function personName(max: number, clearable: boolean) {
  const base = clearable ? z.string().nullable() : z.string();
  return base
    .superRefine((s, ctx) => {
      if (s === null || (clearable && s === '')) return;
      const problem = !s.isWellFormed()
        ? 'must be valid Unicode text'
        : charCount(s) > max
          ? `must be at most ${max} characters`
          : nameCharacterProblem(s);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((s) => (s === '' ? null : s))
    .meta({ maxLength: max });
}

const count = z
  .int({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an integer') })
  .min(0, 'must be at least 0')
  .max(9999, 'must be at most 9999');

const persons = z.strictObject({ adults: count, children: count });

const settableStatus = z.enum(SETTABLE_STATUSES, {
  error: (issue) =>
    issue.input === 'paid' ? 'paid is set by the payment side and cannot be sent' : `must be one of ${SETTABLE_STATUSES.join(', ')}`,
});

/** Digits with single hyphens between them, optionally a leading +, at most 20 characters. */
const PHONE = /^\+?\d+(?:-\d+)*$/;
const phoneNumber = z
  .string()
  .nullable()
  .refine((s) => s === null || s === '' || (PHONE.test(s) && s.length <= 20), {
    message: 'must be digits and hyphens with an optional leading +, at most 20 characters (e.g. 03-1234-5678)',
  })
  .transform((s) => (s === '' ? null : s));

const note = z
  .string()
  .nullable()
  .refine((s) => s === null || s.isWellFormed(), { message: 'must be valid Unicode text' })
  .refine((s) => s === null || charCount(s) <= 1000, { message: 'must be at most 1000 characters' })
  .transform((s) => (s === '' ? null : s));

const staff = z
  .strictObject({
    staffId: id(),
    staffName: personName(50, false).nullable().optional().describe("defaults to the staff master's name"),
  })
  .nullable();

const tableIds = z.array(id()).max(50, 'must have at most 50 tables');

const nonBlank = (max: number) => text(max).refine((s) => s.trim().length > 0, { message: 'must not be empty' });

/** Fields both POST and PATCH take (spec 4.13), all optional here. */
const common = {
  startAt: dateTime.optional(),
  endAt: dateTime.optional(),
  persons: persons.nullable().optional(),
  reservationPersonName: personName(50, true).optional(),
  reservationPersonNameKana: personName(50, true).optional(),
  status: settableStatus.optional(),
  tableIds: tableIds.optional(),
  phoneNumber: phoneNumber.optional(),
  staff: staff.optional(),
  note: note.optional(),
  reservedAt: dateTime.optional(),
};

export const createReservationBody = z.strictObject({
  ...common,
  storeId: id(),
  startAt: dateTime,
  endAt: dateTime,
  persons: persons.nullable().describe('null means 0 adults and 0 children (as 4.13)'),
  reservationCode: nonBlank(50).optional().describe('external-system id; a reservation created with it is imported and read-only to PATCH'),
  reservedFrom: nonBlank(50).optional().describe('source; default pos, or external with a reservationCode'),
});

export const updateReservationBody = patchBody(common);

export type CreateReservation = z.infer<typeof createReservationBody>;
export type UpdateReservation = z.infer<typeof updateReservationBody>;

export const reservationParams = idParams('reservation_id');

export const RESERVATION_SORT = ['id', 'storeId', 'startAt', 'endAt', 'reservedAt'] as const;

const reservationFilters = {
  store_id: id().optional(),
  status: z.enum(RESERVATION_STATUSES, { error: () => `must be one of ${RESERVATION_STATUSES.join(', ')}` }).optional(),
  start_at_from: dateTime.optional().describe('startAt at or after'),
  start_at_to: dateTime.optional().describe('startAt at or before'),
};
export const listReservationsQuery = pagedQuery(reservationFilters, RESERVATION_SORT, RESTAURANT_PAGE).refine((q) => !q.start_at_from || !q.start_at_to || Date.parse(q.start_at_from) <= Date.parse(q.start_at_to), {
    message: 'must not be earlier than start_at_from',
    path: ['start_at_to'],
  });

export type ListReservationsQuery = z.infer<typeof listReservationsQuery>;

export const reservation = z
  .object({
    id: z.string(),
    storeId: z.string(),
    reservationCode: z.string().nullable(),
    startAt: z.string().describe('Asia/Tokyo'),
    endAt: z.string().describe('Asia/Tokyo'),
    persons: z.object({ adults: z.int(), children: z.int() }),
    reservationPersonName: z.string().nullable(),
    reservationPersonNameKana: z.string().nullable(),
    status: z.enum(RESERVATION_STATUSES),
    tables: z.array(z.object({ id: z.string(), name: z.string() })),
    phoneNumber: z.string().nullable(),
    staff: z.object({ id: z.string(), name: z.string() }).nullable(),
    note: z.string().nullable(),
    reservedAt: z.string().describe('Asia/Tokyo'),
    reservedFrom: z.string(),
    tableUseId: z.string().nullable(),
  })
  .meta({ id: 'Reservation' });

export type Reservation = z.infer<typeof reservation>;

export interface ReservationRow {
  contract_id: string;
  reservation_id: number;
  store_id: number;
  reservation_code: string | null;
  start_at: number;
  end_at: number;
  adults: number;
  children: number;
  person_name: string | null;
  person_name_kana: string | null;
  status: ReservationStatus;
  phone_number: string | null;
  staff_id: number | null;
  staff_name: string | null;
  note: string | null;
  reserved_at: number;
  reserved_from: string;
  table_use_id: number | null;
  ins_at: number;
  upd_at: number;
}

export function presentReservation(row: ReservationRow, tables: { id: string; name: string }[]): Reservation {
  const at = (ms: number) => formatDateTime(ms, RESERVATION_ZONE);
  return {
    id: String(row.reservation_id),
    storeId: String(row.store_id),
    reservationCode: row.reservation_code,
    startAt: at(row.start_at),
    endAt: at(row.end_at),
    persons: { adults: row.adults, children: row.children },
    reservationPersonName: row.person_name,
    reservationPersonNameKana: row.person_name_kana,
    status: row.status,
    tables,
    phoneNumber: row.phone_number,
    staff: row.staff_id === null ? null : { id: String(row.staff_id), name: row.staff_name ?? '' },
    note: row.note,
    reservedAt: at(row.reserved_at),
    reservedFrom: row.reserved_from,
    tableUseId: row.table_use_id === null ? null : String(row.table_use_id),
  };
}

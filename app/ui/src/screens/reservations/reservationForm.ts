import type { ProblemView } from '../../api/problem';
import type { Reservation } from './useDayData';
import { addDays, wallClock, zonedInstant, zonedIso } from '../../shared/zoned';

/** The form's values: what the inputs hold, as strings. */
export interface FormValues {
  date: string;
  startTime: string;
  endTime: string;
  adults: string;
  children: string;
  name: string;
  nameKana: string;
  phone: string;
  note: string;
  status: Reservation['status'];
  tableIds: string[];
}

export const SETTABLE_STATUSES = ['waiting', 'coming', 'finished', 'canceled'] as const;

export function emptyForm(date: string, tableIds: string[] = []): FormValues {
  // A dinner booking is the common case at the counter.
  return { date, startTime: '18:00', endTime: '20:00', adults: '2', children: '0', name: '', nameKana: '', phone: '', note: '', status: 'waiting', tableIds };
}

export function formOf(r: Reservation, zone: string): FormValues {
  const start = wallClock(Date.parse(r.startAt), zone);
  const end = wallClock(Date.parse(r.endAt), zone);
  return {
    date: start.date,
    startTime: start.time,
    endTime: end.time,
    adults: String(r.persons.adults),
    children: String(r.persons.children),
    name: r.reservationPersonName ?? '',
    nameKana: r.reservationPersonNameKana ?? '',
    phone: r.phoneNumber ?? '',
    note: r.note ?? '',
    status: r.status,
    tableIds: r.tables.map((tb) => tb.id),
  };
}

/** The body keys of POST/PATCH /reservations the form edits. */
export interface ReservationFields {
  startAt: string;
  endAt: string;
  persons: { adults: number; children: number };
  reservationPersonName: string | null;
  reservationPersonNameKana: string | null;
  phoneNumber: string | null;
  note: string | null;
  tableIds: string[];
  status?: (typeof SETTABLE_STATUSES)[number];
}

const COUNT = /^\d{1,4}$/;
const TIME = /^\d{2}:\d{2}$/;

/**
 * Turns the inputs into the API's fields, or field errors for what the API could not even be
 * sent (an empty count or time); everything else is the server's to judge, and its messages are
 * shown on the same fields. An end at or before the start time is on the next day (a party
 * staying past midnight).
 */
export function toFields(v: FormValues, zone: string, words: { count: string; time: string }): { fields: ReservationFields } | { problem: ProblemView } {
  const errors: Record<string, string> = {};
  if (!COUNT.test(v.adults.trim())) errors['persons.adults'] = words.count;
  if (!COUNT.test(v.children.trim())) errors['persons.children'] = words.count;
  if (!TIME.test(v.startTime)) errors.startAt = words.time;
  if (!TIME.test(v.endTime)) errors.endAt = words.time;
  if (!v.date) errors.startAt = words.time;
  if (Object.keys(errors).length) return { problem: { status: 0, title: '', fields: errors, messages: [] } };
  const endDate = v.endTime <= v.startTime ? addDays(v.date, 1) : v.date;
  const fields: ReservationFields = {
    startAt: zonedIso(zonedInstant(v.date, v.startTime, zone), zone),
    endAt: zonedIso(zonedInstant(endDate, v.endTime, zone), zone),
    persons: { adults: Number(v.adults), children: Number(v.children) },
    reservationPersonName: v.name.trim() === '' ? null : v.name,
    reservationPersonNameKana: v.nameKana.trim() === '' ? null : v.nameKana,
    phoneNumber: v.phone.trim() === '' ? null : v.phone.trim(),
    note: v.note === '' ? null : v.note,
    tableIds: v.tableIds,
  };
  if (v.status !== 'paid') fields.status = v.status;
  return { fields };
}

/**
 * A PATCH sends only what changed: the spec's PATCH overwrites the keys sent, and a paid
 * reservation refuses any `status` key, even its own value.
 */
export function changedFields(next: ReservationFields, before: ReservationFields): Partial<ReservationFields> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    const old = (before as unknown as Record<string, unknown>)[key];
    const same = key === 'startAt' || key === 'endAt' ? Date.parse(String(value)) === Date.parse(String(old)) : JSON.stringify(value) === JSON.stringify(old);
    if (!same) out[key] = value;
  }
  return out as Partial<ReservationFields>;
}

/** The fields the form shows errors on; `tableIds[3]` and the like go to the tables fieldset. */
export const FORM_FIELDS = ['startAt', 'endAt', 'persons', 'persons.adults', 'persons.children', 'reservationPersonName', 'reservationPersonNameKana', 'phoneNumber', 'note', 'status', 'tableIds'];

export const tableErrors = (problem: ProblemView | null): string | undefined => {
  if (!problem) return undefined;
  const found = Object.entries(problem.fields).filter(([field]) => field === 'tableIds' || field.startsWith('tableIds['));
  return found.length ? found.map(([, message]) => message).join('; ') : undefined;
};

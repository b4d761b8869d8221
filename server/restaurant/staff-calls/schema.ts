import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { id, oneOf, text } from '../../platform/http/fields.js';
import { idParams, pagedQuery } from '../../platform/http/list-schemas.js';
import { RESTAURANT_PAGE } from '../../platform/http/paging.js';
import type { StaffCallRow } from './repo.js';

/**
 * Staff calls (スタッフ呼び出し): a table asks for staff. POST /staff_calls takes what platform
 * clients send (storeId, tableId, message); the platform publishes no page for it, nor for
 * reading calls, so the list, get and answer operations are ours, named in its style.
 */
export const STAFF_CALL_STATUSES = ['calling', 'answered'] as const;

export const staffCall = z
  .object({
    staffCallId: z.string(),
    storeId: z.string(),
    tableId: z.string().nullable(),
    tableName: z.string().nullable().describe('the table’s name when called'),
    tableUseId: z.string().nullable().describe('the party seated at the table when called'),
    message: z.string(),
    status: z.enum(STAFF_CALL_STATUSES).describe('calling until a staff member answers'),
    sentAt: z.string(),
    answeredAt: z.string().nullable(),
    answeredStaffId: z.string().nullable(),
  })
  .meta({ id: 'StaffCall' });
export type StaffCall = z.infer<typeof staffCall>;

export const staffCallParams = idParams('staff_call_id');

export const createStaffCallBody = z.strictObject({
  storeId: id(),
  tableId: id().optional().describe('the calling table; its started table use is recorded with the call'),
  tableUseId: id().optional().describe('the calling party (a started table use of the store); default: the one at tableId'),
  message: text(200).optional().describe('default: "<table> のお客様がお呼びです" (or without the table)'),
});
export type CreateStaffCall = z.infer<typeof createStaffCallBody>;

export const answerStaffCallBody = z.strictObject({
  status: oneOf(['answered'] as const),
  staffId: id().optional().describe('the staff member who answered'),
});
export type AnswerStaffCall = z.infer<typeof answerStaffCallBody>;

export const STAFF_CALL_SORT = ['sentAt', 'staffCallId'] as const;

export const listStaffCallsQuery = pagedQuery(
  {
    store_id: id().optional(),
    table_id: id().optional(),
    status: oneOf(['all', ...STAFF_CALL_STATUSES] as const).optional().describe('calling (default), answered or all'),
  },
  STAFF_CALL_SORT,
  RESTAURANT_PAGE,
);
export type ListStaffCallsQuery = z.infer<typeof listStaffCallsQuery>;

/** The message a call without one carries. */
export const defaultMessage = (tableName: string | null) => (tableName === null ? 'お客様がお呼びです' : `${tableName} のお客様がお呼びです`);

export function presentStaffCall(row: StaffCallRow, zone: string): StaffCall {
  const idOrNull = (v: number | null) => (v === null ? null : String(v));
  return {
    staffCallId: String(row.staff_call_id),
    storeId: String(row.store_id),
    tableId: idOrNull(row.table_id),
    tableName: row.table_name,
    tableUseId: idOrNull(row.table_use_id),
    message: row.message,
    status: row.status,
    sentAt: formatDateTime(row.sent_at, zone),
    answeredAt: row.answered_at === null ? null : formatDateTime(row.answered_at, zone),
    answeredStaffId: idOrNull(row.answered_by),
  };
}

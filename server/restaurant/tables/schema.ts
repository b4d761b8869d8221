import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { clearable, id, intString, name, patchBody } from '../../platform/http/fields.js';
import { pageQuery, RESTAURANT_PAGE } from '../../platform/http/paging.js';
import type { TableRow } from './repo.js';

/** Seats of one table: a count carried as a string (not typed int by the spec). */
const seatsInput = z.string().regex(/^\d{1,4}$/, 'must be 0 to 9999 as digits');

export const table = z
  .object({
    tableId: z.string(),
    storeId: z.string(),
    name: z.string().describe('unique within the store'),
    seats: z.string().nullable(),
    displaySequence: z.string().nullable().describe('integer-formatted'),
    insDateTime: z.string(),
    updDateTime: z.string(),
  })
  .meta({ id: 'Table' });

export type Table = z.infer<typeof table>;

export const tableParams = z.object({ table_id: id() });

export const createTableBody = z.strictObject({
  storeId: id(),
  name: name(50),
  seats: clearable(seatsInput).optional(),
  displaySequence: clearable(intString).optional(),
});

// A table stays in its store: moving it would orphan the reservations and table uses naming it.
export const updateTableBody = patchBody({
  name: name(50).optional(),
  seats: clearable(seatsInput).optional(),
  displaySequence: clearable(intString).optional(),
});

export const TABLE_SORT = ['tableId', 'storeId', 'name', 'displaySequence'] as const;

export const listTablesQuery = z.strictObject({
  store_id: id().optional(),
  ...pageQuery(TABLE_SORT, RESTAURANT_PAGE),
});

export type CreateTable = z.infer<typeof createTableBody>;
export type UpdateTable = z.infer<typeof updateTableBody>;
export type ListTablesQuery = z.infer<typeof listTablesQuery>;

export function presentTable(row: TableRow, zone: string): Table {
  return {
    tableId: String(row.table_id),
    storeId: String(row.store_id),
    name: row.table_name,
    seats: row.seats === null ? null : String(row.seats),
    displaySequence: row.display_sequence === null ? null : String(row.display_sequence),
    insDateTime: formatDateTime(row.ins_at, zone),
    updDateTime: formatDateTime(row.upd_at, zone),
  };
}

import { z } from 'zod';
import { clearable, id, intString, name } from '../../platform/http/fields.js';
import { idParams, masterRecord, pagedQuery, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import { RESTAURANT_PAGE } from '../../platform/http/paging.js';
import type { TableRow } from './repo.js';

/** Seats of one table: a count carried as a string (not typed int by the spec). */
const seatsInput = z.string().regex(/^\d{1,4}$/, 'must be 0 to 9999 as digits');

export const table = masterRecord('Table', {
  tableId: z.string(),
  storeId: z.string(),
  name: z.string().describe('unique within the store'),
  seats: z.string().nullable(),
  displaySequence: z.string().nullable().describe('integer-formatted'),
});

export type Table = z.infer<typeof table>;

export const tableParams = idParams('table_id');

const fields = { name: name(50), seats: clearable(seatsInput).optional(), displaySequence: clearable(intString).optional() };
export const createTableBody = z.strictObject({ storeId: id(), ...fields });
// A table stays in its store: moving it would orphan the reservations and table uses naming it.
export const updateTableBody = patchOf(fields);

export const TABLE_SORT = ['tableId', 'storeId', 'name', 'displaySequence'] as const;

export const listTablesQuery = pagedQuery({ store_id: id().optional() }, TABLE_SORT, RESTAURANT_PAGE);

export type CreateTable = z.infer<typeof createTableBody>;
export type UpdateTable = z.infer<typeof updateTableBody>;
export type ListTablesQuery = z.infer<typeof listTablesQuery>;

export const presentTable: Presenter<TableRow, Table> = presenterOf(table, {
  name: (row) => row.table_name,
});

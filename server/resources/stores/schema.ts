import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { clearable, halfWidthCode, id, name, oneOf, patchBody } from '../../http/fields.js';
import { pageQuery, POS_PAGE } from '../../http/paging.js';
import type { StoreRow } from './repo.js';

export const DIVISIONS = ['0', '1', '2'] as const; // 0 store, 1 warehouse, 2 order-receiving
export const PAUSE_FLAGS = ['0', '1'] as const; // 0 open, 1 suspended

export const store = z
  .object({
    storeId: z.string(),
    storeName: z.string(),
    storeCode: z.string().nullable(),
    division: z.enum(DIVISIONS).describe('0 store, 1 warehouse, 2 order-receiving store'),
    pauseFlag: z.enum(PAUSE_FLAGS).describe('0 open, 1 suspended'),
    insDateTime: z.string(),
    updDateTime: z.string(),
  })
  .meta({ id: 'Store' });

export type Store = z.infer<typeof store>;

export const storeParams = z.object({ store_id: id() });

export const createStoreBody = z.strictObject({
  storeName: name(85),
  storeCode: clearable(halfWidthCode(20)).optional(),
  division: oneOf(DIVISIONS).optional(),
  pauseFlag: oneOf(PAUSE_FLAGS).optional(),
});

export const updateStoreBody = patchBody({
  storeName: name(85).optional(),
  storeCode: clearable(halfWidthCode(20)).optional(),
  division: oneOf(DIVISIONS).optional(),
  pauseFlag: oneOf(PAUSE_FLAGS).optional(),
});

export const STORE_SORT = ['storeId', 'storeCode', 'storeName', 'division'] as const;

export const listStoresQuery = z.strictObject({
  store_code: z.string().optional(),
  division: oneOf(DIVISIONS).optional(),
  pause_flag: oneOf(PAUSE_FLAGS).optional(),
  ...pageQuery(STORE_SORT, POS_PAGE),
});

export type CreateStore = z.infer<typeof createStoreBody>;
export type UpdateStore = z.infer<typeof updateStoreBody>;
export type ListStoresQuery = z.infer<typeof listStoresQuery>;

export function presentStore(row: StoreRow, zone: string): Store {
  return {
    storeId: String(row.store_id),
    storeName: row.store_name,
    storeCode: row.store_code,
    division: row.division,
    pauseFlag: row.pause_flag,
    insDateTime: formatDateTime(row.ins_at, zone),
    updDateTime: formatDateTime(row.upd_at, zone),
  };
}

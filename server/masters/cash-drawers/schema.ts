import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { id, name, oneOf, patchBody } from '../../platform/http/fields.js';
import { masterListQuery, POS_PAGE } from '../../platform/http/paging.js';
import type { CashDrawerRow } from './repo.js';

export const USE_STOP_DIVISIONS = ['0', '1'] as const; // 0 use, 1 do not use

export const cashDrawer = z
  .object({
    cashDrawerId: z.string(),
    storeId: z.string(),
    cashDrawerName: z.string(),
    useStopDivision: z.enum(USE_STOP_DIVISIONS).describe('0 use, 1 do not use; terminals may link only usable drawers'),
    insDateTime: z.string(),
    updDateTime: z.string(),
  })
  .meta({ id: 'CashDrawer' });

export type CashDrawer = z.infer<typeof cashDrawer>;

export const cashDrawerParams = z.object({ cash_drawer_id: id() });

export const createCashDrawerBody = z.strictObject({
  storeId: id(),
  cashDrawerName: name(85),
  useStopDivision: oneOf(USE_STOP_DIVISIONS).optional(),
});

export const updateCashDrawerBody = patchBody({
  storeId: id().optional(),
  cashDrawerName: name(85).optional(),
  useStopDivision: oneOf(USE_STOP_DIVISIONS).optional(),
});

export const CASH_DRAWER_SORT = ['cashDrawerId', 'storeId', 'cashDrawerName', 'updDateTime'] as const;

export const listCashDrawersQuery = z.strictObject({
  store_id: id().optional(),
  use_stop_division: oneOf(USE_STOP_DIVISIONS).optional(),
  ...masterListQuery(CASH_DRAWER_SORT, POS_PAGE),
});

export type CreateCashDrawer = z.infer<typeof createCashDrawerBody>;
export type UpdateCashDrawer = z.infer<typeof updateCashDrawerBody>;
export type ListCashDrawersQuery = z.infer<typeof listCashDrawersQuery>;

export function presentCashDrawer(row: CashDrawerRow, zone: string): CashDrawer {
  return {
    cashDrawerId: String(row.cash_drawer_id),
    storeId: String(row.store_id),
    cashDrawerName: row.cash_drawer_name,
    useStopDivision: row.use_stop_division,
    insDateTime: formatDateTime(row.ins_at, zone),
    updDateTime: formatDateTime(row.upd_at, zone),
  };
}

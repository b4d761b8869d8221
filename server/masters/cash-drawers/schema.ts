import { z } from 'zod';
import { id, name, oneOf } from '../../platform/http/fields.js';
import { idParams, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { CashDrawerRow } from './repo.js';

export const USE_STOP_DIVISIONS = ['0', '1'] as const; // 0 use, 1 do not use

export const cashDrawer = masterRecord('CashDrawer', {
  cashDrawerId: z.string(),
  storeId: z.string(),
  cashDrawerName: z.string(),
  useStopDivision: z.enum(USE_STOP_DIVISIONS).describe('0 use, 1 do not use; terminals may link only usable drawers'),
});

export type CashDrawer = z.infer<typeof cashDrawer>;

export const cashDrawerParams = idParams('cash_drawer_id');

const fields = { storeId: id(), cashDrawerName: name(85), useStopDivision: oneOf(USE_STOP_DIVISIONS).optional() };
export const createCashDrawerBody = z.strictObject(fields);
export const updateCashDrawerBody = patchOf(fields);

export const CASH_DRAWER_SORT = ['cashDrawerId', 'storeId', 'cashDrawerName', 'updDateTime'] as const;
export const listCashDrawersQuery = masterQuery({ store_id: id().optional(), use_stop_division: oneOf(USE_STOP_DIVISIONS).optional() }, CASH_DRAWER_SORT);

export type CreateCashDrawer = z.infer<typeof createCashDrawerBody>;
export type UpdateCashDrawer = z.infer<typeof updateCashDrawerBody>;
export type ListCashDrawersQuery = z.infer<typeof listCashDrawersQuery>;

export const presentCashDrawer: Presenter<CashDrawerRow, CashDrawer> = presenterOf(cashDrawer);

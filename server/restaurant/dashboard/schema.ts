import { z } from 'zod';
import { id } from '../../platform/http/fields.js';
import { pageQuery, RESTAURANT_PAGE } from '../../platform/http/paging.js';
import { tableUseRecord } from '../table-uses/schema.js';

/**
 * 店舗の営業状況取得 (GET /dashboard/stores/{store_id}): the store's tables, a page of them, each
 * with the table use seated there (only while one is). Exactly the platform's fields.
 */
export const dashboardParams = z.object({ store_id: id() });

/** sort_no: the tables' display order; category: by table category (this server's tables have none, so the same order). */
export const DASHBOARD_SORT = ['sort_no', 'category'] as const;

export const dashboardQuery = z.strictObject(pageQuery(DASHBOARD_SORT, RESTAURANT_PAGE));
export type DashboardQuery = z.infer<typeof dashboardQuery>;

const dashboardTable = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string().nullable().describe('table category; this server’s tables have none: null'),
  sortNo: z.int().nullable().describe('the table’s displaySequence'),
});

export const dashboard = z
  .object({
    time: z.string().describe('now'),
    count: z.int().describe('tables in this answer'),
    total: z.int().describe('tables of the store'),
    page: z.int(),
    tables: z.array(
      z.object({
        table: dashboardTable,
        tableUse: tableUseRecord.optional().describe('the table use seated at the table; absent while the table is free'),
      }),
    ),
  })
  .meta({ id: 'StoreDashboard' });
export type Dashboard = z.infer<typeof dashboard>;

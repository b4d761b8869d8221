import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { orderBy } from '../../db/sql.js';
import { NotFoundError } from '../../domain/errors.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { fetchSize, offsetOf } from '../../platform/http/paging.js';
import { getWaiterCategoryQuery, listWaiterCategoriesQuery, waiterCategory, waiterCategoryParams, waiterCategoryParent, type WaiterCategory } from './schema.js';

interface CategoryRow {
  category_id: number;
  category_name: string;
  category_abbr: string | null;
  display_sequence: number | null;
  parent_category_id: number | null;
}

const COLUMNS = 'category_id, category_name, category_abbr, display_sequence, parent_category_id';
const SORT_COLUMNS = { sort_no: 'display_sequence', id: 'category_id' };
const LEVELS = { none: '', '1': 'AND parent_category_id IS NULL', '2': 'AND parent_category_id IS NOT NULL' } as const;

const present = (row: CategoryRow): WaiterCategory => ({
  id: String(row.category_id),
  name: row.category_name,
  abbr: row.category_abbr,
  sortNo: row.display_sequence,
  parentId: row.parent_category_id === null ? null : String(row.parent_category_id),
  createdIn: 'pos',
});

/**
 * GET /categories and /categories/{category_id} under /waiter only (waiter.menus:read): the POS
 * categories in the waiter's shape. Registered on the waiter base alone, since /pos/categories is
 * the category master.
 */
export default function waiterCategoriesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const one = deps.db.prepare(`SELECT ${COLUMNS} FROM categories WHERE contract_id = ? AND category_id = ?`);
  const children = deps.db.prepare(
    `SELECT ${COLUMNS} FROM categories WHERE contract_id = ? AND parent_category_id = ? ORDER BY display_sequence IS NULL, display_sequence, category_id`,
  );
  return async (app) => {
    const route = apiRoutes(app, ['categories (waiter)']);
    route.get(
      '/categories',
      'waiter.menus:read',
      { summary: 'List categories as the ordering side reads them (カテゴリー一覧取得)', querystring: listWaiterCategoriesQuery, response: answers.list(waiterCategory) },
      ({ contract, query, page }) => {
        const sort = query.sort.length ? query.sort : [{ field: 'sort_no' as const, desc: false }];
        const sql = `SELECT ${COLUMNS} FROM categories WHERE contract_id = ? ${LEVELS[query.level ?? 'none']} ${orderBy(sort, SORT_COLUMNS, 'category_id')} LIMIT ? OFFSET ?`;
        return page(deps.db.prepare(sql).all(contract.contractId, fetchSize(query), offsetOf(query)) as CategoryRow[], present);
      },
    );
    route.get(
      '/categories/:category_id',
      'waiter.menus:read',
      { summary: 'Get a category, with its children on request (カテゴリー取得)', params: waiterCategoryParams, querystring: getWaiterCategoryQuery, response: answers.found(waiterCategoryParent) },
      ({ contract, params, query }) => {
        const row = one.get(contract.contractId, params.category_id) as CategoryRow | undefined;
        if (!row) throw NotFoundError.field('category_id', `category ${params.category_id} does not exist`);
        if (query.with_children !== 'all') return present(row);
        return { ...present(row), children: (children.all(contract.contractId, row.category_id) as CategoryRow[]).map(present) };
      },
    );
  };
}

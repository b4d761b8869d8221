import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { NotFoundError } from '../../domain/errors.js';
import { formatDateTime } from '../../domain/time.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { TableUseRepo } from '../orders/table-uses.js';
import { presentTableUseRecord } from '../table-uses/present.js';
import { TableUseBook, type TableUseHistoryRow } from '../table-uses/repo.js';
import { dashboard, dashboardParams, dashboardQuery, type Dashboard } from './schema.js';

interface TableAtUse {
  table_id: number;
  table_name: string;
  display_sequence: number | null;
  table_use_id: number | null;
}

/** GET /dashboard/stores/{store_id}: the store's tables and who sits at them now (waiter.orders:read). */
export default function dashboardRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const stores = new StoreRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const uses = new TableUseRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const book = new TableUseBook(deps.db, deps.writer);
  const count = deps.db.prepare('SELECT count(*) AS n FROM dining_tables WHERE contract_id = ? AND store_id = ?');
  // Tables in display order (unnumbered last, then by id; :desc reverses it), each with its started table use if any.
  const tablesIn = (dir: 'ASC' | 'DESC') =>
    deps.db.prepare(
      `SELECT t.table_id, t.table_name, t.display_sequence,
         (SELECT u.table_use_id FROM table_use_tables ut JOIN table_uses u USING (contract_id, table_use_id)
           WHERE ut.contract_id = t.contract_id AND ut.table_id = t.table_id AND u.status = 'started' LIMIT 1) AS table_use_id
       FROM dining_tables t WHERE t.contract_id = ? AND t.store_id = ?
       ORDER BY t.display_sequence IS NULL ${dir}, t.display_sequence ${dir}, t.table_id ${dir} LIMIT ? OFFSET ?`,
    );
  const tables = { ASC: tablesIn('ASC'), DESC: tablesIn('DESC') };

  return async (app) => {
    const route = apiRoutes(app, ['dashboard']);
    route.get(
      '/dashboard/stores/:store_id',
      'waiter.orders:read',
      { summary: "A store's tables and the parties seated at them now (店舗の営業状況取得)", params: dashboardParams, querystring: dashboardQuery, response: answers.found(dashboard) },
      ({ contract, params, query }): Dashboard => {
        const cid = contract.contractId;
        const store = stores.find(cid, params.store_id);
        if (!store) throw NotFoundError.field('store_id', `store ${params.store_id} does not exist`);
        const rows = tables[query.sort[0]?.desc ? 'DESC' : 'ASC'].all(cid, store.store_id, query.limit, (query.page - 1) * query.limit) as TableAtUse[];
        const useIds = [...new Set(rows.flatMap((r) => (r.table_use_id === null ? [] : [r.table_use_id])))];
        const useRows = useIds.map((u) => book.find(cid, u)!) as TableUseHistoryRow[];
        const plain = uses.presentMany(cid, useIds);
        const extras = book.extras(cid, useRows);
        const records = new Map(useRows.map((u) => [u.table_use_id, presentTableUseRecord(u, plain.get(u.table_use_id)!, extras, contract.timeZone)]));
        return {
          time: formatDateTime(deps.clock.now().getTime(), contract.timeZone),
          count: rows.length,
          total: (count.get(cid, store.store_id) as { n: number }).n,
          page: query.page,
          tables: rows.map((r) => ({
            table: { id: String(r.table_id), name: r.table_name, category: null, sortNo: r.display_sequence },
            ...(r.table_use_id === null ? {} : { tableUse: records.get(r.table_use_id)! }),
          })),
        };
      },
    );
  };
}

// The benchmark scenarios. Each names what our server is loaded with and the bare baseline
// that answers the same data with plain Fastify + better-sqlite3. Later issues append theirs
// (GET /menu_conditions/..., POST /transactions, ...).
//
//   name     what --only selects and what results/latest-<name>.json is called
//   title    what the report prints
//   extra    true: run only when named by --only or with --all
//   target   the ratio ours/bare to reach (default 0.6 in run.mjs)
//   sameBody true: the first answers of both servers must be byte for byte the same, or the run fails
//   ours(ctx)  runs in the `ours` child after the server listens. ctx: { app, deps,
//            contractId, token, authHeaders, api(method, path, body) } where api calls
//            /{contract}/pos{path} with the token and returns the JSON body (throws unless 2xx).
//            Creates the scenario's data through the API and returns the request to load.
//   bare(ctx)  runs in the `bare` child before it listens. ctx: { app (a plain fastify()),
//            db (migrated, contract row inserted), contractId, now }. Inserts the same data
//            with plain SQL, adds the one route and returns the request to load.
//
// A request is { method, path, headers?, body? } (body a string), as autocannon takes it.
// Each child answers its request once with a 2xx before the load starts, or the run fails.

import { linkedSalesScenario, salesScenario } from './sales.mjs';

const CATEGORY = { categoryName: 'Bench category', categoryCode: 'BENCH1' };
const STORE = { storeName: 'Bench' };

/** A bare GET-by-primary-key route: `SELECT *` and the row as JSON, 404 when absent. */
function bareGetByKey(ctx, { url, table, key }) {
  const byId = ctx.db.prepare(`SELECT * FROM ${table} WHERE contract_id = ? AND ${key} = ?`);
  ctx.app.get(url, async (request, reply) => {
    const row = byId.get(ctx.contractId, request.params.id);
    if (!row) return reply.code(404).send({ error: 'not found' });
    return row;
  });
}

const MENU_COUNT = 2000;
const MENU_PAGE = 100;

/**
 * The menus of the menu-conditions scenario, the same in both servers: mostly normal, some
 * plans and standard courses, some simple courses (never listed), some counted, some soldout.
 * Menu i gets id (i + 1) * 1000 + 1, what the allocator mints on node 1 (DESIGN §4).
 */
function benchMenu(i) {
  const menuType = i % 50 === 7 ? 'plan' : i % 25 === 3 || i % 40 === 11 ? 'course' : 'normal';
  const courseDivision = menuType !== 'course' ? null : i % 40 === 11 ? 'simple' : 'standard';
  const quantity = i % 10 === 0 ? (i / 10) % 5 : null;
  const condition = quantity === 0 || i % 13 === 0 ? 'soldout' : 'orderable';
  return { menuId: (i + 1) * 1000 + 1, menuName: `Menu ${i}`, menuType, courseDivision, quantity, condition };
}

export const scenarios = [
  {
    name: 'categories',
    title: 'GET /{contract}/pos/categories/{id}',
    async ours(ctx) {
      const created = await ctx.api('POST', '/categories', CATEGORY);
      return { method: 'GET', path: `/${ctx.contractId}/pos/categories/${created.categoryId}`, headers: ctx.authHeaders };
    },
    bare(ctx) {
      const id = 1001; // what the allocator mints first on node 1
      ctx.db
        .prepare(
          `INSERT INTO categories (contract_id, category_id, category_code, category_name, ins_at, upd_at)
           VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(ctx.contractId, id, CATEGORY.categoryCode, CATEGORY.categoryName, ctx.now, ctx.now);
      bareGetByKey(ctx, { url: '/cat/:id', table: 'categories', key: 'category_id' });
      return { method: 'GET', path: `/cat/${id}` };
    },
  },
  {
    // Same shape as categories on a resource that existed first; a second data point,
    // not run by default (--only stores or --all).
    name: 'stores',
    extra: true,
    title: 'GET /{contract}/pos/stores/{id}',
    async ours(ctx) {
      const created = await ctx.api('POST', '/stores', STORE);
      return { method: 'GET', path: `/${ctx.contractId}/pos/stores/${created.storeId}`, headers: ctx.authHeaders };
    },
    bare(ctx) {
      const id = 1001;
      ctx.db
        .prepare("INSERT INTO stores (contract_id, store_id, store_name, division, ins_at, upd_at) VALUES (?, ?, ?, '1', ?, ?)")
        .run(ctx.contractId, id, STORE.storeName, ctx.now, ctx.now);
      bareGetByKey(ctx, { url: '/store/:id', table: 'stores', key: 'store_id' });
      return { method: 'GET', path: `/store/${id}` };
    },
  },
  {
    // Spec 4.6: one page of 100 sale conditions of a store with 2,000 menus.
    name: 'menu-conditions',
    title: `GET /{contract}/pos/menu_conditions/stores/{id}?limit=${MENU_PAGE} (${MENU_COUNT} menus)`,
    target: 0.5,
    sameBody: true,
    async ours(ctx) {
      const { storeId } = await ctx.api('POST', '/stores', STORE);
      // 2,000 POSTs would take longer than a server may need to start; the same repo that
      // POST /menus and PUT /menu_conditions call writes them in one transaction instead.
      const { MenuRepo } = await import('../../dist/server/restaurant/menus/repo.js');
      const { deps } = ctx;
      const menus = new MenuRepo(deps.db, deps.writer, deps.ids, deps.clock);
      deps.writer.write(() => {
        for (let i = 0; i < MENU_COUNT; i++) {
          const m = benchMenu(i);
          const input = { storeId, menuName: m.menuName, menuType: m.menuType, ...(m.courseDivision ? { courseDivision: m.courseDivision } : {}) };
          const row = menus.create(ctx.contractId, input);
          if (row.menu_id !== m.menuId) throw new Error(`menu ${i} got id ${row.menu_id}, expected ${m.menuId}`);
          if (m.quantity !== null || m.condition !== 'orderable') {
            menus.setCondition(ctx.contractId, storeId, String(row.menu_id), { condition: m.condition, quantity: m.quantity });
          }
        }
      });
      return { method: 'GET', path: `/${ctx.contractId}/pos/menu_conditions/stores/${storeId}?limit=${MENU_PAGE}`, headers: ctx.authHeaders };
    },
    bare(ctx) {
      const storeId = 1001;
      ctx.db
        .prepare("INSERT INTO stores (contract_id, store_id, store_name, division, ins_at, upd_at) VALUES (?, ?, ?, '1', ?, ?)")
        .run(ctx.contractId, storeId, STORE.storeName, ctx.now, ctx.now);
      const insert = ctx.db.prepare(
        `INSERT INTO menus (contract_id, menu_id, store_id, menu_name, menu_type, course_division, condition, quantity, condition_at, ins_at, upd_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      ctx.db.transaction(() => {
        for (let i = 0; i < MENU_COUNT; i++) {
          const m = benchMenu(i);
          insert.run(ctx.contractId, m.menuId, storeId, m.menuName, m.menuType, m.courseDivision, m.condition, m.quantity, ctx.now, ctx.now, ctx.now);
        }
      })();
      // The same page as ours: listed menus (no simple course) in menu_id order, one look-ahead
      // row for the next link, items {menuId, condition, quantity}.
      const page = ctx.db.prepare(
        `SELECT menu_id, condition, quantity FROM menus
         WHERE contract_id = ? AND store_id = ? AND (course_division IS NULL OR course_division = 'standard')
         ORDER BY menu_id ASC LIMIT ? OFFSET ?`,
      );
      ctx.app.get('/mc/:id', async (request, reply) => {
        const limit = Number(request.query.limit ?? 20);
        const rows = page.all(ctx.contractId, request.params.id, limit + 1, 0);
        if (rows.length > limit) reply.header('link', `<http://${request.host}/mc/${request.params.id}?limit=${limit}&page=2>; rel="next"`);
        return rows.slice(0, limit).map((r) => ({ menuId: String(r.menu_id), condition: r.condition, quantity: r.quantity }));
      });
      return { method: 'GET', path: `/mc/${storeId}?limit=${MENU_PAGE}` };
    },
  },
  salesScenario,
  linkedSalesScenario,
];

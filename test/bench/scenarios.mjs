// The benchmark scenarios. Each names what our server is loaded with and the bare baseline
// that answers the same data with plain Fastify + better-sqlite3. Later issues append theirs
// (GET /menu_conditions/..., POST /transactions, ...).
//
//   name     what --only selects and what results/latest-<name>.json is called
//   title    what the report prints
//   extra    true: run only when named by --only or with --all
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
        .prepare('INSERT INTO stores (contract_id, store_id, store_name, ins_at, upd_at) VALUES (?, ?, ?, ?, ?)')
        .run(ctx.contractId, id, STORE.storeName, ctx.now, ctx.now);
      bareGetByKey(ctx, { url: '/store/:id', table: 'stores', key: 'store_id' });
      return { method: 'GET', path: `/store/${id}` };
    },
  },
];

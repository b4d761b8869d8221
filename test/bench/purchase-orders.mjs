// Benchmark: a purchase order registration (POST /purchase_orders, spec 4.14) of 1,000 products
// × 3 delivery stores, against the raw inserts of the same rows in the same run. Target: ours at
// most 3 × raw. Each round times, in process (app.inject, the body already serialized), the
// whole request: token check, body validation, the masters' checks, the writes with their
// outbox row, the answer of 4,004 rows, and the order's storages (one per delivery store, 1,000
// details each, with their outbox rows). Then it times the raw baseline on the same file: the
// same 1 + 1,000 + 3,000 + 3 order rows and 3 + 3,000 storage rows inserted with prepared
// statements in one transaction, nothing else (no checks, no id allocator, no outbox, no answer).
//
//   npm run bench                                (runs this after the other benchmarks)
//   node test/bench/purchase-orders.mjs --rounds 9 [--settings] [--dist dist]
//
// --settings gives every product ordering settings at every delivery store, with an order limit,
// so each round also checks the limits against the expected arrivals: between rounds (untimed)
// the orders before the newest are received (status 4), so each request counts one open order
// of every product and store over a growing history. The raw rows go to a contract of their own
// so they never count as open orders of ours.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const PRODUCTS = 1000;
const STORES = 3;
const TARGET_RATIO = 3;

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '9' }, settings: { type: 'boolean', default: false }, dist: { type: 'string', default: 'dist' } },
});
const ROUNDS = Number(values.rounds);
if (!(ROUNDS >= 1)) throw new Error('--rounds must be at least 1');
const DIST = pathToFileURL(resolve(import.meta.dirname, '../..', values.dist, 'server')).href;

const { openDeps } = await import(`${DIST}/deps.js`);
const { buildApp } = await import(`${DIST}/app.js`);
// Served as main.js serves it: with the sync module (outbox rows in every write).
const { syncModule } = await import(`${DIST}/../sync/module.js`);
const { ContractRepo } = await import(`${DIST}/platform/contracts/repo.js`);
const { AuthRepo } = await import(`${DIST}/platform/auth/repo.js`);
const { ProductRepo } = await import(`${DIST}/masters/products/repo.js`);
const { ALL_SCOPES } = await import(`${DIST}/platform/http/scopes.js`);

const dir = mkdtempSync(join(tmpdir(), 'pos-bench-purchase-orders-'));
const deps = openDeps({ file: join(dir, 'orders.sqlite'), role: 'store' });
const CONTRACT = 'bench';
const RAW = 'bench-raw';
try {
  const contracts = new ContractRepo(deps.db, deps.writer, deps.clock);
  contracts.create({ contractId: CONTRACT, name: 'Bench contract', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
  contracts.create({ contractId: RAW, name: 'Raw rows', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
  new AuthRepo(deps.db, deps.writer, deps.clock).createClient({ clientId: 'bench', contractId: CONTRACT, secret: 'bench-secret-0123456789', scopes: ALL_SCOPES });
  const app = await buildApp(deps, [syncModule]);
  const token = (
    await app.inject({ method: 'POST', url: `/app/${CONTRACT}/token`, payload: 'grant_type=client_credentials', headers: { authorization: `Basic ${Buffer.from('bench:bench-secret-0123456789').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' } })
  ).json().access_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const api = async (method, path, body) => {
    const res = await app.inject({ method, url: `/${CONTRACT}/pos${path}`, headers, ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }) });
    if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body.slice(0, 500)}`);
    return res;
  };

  // The masters: stores and a category through the API, 1,000 products through the product
  // repo (the same rows the API writes; 1,000 POSTs would only slow the setup).
  const storeIds = [];
  for (let i = 0; i < STORES; i++) storeIds.push((await api('POST', '/stores', { storeName: `Store ${i + 1}` })).json().storeId);
  const { categoryId } = (await api('POST', '/categories', { categoryName: 'Bench goods' })).json();
  const products = new ProductRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const productIds = [];
  for (let i = 0; i < PRODUCTS; i++) {
    productIds.push(String(products.create(CONTRACT, { categoryId, productCode: `B${i}`, productName: `Item ${i}`, price: '1100', cost: '480.5' }).row.product_id));
  }
  if (values.settings) {
    const now = Date.now();
    const insert = deps.db.prepare(
      `INSERT INTO product_order_settings (contract_id, product_id, store_id, orderable, order_hidden, order_limit, ins_at, upd_at) VALUES (?, ?, ?, '1', '0', ?, ?, ?)`,
    );
    deps.db.transaction(() => {
      for (const p of productIds) for (const s of storeIds) insert.run(CONTRACT, Number(p), Number(s), 1_000_000, now, now);
    })();
  }

  const body = JSON.stringify({
    orderSourceStoreId: storeIds[0],
    orderStaffName: 'Bench',
    status: '2',
    memo: 'weekly order',
    products: productIds.map((productId, i) => ({ productId, deliveryStore: storeIds.map((storeId, j) => ({ storeId, quantity: String(1 + ((i + j) % 9)) })) })),
    stores: storeIds.map((storageStoreId) => ({ storageStoreId })),
  });

  // The raw baseline: the same rows (values as the registration stores them), in a contract of
  // their own, under ids of a range the allocator never reaches in this run.
  const raw = {
    order: deps.db.prepare(
      `INSERT INTO purchase_orders (contract_id, storage_info_id, recipient_order_id, order_source_store_id, order_staff_name, division_unit,
         category_group_id, ordered_date, memo, identification_no, rounding_division, status, staff_id, ins_at, upd_at)
       VALUES (?, ?, NULL, ?, 'Bench', '0', NULL, ?, 'weekly order', NULL, '1', '2', NULL, ?, ?)`,
    ),
    product: deps.db.prepare(
      `INSERT INTO purchase_order_products (contract_id, storage_info_product_id, storage_info_id, product_id, tax_rate, cost, tax_division, quantity, ins_at, upd_at)
       VALUES (?, ?, ?, ?, '10', '480.5', '0', ?, ?, ?)`,
    ),
    delivery: deps.db.prepare(
      `INSERT INTO purchase_order_delivery_products (contract_id, storage_info_delivery_product_id, storage_info_product_id, storage_info_id, product_id, store_id, quantity)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    store: deps.db.prepare(
      `INSERT INTO purchase_order_stores (contract_id, storage_info_delivery_id, storage_info_id, storage_store_id, storage_expected_date_from, storage_expected_date_to, ins_at, upd_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    storage: deps.db.prepare(
      `INSERT INTO storages (contract_id, storage_id, storage_info_id, supplier_id, storage_store_id, storage_expected_date_from, storage_expected_date_to,
         storage_date, memo, staff_id, identification_no, rounding_division, status, stored_at, ins_at, upd_at)
       VALUES (?, ?, ?, NULL, ?, ?, ?, NULL, 'weekly order', NULL, NULL, '1', '0', NULL, ?, ?)`,
    ),
    storageDetail: deps.db.prepare(
      `INSERT INTO storage_details (contract_id, storage_id, storage_detail_id, storage_info_id, product_id, tax_rate, cost, scheduled_quantity,
         inspection_quantity, stockout_quantity, stockout_reason, inspection_date, number_memo, date_memo, compulsory_complete_flag, ins_at, upd_at)
       VALUES (?, ?, ?, ?, ?, '10', '480.5', ?, NULL, NULL, NULL, NULL, NULL, NULL, '0', ?, ?)`,
    ),
  };
  let rawId = 900_000_000;
  const rawInsert = () =>
    deps.db.transaction(() => {
      const now = Date.now();
      const orderId = rawId++;
      raw.order.run(RAW, orderId, Number(storeIds[0]), '2026-11-22', now, now);
      for (const s of storeIds) raw.store.run(RAW, rawId++, orderId, Number(s), '2026-11-22', '2026-11-22', now, now);
      productIds.forEach((p, i) => {
        const productRowId = rawId++;
        const quantities = storeIds.map((_, j) => 1 + ((i + j) % 9));
        raw.product.run(RAW, productRowId, orderId, Number(p), quantities.reduce((a, b) => a + b, 0), now, now);
        storeIds.forEach((s, j) => raw.delivery.run(RAW, rawId++, productRowId, orderId, Number(p), Number(s), quantities[j]));
      });
      // The storages an order placed makes: one per delivery store with its products.
      storeIds.forEach((s, j) => {
        const storageId = rawId++;
        raw.storage.run(RAW, storageId, orderId, Number(s), '2026-11-22', '2026-11-22', now, now);
        productIds.forEach((p, i) => raw.storageDetail.run(RAW, storageId, rawId++, orderId, Number(p), 1 + ((i + j) % 9), now, now));
      });
    })();

  // Orders before the newest are received (status 4): their quantities no longer count.
  const receive = deps.db.prepare(
    `UPDATE purchase_orders SET status = '4' WHERE contract_id = ? AND status = '2'
       AND storage_info_id <> (SELECT max(storage_info_id) FROM purchase_orders WHERE contract_id = ?)`,
  );
  const between = () => values.settings && receive.run(CONTRACT, CONTRACT);

  // One unmeasured round of each warms the statement caches and the JIT.
  await api('POST', '/purchase_orders', body);
  rawInsert();

  const ours = [];
  const bare = [];
  let answerBytes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let start = process.hrtime.bigint();
    const res = await api('POST', '/purchase_orders', body);
    ours.push(Number(process.hrtime.bigint() - start) / 1e6);
    answerBytes = res.rawPayload.length;
    const answer = res.json();
    if (answer.products.length !== PRODUCTS || answer.stores.length !== STORES) throw new Error('the answer lacks rows');

    start = process.hrtime.bigint();
    rawInsert();
    bare.push(Number(process.hrtime.bigint() - start) / 1e6);
    between();
  }
  const rows = (contract) => deps.db.prepare('SELECT count(*) FROM purchase_order_delivery_products WHERE contract_id = ?').pluck().get(contract);
  if (rows(CONTRACT) !== (ROUNDS + 1) * PRODUCTS * STORES || rows(RAW) !== rows(CONTRACT)) throw new Error(`${rows(CONTRACT)} and ${rows(RAW)} delivery rows, expected ${(ROUNDS + 1) * PRODUCTS * STORES} each`);

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ms = (x) => x.toFixed(1);
  const ratio = median(ours) / median(bare);
  console.log(
    `\n[purchase-orders] POST /{contract}/pos/purchase_orders, ${PRODUCTS.toLocaleString('en')} products × ${STORES} delivery stores` +
      ` (${(body.length / 1024).toFixed(0)} KiB body, ${(answerBytes / 1024).toFixed(0)} KiB answer)${values.settings ? ', with ordering settings and limits' : ''}, ${ROUNDS} round(s)`,
  );
  console.log(`  ours: ${ours.map(ms).join(', ')} ms  (median ${ms(median(ours))} ms; in process, the whole request)`);
  console.log(`  raw:  ${bare.map(ms).join(', ')} ms  (median ${ms(median(bare))} ms; the same ${1 + PRODUCTS + PRODUCTS * STORES + STORES + STORES * (1 + PRODUCTS)} rows, prepared inserts, one transaction)`);
  console.log(`  ratio ours/raw: ${ratio.toFixed(2)}; target: at most ${TARGET_RATIO} -> ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`);
  await app.close();
  if (ratio > TARGET_RATIO) process.exitCode = 2;
} finally {
  deps.db.close();
  rmSync(dir, { recursive: true, force: true });
}

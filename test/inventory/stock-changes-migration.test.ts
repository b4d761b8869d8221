import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../server/db/migrate.js';
import { openDatabase, type Sqlite } from '../../server/db/open.js';

/** A database written before migration 0030: stock movements with our own causes. */
describe("migration 0030: stock movements take the platform's stock divisions", () => {
  let dir: string;
  let db: Sqlite;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pos-stock-changes-'));
    db = openDatabase(join(dir, 'pos.sqlite'));
    migrate(db, loadMigrations().filter((m) => m.version < 30));
    db.prepare("INSERT INTO contracts (contract_id, name, plan, created_at, updated_at) VALUES ('c', 'Old shop', 'retail_business', 0, 0)").run();
    db.prepare(
      `INSERT INTO products (contract_id, product_id, product_code, product_name, category_id, price_units, cost_units, tax_division, ins_at, upd_at)
       VALUES ('c', 11, 'TEA', 'Tea', 1, 300000, 120500, '1', 0, 0), ('c', 12, 'CAKE', 'Cake', 1, 500000, NULL, '0', 0, 0)`,
    ).run();
    db.prepare(
      `INSERT INTO shippings (contract_id, shipping_id, shipping_store_id, receiving_store_id, receiving_expected_date_from, receiving_expected_date_to,
         shipping_date, status, approval_status, ins_at, upd_at)
       VALUES ('c', 5001, 1, 2, '2026-11-22', '2026-11-23', '2026-11-22', '3', '1', 0, 0)`,
    ).run();
    const insert = db.prepare(
      `INSERT INTO stock_movements (contract_id, movement_id, store_id, product_id, cause, delta, amount_after, memo, transaction_head_id, shipping_id,
         shipment_id, client_id, staff_id, moved_at)
       VALUES ('c', @id, @store, @product, @cause, @delta, @after, @memo, @transaction, @shipping, @shipment, @client, @staff, @at)`,
    );
    const row = { memo: null, transaction: null, shipping: null, shipment: null, client: null, staff: null, store: 1, product: 11, at: 1000 };
    insert.run({ ...row, id: 1001, cause: 'manual_set', delta: '10', after: '10', memo: 'opening', client: 'backoffice-ui:c', staff: 7 });
    insert.run({ ...row, id: 2001, cause: 'manual_add', delta: '1', after: '11', client: 'partner-app' });
    insert.run({ ...row, id: 3001, cause: 'bulk_add', delta: '2', after: '13', client: 'partner-app' });
    insert.run({ ...row, id: 4001, cause: 'sale', delta: '-3', after: '10', transaction: 9001 });
    insert.run({ ...row, id: 5001, cause: 'return', delta: '1', after: '11', transaction: 9002 });
    insert.run({ ...row, id: 6001, cause: 'shipping_out', delta: '-4', after: '7', shipping: 5001 });
    insert.run({ ...row, id: 7001, cause: 'receiving', delta: '4', after: '4', store: 2, shipping: 5001 });
    insert.run({ ...row, id: 8001, cause: 'shipment', delta: '-2', after: '-2', product: 12, shipment: 3 });
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('each cause becomes its division; the target time, the shipping stores and the product facts are filled in', () => {
    migrate(db);
    const rows = db
      .prepare(
        `SELECT movement_id, stock_division, delta, amount_after, target_at, from_store_id, to_store_id, tax_division, price_units, cost_units, memo,
           transaction_head_id, client_id, staff_id
         FROM stock_movements ORDER BY movement_id`,
      )
      .all();
    const facts = { tax_division: '1', price_units: 300000, cost_units: 120500, target_at: 1000, from_store_id: null, to_store_id: null };
    expect(rows).toEqual([
      { ...facts, movement_id: 1001, stock_division: '01', delta: '10', amount_after: '10', memo: 'opening', transaction_head_id: null, client_id: 'backoffice-ui:c', staff_id: 7 },
      { ...facts, movement_id: 2001, stock_division: '15', delta: '1', amount_after: '11', memo: null, transaction_head_id: null, client_id: 'partner-app', staff_id: null },
      { ...facts, movement_id: 3001, stock_division: '15', delta: '2', amount_after: '13', memo: null, transaction_head_id: null, client_id: 'partner-app', staff_id: null },
      { ...facts, movement_id: 4001, stock_division: '02', delta: '-3', amount_after: '10', memo: null, transaction_head_id: 9001, client_id: null, staff_id: null },
      { ...facts, movement_id: 5001, stock_division: '12', delta: '1', amount_after: '11', memo: null, transaction_head_id: 9002, client_id: null, staff_id: null },
      { ...facts, movement_id: 6001, stock_division: '04', delta: '-4', amount_after: '7', from_store_id: 1, to_store_id: 2, memo: null, transaction_head_id: null, client_id: null, staff_id: null },
      { ...facts, movement_id: 7001, stock_division: '05', delta: '4', amount_after: '4', from_store_id: 1, to_store_id: 2, memo: null, transaction_head_id: null, client_id: null, staff_id: null },
      {
        ...facts,
        movement_id: 8001,
        stock_division: '10',
        delta: '-2',
        amount_after: '-2',
        tax_division: '0',
        price_units: 500000,
        cost_units: null,
        memo: null,
        transaction_head_id: null,
        client_id: null,
        staff_id: null,
      },
    ]);
    // The indexes the reads use are back.
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'stock_movements' AND sql IS NOT NULL ORDER BY name").pluck().all();
    expect(indexes).toEqual(['stock_movements_item', 'stock_movements_transaction']);
    expect(() => db.prepare("UPDATE stock_movements SET stock_division = '11' WHERE movement_id = 1001").run()).toThrow(/CHECK constraint failed/);
  });
});

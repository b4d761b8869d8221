import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/clock.js';
import { IdAllocator } from '../../server/db/ids.js';
import { loadMigrations, migrate } from '../../server/db/migrate.js';
import { openDatabase, type Sqlite } from '../../server/db/open.js';
import { Writer } from '../../server/db/write.js';
import { assertClosable } from '../../server/domain/closing.js';
import { StoreRepo } from '../../server/masters/stores/repo.js';
import { presentStore, type ListStoresQuery } from '../../server/masters/stores/schema.js';
import { T0 } from '../helpers/app.js';

/** A database written before migration 0012: stores with the invented 0 store / 1 warehouse / 2 order-receiving. */
describe('migration 0012: stores of an old database', () => {
  let dir: string;
  let db: Sqlite;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pos-stores-'));
    db = openDatabase(join(dir, 'pos.sqlite'));
    migrate(db, loadMigrations().filter((m) => m.version < 12));
    db.prepare("INSERT INTO contracts (contract_id, name, plan, created_at, updated_at) VALUES ('c', 'Old shop', 'retail_business', 0, 0)").run();
    const insert = db.prepare(
      "INSERT INTO stores (contract_id, store_id, store_name, store_code, division, ins_at, upd_at) VALUES ('c', ?, ?, ?, ?, 0, 0)",
    );
    insert.run(1001, 'Shop', 'S1', '0');
    insert.run(2001, 'Warehouse', 'W1', '1');
    insert.run(3001, 'Web orders', 'O1', '2');
    insert.run(4001, 'Default', null, '0');
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const repoOf = () => {
    const clock = new FixedClock(new Date(T0));
    return new StoreRepo(db, new Writer(db), new IdAllocator(db, 1), clock);
  };

  it('0 becomes 1 (normal store), 1 becomes 2 (warehouse), 2 an order-receiving store (division 1)', () => {
    migrate(db);
    const rows = db.prepare('SELECT store_id, division, order_receiving FROM stores ORDER BY store_id').all();
    expect(rows).toEqual([
      { store_id: 1001, division: '1', order_receiving: '0' },
      { store_id: 2001, division: '2', order_receiving: '0' },
      { store_id: 3001, division: '1', order_receiving: '1' },
      { store_id: 4001, division: '1', order_receiving: '0' },
    ]);
    const repo = repoOf();
    expect(presentStore(repo.get('c', '2001'), 'Asia/Tokyo').division).toBe('2');
    expect(presentStore(repo.get('c', '1001'), 'Asia/Tokyo')).toMatchObject({ division: '1', storeAbbr: null, sumDateChangeTime: '2359', discountRoundingDivision: '0' });
  });

  it('the closing still refuses the warehouse and the order-receiving store, and closes the others', () => {
    migrate(db);
    const repo = repoOf();
    const refusal = (id: string) => {
      try {
        assertClosable(repo.get('c', id), 'api');
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refusal('2001')).toBe('store 2001 is a warehouse and has no daily closing');
    expect(refusal('3001')).toBe('store 3001 is an order-receiving store and has no daily closing');
    expect(refusal('1001')).toBeNull();
  });

  it('the list serves normal stores and warehouses; the order-receiving store only by id to the other records', () => {
    migrate(db);
    const repo = repoOf();
    const query: ListStoresQuery = { limit: 100, page: 1, sort: [] };
    expect(repo.list('c', query, query).map((r) => r.store_id)).toEqual([1001, 2001, 4001]);
    expect(repo.referenced('c', '3001').store_name).toBe('Web orders');
    expect(() => repo.getPos('c', '3001')).toThrow(/order-receiving store/);
  });

  it('no division other than 1 or 2 can be written afterwards', () => {
    migrate(db);
    expect(() => db.prepare("UPDATE stores SET division = '0' WHERE store_id = 1001").run()).toThrow(/must be 1 \(normal store\) or 2 \(warehouse\)/);
    expect(() =>
      db.prepare("INSERT INTO stores (contract_id, store_id, store_name, ins_at, upd_at) VALUES ('c', 5001, 'No division', 0, 0)").run(),
    ).toThrow(/must be 1 \(normal store\) or 2 \(warehouse\)/);
  });
});

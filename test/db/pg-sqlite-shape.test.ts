// better-sqlite3's shape over the synchronous PostgreSQL client (server/db/pg/sqlite-shape.ts) on a
// real throwaway cluster, migrated: statements, transactions, and real repos constructed with it
// instead of a better-sqlite3 database. The client's worker runs from dist/, hence ensureDistBuilt.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/clock.js';
import type { Sqlite } from '../../server/db/open.js';
import { PgQueryError } from '../../server/db/pg/errors.js';
import { SqliteShape } from '../../server/db/pg/sqlite-shape.js';
import { PgSyncClient } from '../../server/db/pg/sync-client.js';
import { Writer, type Change } from '../../server/db/write.js';
import { StaffRankRepo } from '../../server/masters/staff-ranks/repo.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';
import { createMigratedDatabase } from '../helpers/postgres-template.js';
import { ensureDistBuilt } from '../ui/support/build.js';

let cluster: PgCluster;
const shapes: SqliteShape[] = [];
const openShape = async () => {
  const shape = new SqliteShape(new PgSyncClient({ connectionString: await createMigratedDatabase(cluster) }));
  shapes.push(shape);
  return shape;
};
const T0 = Date.parse('2026-11-22T01:00:00Z');
const addContract = (db: SqliteShape, id = 'c1') =>
  db.prepare("INSERT INTO contracts (contract_id, name, plan, created_at, updated_at) VALUES (?, ?, 'premium_plus', ?, ?)").run(id, `shop ${id}`, T0, T0);
const contractIds = (db: SqliteShape) => db.prepare('SELECT contract_id FROM contracts ORDER BY contract_id').pluck().all();

beforeAll(async () => {
  await ensureDistBuilt();
  cluster = await startPostgres();
}, 300_000);
afterEach(() => {
  for (const shape of shapes.splice(0)) shape.close();
});
afterAll(() => cluster?.stop());

describe('statements', () => {
  it('inserts and reads rows of a migrated table with ? and @name parameters, and counts changes', async () => {
    const db = await openShape();
    expect(addContract(db)).toEqual({ changes: 1 });
    expect(addContract(db, 'c2').changes).toBe(1);
    expect(db.prepare('SELECT contract_id, name, plan, time_zone, created_at FROM contracts WHERE contract_id = @id').get({ id: 'c1' })).toEqual({
      contract_id: 'c1',
      name: 'shop c1',
      plan: 'premium_plus',
      time_zone: 'Asia/Tokyo',
      created_at: T0,
    });
    expect(db.prepare('UPDATE contracts SET updated_at = ? WHERE created_at = ?').run(T0 + 1, T0).changes).toBe(2);
    expect(db.prepare('UPDATE contracts SET updated_at = ? WHERE contract_id = ?').run(T0, 'none').changes).toBe(0);
    const addRank = db.prepare("INSERT INTO staff_ranks (contract_id, staff_rank, full_name, ins_at, upd_at) VALUES (?, ?, 'x', 0, 0) ON CONFLICT DO NOTHING");
    expect(addRank.run('c1', 'R1').changes).toBe(1);
    expect(addRank.run('c1', 'R1').changes).toBe(0);
    expect(db.prepare('DELETE FROM staff_ranks WHERE contract_id = ?').run(['c1']).changes).toBe(1);
  });

  it('binds positional values and one object of named values in the same call, as master-repo.ts updateFields does', async () => {
    const db = await openShape();
    addContract(db);
    expect(db.prepare('UPDATE contracts SET name = @name, updated_at = @now WHERE contract_id = ? AND plan = ?').run('c1', 'premium_plus', { name: 'renamed', now: 5, unused: 'x' }).changes).toBe(1);
    expect(db.prepare('SELECT name, updated_at FROM contracts WHERE contract_id = ?').raw().get('c1')).toEqual(['renamed', 5]);
  });

  it('get answers undefined when there is no row; pluck and raw shape the rows; all answers every row', async () => {
    const db = await openShape();
    addContract(db, 'c1');
    addContract(db, 'c2');
    expect(db.prepare('SELECT * FROM contracts WHERE contract_id = ?').get('none')).toBeUndefined();
    expect(db.prepare('SELECT name FROM contracts WHERE contract_id = ?').pluck().get('none')).toBeUndefined();
    expect(db.prepare('SELECT count(*) FROM contracts').pluck().get()).toBe(2);
    expect(contractIds(db)).toEqual(['c1', 'c2']);
    expect(db.prepare('SELECT contract_id, created_at FROM contracts ORDER BY contract_id').raw(true).all()).toEqual([
      ['c1', T0],
      ['c2', T0],
    ]);
    const toggled = db.prepare('SELECT contract_id, name FROM contracts ORDER BY contract_id').pluck().pluck(false);
    expect(toggled.all()).toEqual([
      { contract_id: 'c1', name: 'shop c1' },
      { contract_id: 'c2', name: 'shop c2' },
    ]);
  });

  it('gives lastInsertRowid from RETURNING, and refuses to make one up without it', async () => {
    const db = await openShape();
    addContract(db);
    const inserted = db
      .prepare("INSERT INTO staff_ranks (contract_id, staff_rank, full_name, display_sequence, ins_at, upd_at) VALUES ('c1', 'R1', 'Regular', 41, 0, 0) RETURNING display_sequence")
      .run();
    expect(inserted).toEqual({ changes: 1, lastInsertRowid: 41 });
    const caught = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('expected the call to throw');
    };
    const plain = db.prepare("UPDATE contracts SET updated_at = 8 WHERE contract_id = 'c1'").run();
    expect(plain.changes).toBe(1);
    expect(caught(() => plain.lastInsertRowid)).toBe("lastInsertRowid needs RETURNING on PostgreSQL (no rowid): UPDATE contracts SET updated_at = 8 WHERE contract_id = 'c1'");
  });

  it('runs several statements without parameters through exec', async () => {
    const db = await openShape();
    db.exec("INSERT INTO contracts (contract_id, name, plan, created_at, updated_at) VALUES ('a', 'a', 'standard', 0, 0); INSERT INTO contracts (contract_id, name, plan, created_at, updated_at) VALUES ('b', 'b', 'standard', 0, 0)");
    expect(contractIds(db)).toEqual(['a', 'b']);
    expect(() => db.exec('BEGIN')).toThrow("exec('BEGIN') is not supported on PostgreSQL (server/db/pg/sqlite-shape.ts): use transaction(fn), which the client tracks");
    expect(db.inTransaction).toBe(false);
  });

  it('names what it does not support', async () => {
    const db = await openShape();
    const anyDb = db as unknown as Record<string, (...args: unknown[]) => unknown>;
    expect(() => anyDb.pragma!('foreign_keys = ON')).toThrow('pragma() is not supported on PostgreSQL (server/db/pg/sqlite-shape.ts): PRAGMA is SQLite-only; the PostgreSQL connection sets its own timeouts');
    expect(() => anyDb.backup!('/tmp/x')).toThrow('backup() is not supported on PostgreSQL (server/db/pg/sqlite-shape.ts): back a PostgreSQL head office up with pg_dump');
    const statement = db.prepare('SELECT 1') as unknown as Record<string, () => unknown>;
    expect(() => statement.iterate!()).toThrow(
      'iterate() is not supported on PostgreSQL (server/db/pg/sqlite-shape.ts): a long read must not block the process: read it with cursorBatches (server/db/pg/cursor.ts) in a worker',
    );
    expect(() => statement.columns!()).toThrow('columns() is not supported on PostgreSQL (server/db/pg/sqlite-shape.ts)');
  });
});

describe('transactions', () => {
  it('commits what fn wrote and answers its result, passing its arguments', async () => {
    const db = await openShape();
    const add = db.transaction((id: string) => {
      addContract(db, id);
      return db.inTransaction;
    });
    expect(add('c1')).toBe(true);
    expect(add.immediate('c2')).toBe(true);
    expect(db.inTransaction).toBe(false);
    expect(contractIds(db)).toEqual(['c1', 'c2']);
  });

  it('rolls everything back when fn throws, and rethrows its error', async () => {
    const db = await openShape();
    const boom = new Error('rule refused');
    expect(() =>
      db.transaction(() => {
        addContract(db, 'c1');
        throw boom;
      }).immediate(),
    ).toThrow(boom);
    expect(contractIds(db)).toEqual([]);
    expect(db.inTransaction).toBe(false);
  });

  it('a nested transaction is a savepoint: its failure undoes only its own writes', async () => {
    const db = await openShape();
    db.transaction(() => {
      addContract(db, 'outer');
      expect(() =>
        db.transaction(() => {
          addContract(db, 'inner');
          addContract(db, 'inner'); // unique violation: 23505
        })(),
      ).toThrow(PgQueryError);
      db.transaction(() => addContract(db, 'kept'))();
    })();
    expect(contractIds(db)).toEqual(['kept', 'outer']);
  });
});

describe('repos written for better-sqlite3, constructed with the shape', () => {
  it('ContractRepo and StaffRankRepo create, get, update and list on PostgreSQL through the Writer', async () => {
    const db = await openShape();
    const sqlite = db as unknown as Sqlite;
    const writer = new Writer(sqlite);
    const changes: Change[] = [];
    writer.onChange((c) => changes.push(c));
    const clock = new FixedClock(new Date(T0));
    const contracts = new ContractRepo(sqlite, writer, clock);
    contracts.create({ contractId: 'c1', name: 'Shop', plan: 'premium_plus', timeZone: 'Asia/Tokyo', settings: { inventoryApproval: true } });
    expect(contracts.find('c1')).toMatchObject({ contractId: 'c1', plan: 'premium_plus', settings: { inventoryApproval: true, memberHeadOfficeLinkage: false } });
    expect(contracts.list()).toEqual([{ contractId: 'c1', name: 'Shop', plan: 'premium_plus', timeZone: 'Asia/Tokyo' }]);

    const ranks = new StaffRankRepo(sqlite, writer, clock);
    const regular = ranks.create('c1', { staffRank: 'R1', staffRankFullName: 'Regular', staffDiscountRate: '12.5' } as Parameters<StaffRankRepo['create']>[1]);
    expect(regular).toEqual({
      contract_id: 'c1',
      staff_rank: 'R1',
      full_name: 'Regular',
      display_name: null,
      display_flag: '1',
      display_sequence: 0,
      staff_discount_rate: '12.5',
      use_product_staff_discount_rate_division: '0',
      staff_application_selling_price_division: '0',
      ins_at: T0,
      upd_at: T0,
    });
    ranks.create('c1', { staffRank: 'R0', staffRankFullName: 'Trainee', displayFlag: '0', displaySequence: '3' } as Parameters<StaffRankRepo['create']>[1]);
    expect(() => ranks.create('c1', { staffRank: 'R1', staffRankFullName: 'again' } as Parameters<StaffRankRepo['create']>[1])).toThrow('staff rank R1 already exists');
    expect(ranks.update('c1', 'R1', { staffRankFullName: 'Regular staff' } as Parameters<StaffRankRepo['update']>[2]).full_name).toBe('Regular staff');
    expect(() => ranks.get('c1', 'R9')).toThrow('staff rank R9 does not exist');

    const page = { limit: 100, page: 1, sort: [] };
    expect(ranks.list('c1', {} as Parameters<StaffRankRepo['list']>[1], page).map((r) => r.staff_rank)).toEqual(['R0', 'R1']);
    expect(ranks.list('c1', { display_flag: '0' } as Parameters<StaffRankRepo['list']>[1], page).map((r) => r.staff_rank)).toEqual(['R0']);
    expect(
      ranks.list('c1', {} as Parameters<StaffRankRepo['list']>[1], { ...page, sort: [{ field: 'displaySequence', desc: true }] }).map((r) => r.staff_rank),
    ).toEqual(['R0', 'R1']);
    expect(changes.map((c) => `${c.entity} ${c.id} ${c.op}`)).toEqual(['contract c1 insert', 'contract c1 update', 'staff_rank R1 insert', 'staff_rank R0 insert', 'staff_rank R1 update']);
    expect(writer.commits).toBe(4);
  });
});

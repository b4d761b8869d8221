// The synchronous PostgreSQL client's round trips (server/db/pg/sync-client.ts): a transaction's
// BEGIN, SAVEPOINT and RELEASE go with the next statement, the statements of one request inside a
// transaction are pipelined by the worker, and deferringWrites sends a run of writes with the read
// after them. `requests` counts the client's requests to its worker (one wait each, and in a
// transaction one round trip to PostgreSQL). Against a real throwaway cluster; the worker runs
// from dist/ (usePgSyncClient builds it).
import { expect, it } from 'vitest';
import { PgQueryError } from '../../server/db/pg/errors.js';
import { SqliteShape } from '../../server/db/pg/sqlite-shape.js';
import type { PgSyncClient } from '../../server/db/pg/sync-client.js';
import { caught, usePgSyncClient } from '../helpers/pg-sync-client.js';

const postgres = usePgSyncClient();

async function withItems(): Promise<PgSyncClient> {
  const db = await postgres.connect();
  db.query('CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL)');
  return db;
}
const names = (db: PgSyncClient) => db.query<{ name: string }>('SELECT name FROM items ORDER BY id').rows.map((r) => r.name);

it("sends a transaction's BEGIN, SAVEPOINT and RELEASE with the statement after each, not on their own", async () => {
  const db = await withItems();
  const before = db.requests;
  const found = db.transaction(() => {
    db.query('INSERT INTO items VALUES (?, ?)', [1, 'tea']); // with BEGIN
    db.transaction(() => db.query('INSERT INTO items VALUES (?, ?)', [2, 'rice'])); // with SAVEPOINT
    return db.query<{ n: number }>('SELECT count(*)::int AS n FROM items').rows[0]!.n; // with RELEASE
  });
  expect(found).toBe(2);
  expect(db.requests - before).toBe(4); // and COMMIT
  expect(names(db)).toEqual(['tea', 'rice']);
});

it('sends nothing for a transaction or a savepoint that ran no statement, even one that threw', async () => {
  const db = await withItems();
  const before = db.requests;
  expect(db.transaction(() => 'nothing to do')).toBe('nothing to do');
  expect(caught(() => db.transaction(() => { throw new Error('refused before any statement'); }))).toEqual(new Error('refused before any statement'));
  expect(db.requests).toBe(before);
  db.transaction(() => {
    db.query('INSERT INTO items VALUES (?, ?)', [1, 'tea']);
    expect(caught(() => db.transaction(() => { throw new Error('the attempt gave up'); }))).toEqual(new Error('the attempt gave up'));
    db.query('INSERT INTO items VALUES (?, ?)', [2, 'rice']);
  });
  expect(db.requests - before).toBe(3); // two inserts and COMMIT: the empty savepoint was never sent
  expect(names(db)).toEqual(['tea', 'rice']);
});

it('pipelines the statements of one request in a transaction and answers its first failure, with the statement it was', async () => {
  const db = await withItems();
  db.query('INSERT INTO items VALUES (?, ?)', [1, 'tea']);
  const error = caught(() =>
    db.transaction(() =>
      db.batch([
        { sql: 'INSERT INTO items VALUES (?, ?)', params: [2, 'rice'] },
        { sql: 'INSERT INTO items VALUES (?, ?)', params: [1, 'again'] },
        { sql: 'INSERT INTO items VALUES (?, ?)', params: [3, 'miso'] },
      ]),
    ),
  );
  expect(error).toBeInstanceOf(PgQueryError);
  expect((error as PgQueryError).code).toBe('23505');
  expect(names(db)).toEqual(['tea']); // rolled back whole
  // The connection goes on.
  db.transaction(() => db.batch([{ sql: 'INSERT INTO items VALUES (?, ?)', params: [2, 'rice'] }, { sql: 'INSERT INTO items VALUES (?, ?)', params: [3, 'miso'] }]));
  expect(names(db)).toEqual(['tea', 'rice', 'miso']);
});

it('deferringWrites sends a run of writes with the read after them, or when it ends; reading changes sends them at once', async () => {
  const db = await withItems();
  const before = db.requests;
  db.transaction(() =>
    db.deferringWrites(() => {
      db.deferWrite('INSERT INTO items VALUES (?, ?)', [1, 'tea']);
      db.deferWrite('INSERT INTO items VALUES (?, ?)', [2, 'rice']);
      expect(db.requests).toBe(before); // nothing sent yet, not even BEGIN
      expect(db.query<{ n: number }>('SELECT count(*)::int AS n FROM items').rows[0]!.n).toBe(2);
      expect(db.requests - before).toBe(1);
      const renamed = db.deferWrite('UPDATE items SET name = upper(name)');
      expect(renamed.answer().rowCount).toBe(2);
      expect(db.requests - before).toBe(2);
      // A nested deferringWrites leaves its writes to this one's end.
      db.deferringWrites(() => db.deferWrite('INSERT INTO items VALUES (?, ?)', [3, 'miso']));
      expect(db.requests - before).toBe(2);
    }),
  );
  expect(db.requests - before).toBe(4); // the last write when deferringWrites ended, then COMMIT
  expect(names(db)).toEqual(['TEA', 'RICE', 'miso']);
  // Outside a transaction a write runs at once.
  const now = db.requests;
  db.deferringWrites(() => db.deferWrite('DELETE FROM items WHERE id = ?', [3]));
  expect(db.requests - now).toBe(1);
  expect(names(db)).toEqual(['TEA', 'RICE']);
});

it('a deferred write that fails throws from the statement that carried it, naming the write; its savepoint is rolled back and the transaction goes on', async () => {
  const db = await withItems();
  db.query('INSERT INTO items VALUES (?, ?)', [1, 'tea']);
  db.transaction(() => {
    db.query('INSERT INTO items VALUES (?, ?)', [2, 'rice']);
    const error = caught(() =>
      db.transaction(() =>
        db.deferringWrites(() => {
          db.deferWrite('INSERT INTO items VALUES (?, ?)', [3, 'miso']);
          db.deferWrite('INSERT INTO items VALUES (?, ?)', [1, 'duplicate']);
          db.query('SELECT 1');
        }),
      ),
    );
    expect(error).toBeInstanceOf(PgQueryError);
    expect((error as PgQueryError).code).toBe('23505');
    expect((error as Error).message).toContain('[in: INSERT INTO items VALUES (?, ?)]');
    // Failing only when deferringWrites ends: the same.
    expect((caught(() => db.transaction(() => db.deferringWrites(() => db.deferWrite('INSERT INTO items VALUES (?, ?)', [2, 'again'])))) as PgQueryError).code).toBe('23505');
    db.query('INSERT INTO items VALUES (?, ?)', [4, 'nori']);
  });
  expect(names(db)).toEqual(['tea', 'rice', 'nori']);
});

it("through the better-sqlite3 shape: run() inside deferringWrites is deferred, its changes read when asked, exec's statements too", async () => {
  const client = await withItems();
  const db = new SqliteShape(client);
  const insert = db.prepare('INSERT INTO items VALUES (?, ?) ON CONFLICT (id) DO NOTHING');
  const before = client.requests;
  const counted = db.transaction(() =>
    db.deferringWrites(() => {
      db.exec("SET LOCAL application_name = 'deferred'; SET LOCAL lock_timeout = '2s'");
      const first = insert.run(1, 'tea');
      const again = insert.run(1, 'tea again');
      expect(client.requests).toBe(before);
      return [first.changes, again.changes];
    }),
  )();
  expect(counted).toEqual([1, 0]);
  expect(client.requests - before).toBe(2); // the lot when changes was read, then COMMIT
  expect(names(client)).toEqual(['tea']);
});

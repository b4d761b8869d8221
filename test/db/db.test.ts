import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IdAllocator } from '../../server/db/ids.js';
import { loadMigrations, migrate, NewerDatabaseError } from '../../server/db/migrate.js';
import { openDatabase, type Sqlite } from '../../server/db/open.js';
import { Writer, type Change } from '../../server/db/write.js';

describe('database', () => {
  let dir: string;
  let db: Sqlite;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pos-db-'));
    db = openDatabase(join(dir, 'pos.sqlite'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens with WAL, synchronous FULL, foreign keys and a busy timeout (none for the server, 5 s for the CLI)', () => {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(0);
    const cli = openDatabase(join(dir, 'pos.sqlite'), { busyTimeoutMs: 5000 });
    expect(cli.pragma('busy_timeout', { simple: true })).toBe(5000);
    cli.close();
  });

  it('applies the bundled migrations once and records them', () => {
    const all = loadMigrations();
    expect(all[0]).toMatchObject({ version: 1, name: 'foundation' });
    expect(migrate(db)).toEqual(all.map((m) => m.version));
    expect(migrate(db)).toEqual([]);
    expect(db.prepare('SELECT version, name FROM schema_migrations').all()).toEqual(all.map((m) => ({ version: m.version, name: m.name })));
  });

  it('applies pending migrations in one transaction: a failing one leaves nothing behind', () => {
    const broken = [
      { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER);' },
      { version: 2, name: 'b', sql: 'CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);' },
    ];
    expect(() => migrate(db, broken)).toThrow(/nowhere/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name IN ('a', 'b')").all()).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: 0 });
  });

  it('refuses a database written by a newer version without touching it', () => {
    migrate(db);
    db.prepare("INSERT INTO schema_migrations VALUES (9999, 'future', 'x')").run();
    expect(() => migrate(db)).toThrow(NewerDatabaseError);
    expect(db.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({ v: 9999 });
  });

  it('mints <sequence><node> ids per table', () => {
    migrate(db);
    const store = new IdAllocator(db, 7);
    expect([store.next('categories'), store.next('categories'), store.next('stores')]).toEqual(['1007', '2007', '1007']);
    expect(new IdAllocator(db, 0).next('categories')).toBe('3000');
    expect(() => new IdAllocator(db, 1000)).toThrow(RangeError);
  });

  it('writes in one transaction; change hooks run inside it; a throw rolls everything back', () => {
    migrate(db);
    const writer = new Writer(db);
    const seen: Change[] = [];
    writer.onChange((c) => {
      seen.push(c);
      db.prepare("INSERT INTO id_sequences VALUES ('hook-' || ?, 1)").run(c.id);
    });
    writer.write(() => {
      db.prepare("INSERT INTO id_sequences VALUES ('a', 1)").run();
      writer.write(() => writer.changed({ contractId: 'c', entity: 'x', id: '1', op: 'insert' }));
    });
    expect(seen).toHaveLength(1);
    expect(() =>
      writer.write(() => {
        db.prepare("INSERT INTO id_sequences VALUES ('b', 1)").run();
        writer.changed({ contractId: 'c', entity: 'x', id: '2', op: 'insert' });
        throw new Error('rule failed');
      }),
    ).toThrow('rule failed');
    const names = (db.prepare('SELECT name FROM id_sequences ORDER BY name').all() as { name: string }[]).map((r) => r.name);
    expect(names).toEqual(['a', 'hook-1']);
    expect(() => writer.changed({ contractId: 'c', entity: 'x', id: '3', op: 'insert' })).toThrow(/outside write/);
  });
});

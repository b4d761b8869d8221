import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, parseDatabaseUrl } from '../../server/db/pg/connect.js';
import { cursorBatches } from '../../server/db/pg/cursor.js';
import { sqliteLikeTypes } from '../../server/db/pg/type-parsers.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';

describe('reading a large result in batches from a cursor', () => {
  let cluster: PgCluster;
  let pool: pg.Pool;
  beforeAll(async () => {
    cluster = await startPostgres();
    pool = createPool(parseDatabaseUrl(await cluster.createDatabase()), { max: 2, types: sqliteLikeTypes });
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  const openTransactions = async () =>
    (await pool.query("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'")).rows[0].n;

  it('yields every row once, a batch at a time, with the values typed as the pool reads them', async () => {
    const sizes: number[] = [];
    const last: unknown[] = [];
    const sql = "SELECT g AS n, (g::text || '.10')::numeric AS amount FROM generate_series(1, $1::int) g ORDER BY g";
    for await (const batch of cursorBatches(pool, sql, [2500], { batchSize: 1000 })) {
      sizes.push(batch.length);
      last.push(batch.at(-1));
    }
    expect(sizes).toEqual([1000, 1000, 500]);
    expect(last).toEqual([{ n: 1000, amount: '1000.10' }, { n: 2000, amount: '2000.10' }, { n: 2500, amount: '2500.10' }]);
    expect(await openTransactions()).toBe(0);
  });

  it('closes the cursor and frees the connection when the reader stops early', async () => {
    for await (const batch of cursorBatches(pool, 'SELECT g FROM generate_series(1, 100000) g', [], { batchSize: 10 })) {
      expect(batch).toHaveLength(10);
      break;
    }
    expect(pool.idleCount).toBe(pool.totalCount);
    expect(await openTransactions()).toBe(0);
  });

  it('passes on an error PostgreSQL raises mid-read, and does not reuse that connection', async () => {
    const read = async () => {
      let rows = 0;
      for await (const batch of cursorBatches(pool, 'SELECT 1 / (g - 1500) AS x FROM generate_series(1, 2000) g', [], { batchSize: 100 })) rows += batch.length;
      return rows;
    };
    await expect(read()).rejects.toThrow('division by zero');
    expect(pool.idleCount).toBe(pool.totalCount);
    expect(await openTransactions()).toBe(0);
  });

  it('reads with the statement timeout the caller gives, not the pool\'s', async () => {
    const strict = createPool(parseDatabaseUrl(cluster.url(new URL(cluster.url()).pathname.slice(1))), { statementTimeoutMs: 100 });
    try {
      const settings: unknown[] = [];
      for await (const batch of cursorBatches(strict, "SELECT current_setting('statement_timeout') AS st", [], { statementTimeoutMs: 0 })) settings.push(...batch);
      expect(settings).toEqual([{ st: '0' }]);
      await expect(strict.query("SELECT current_setting('statement_timeout') AS st")).resolves.toMatchObject({ rows: [{ st: '100ms' }] });
    } finally {
      await strict.end();
    }
  });
});

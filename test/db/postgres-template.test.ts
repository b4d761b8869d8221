import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations } from '../../server/db/migrate.js';
import { migratePostgres } from '../../server/db/pg/migrate.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';
import { createMigratedDatabase } from '../helpers/postgres-template.js';

describe('a migrated database for a test', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('has every migration applied, and each caller gets its own copy', async () => {
    const urls = await Promise.all([createMigratedDatabase(cluster), createMigratedDatabase(cluster), createMigratedDatabase(cluster)]);
    expect(new Set(urls).size).toBe(3);
    const [a, b] = urls.map((url) => new pg.Pool({ connectionString: url, max: 1 }));
    try {
      const versions = await a!.query('SELECT version FROM schema_migrations ORDER BY version');
      expect(versions.rows.map((r) => Number(r.version))).toEqual(loadMigrations().map((m) => m.version));
      expect(await migratePostgres(a!)).toEqual([]);
      await a!.query("INSERT INTO contracts (contract_id, name, plan, created_at, updated_at) VALUES ('c1', 'Shop', 'standard', 1, 1)");
      expect((await b!.query('SELECT count(*)::int AS n FROM contracts')).rows).toEqual([{ n: 0 }]);
    } finally {
      await Promise.all([a!.end(), b!.end()]);
    }
  }, 60_000);
});

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createCluster, NOT_INSTALLED, postgresBinDir, reapOrphanClusters } from '../helpers/postgres-cluster.js';
import { startOwnPostgres, startPostgres, type OwnPgCluster, type PgCluster } from '../helpers/postgres.js';

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('the throwaway PostgreSQL cluster', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('listens on 127.0.0.1 and gives each caller its own empty database', async () => {
    const [a, b] = [await cluster.createDatabase(), await cluster.createDatabase()];
    expect(a).not.toBe(b);
    expect(a).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/t_\w+$/);
    await query(a, 'CREATE TABLE only_in_a (n integer); INSERT INTO only_in_a VALUES (7)');
    expect((await query(a, 'SELECT n FROM only_in_a')).rows).toEqual([{ n: 7 }]);
    const inB = await query(b, "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'only_in_a'");
    expect(inB.rows).toEqual([{ n: 0 }]);
  });

  it('runs a real server, not the process of this test', async () => {
    const { rows } = await query(cluster.url(), 'SELECT pg_backend_pid() AS pid, current_setting(\'server_version_num\')::int AS v');
    expect(rows[0].pid).not.toBe(process.pid);
    expect(rows[0].v).toBeGreaterThanOrEqual(130000);
  });
});

describe('a private cluster (fault tests)', () => {
  let own: OwnPgCluster;
  beforeAll(async () => {
    own = await startOwnPostgres();
  }, 120_000);
  afterAll(() => own?.stop());

  it('is stopped immediately and started again on the same URL with its data', async () => {
    const url = await own.createDatabase();
    await query(url, 'CREATE TABLE kept (n integer); INSERT INTO kept VALUES (1)');
    await own.kill();
    await expect(query(url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    await own.start();
    expect((await query(url, 'SELECT n FROM kept')).rows).toEqual([{ n: 1 }]);
  }, 60_000);
});

describe('a cluster whose test run was killed before its teardown', () => {
  it('is stopped and removed by the next run that starts one', async () => {
    const gone = spawnSync('true').pid!; // a process that has exited: the killed run
    const orphan = await createCluster(gone);
    const url = `postgres://postgres@127.0.0.1:${orphan.port}/postgres`;
    expect((await query(url, 'SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
    await reapOrphanClusters(orphan.bin);
    expect(existsSync(orphan.dir)).toBe(false);
    await expect(query(url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
  }, 60_000);
});

describe('without PostgreSQL installed', () => {
  it('fails with one line saying what to install', () => {
    expect(() => postgresBinDir('/nonexistent/postgresql')).toThrow(NOT_INSTALLED);
    expect(NOT_INSTALLED).toContain('apt-get install -y postgresql');
    expect(NOT_INSTALLED).not.toContain('\n');
  });
});

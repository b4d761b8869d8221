// The synchronous client's connection plans PostgreSQL's cached statements (foreign-key checks
// above all) each time (server/db/pg/sync-worker.ts): left generic, a new central's first drain
// kept the check of a sale line against transactions planned while that table was small, an
// index scan on the contract prefix of another index that read every sale of the contract per
// line (1.6 million rows for 512 lines at 3,000 sales; 512 once planned each time). Its worker
// runs from dist/, hence ensureDistBuilt.
import { expect, it } from 'vitest';
import { postgresDialect } from '../../server/db/dialect/query-postgres.js';
import { usePgSyncClient } from '../helpers/pg-sync-client.js';

const postgres = usePgSyncClient();

it("plans PostgreSQL's cached statements (a foreign-key check's) each time, and those checks still refuse a missing parent", async () => {
  const client = await postgres.connect();
  expect(client.query('SHOW plan_cache_mode').rows).toEqual([{ plan_cache_mode: 'force_custom_plan' }]);
  client.query('CREATE TABLE parents (id bigint PRIMARY KEY)');
  client.query('CREATE TABLE children (id bigint PRIMARY KEY, parent_id bigint NOT NULL REFERENCES parents (id))');
  client.query('INSERT INTO parents SELECT g FROM generate_series(1, 1000) AS g');
  client.query('INSERT INTO children SELECT g, g FROM generate_series(1, 1000) AS g');
  expect(() => client.query('INSERT INTO children VALUES (?, ?)', [1001, 1001])).toThrow(/foreign key/);
  expect(client.query('SELECT count(*)::int AS n FROM children').rows).toEqual([{ n: 1000 }]);
});

it("lets a set-based write's checks reuse their plans (the dialect's reusedCheckPlans) until its end statement, a rollback or the transaction's end, then plans each time again", async () => {
  const client = await postgres.connect();
  const mode = () => client.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode').rows[0]!.plan_cache_mode;
  const plans = postgresDialect.reusedCheckPlans()!;
  client.transaction(() => {
    client.query(plans.reuse);
    expect(mode()).toBe('auto');
    client.query(plans.end);
    expect(mode()).toBe('force_custom_plan');
    expect(() =>
      client.transaction(() => {
        client.query(plans.reuse);
        throw new Error('the write failed');
      }),
    ).toThrow('the write failed');
    expect(mode()).toBe('force_custom_plan');
    client.query(plans.reuse);
  });
  expect(mode()).toBe('force_custom_plan');
});

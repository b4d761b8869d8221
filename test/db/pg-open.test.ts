import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUrlError } from '../../server/db/pg/connect.js';
import { DatabaseUnreachable, openPostgres } from '../../server/db/pg/open.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';

describe('opening central\'s PostgreSQL database at start', () => {
  let cluster: PgCluster;
  let silent: Server;
  let closedPort: number;
  beforeAll(async () => {
    cluster = await startPostgres();
    silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    closedPort = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
  }, 120_000);
  afterAll(async () => {
    silent?.close();
    await cluster?.stop();
  });

  async function refusal(url: string, options = {}): Promise<Error> {
    const error = await openPostgres(url, options).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeDefined();
    expect(error!.message).not.toContain('hunter2');
    expect(error!.message).not.toContain('\n');
    return error!;
  }

  it('answers with a pool on the database and its description without the password', async () => {
    const url = await cluster.createDatabase();
    const withPassword = url.replace('postgres@', 'postgres:hunter2@');
    const opened = await openPostgres(withPassword);
    try {
      expect(opened.description).toBe(url);
      expect((await opened.pool.query('SELECT current_database() AS db')).rows[0].db).toBe(new URL(url).pathname.slice(1));
    } finally {
      await opened.pool.end();
    }
  });

  it('refuses a bad URL before connecting', async () => {
    expect(await refusal('postgres://u:hunter2@db:port/pos')).toBeInstanceOf(DatabaseUrlError);
  });

  it('says the server refused the connection', async () => {
    const error = await refusal(`postgres://u:hunter2@127.0.0.1:${closedPort}/pos`);
    expect(error).toBeInstanceOf(DatabaseUnreachable);
    expect(error.message).toBe(`cannot use PostgreSQL at postgres://u@127.0.0.1:${closedPort}/pos: connection refused (is PostgreSQL running and listening there?)`);
  });

  it('says the server did not answer in time', async () => {
    const { port } = silent.address() as { port: number };
    const error = await refusal(`postgres://u:hunter2@127.0.0.1:${port}/pos`, { connectTimeoutMs: 300 });
    expect(error.message).toBe(`cannot use PostgreSQL at postgres://u@127.0.0.1:${port}/pos: no answer within 300 ms`);
  });

  it("passes on PostgreSQL's own refusal, such as a database that does not exist", async () => {
    const url = cluster.url('no_such_db').replace('postgres@', 'postgres:hunter2@');
    const error = await refusal(url);
    expect(error.message).toBe(`cannot use PostgreSQL at ${cluster.url('no_such_db')}: database "no_such_db" does not exist`);
  });
});

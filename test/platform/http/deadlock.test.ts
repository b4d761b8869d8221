import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { onPostgres } from '../../helpers/engine.js';
import { startPostgres } from '../../helpers/postgres.js';

/**
 * Head office on PostgreSQL with another process on the same database (a second central
 * process, a command): when PostgreSQL picks a request's transaction as a deadlock's victim
 * (40P01) it has rolled all of it back, and the request is run again (platform/http/busy.ts)
 * instead of answering 500. SQLite has no row locks, so this is PostgreSQL's alone.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The other process: locks the category's version row, waits until this process's request is
 * waiting for it (holding the category row), then asks for the category row. The request's wait
 * began first, so its deadlock check runs first and it is the victim; this one then commits.
 */
const OTHER = `
import pg from 'pg';
const [url, contractId, id] = process.argv.slice(1);
const c = new pg.Client({ connectionString: url });
await c.connect();
await c.query('BEGIN');
await c.query("SELECT 1 FROM sync_versions WHERE contract_id = $1 AND entity = 'category' AND entity_id = $2 FOR UPDATE", [contractId, id]);
console.log('locked');
let waiting = false;
for (let i = 0; i < 600 && !waiting; i++) {
  const r = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()");
  waiting = r.rows[0].n > 0;
  if (!waiting) await new Promise((resolve) => setTimeout(resolve, 50));
}
try {
  await c.query('SELECT 1 FROM categories WHERE contract_id = $1 AND category_id = $2 FOR UPDATE', [contractId, id]);
  await c.query('COMMIT');
  console.log(waiting ? 'committed' : 'never saw the request wait');
} catch (error) {
  console.log('victim: ' + error.code);
}
await c.end();
`;

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe.skipIf(!onPostgres)('a deadlock with another process on head office’s PostgreSQL', () => {
  it('the request PostgreSQL picked as the victim is run again and answers 200', async () => {
    t = await makeTestApp({ role: 'central' });
    const created = await t.api('POST', '/categories', { categoryName: 'Drinks', categoryCode: 'DRK' });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().categoryId as string;
    const url = (await startPostgres()).url(t.deps.db.prepare('SELECT current_database()').pluck().get() as string);
    const other = spawn(process.execPath, ['--input-type=module', '-e', OTHER, url, t.contractId, id], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    other.stdout.setEncoding('utf8');
    const locked = new Promise<void>((resolve) => other.stdout.on('data', (chunk: string) => ((out += chunk), out.includes('locked') && resolve())));
    const exited = once(other, 'exit');
    await Promise.race([locked, exited]);
    expect(out).toContain('locked');

    // The edit takes the category row, then waits for its version row: the deadlock.
    const res = await t.api('PATCH', `/categories/${id}`, { categoryName: 'Cold drinks' });
    await exited;
    expect(out.trim().split('\n')).toEqual(['locked', 'committed']);
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.api('GET', `/categories/${id}`)).json().categoryName).toBe('Cold drinks');
  }, 120_000);
});

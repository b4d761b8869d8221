import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../server/app.js';
import { parseCommand, usage, UsageError } from '../server/cli/args.js';
import { openDeps, type AppDeps } from '../server/deps.js';
import type { ServerModule } from '../server/modules.js';
import { AuthRepo } from '../server/platform/auth/repo.js';
import { ContractRepo } from '../server/platform/contracts/repo.js';
import { ALL_SCOPES } from '../server/platform/http/scopes.js';
import { problem } from './helpers/app.js';
import { MODULES } from './helpers/modules.js';

/**
 * The seam of server/modules.ts: the server knows no module by name; what sync adds (its API
 * resources, write hooks, head-office link and commands) is there only when it is handed in.
 */

const dirs: string[] = [];
const opened: AppDeps[] = [];
afterEach(() => {
  for (const deps of opened.splice(0)) deps.db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDeps(): AppDeps {
  const dir = mkdtempSync(join(tmpdir(), 'pos-modules-'));
  dirs.push(dir);
  const deps = openDeps({ file: join(dir, 'pos.sqlite'), checkResponses: true });
  opened.push(deps);
  return deps;
}

/** A contract with a client's token on the app; `category` makes one over the API. */
async function served(modules: readonly ServerModule[]) {
  const deps = freshDeps();
  new ContractRepo(deps.db, deps.writer, deps.clock).create({ contractId: 'c1', name: 'C1', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
  new AuthRepo(deps.db, deps.writer, deps.clock).createClient({ clientId: 'client', contractId: 'c1', secret: 'secret', scopes: ALL_SCOPES });
  const app = await buildApp(deps, modules);
  const token = await app.inject({
    method: 'POST',
    url: '/app/c1/token',
    headers: { authorization: `Basic ${Buffer.from('client:secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'grant_type=client_credentials',
  });
  const headers = { authorization: `Bearer ${(token.json() as { access_token: string }).access_token}` };
  const outbox = () => deps.db.prepare('SELECT count(*) FROM outbox').pluck().get();
  return {
    app,
    outbox,
    get: (path: string) => app.inject({ method: 'GET', url: `/c1/pos${path}`, headers }),
    category: () => app.inject({ method: 'POST', url: '/c1/pos/categories', headers, payload: { categoryCode: 'C1', categoryName: 'Drinks' } }),
  };
}

describe('a server built without modules', () => {
  it('serves its own API, writes no outbox row and has no sync resources', async () => {
    const bare = await served([]);
    expect((await bare.category()).statusCode).toBe(200);
    expect(bare.outbox()).toBe(0);
    expect((await bare.get('/sync/status')).statusCode).toBe(404);
    expect((await bare.get('/webhook_subscriptions')).statusCode).toBe(404);
    await bare.app.close();

    const synced = await served(MODULES);
    expect((await synced.category()).statusCode).toBe(200);
    expect(synced.outbox()).toBe(1);
    expect((await synced.get('/sync/status')).statusCode).toBe(200);
    expect((await synced.get('/webhook_subscriptions')).statusCode).toBe(200);
    await synced.app.close();
  });

  it('offers only a shop on its own at setup: connecting to head office is refused on centralUrl', async () => {
    const deps = freshDeps();
    const app = await buildApp(deps, []);
    const res = await app.inject({
      method: 'POST',
      url: '/setup/head_office',
      remoteAddress: '127.0.0.1',
      payload: { centralUrl: 'http://127.0.0.1:1', contractId: 'c1', node: '5', secret: 'nsec_x' },
    });
    expect(problem(res, 400)).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: '[centralUrl] this server was started without sync: it cannot connect to head office',
    });
    expect(deps.db.prepare('SELECT count(*) FROM contracts').pluck().get()).toBe(0);
    await app.close();
  });

  it('has no module commands: link is an unknown command, and --help lists none of them', () => {
    const line = ['link', '--central', 'https://hq.example', '--contract', 'c1', '--node', '3', '--secret', 's'];
    expect(() => parseCommand(['webhook', 'list', '--contract', 'c1'], {})).toThrow(new UsageError('unknown command "webhook list"; run pos-backoffice --help'));
    expect(() => parseCommand(line, {})).toThrow(UsageError);
    expect(parseCommand(line, {}, MODULES)).toMatchObject({ name: 'link', contract: 'c1', node: 3 });
    expect(usage([])).not.toMatch(/webhook add|node add|link --central|sync status|EVENTS/);
    expect(usage(MODULES)).toMatch(/staff-password set[\s\S]*webhook add[\s\S]*sync dead-letters[\s\S]*backup[\s\S]*EVENTS[\s\S]*PLAN:/);
  });
});

describe('composing modules', () => {
  const command = (name: string, options: Record<string, { type: 'string' | 'boolean' }>): ServerModule => ({
    name: 'extra',
    cli: { commands: [{ name, usage: name, options, parse: () => ({}), run: () => {} }] },
  });

  it('refuses a module command named like another command', () => {
    expect(() => parseCommand(['help'], {}, [command('seed', {})])).toThrow('two commands are named "seed"');
    expect(() => parseCommand(['help'], {}, [...MODULES, command('link', {})])).toThrow('two commands are named "link"');
  });

  it('refuses a module option of a name the server takes with another type', () => {
    expect(() => parseCommand(['help'], {}, [command('extra go', { port: { type: 'boolean' } })])).toThrow('--port of "extra go" is a boolean, elsewhere a string');
  });
});

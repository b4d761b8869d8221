import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommand, USAGE, UsageError } from '../helpers/modules.js';
import { openDeps } from '../../server/deps.js';
import { testDatabase } from '../helpers/engine.js';

/** Issue 25: `serve`'s options for head office's receiver allow-list and rate limits, and their environment variables. */
const parse = (line: string, env: NodeJS.ProcessEnv = {}) => parseCommand(line.split(' ').filter(Boolean), env);
const usage = (line: string, env: NodeJS.ProcessEnv = {}) => {
  try {
    parse(line, env);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`no usage error for "${line}"`);
};

describe('serve: --webhook-allow and the rate limits', () => {
  it('flags, or the environment; flags win; none given leaves the role’s defaults', () => {
    expect(parse('serve --role central --webhook-allow 10.20.0.0/16,hooks.internal --rate-reads 100 --rate-writes 0 --rate-sync 30 --rate-limit-shared')).toMatchObject({
      role: 'central',
      webhookAllow: ['10.20.0.0/16', 'hooks.internal'],
      rateLimits: { reads: 100, writes: 0, syncPerNode: 30, shared: true },
    });
    const env = { POS_WEBHOOK_ALLOW: '127.0.0.1 fd00::/8', POS_RATE_READS: '60', POS_RATE_WRITES: '25', POS_RATE_SYNC: '80', POS_RATE_LIMIT_SHARED: '1' };
    expect(parse('serve --role central', env)).toMatchObject({
      webhookAllow: ['127.0.0.1', 'fd00::/8'],
      rateLimits: { reads: 60, writes: 25, syncPerNode: 80, shared: true },
    });
    expect(parse('serve --rate-reads 5 --webhook-allow hooks.internal', env)).toMatchObject({ webhookAllow: ['hooks.internal'], rateLimits: { reads: 5, writes: 25 } });
    const plain = parse('serve --role central');
    expect('webhookAllow' in plain || 'rateLimits' in plain).toBe(false);
    expect(USAGE).toContain('--webhook-allow, env POS_WEBHOOK_ALLOW');
  });

  it('a bad entry or count is a usage error naming it', () => {
    expect(usage('serve --webhook-allow 10.0.0.0/40')).toBe('--webhook-allow: "10.0.0.0/40" is not a CIDR: the prefix length must be 0 to 32');
    expect(usage('serve', { POS_WEBHOOK_ALLOW: 'http://x' })).toBe('--webhook-allow: "http://x" is neither a CIDR, an IP address nor a host name');
    expect(usage('serve --rate-reads many')).toBe('--rate-reads must be an integer from 0 to 999999 (0: no limit), got "many"');
    expect(usage('serve', { POS_RATE_WRITES: '-1' })).toBe('--rate-writes must be an integer from 0 to 999999 (0: no limit), got "-1"');
  });

  it('openDeps refuses a bad allow-list before it opens anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pos-allow-'));
    // Head office's database: its SQLite file, or PostgreSQL under POS_TEST_ENGINE=postgres.
    const database = await testDatabase();
    const engine = database.postgresUrl ? { postgresUrl: database.postgresUrl } : {};
    try {
      expect(() => openDeps({ file: join(dir, 'pos.sqlite'), ...engine, role: 'central', webhookAllow: ['10.0.0.0/99'] })).toThrow('"10.0.0.0/99" is not a CIDR');
      const deps = openDeps({ file: join(dir, 'pos.sqlite'), ...engine, role: 'central', webhookAllow: ['10.0.0.0/8'], rateLimits: { reads: 7 } });
      expect([deps.config.receivers.allow, deps.config.rateLimits]).toEqual([['10.0.0.0/8'], { reads: 7, writes: 20, syncPerNode: 50, windowMs: 1000, shared: false }]);
      deps.db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});

import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../server/clock.js';
import type { AppDeps } from '../../../server/deps.js';
import { DatabaseLoginAttempts, type TakenAttempt } from '../../../server/platform/auth/login-attempts.js';
import { hashPasswordSync } from '../../../server/platform/auth/password.js';
import { AuthRepo } from '../../../server/platform/auth/repo.js';
import { StaffLoginRepo } from '../../../server/platform/auth/staff-logins.js';
import { ContractRepo } from '../../../server/platform/contracts/repo.js';
import { ALL_SCOPES } from '../../../server/platform/http/scopes.js';
import { buildApp } from '../../helpers/modules.js';
import { centralsOnOneDatabase, type CentralsOnOneDatabase } from '../../helpers/one-database.js';

/**
 * Issue 24: the login throttle of several central processes on one database counts in it
 * (serve --rate-limit-shared). Two real apps, each with its own connection (and on PostgreSQL its
 * own data dir): failed logins spread over both are refused at the limit together, in sequence
 * and in parallel, and a right password gives its attempt back in its own window only.
 */
const CONTRACT = 'throttle-contract';
const PASSWORD = 'correct horse 1';
const SECRET = 's'.repeat(32);
const T0 = Date.parse('2026-03-01T09:00:00Z');

let centrals: CentralsOnOneDatabase | undefined;
let apps: FastifyInstance[] = [];

afterEach(async () => {
  for (const app of apps) await app.close();
  await centrals?.close();
  [centrals, apps] = [undefined, []];
});

async function twoProcesses(clock: FixedClock, loginThrottle: AppDeps['config']['loginThrottle']): Promise<{ one: AppDeps; two: AppDeps }> {
  centrals = await centralsOnOneDatabase('pos-throttle-');
  const options = { clock, checkResponses: true, loginThrottle, rateLimits: { shared: true } };
  return { one: centrals.open(options), two: centrals.open(options) };
}

describe('the login throttle of several central processes on one database', () => {
  it('counts failed logins spread over both: refused at the limit together, in sequence and in parallel; the window ends for both', async () => {
    const clock = new FixedClock(new Date(T0));
    const { one, two } = await twoProcesses(clock, { perUsername: 4, perAddress: 100, windowMs: 60_000 });
    new ContractRepo(one.db, one.writer, clock).create({ contractId: CONTRACT, name: 'Throttle', plan: 'premium', timeZone: 'Asia/Tokyo' });
    new AuthRepo(one.db, one.writer, clock).createClient({ clientId: 'c1', contractId: CONTRACT, secret: SECRET, scopes: ALL_SCOPES });
    apps.push(await buildApp(one), await buildApp(two));
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    const basic = `Basic ${Buffer.from(`c1:${SECRET}`).toString('base64')}`;
    const form = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };
    const token = (await a.inject({ method: 'POST', url: `/app/${CONTRACT}/token`, headers: form, payload: 'grant_type=client_credentials' })).json().access_token as string;
    const logins = new StaffLoginRepo(one.db, one.writer, clock);
    for (const code of ['S001', 'S002', 'S003']) {
      const res = await a.inject({ method: 'POST', url: `/${CONTRACT}/pos/staffs`, headers: { authorization: `Bearer ${token}` }, payload: { staffName: `Staff ${code}`, staffCode: code } });
      expect(res.statusCode, res.body).toBe(200);
      logins.set(CONTRACT, res.json().staffId as string, hashPasswordSync(PASSWORD), []);
    }
    const login = (app: FastifyInstance, username: string, password: string) =>
      app.inject({
        method: 'POST',
        url: `/app/${CONTRACT}/token`,
        remoteAddress: '192.0.2.10',
        headers: form,
        payload: `grant_type=password&username=${username}&password=${encodeURIComponent(password)}`,
      });

    // In sequence, alternating: four failures between them, then both refuse, even the right password.
    const failures = [];
    for (const app of [a, b, a, b]) failures.push((await login(app, 'S001', 'wrong password')).statusCode);
    expect(failures).toEqual([400, 400, 400, 400]);
    for (const app of [a, b]) {
      const refused = await login(app, 'S001', PASSWORD);
      expect([refused.statusCode, refused.headers['retry-after'], refused.json().error]).toEqual([429, '60', 'too_many_attempts']);
    }

    // In parallel, ten guesses spread over both: four are judged, six refused, whatever the interleaving.
    const parallel = await Promise.all(Array.from({ length: 10 }, (_, i) => login(i % 2 ? a : b, 'S002', `guess ${i}`)));
    expect(parallel.map((r) => r.statusCode).sort()).toEqual([400, 400, 400, 400, 429, 429, 429, 429, 429, 429]);

    // A right password gives its attempt back: S003 fails three times through B, logs in through A,
    // and may still fail once more through B before it is refused.
    for (let i = 0; i < 3; i++) expect((await login(b, 'S003', 'wrong password')).statusCode).toBe(400);
    expect((await login(a, 'S003', PASSWORD)).statusCode).toBe(200);
    expect((await login(b, 'S003', 'wrong password')).statusCode).toBe(400);
    expect((await login(a, 'S003', 'wrong password')).statusCode).toBe(429);

    // Stored with the NUL between contract and username written \0 (PostgreSQL's text holds no NUL).
    const counters = one.db.prepare("SELECT key, attempts FROM login_attempt_counters WHERE key LIKE 'username:%' ORDER BY key").all();
    expect(counters).toEqual([
      { key: `username:${CONTRACT}\\0S001`, attempts: 4 },
      { key: `username:${CONTRACT}\\0S002`, attempts: 4 },
      { key: `username:${CONTRACT}\\0S003`, attempts: 4 },
    ]);

    // The window ends for both processes at once.
    clock.advance(60_000);
    expect((await login(b, 'S001', PASSWORD)).statusCode).toBe(200);
    expect((await login(a, 'S002', PASSWORD)).statusCode).toBe(200);
  });

  it('the database counters: take counts only below max, a refusal says how long is left, a give-back never reaches into a later window', async () => {
    const clock = new FixedClock(new Date(T0));
    const { one, two } = await twoProcesses(clock, { perUsername: 2, perAddress: 2, windowMs: 1000 });
    const [x, y] = [new DatabaseLoginAttempts(one), new DatabaseLoginAttempts(two)];
    const first = (await x.take('k', 2, 1000)) as TakenAttempt;
    expect(first).toEqual({ taken: true, key: 'k', windowStart: T0 });
    clock.advance(400);
    expect(await y.take('k', 2, 1000)).toEqual({ taken: true, key: 'k', windowStart: T0 });
    expect(await x.take('k', 2, 1000)).toEqual({ taken: false, retryAfterMs: 600 });
    expect(one.db.prepare("SELECT window_start, attempts FROM login_attempt_counters WHERE key = 'k'").get()).toEqual({ window_start: T0, attempts: 2 });
    // A new window, begun by its first attempt; the first window's attempt handed back now takes nothing from it.
    clock.advance(600);
    expect(await y.take('k', 2, 1000)).toEqual({ taken: true, key: 'k', windowStart: T0 + 1000 });
    await x.giveBack(first);
    expect(one.db.prepare("SELECT window_start, attempts FROM login_attempt_counters WHERE key = 'k'").get()).toEqual({ window_start: T0 + 1000, attempts: 1 });
    // Given back in its own window, the last attempt leaves no row; a limit of 0 refuses without counting.
    const last = (await x.take('j', 2, 1000)) as TakenAttempt;
    await y.giveBack(last);
    expect(one.db.prepare("SELECT COUNT(*) FROM login_attempt_counters WHERE key = 'j'").pluck().get()).toBe(0);
    expect(await x.take('z', 0, 1000)).toEqual({ taken: false, retryAfterMs: 1000 });
    // Ended windows are purged (at most once a minute per process).
    clock.advance(60_000);
    await x.take('w', 2, 1000);
    expect(one.db.prepare('SELECT key FROM login_attempt_counters ORDER BY key').pluck().all()).toEqual(['w']);
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_THROTTLE } from '../../server/deps.js';
import { hashPasswordSync } from '../../server/resources/auth/password.js';
import { StaffLoginRepo } from '../../server/resources/auth/staff-logins.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const PASSWORD = 'correct horse 1';
const A = '192.0.2.10';
const B = '192.0.2.20';

describe('failed password logins are throttled per username and per client address', () => {
  let t: TestApp;
  let client: { clientId: string; clientSecret: string };

  beforeEach(async () => {
    t = await makeTestApp({ plan: 'premium' });
    client = t.createClient(t.contractId);
    const logins = new StaffLoginRepo(t.deps.db, t.deps.writer, t.clock);
    for (const code of ['S001', 'S002']) {
      const staffId = (await t.api('POST', '/staffs', { staffName: `Staff ${code}`, staffCode: code })).json().staffId as string;
      logins.set(t.contractId, staffId, hashPasswordSync(PASSWORD), []);
    }
  });
  afterEach(() => t.close());

  const login = (username: string, password: string, remoteAddress = A) =>
    t.app.inject({
      method: 'POST',
      url: `/app/${t.contractId}/token`,
      remoteAddress,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      },
      payload: `grant_type=password&username=${username}&password=${encodeURIComponent(password)}`,
    });

  const expectThrottled = async (username: string, password: string, remoteAddress = A) => {
    const res = await login(username, password, remoteAddress);
    const body = problem(res, 429);
    expect(body).toEqual({
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: expect.stringMatching(/^too many failed logins; retry in \d+ seconds$/),
      error: 'too_many_attempts',
      error_description: body.detail,
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    return res;
  };

  it('by default the 11th wrong password of a username in 15 minutes is a 429 with Retry-After', async () => {
    expect(DEFAULT_LOGIN_THROTTLE).toEqual({ perUsername: 10, perAddress: 30, windowMs: 15 * 60 * 1000 });
    for (let i = 0; i < 10; i++) expect(problem(await login('S001', `wrong-${i}-pass`), 400).error).toBe('invalid_grant');
    const res = await expectThrottled('S001', 'wrong-10-pass');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
  });

  it('a throttled username refuses even its right password until the window ends; other usernames and addresses go on', async () => {
    t.deps.config.loginThrottle = { perUsername: 3, perAddress: 100, windowMs: 500 };
    for (let i = 0; i < 3; i++) problem(await login('S001', 'wrong password'), 400);
    await expectThrottled('S001', PASSWORD);
    await expectThrottled('S001', PASSWORD, B);
    expect((await login('S002', PASSWORD)).statusCode).toBe(200);
    expect((await login('S002', PASSWORD, B)).statusCode).toBe(200);
    await sleep(600);
    expect((await login('S001', PASSWORD)).statusCode).toBe(200);
  });

  it('a throttled address refuses every username from it; other addresses go on', async () => {
    t.deps.config.loginThrottle = { perUsername: 100, perAddress: 4, windowMs: 500 };
    for (const username of ['S001', 'S002', 'nobody', 'admin']) problem(await login(username, 'wrong password'), 400);
    await expectThrottled('S002', PASSWORD);
    await expectThrottled('someone-new', 'any password');
    expect((await login('S001', PASSWORD, B)).statusCode).toBe(200);
    await sleep(600);
    expect((await login('S002', PASSWORD)).statusCode).toBe(200);
  });

  it('successful logins are never counted', async () => {
    t.deps.config.loginThrottle = { perUsername: 2, perAddress: 2, windowMs: 60_000 };
    for (let i = 0; i < 8; i++) expect((await login('S001', PASSWORD)).statusCode).toBe(200);
    // One failure, then success, stays under the limit.
    problem(await login('S001', 'wrong password'), 400);
    expect((await login('S001', PASSWORD)).statusCode).toBe(200);
  });

  it('client credentials grants are not throttled by failed password logins', async () => {
    t.deps.config.loginThrottle = { perUsername: 1, perAddress: 1, windowMs: 60_000 };
    problem(await login('S001', 'wrong password'), 400);
    await expectThrottled('S001', PASSWORD);
    const res = await t.app.inject({
      method: 'POST',
      url: `/app/${t.contractId}/token`,
      remoteAddress: A,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=client_credentials&client_id=${client.clientId}&client_secret=${client.clientSecret}`,
    });
    expect(res.statusCode).toBe(200);
  });
});

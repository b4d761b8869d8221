import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../server/clock.js';
import { DEFAULT_LOGIN_THROTTLE } from '../../../server/deps.js';
import { MemoryLoginAttempts, type TakenAttempt } from '../../../server/platform/auth/login-attempts.js';
import { hashPasswordSync } from '../../../server/platform/auth/password.js';
import { StaffLoginRepo } from '../../../server/platform/auth/staff-logins.js';
import { makeTestApp, problem, T0, type TestApp } from '../../helpers/app.js';

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
    // The clock stands still, so the whole window is left.
    expect(res.headers['retry-after']).toBe(String(15 * 60));
  });

  it('a throttled username refuses even its right password until the window ends; other usernames and addresses go on', async () => {
    t.deps.config.loginThrottle = { perUsername: 3, perAddress: 100, windowMs: 500 };
    for (let i = 0; i < 3; i++) problem(await login('S001', 'wrong password'), 400);
    await expectThrottled('S001', PASSWORD);
    await expectThrottled('S001', PASSWORD, B);
    expect((await login('S002', PASSWORD)).statusCode).toBe(200);
    expect((await login('S002', PASSWORD, B)).statusCode).toBe(200);
    t.clock.advance(600);
    expect((await login('S001', PASSWORD)).statusCode).toBe(200);
  });

  it('a throttled address refuses every username from it; other addresses go on', async () => {
    t.deps.config.loginThrottle = { perUsername: 100, perAddress: 4, windowMs: 500 };
    for (const username of ['S001', 'S002', 'nobody', 'admin']) problem(await login(username, 'wrong password'), 400);
    await expectThrottled('S002', PASSWORD);
    await expectThrottled('someone-new', 'any password');
    expect((await login('S001', PASSWORD, B)).statusCode).toBe(200);
    t.clock.advance(600);
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

describe('guesses sent in parallel are counted before any password is checked', () => {
  let t: TestApp;
  let client: { clientId: string; clientSecret: string };
  let port: number;

  beforeEach(async () => {
    t = await makeTestApp({ plan: 'premium' });
    client = t.createClient(t.contractId);
    const staffId = (await t.api('POST', '/staffs', { staffName: 'Staff S001', staffCode: 'S001' })).json().staffId as string;
    new StaffLoginRepo(t.deps.db, t.deps.writer, t.clock).set(t.contractId, staffId, hashPasswordSync(PASSWORD), []);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterEach(() => t.close());

  /** One login over real HTTP (each its own connection, so all of a batch are in flight at once). */
  const login = async (username: string, password: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/app/${t.contractId}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      },
      body: `grant_type=password&username=${username}&password=${encodeURIComponent(password)}`,
    });
    return { status: res.status, type: res.headers.get('content-type'), retryAfter: res.headers.get('retry-after'), body: await res.json() };
  };
  type Answer = Awaited<ReturnType<typeof login>>;
  const all = (logins: [string, string][]) => Promise.all(logins.map(([username, password]) => login(username, password)));
  const wrong = (n: number, username = 'S001') => Array.from({ length: n }, (_, i): [string, string] => [username, `wrong-${i}-pass`]);
  const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

  const INCORRECT = { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'the username or password is incorrect', error: 'invalid_grant', error_description: 'the username or password is incorrect' };
  // The clock stands still, so a refusal is told to wait the whole window.
  const throttled = (seconds: number) => ({
    type: 'about:blank',
    title: 'Too Many Requests',
    status: 429,
    detail: `too many failed logins; retry in ${seconds} seconds`,
    error: 'too_many_attempts',
    error_description: `too many failed logins; retry in ${seconds} seconds`,
  });
  const expectThrottled = (answer: Answer, seconds: number) => {
    expect(answer).toEqual({ status: 429, type: 'application/problem+json; charset=utf-8', retryAfter: String(seconds), body: throttled(seconds) });
  };

  it('40 wrong passwords of one username at once: 10 are judged, 30 are 429 with Retry-After', async () => {
    const answers = await all(wrong(40));
    expect(count(answers, 400)).toBe(10);
    expect(count(answers, 429)).toBe(30);
    for (const a of answers.filter((a) => a.status === 400)) expect(a.body).toEqual(INCORRECT);
    for (const a of answers.filter((a) => a.status === 429)) expectThrottled(a, 15 * 60);
    // The username stays blocked, for its right password too.
    expectThrottled(await login('S001', PASSWORD), 15 * 60);
  });

  it('40 wrong logins of different usernames from one address at once: 30 are judged, 10 are 429', async () => {
    const answers = await all(Array.from({ length: 40 }, (_, i): [string, string] => [`guess${i}`, 'wrong password']));
    expect(count(answers, 400)).toBe(30);
    expect(count(answers, 429)).toBe(10);
    for (const a of answers.filter((a) => a.status === 429)) expectThrottled(a, 15 * 60);
  });

  it('a right password among parallel guesses logs in and is not counted: the limit still cuts the next batch', async () => {
    const first = await all([...wrong(9), ['S001', PASSWORD]]);
    expect(first.map((a) => a.status).sort()).toEqual([...Array(1).fill(200), ...Array(9).fill(400)]);
    expect(first.find((a) => a.status === 200)!.body).toMatchObject({ token_type: 'Bearer' });
    // Nine failures are counted, so one more guess of the next five is judged.
    const next = await all(wrong(5));
    expect(count(next, 400)).toBe(1);
    expect(count(next, 429)).toBe(4);
    for (const a of next.filter((a) => a.status === 429)) expectThrottled(a, 15 * 60);
  });

  it('a right password among 39 guesses is judged like them or refused, never let past the limit', async () => {
    const answers = await all([...wrong(20), ['S001', PASSWORD], ...wrong(19)]);
    const right = answers[20]!;
    const guesses = answers.filter((a) => a !== right);
    expect(count(guesses, 400) + count(guesses, 429)).toBe(39);
    // Which of them reached the counter first is the network's choice: the right one may hold
    // one of the 10 places while it is checked (then 9 or 10 guesses are judged), or come late.
    if (right.status === 200) expect([9, 10]).toContain(count(guesses, 400));
    else {
      expectThrottled(right, 15 * 60);
      expect(count(guesses, 400)).toBe(10);
    }
  });
});


describe('the memory counters of login attempts', () => {
  it('count to the limit in a window its first attempt begins; a give-back never reaches into a later window', async () => {
    const clock = new FixedClock(new Date(T0));
    const attempts = new MemoryLoginAttempts(clock);
    const first = await attempts.take('k', 2, 1000);
    expect(first).toEqual({ taken: true, key: 'k', windowStart: Date.parse(T0) });
    clock.advance(400);
    expect((await attempts.take('k', 2, 1000)).taken).toBe(true);
    expect(await attempts.take('k', 2, 1000)).toEqual({ taken: false, retryAfterMs: 600 });
    clock.advance(600);
    const later = await attempts.take('k', 2, 1000);
    expect(later).toEqual({ taken: true, key: 'k', windowStart: Date.parse(T0) + 1000 });
    // The first window's attempt is not taken back from the second one.
    await attempts.giveBack(first as TakenAttempt);
    expect((await attempts.take('k', 2, 1000)).taken).toBe(true);
    expect((await attempts.take('k', 2, 1000)).taken).toBe(false);
    await attempts.giveBack(later as TakenAttempt);
    expect((await attempts.take('k', 2, 1000)).taken).toBe(true);
  });
});

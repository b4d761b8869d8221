import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../server/platform/http/scopes.js';
import { hashPasswordSync } from '../../server/platform/auth/password.js';
import { StaffLoginRepo } from '../../server/platform/auth/staff-logins.js';
import { UI_CLIENT_ID } from '../../server/platform/auth/ui-client.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const FORM = 'application/x-www-form-urlencoded';
const PASSWORD = 'correct horse 1';

/** The back-office UI's public client: staff code + password, no client secret (RFC 6749 §2.1, §4.3). */
describe('the back-office UI public client (backoffice-ui)', () => {
  let t: TestApp;
  let staffId: string;

  beforeEach(async () => {
    t = await makeTestApp({ plan: 'premium' });
    staffId = (await t.api('POST', '/staffs', { staffName: 'Hanako', staffCode: 'S001' })).json().staffId;
    new StaffLoginRepo(t.deps.db, t.deps.writer, t.clock).set(t.contractId, staffId, hashPasswordSync(PASSWORD), ['staff_view']);
  });
  afterEach(() => t.close());

  const tokenRequest = (form: string, contractId = t.contractId, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/app/${contractId}/token`, headers: { 'content-type': FORM, ...headers }, payload: form });
  const login = (password = PASSWORD) => `grant_type=password&client_id=${UI_CLIENT_ID}&username=S001&password=${encodeURIComponent(password)}`;

  it('logs a staff member in without a client secret; the token has every scope and the staff rights still bind', async () => {
    const res = await tokenRequest(login());
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { access_token: string; scope: string; token_type: string };
    expect(body.token_type).toBe('Bearer');
    expect(body.scope.split(' ').sort()).toEqual([...ALL_SCOPES].sort());
    expect(res.headers['cache-control']).toBe('no-store');
    // staff_view reads staff; writing a staff member needs an edit right the login lacks.
    expect((await t.api('GET', `/staffs/${staffId}`, undefined, body.access_token)).statusCode).toBe(200);
    const patch = await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'X' }, body.access_token);
    expect(problem(patch, 403).detail).toMatch(/^\[right\]/);
    // A second login reuses the contract's client row.
    expect((await tokenRequest(login())).statusCode).toBe(200);
    const rows = t.deps.db.prepare("SELECT client_id FROM api_clients WHERE client_id LIKE 'backoffice-ui%'").pluck().all();
    expect(rows).toEqual([`${UI_CLIENT_ID}:${t.contractId}`]);
  });

  it('refuses client_credentials for the public client (400 unauthorized_client), and a missing grant_type too', async () => {
    const res = await tokenRequest(`grant_type=client_credentials&client_id=${UI_CLIENT_ID}`);
    expect(problem(res, 400)).toMatchObject({ error: 'unauthorized_client' });
    expect(problem(await tokenRequest(`client_id=${UI_CLIENT_ID}`), 400).error).toBe('unauthorized_client');
    // Nor may anyone use the contract's UI client row as a confidential client.
    await tokenRequest(login());
    const basic = `Basic ${Buffer.from(`${UI_CLIENT_ID}:${t.contractId}:anything`).toString('base64')}`;
    expect(problem(await tokenRequest('grant_type=client_credentials', t.contractId, { authorization: basic }), 401).error).toBe('invalid_client');
    const rowId = encodeURIComponent(`${UI_CLIENT_ID}:${t.contractId}`);
    expect(problem(await tokenRequest(`grant_type=client_credentials&client_id=${rowId}&client_secret=x`), 401).error).toBe('invalid_client');
  });

  it('answers a wrong password with 400 invalid_grant and an unknown contract with 401 invalid_client', async () => {
    const wrong = problem(await tokenRequest(login('wrong password')), 400);
    expect(wrong).toMatchObject({ error: 'invalid_grant', detail: 'the username or password is incorrect' });
    expect(problem(await tokenRequest(login(), 'no-such-contract'), 401).error).toBe('invalid_client');
  });

  it('a token of the UI client is bound to its contract', async () => {
    t.addContract('other', 'premium');
    const token = (await tokenRequest(login())).json().access_token as string;
    const res = await t.app.inject({ method: 'GET', url: '/other/pos/stores', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
  });
});

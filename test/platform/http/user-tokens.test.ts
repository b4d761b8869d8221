import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Right } from '../../../server/platform/http/rights.js';
import { hashPasswordSync, verifyPassword } from '../../../server/platform/auth/password.js';
import { StaffLoginRepo } from '../../../server/platform/auth/staff-logins.js';
import { makeTestApp, problem, type TestApp } from '../../helpers/app.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';
const PASSWORD = 'correct horse 1';
const bare = (title: string, detail: string) => ({ type: 'about:blank', title, detail });
const EDIT = 'one of the rights staff_edit_all, staff_edit_excluding_salary';

describe('user tokens (password grant) and rights', () => {
  let t: TestApp;
  let client: { clientId: string; clientSecret: string };
  let logins: StaffLoginRepo;
  let staffId: string;

  beforeEach(async () => {
    t = await makeTestApp({ plan: 'premium' });
    client = t.createClient(t.contractId, ['pos.staffs:read', 'pos.staffs:write', 'pos.stores:read']);
    logins = new StaffLoginRepo(t.deps.db, t.deps.writer, t.clock);
    staffId = (await t.api('POST', '/staffs', { staffName: 'Hanako', staffCode: 'S001' })).json().staffId;
  });
  afterEach(() => t.close());

  const tokenRequest = (form: string, headers: Record<string, string> = { authorization: basic(client.clientId, client.clientSecret) }) =>
    t.app.inject({ method: 'POST', url: `/app/${t.contractId}/token`, headers: { 'content-type': FORM, ...headers }, payload: form });
  const login = (rights: Right[], id = staffId) => logins.set(t.contractId, id, hashPasswordSync(PASSWORD), rights);
  const userToken = async (extra = '') => {
    const res = await tokenRequest(`grant_type=password&username=S001&password=${encodeURIComponent(PASSWORD)}${extra}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { access_token: string; scope: string; token_type: string; expires_in: number };
  };

  it('issues a user token for the staff code and password, with the client scopes or the requested subset', async () => {
    login(['staff_view']);
    const all = await userToken();
    expect(all).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'pos.staffs:read pos.staffs:write pos.stores:read' });
    expect((await t.api('GET', `/staffs/${staffId}`, undefined, all.access_token)).statusCode).toBe(200);
    expect((await userToken('&scope=pos.staffs:read')).scope).toBe('pos.staffs:read');
    // A scope the client does not hold narrows the grant (RFC 6749 §3.3, DESIGN §3) instead of failing it.
    const ungranted = await tokenRequest(`grant_type=password&username=S001&password=${encodeURIComponent(PASSWORD)}&scope=pos.products:read pos.staffs:read`);
    expect(ungranted.statusCode).toBe(200);
    expect(ungranted.json().scope).toBe('pos.staffs:read');
    const row = t.deps.db.prepare('SELECT staff_id FROM access_tokens WHERE staff_id IS NOT NULL').all();
    expect(row).toEqual([{ staff_id: Number(staffId) }, { staff_id: Number(staffId) }, { staff_id: Number(staffId) }]);
  });

  it('accepts the client credentials in the form body too, and still requires them', async () => {
    login([]);
    const form = `grant_type=password&username=S001&password=${encodeURIComponent(PASSWORD)}`;
    expect((await tokenRequest(`${form}&client_id=${client.clientId}&client_secret=${client.clientSecret}`, {})).statusCode).toBe(200);
    expect(problem(await tokenRequest(form, {}), 401).error).toBe('invalid_client');
    expect(problem(await tokenRequest(form, { authorization: basic(client.clientId, 'wrong') }), 401).error).toBe('invalid_client');
  });

  it('one 400 invalid_grant for a wrong password, an unknown user and a staff member without a password', async () => {
    login(['staff_edit_all']);
    await t.api('POST', '/staffs', { staffName: 'No login', staffCode: 'S002' });
    const expected = {
      type: 'about:blank', title: 'Bad Request', status: 400, detail: 'the username or password is incorrect',
      error: 'invalid_grant', error_description: 'the username or password is incorrect',
    };
    for (const form of ['username=S001&password=wrong-password', 'username=S999&password=whatever1', `username=S002&password=${encodeURIComponent(PASSWORD)}`]) {
      expect(problem(await tokenRequest(`grant_type=password&${form}`), 400), form).toEqual(expected);
    }
    expect(t.deps.db.prepare('SELECT count(*) AS n FROM access_tokens WHERE staff_id IS NOT NULL').get()).toEqual({ n: 0 });
  });

  it('a staff member of another contract cannot log in here', async () => {
    t.addContract('other', 'premium');
    const other = await t.tokenFor({ contractId: 'other' });
    const created = await t.app.inject({
      method: 'POST', url: '/other/pos/staffs', headers: { authorization: `Bearer ${other}` }, payload: { staffName: 'X', staffCode: 'S777' },
    });
    logins.set('other', created.json().staffId, hashPasswordSync(PASSWORD), ['staff_edit_all']);
    expect(problem(await tokenRequest(`grant_type=password&username=S777&password=${encodeURIComponent(PASSWORD)}`), 400).error).toBe('invalid_grant');
  });

  it('a staff member can log in up to the termination date (contract zone), not after', async () => {
    login(['staff_view']);
    await t.api('PATCH', `/staffs/${staffId}`, { terminationDate: '2026-11-22' }); // today in Tokyo at T0
    await userToken();
    await t.api('PATCH', `/staffs/${staffId}`, { terminationDate: '2026-11-21' });
    expect(problem(await tokenRequest(`grant_type=password&username=S001&password=${encodeURIComponent(PASSWORD)}`), 400)).toMatchObject({
      error: 'invalid_grant', detail: 'the staff member left on 2026-11-21',
    });
  });

  it('400 invalid_request without username or password', async () => {
    expect(problem(await tokenRequest('grant_type=password&password=x'), 400)).toMatchObject({ error: 'invalid_request', detail: '[username] is required' });
    expect(problem(await tokenRequest('grant_type=password&username=S001'), 400)).toMatchObject({ error: 'invalid_request', detail: '[password] is required' });
  });

  it('stores the password as a salted scrypt hash, never in clear', async () => {
    login([]);
    logins.set(t.contractId, staffId, hashPasswordSync(PASSWORD)); // same password again: a new salt
    const rows = t.deps.db.prepare('SELECT password_hash FROM staff_logins').all() as { password_hash: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.password_hash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(JSON.stringify(t.deps.db.prepare('SELECT * FROM staff_logins').all())).not.toContain(PASSWORD);
    expect(hashPasswordSync(PASSWORD)).not.toBe(hashPasswordSync(PASSWORD));
    expect(await verifyPassword(PASSWORD, rows[0]!.password_hash)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}x`, rows[0]!.password_hash)).toBe(false);
    expect(await verifyPassword(PASSWORD, null)).toBe(false);
    expect(await verifyPassword(PASSWORD, 'garbage')).toBe(false);
  });

  describe('rights on the staff routes', () => {
    it('PATCH /staffs needs staff_edit_all or staff_edit_excluding_salary: 403 (bare) naming them otherwise', async () => {
      login(['staff_view']);
      const { access_token: viewer } = await userToken();
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'B' }, viewer), 403)).toEqual(
        bare('Forbidden', `[right] the user token lacks ${EDIT}`),
      );
      expect(problem(await t.api('POST', '/staffs', { staffName: 'B' }, viewer), 403).detail).toBe(`[right] the user token lacks ${EDIT}`);
      for (const right of ['staff_edit_all', 'staff_edit_excluding_salary'] as const) {
        login([right]);
        const { access_token: editor } = await userToken();
        const res = await t.api('PATCH', `/staffs/${staffId}`, { staffName: right }, editor);
        expect(res.statusCode, right).toBe(200);
        expect((await t.api('GET', `/staffs/${staffId}`, undefined, editor)).json().staffName).toBe(right);
      }
    });

    it('reading staff needs staff_view or an edit right', async () => {
      login([]);
      const { access_token: none } = await userToken();
      expect(problem(await t.api('GET', '/staffs', undefined, none), 403).detail).toBe(
        '[right] the user token lacks one of the rights staff_view, staff_edit_all, staff_edit_excluding_salary',
      );
      expect((await t.api('GET', '/stores', undefined, none)).statusCode).toBe(200); // routes without rights: scopes only
    });

    it('the order of checks is token, scope, plan, right, then validation', async () => {
      login([]);
      const { access_token: readOnly } = await userToken('&scope=pos.staffs:read');
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { bogus: 1 }, readOnly), 403).detail).toBe('[scope] the token lacks the scope pos.staffs:write');
      const { access_token: none } = await userToken();
      expect(problem(await t.api('PATCH', `/staffs/${staffId}`, { bogus: 1 }, none), 403).detail).toBe(`[right] the user token lacks ${EDIT}`);
      expect(problem(await t.api('PATCH', '/staffs/999', { staffName: 'X' }, none), 403).detail).toBe(`[right] the user token lacks ${EDIT}`);
    });

    it('app tokens are limited by scope only', async () => {
      expect((await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'By app' })).statusCode).toBe(200);
    });
  });

  describe('rights and passwords change under issued tokens', () => {
    it('a rights change applies to a token already issued, at once', async () => {
      login(['staff_view']);
      const { access_token: token } = await userToken();
      expect((await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'B' }, token)).statusCode).toBe(403);
      logins.setRights(t.contractId, staffId, ['staff_edit_excluding_salary']);
      expect((await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'B' }, token)).statusCode).toBe(200);
      logins.setRights(t.contractId, staffId, []);
      expect((await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'C' }, token)).statusCode).toBe(403);
    });

    it('a rights change written by another process is seen within 5 s', async () => {
      login(['staff_edit_all']);
      const { access_token: token } = await userToken();
      expect((await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'B' }, token)).statusCode).toBe(200);
      t.deps.db.prepare("UPDATE staff_logins SET rights = 'staff_view'").run();
      t.clock.advance(4999);
      expect((await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'C' }, token)).statusCode).toBe(200);
      t.clock.advance(1);
      expect((await t.api('PATCH', `/staffs/${staffId}`, { staffName: 'D' }, token)).statusCode).toBe(403);
    });

    it('a new password revokes the user tokens issued under the old one, not app tokens', async () => {
      login(['staff_edit_all']);
      const { access_token: token } = await userToken();
      expect((await t.api('GET', '/staffs', undefined, token)).statusCode).toBe(200);
      logins.set(t.contractId, staffId, hashPasswordSync('another password'));
      expect(problem(await t.api('GET', '/staffs', undefined, token), 401).detail).toBe('the access token is not valid');
      expect((await t.api('GET', '/staffs')).statusCode).toBe(200);
      expect(logins.find(t.contractId, staffId)?.rights).toEqual(['staff_edit_all']); // rights kept when not given
      expect(problem(await tokenRequest(`grant_type=password&username=S001&password=${encodeURIComponent(PASSWORD)}`), 400).error).toBe('invalid_grant');
      expect((await tokenRequest('grant_type=password&username=S001&password=another%20password')).statusCode).toBe(200);
    });

    it('the username follows the staff code', async () => {
      login(['staff_edit_all']);
      await t.api('PATCH', `/staffs/${staffId}`, { staffCode: 'S100' });
      expect(problem(await tokenRequest(`grant_type=password&username=S001&password=${encodeURIComponent(PASSWORD)}`), 400).error).toBe('invalid_grant');
      expect((await tokenRequest(`grant_type=password&username=S100&password=${encodeURIComponent(PASSWORD)}`)).statusCode).toBe(200);
    });
  });
});
